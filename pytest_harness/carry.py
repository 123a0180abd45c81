"""Carrying: a session does not re-run a test an earlier session proved on byte-identical inputs.

`--harness-carry=PATH::DIGEST[::LABEL]` (repeatable) names an earlier evidence document, the
sha256 of its bytes (what the plugin sent the harness when that session ended) and how to cite it
(default PATH). A collected test is carried — deselected here, its earlier entry copied into this
document with `carried_from: LABEL` — only when all of this holds, else it runs:

- the document's bytes have DIGEST, it is complete, trusted (no forgery), has no collection errors,
  and holds a read set (read_set.py) without an `unsafe` reason (no process spawned, nothing in the
  workspace written, no database file opened, sys.path not changed by a test);
- its `carry_key` equals this session's: run id, expected requirement ids, requirement -> files map,
  id pattern, plugin/pytest/python versions and interpreter, the pytest options that can change an
  outcome, the installed pytest plugins, the environment;
- this session's sys.path (after collection) is the one it ran with;
- every file it read hashes the same now (absent ones are still absent), every directory its code
  listed lists the same, every glob matches the same, the set of conftest.py files is the same;
- no entry appeared in or vanished from a directory the import system searched whose module name
  (under the workspace's sys.path roots) it looked up (e.g. a new `json.py` at the root);
- no non-Python file was added or removed since (os.stat is not audited: an existence check on a
  data file would be invisible);
- the test passed there (failures, errors, skips, xfails always run again), with the same
  requirement ids its markers give now.

When several documents hold a test, the last given wins. The new document's read set is its own
joined with the read sets of the documents it carried from, so it can itself be carried from.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pytest_harness import read_set
from pytest_harness.snapshot import SKIP_DIRS, changed_files, hash_file

ENV_CARRY = "HARNESS_CARRY"   # "0": neither record read sets nor carry
_SUFFIXES = sorted(importlib.machinery.all_suffixes(), key=len, reverse=True)
# Options that choose what to run or how to show it, never how a test behaves.
_NEUTRAL_OPTIONS = frozenset({
    "file_or_dir", "keyword", "markexpr", "deselect", "ignore", "ignore_glob", "verbose", "quiet", "reportchars",
    "tbstyle", "color", "code_highlight", "showlocals", "durations", "durations_min", "exitfirst", "maxfail",
    "harness_evidence", "harness_digest_fd", "harness_carry", "harness_report", "harness_fail_under",
    "harness_run", "harness_runs_dir", "collectonly", "fulltrace", "no_summary", "no_header", "showcapture",
    "xmlpath", "junitprefix", "resultlog", "report_log", "help", "version", "debug", "override_ini",
    "stepwise", "stepwise_skip", "lf", "failedfirst", "last_failed_no_failures", "newfirst", "cacheshow",
    "cacheclear", "harness_requirements_file", "traceconfig", "verbosity_assertions", "verbosity_test_cases",
})
_VOLATILE_ENV = frozenset({"PYTEST_CURRENT_TEST", "PWD", "OLDPWD", "SHLVL", "_", "HARNESS_EVIDENCE_PATH",
                           "HARNESS_DIGEST_FD", "HARNESS_REPORT", "HARNESS_FAIL_UNDER", "COLUMNS", "LINES",
                           # the harness's sandbox gives every command its own empty temporary and home
                           # directories and a tag for sweeping what it started
                           "TMPDIR", "TEMP", "TMP", "HOME", "HARNESS_SPAWN"})


def enabled() -> bool:
    return os.environ.get(ENV_CARRY, "1").strip() != "0"


@dataclass
class Source:
    label: str
    document: dict | None = None
    refused: str | None = None


@dataclass
class CarryState:
    """What this session carried (nodeid -> entry) and why each source gave nothing, if so."""

    sources: list[Source] = field(default_factory=list)
    carried: dict[str, dict] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)


def parse_spec(value: str) -> tuple[str, str | None, str]:
    """`PATH::DIGEST[::LABEL]` -> (path, digest or None, label)."""
    parts = value.split("::")
    path = parts[0]
    digest = parts[1] if len(parts) > 1 and parts[1] else None
    label = parts[2] if len(parts) > 2 and parts[2] else path
    return path, digest, label


def load_source(value: str, base: Path) -> Source:
    path, digest, label = parse_spec(value)
    if digest is None:
        return Source(label, refused="no digest given (use PATH::sha256:HEX)")
    try:
        data = (base / path).read_bytes()
    except OSError as err:
        return Source(label, refused=f"cannot read it ({err.strerror or err})")
    if "sha256:" + hashlib.sha256(data).hexdigest() != digest:
        return Source(label, refused="its bytes do not have the digest given (changed after its session)")
    try:
        doc = json.loads(data)
    except ValueError:
        return Source(label, refused="not JSON")
    if not isinstance(doc, dict):
        return Source(label, refused="not an evidence document")
    return Source(label, document=doc)


def plugin_label(dist) -> str:
    """`name==version` of a plugin's distribution (pluggy's DistFacade), read from its
    `NAME-VERSION.dist-info` directory's name when it has one: asking for project_name and version
    parses its METADATA twice, ~2 ms each, and the key is computed in every session."""
    name = getattr(getattr(getattr(dist, "_dist", None), "_path", None), "name", "")
    stem = name[: -len(".dist-info")] if isinstance(name, str) and name.endswith(".dist-info") else ""
    project, dash, version = stem.partition("-")
    if project and dash and version and "-" not in version:
        return f"{project}=={version}"
    return f"{dist.project_name}=={dist.version}"


def carry_key(config, settings) -> dict:
    """Everything besides the workspace's files that could change a test's outcome."""
    from pytest_harness import __version__
    import pytest

    # the harness_* settings that matter are in the key resolved (run id, ids, files, id pattern)
    options = {k: repr(v) for k, v in sorted(vars(config.option).items())
               if k not in _NEUTRAL_OPTIONS and not k.startswith("harness_")}
    plugins = sorted({plugin_label(dist) for _, dist in config.pluginmanager.list_plugin_distinfo()})
    env = hashlib.sha256(json.dumps({k: v for k, v in os.environ.items() if k not in _VOLATILE_ENV},
                                    sort_keys=True).encode()).hexdigest()
    return {"run_id": settings.run_id, "expected": settings.expected, "req_files": settings.req_files,
            "id_pattern": settings.id_pattern.pattern, "plugin": __version__, "pytest": pytest.__version__,
            "python": sys.version, "executable": sys.executable, "options": options, "plugins": plugins,
            "env": "sha256:" + env}


def module_names(dir_rel: str, entry: str, roots: list[str]) -> list[str]:
    """The module names an entry of `dir_rel` would be imported as under the sys.path roots."""
    if entry in SKIP_DIRS:
        return []
    stem = next((entry[: -len(s)] for s in _SUFFIXES if entry.endswith(s)), entry)
    if not stem.isidentifier():
        return []
    names = []
    for root in roots:
        if dir_rel == root:
            prefix: list[str] = []
        elif root == "." or dir_rel.startswith(root + "/"):
            prefix = (dir_rel if root == "." else dir_rel[len(root) + 1:]).split("/")
            if dir_rel == ".":
                prefix = []
        else:
            continue
        parts = prefix + ([] if stem == "__init__" else [stem])
        if parts:
            names.append(".".join(parts))
    return names


def _is_conftest(rel: str) -> bool:
    return rel.rsplit("/", 1)[-1] == "conftest.py"


def _importable(rel: str) -> bool:
    return any(rel.endswith(s) for s in _SUFFIXES)


def document_problem(doc: dict, *, key: dict, root: Path, now: dict[str, str], sys_path: list[str]) -> str | None:
    """Why nothing of `doc` may be carried into this session (None: its tests may be, one by one)."""
    reads = doc.get("read_set")
    if doc.get("complete") is not True:
        return "incomplete"
    if not doc.get("trusted", False) or doc.get("forgery"):
        return "untrusted (forgery found)"
    if doc.get("collection_errors"):
        return "it had collection errors"
    if not isinstance(reads, dict) or reads.get("version") != read_set.VERSION:
        return "it holds no read set"
    if reads.get("unsafe"):
        return f"its session is not carriable: {reads['unsafe'][0]}"
    if doc.get("carry_key") != key:
        differs = sorted(k for k in set(key) | set(doc.get("carry_key") or {})
                         if (doc.get("carry_key") or {}).get(k) != key.get(k))
        return f"different settings ({', '.join(differs) or 'carry key'})"
    if reads.get("sys_path") != sys_path:
        return "a different sys.path"
    files = reads.get("files") or {}
    for rel, digest in files.items():
        current = now.get(rel) or hash_file(root / rel) or read_set.ABSENT
        if current != digest:
            return f"{rel} changed"
    before = set((doc.get("snapshot") or {}).get("files") or {})
    conftests = {rel for rel in now if _is_conftest(rel)}
    if conftests != {rel for rel, d in files.items() if _is_conftest(rel) and d != read_set.ABSENT}:
        return "the conftest.py files changed"
    for rel, digest in (reads.get("dirs") or {}).items():
        names = read_set.list_dir(root / rel)
        if (read_set.ABSENT if names is None else read_set.listing_hash(names)) != digest:
            return f"the listing of {rel} changed"
    for rel, digest in (reads.get("metadata_dirs") or {}).items():
        names = read_set.list_dir(root / rel)
        if (read_set.ABSENT if names is None else read_set.listing_hash(read_set.metadata_entries(names))) != digest:
            return f"the distribution metadata in {rel} changed"
    for rel, digest in (reads.get("globs") or {}).items():
        if read_set.glob_hash(str(root), rel, "**" in rel) != digest:
            return f"glob {rel} matches differently"
    data = [rel for rel in changed_files(dict.fromkeys(before, ""), dict.fromkeys(now, ""))
            if not _importable(rel)]
    if data:
        return f"{data[0]} was added or removed"
    return _lookup_problem(reads, root)


def _lookup_problem(reads: dict, root: Path) -> str | None:
    roots = [p[3:] for p in reads.get("sys_path") or [] if p.startswith("ws:")]
    modules = set(reads.get("modules") or ())
    for rel, names in (reads.get("import_dirs") or {}).items():
        current = read_set.list_dir(root / rel)
        for entry in sorted(set(names or ()) ^ set(current or ())):
            hit = next((m for m in module_names(rel, entry, roots) if m in modules), None)
            if hit:
                return f"{'.' if rel == '.' else rel}/{entry} appeared or vanished and module {hit} was looked up"
    return None


def select(items: list, link, sources: list[Source], *, key: dict, root: Path, now: dict[str, str],
           sys_path: list[str]) -> CarryState:
    """Decide which collected items are carried; `link(item)` gives an item's requirement ids now."""
    state = CarryState(sources=sources)
    for source in sources:
        if source.document is not None and source.refused is None:
            source.refused = document_problem(source.document, key=key, root=root, now=now, sys_path=sys_path)
    by_id = {item.nodeid: item for item in items}
    supplier: dict[str, str] = {}
    for source in sources:
        if source.refused is not None:
            continue
        for nodeid, entry in (source.document.get("tests") or {}).items():
            item = by_id.get(nodeid)
            if item is None or entry.get("outcome") != "passed" or entry.get("failure"):
                continue
            if sorted(set(link(item))) != sorted(entry.get("reqs") or []):
                continue
            state.carried[nodeid] = {**entry, "carried_from": entry.get("carried_from") or source.label}
            supplier[nodeid] = source.label
    state.used = [s.label for s in sources if s.label in set(supplier.values())]
    return state


def joined_read_set(own: dict, sources: list[Source], used: list[str]) -> dict:
    """This session's read set joined with those of the documents it carried from."""
    out = {**own, **{name: dict(own.get(name) or {}) for name in ("files", "dirs", "metadata_dirs", "globs")}}
    modules = set(own["modules"])
    for source in sources:
        if source.label not in used:
            continue
        theirs = source.document["read_set"]
        for name in ("files", "dirs", "metadata_dirs", "globs"):
            out[name] = {**theirs.get(name, {}), **out[name]}
        modules |= set(theirs.get("modules") or ())
    for name in ("files", "dirs", "metadata_dirs", "globs"):
        out[name] = dict(sorted(out[name].items()))
    out["modules"] = sorted(modules)
    return out


def summary(state: CarryState) -> dict:
    """The document's `carried` block."""
    return {"count": len(state.carried), "from": list(state.used),
            "refused": {s.label: s.refused for s in state.sources if s.refused}}
