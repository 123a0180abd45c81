"""`--harness-mutate`: the mutation audit of any project, per requirement, from this session's evidence.

After the tests ran, each verified requirement gets up to MAX_MUTANTS mutants on the lines its
passing tests ran (call phase) in its implementation files — the requirements file's `[files]`
(or `--harness-req-files`) — chosen and ranked as the harness's own audit does (mutation_plan.py,
mutator.py). The project is copied to a temporary directory (caches, virtual environments and VCS
folders left out), the chosen files are rewritten there with every mutant behind its guard, and one
pytest session (`-p pytest_harness.mutation_runner`, a real subprocess, this interpreter) runs each
mutant's tests in a fork. The project itself is never written. What a kill is: mutation_child.py.

A requirement whose tests kill less than the bar (KILL_RATIO of its judged mutants, at least one) is
demoted from `verified` to `weak` (reason: the audit's figures), so the gate and `--harness-fail-under`
see it; the document's `mutation` block holds every mutant (file, line, kind, what changed, result).
An audit that could not run (the session produced no result) fails the gate with its reason.
"""

from __future__ import annotations

import importlib.util
import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pytest_harness.decoy_verdict import decoy_lines
from pytest_harness.mutation_verdict import bar_lines, judged, shared_summary, summarize, survivor_lines, under_the_bar
from pytest_harness.time_box import GRACE_FACTOR, KILL_RATIO

MAX_MUTANTS = 4          # per requirement
SECONDS = 60.0           # time box of the mutant runs (past it, only a requirement under the bar goes on)
STARTUP_S = 120.0        # allowance for the audit session to start and collect
COPY_SKIP = frozenset({".git", ".hg", ".svn", ".tox", ".nox", ".venv", "venv", "env", "node_modules",
                       "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis",
                       "build", "dist", "site-packages"})


def _copy_project(root: Path, dest: Path) -> None:
    def skip(_dir: str, names: list[str]) -> set[str]:
        return {n for n in names if n in COPY_SKIP or n.endswith((".egg-info", ".pyc"))}

    shutil.copytree(root, dest, ignore=skip, symlinks=True)


def _session(copy: Path, plan_path: Path, files: list[str], timeout_s: float) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HARNESS_", "PYTEST_ADDOPTS"))}
    # One process (the runner forks per mutant): `-n 0` when pytest-xdist is installed, so a project's
    # `addopts = -n auto` still parses; blocking the plugin instead would make that option unknown.
    serial = ["-n", "0"] if importlib.util.find_spec("xdist") is not None else []
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "pytest_harness.mutation_runner", "-p", "no:cacheprovider",
            *serial, f"--rootdir={copy}", f"--harness-mutants={plan_path}", *files]
    return subprocess.run(argv, cwd=copy, env=env, capture_output=True, text=True, timeout=timeout_s)


def _round(plan, document: dict, root: Path, seconds: float) -> tuple[dict, dict | None, str | None]:
    """(verdicts {"REQ:id": result, "killers"}, the baseline, an error) of one session over a fresh
    copy of the project with `plan`'s mutants behind their guards."""
    from pytest_harness.mutator import apply

    with tempfile.TemporaryDirectory(prefix="harness-mutate-") as scratch:
        copy, nonce = Path(scratch) / "project", secrets.token_hex(8)
        _copy_project(root, copy)
        for rel, keys in plan.by_file().items():
            source = (root / rel).read_text(encoding="utf-8")
            (copy / rel).write_text(apply(source, keys), encoding="utf-8")
        tests = document.get("tests") or {}
        test_s = {n: float((tests.get(n) or {}).get("duration_s") or 0.0) for ts in plan.runs.values() for n in ts}
        result_path, plan_path = Path(scratch) / "result.json", Path(scratch) / "plan.json"
        plan_path.write_text(json.dumps({"nonce": nonce, "seconds": seconds, "order": plan.order(),
                                         "tests": plan.tests, "result": str(result_path), "method": "confirm",
                                         "test_s": test_s}), encoding="utf-8")
        files = sorted({n.split("::")[0] for _, _, ts in plan.order() for n in ts})
        try:
            proc = _session(copy, plan_path, files, seconds * GRACE_FACTOR + STARTUP_S)
            data = json.loads(result_path.read_text(encoding="utf-8")) if result_path.is_file() else {}
        except (subprocess.TimeoutExpired, ValueError, OSError) as err:
            proc, data = None, {"error": str(err)}
    if data.get("nonce") != nonce:
        tail = ((proc.stderr or proc.stdout) if proc is not None else data.get("error", "")).strip()[-300:]
        return {}, None, f"the mutation audit session produced no result: {tail}"
    return {**(data.get("results") or {}), "killers": data.get("killers") or {}}, data.get("baseline"), None


def run_audit(document: dict, root: Path, max_mutants: int = MAX_MUTANTS, seconds: float = SECONDS) -> dict:
    """The `mutation` block for `document` (this session's evidence of the project at `root`). An
    invalid mutant whose requirement's verdict it could change is replaced once, in a second
    session (mutation_replacements.py), as the harness's audit does."""
    from pytest_harness.mutation_plan import DEFAULT_SEED, make_plan   # the mutator's ast work: only when asked
    from pytest_harness.mutation_replacements import merge, replacement_plan

    started = time.monotonic()
    plan = make_plan(document, root, max_mutants)
    block = {"bar": KILL_RATIO, "max_mutants": max_mutants, "seconds": seconds, "error": None}
    results: dict[str, str] = {}
    if plan.chosen:
        results, baseline, block["error"] = _round(plan, document, root, seconds)
        if block["error"] is None:
            block["baseline"] = baseline
            extra = replacement_plan(plan, results, document, root, max_mutants, DEFAULT_SEED)
            if extra.chosen:
                more, _baseline, block["error"] = _round(extra, document, root, seconds)
                results = merge(plan, extra, results, more)
                block["replaced"] = len(extra.chosen)
    block["requirements"] = summarize(plan, results)
    block["shared"] = shared_summary(plan, results)
    block["duration_s"] = round(time.monotonic() - started, 3)
    return block


def judge(document: dict, root: Path) -> dict:
    """`document` with its `mutation` block; requirements under the bar demoted to `weak`, the gate
    failed with a reason for each (and for an audit that could not run)."""
    block = run_audit(document, root)
    requirements = dict(document["requirements"])
    reasons = list(document["gate"]["reasons"])
    for rid, entry in block["requirements"].items():
        req = requirements.get(rid)
        if req is None or req.get("status") != "verified" or not under_the_bar(entry):
            continue
        why = "mutation audit: " + bar_lines(entry)[0]   # under the bar, or left open by the time box
        passing = [n for n in req["tests"] if (document["tests"].get(n) or {}).get("outcome") == "passed"]
        requirements[rid] = {**req, "status": "weak", "weak": passing,
                             "weak_reasons": {**req.get("weak_reasons", {}), **{n: why for n in passing}}}
        reasons.append(f"{rid}: weak")
    if block["error"]:
        reasons.append(block["error"])
    return {**document, "requirements": requirements, "mutation": block,
            "gate": {"passed": not reasons, "reasons": reasons}}


def failed(document: dict) -> bool:
    """Whether the mutation audit ran for this document and a requirement missed the bar, or it could not run."""
    block = document.get("mutation")
    return bool(block) and (bool(block.get("error")) or any(under_the_bar(e) for e in block["requirements"].values()))


def summary_lines(document: dict) -> list[str]:
    """Per audited requirement: killed/judged, the ratio and the bar; survivors of those under it."""
    block = document.get("mutation")
    if not block:
        return []
    lines = []
    for rid, entry in block["requirements"].items():
        if entry.get("skipped"):
            lines.append(f"harness mutation: {rid} not audited ({entry['skipped']})")
            continue
        total = judged(entry)
        ratio = f"{entry['killed'] / total:.0%}" if total else "-"
        verdict = "below the bar" if under_the_bar(entry) else "meets the bar" if total else "nothing judged"
        extra = "".join(f", {entry[k]} {k.replace('_', ' ')}" for k in ("invalid", "not_run") if entry.get(k))
        elsewhere = (f", {entry['elsewhere']} more killed only by other requirements' tests (not counted)"
                     if entry.get("elsewhere") else "")
        lines.append(f"harness mutation: {rid} {entry['killed']}/{total} killed ({ratio}{extra}){elsewhere}; "
                     f"bar {KILL_RATIO:.0%}: {verdict}")
        lines += [f"harness mutation:   {line}" for line in decoy_lines(entry) + survivor_lines(entry)]
    common = block.get("shared") or {}
    if common.get("mutants"):
        lines.append(f"harness mutation: shared lines: {common['mutants']} mutants judged by the whole suite, "
                     f"{common['killed']} killed by their requirement's tests, {common['elsewhere']} only by "
                     f"another's (not counted), {common['survived']} by none (survivors)")
    if block.get("error"):
        lines.append(f"harness mutation: {block['error']}")
    return lines
