"""Which workspace files the forgery scan reads, and the reviewed exceptions a project accepts.

Scope: a test session never loads code in tool and build folders (`.tox`, `.nox`, `.venv`, `venv`,
`node_modules`, `build`, `dist`, `site-packages`, `.eggs`, any folder holding a `pyvenv.cfg`), so
those are not scanned at all. A `conftest.py` is loaded only when its folder contains, or lies
inside, one of the session's collection paths; the hooks of any other conftest are not findings
(what else it holds, e.g. an `atexit` import, still is). Every other module under the rootdir is
scanned: code under test runs in the session and could be registered as a plugin.

Trust: `harness_trusted_hooks` (ini, env HARNESS_TRUSTED_HOOKS, or flag) lists reviewed findings
as `FILE::NAME@sha256:HEX`, whitespace- or comma-separated: NAME is the hook (or `atexit`,
`pytest_harness`) and HEX the file's sha256 when it was reviewed. A finding whose file still has
that hash is waived (and listed in the document as waived); once the file changes it is raised
again, saying the reviewed hash no longer matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

UNLOADED_DIRS = frozenset({".tox", ".nox", ".venv", "venv", "node_modules", "build", "dist", "site-packages",
                           "dist-packages", ".eggs", "__pypackages__", ".git", ".hg"})
_ENTRY_RE = re.compile(r"(?P<file>[^:@\s,]+(?:/[^:@\s,]+)*)::(?P<name>[A-Za-z_][A-Za-z0-9_]*)@sha256:(?P<hex>[0-9a-f]{64})")


@dataclass(frozen=True)
class TrustEntry:
    file: str
    name: str
    sha256: str

    def text(self) -> str:
        return f"{self.file}::{self.name}@sha256:{self.sha256}"


def parse_trusted(text: str) -> list[TrustEntry]:
    """Entries from the setting's text; ValueError naming the first malformed one."""
    entries = []
    for part in re.split(r"[\s,]+", text.strip()):
        if not part:
            continue
        match = _ENTRY_RE.fullmatch(part)
        if match is None:
            raise ValueError(f"malformed trusted hook {part!r} (expected FILE::HOOK@sha256:<64 hex digits>)")
        entries.append(TrustEntry(match["file"], match["name"], match["hex"]))
    return entries


def _venv_dirs(files: Iterable[str]) -> list[str]:
    return [rel[: -len("pyvenv.cfg")] for rel in files if rel == "pyvenv.cfg" or rel.endswith("/pyvenv.cfg")]


def loaded_files(files: Iterable[str]) -> list[str]:
    """The relpaths a test session can load: none under a tool, build or virtualenv folder."""
    files = list(files)
    venvs = _venv_dirs(files)
    return [rel for rel in files
            if not UNLOADED_DIRS.intersection(PurePosixPath(rel).parts[:-1])
            and not any(rel.startswith(v) for v in venvs)]


def session_paths(root: Path, invocation_dir: Path, args: Iterable[str]) -> list[PurePosixPath] | None:
    """The collection paths as relpaths under root; None (every conftest in scope) when one lies
    outside it or is no path on disk (`--pyargs pkg.tests` names a module, not a folder)."""
    out = []
    for arg in args:
        path = (Path(invocation_dir) / arg.split("::", 1)[0]).resolve()
        if not path.exists():
            return None
        try:
            out.append(PurePosixPath(path.relative_to(Path(root).resolve()).as_posix()))
        except ValueError:
            return None
    return out or [PurePosixPath(".")]


def conftest_loaded(rel: str, paths: list[PurePosixPath] | None) -> bool:
    """True when pytest loads this conftest for a session collecting `paths`."""
    if paths is None:
        return True
    folder = PurePosixPath(rel).parent
    for path in paths:
        if path == PurePosixPath(".") or folder == PurePosixPath(".") or folder == path:
            return True
        if folder in path.parents or path in folder.parents:
            return True
    return False


def finding_name(finding: Mapping) -> str:
    """The name a trust entry uses for a finding: the hook, `atexit` or `pytest_harness`."""
    what = finding["what"]
    if what.startswith("defines hook "):
        return what.split()[-1]
    return "atexit" if "atexit" in what else "pytest_harness"


def in_scope(findings: Iterable[dict], paths: list[PurePosixPath] | None) -> list[dict]:
    """Findings minus the hooks of conftests this session does not load."""
    return [f for f in findings
            if not (f["what"].startswith("defines hook ") and PurePosixPath(f["file"]).name == "conftest.py"
                    and not conftest_loaded(f["file"], paths))]


def apply_trust(findings: Iterable[dict], entries: list[TrustEntry],
                hashes: Mapping[str, str]) -> tuple[list[dict], list[dict]]:
    """(findings still raised, findings waived by a matching entry). A stale entry's finding says so;
    any other raised finding says which entry would accept it after review."""
    raised, waived = [], []
    for finding in findings:
        name, current = finding_name(finding), (hashes.get(finding["file"]) or "").removeprefix("sha256:")
        matching = [e for e in entries if e.file == finding["file"] and e.name == name]
        if any(e.sha256 == current for e in matching):
            waived.append({**finding, "trusted": f"{finding['file']}::{name}@sha256:{current}"})
            continue
        note = (f"reviewed as sha256:{matching[0].sha256[:12]}..., the file has changed since"
                if matching else f"after review, accept with harness_trusted_hooks = "
                                 f"{finding['file']}::{name}@sha256:{current}")
        raised.append({**finding, "trust": note})
    return raised, waived
