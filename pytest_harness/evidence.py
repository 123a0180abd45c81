"""Pure builders of the evidence document (schema_version 2): no pytest objects, no I/O.

Test outcomes: passed, failed (call), error (setup/teardown), timeout (pytest-timeout), skipped,
xfailed, xpassed, not_run (deselected or never reached).

Each test carries its proof, measured during its call phase only: `checks` (real checks executed
in test code: asserts that are no tautology, pytest.raises/warns, self.assert*), `fake_checks`
(tautologies it executed, named), `executed` ({implementation file: lines run}) and `lines`
(the line numbers). All are null when nothing was measured (coverage.py unavailable): unknown.
A test carried from an earlier session (carry.py) is that session's entry, copied, plus
`carried_from` (the earlier document); the document's `carried` block and `read_set` say what was
carried and what this session read.

Requirement status, first match wins:
  uncovered  no test links to it;
  failing    any linked test failed, errored or timed out;
  not_run    no linked test passed (all skipped/deselected/xfailed/xpassed/not reached);
  weak       no passing linked test both executed a real check and ran lines of the
             requirement's implementation files (when the harness named them); reasons per test;
  verified   otherwise. Only `verified` is evidence. xpassed never counts as a pass.
Forgery found in the workspace (hooks that can change outcomes, atexit handlers) makes the
document untrusted: its gate fails and every requirement reads `untrusted`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

SCHEMA_VERSION = 2
# Full match, ASCII only: no trailing "\n", no non-Latin digits. Accepts REQ-001, AUTH-12, FR-1000.
DEFAULT_ID_PATTERN = r"[A-Z][A-Z0-9]*-[0-9]+"
DEFAULT_ID_RE = re.compile(DEFAULT_ID_PATTERN, re.ASCII)
OUTCOMES = ("passed", "failed", "error", "timeout", "skipped", "xfailed", "xpassed", "not_run")
FAILING = frozenset({"failed", "error", "timeout"})
FAILURE_CHARS = 1500
EXIT_NO_TESTS = 5
# pytest-timeout: signal method fails with "Timeout (>Ns) from pytest-timeout."; the
# thread method prints "+++ Timeout +++" separators.
_TIMEOUT_RE = re.compile(r"Timeout \(>[0-9.]+s\) from pytest-timeout|\+ Timeout \+|Failed: Timeout >")


def is_req_id(value: object, pattern: re.Pattern = DEFAULT_ID_RE) -> bool:
    """True when `value` is a string that fully matches the id pattern."""
    return isinstance(value, str) and pattern.fullmatch(value) is not None


def parse_expected(raw: str | None, pattern: re.Pattern = DEFAULT_ID_RE) -> list[str] | None:
    """Parse "REQ-001,REQ-002" into sorted unique ids; None when blank; ValueError on a bad id."""
    if raw is None or not raw.strip():
        return None
    ids = [part.strip() for part in re.split(r"[,\s]+", raw) if part.strip()]
    bad = [part for part in ids if not is_req_id(part, pattern)]
    if bad:
        raise ValueError(f"malformed requirement id {bad[0]!r} (expected {pattern.pattern})")
    return sorted(set(ids))


def marker_error(nodeid: str, value: str | None, error: str) -> dict:
    """One marker problem, naming the test and the offending value."""
    return {"nodeid": nodeid, "value": value, "error": error}


def check_marker(nodeid: str, args: Sequence[object], kwargs: Mapping[str, object],
                 pattern: re.Pattern = DEFAULT_ID_RE) -> tuple[list[str], list[dict]]:
    """Split one `req` marker's arguments into well-formed ids and error records."""
    ids: list[str] = []
    errors: list[dict] = []
    if not args:
        errors.append(marker_error(nodeid, None, "req marker without a requirement id"))
    for key, value in kwargs.items():
        errors.append(marker_error(nodeid, f"{key}={value!r}", "req takes positional ids only"))
    for value in args:
        if is_req_id(value, pattern):
            ids.append(value)
        else:
            shown = value if isinstance(value, str) else repr(value)
            errors.append(marker_error(nodeid, shown, f"malformed requirement id (expected {pattern.pattern})"))
    return ids, errors


def is_timeout(text: str) -> bool:
    """True when a failure text comes from pytest-timeout."""
    return _TIMEOUT_RE.search(text) is not None


def failure_text(longrepr: str) -> str | None:
    """The last FAILURE_CHARS characters of a failure report, or None when empty."""
    text = longrepr.strip()
    if not text:
        return None
    return text if len(text) <= FAILURE_CHARS else "..." + text[-FAILURE_CHARS:]


def phase_outcome(when: str, outcome: str, wasxfail: bool, longrepr: str) -> str | None:
    """Map one report phase (setup/call/teardown) to a test outcome; None when it adds nothing."""
    if outcome == "failed":
        if is_timeout(longrepr):
            return "timeout"
        return "failed" if when == "call" else "error"
    if outcome == "skipped":
        return "xfailed" if wasxfail else "skipped"
    if outcome == "passed" and when == "call":
        return "xpassed" if wasxfail else "passed"
    return None


def merge_outcome(current: str, new: str | None) -> str:
    """Fold a phase outcome into a test's outcome; the first failing outcome sticks."""
    if new is None or current in FAILING:
        return current
    return new


def make_test_entry(reqs: Sequence[str]) -> dict:
    """A test that has not reported yet (deselected tests stay like this)."""
    return {"reqs": sorted(set(reqs)), "outcome": "not_run", "duration_s": 0.0, "failure": None,
            "checks": None, "fake_checks": [], "executed": None, "lines": None}


def fold_report(entry: Mapping, *, when: str, outcome: str, wasxfail: bool,
                longrepr: str, duration: float) -> dict:
    """Return `entry` updated with one report phase: outcome, summed duration, first failure text."""
    merged = merge_outcome(entry["outcome"], phase_outcome(when, outcome, wasxfail, longrepr))
    failure = entry["failure"]
    if merged in FAILING and entry["outcome"] not in FAILING:
        failure = failure_text(longrepr)
    return {**entry, "outcome": merged, "failure": failure,
            "duration_s": round(entry["duration_s"] + duration, 6)}


def requirement_status(counts: Mapping[str, int], strong_passes: int) -> str:
    """Roll linked-test outcome counts up to a requirement status (see module docstring)."""
    if not any(counts.values()):
        return "uncovered"
    if any(counts.get(name, 0) for name in FAILING):
        return "failing"
    if not counts.get("passed", 0):
        return "not_run"
    return "verified" if strong_passes else "weak"


def weakness(entry: Mapping, impl_files: Sequence[str] | None) -> str | None:
    """Why a passing test proves nothing for a requirement with these implementation files; None if it does."""
    checks = entry.get("checks")
    if checks is None:
        return None  # not measured: unknown, never weak
    if checks == 0:
        fake = entry.get("fake_checks") or []
        return "no real check" + (f" (only {', '.join(fake[:3])})" if fake else " (no assert, pytest.raises or self.assert*)")
    executed = entry.get("executed")
    if impl_files and executed is not None and not any(f in executed for f in impl_files):
        return f"its call executed none of {', '.join(impl_files)}"
    return None


def make_requirement(linked: Mapping[str, Mapping], impl_files: Sequence[str] | None = None) -> dict:
    """One requirement's entry from its linked tests {nodeid: test entry}."""
    counts = {name: 0 for name in OUTCOMES}
    for entry in linked.values():
        counts[entry["outcome"]] += 1
    passed = [nodeid for nodeid, entry in linked.items() if entry["outcome"] == "passed"]
    reasons = {nodeid: why for nodeid in sorted(passed) if (why := weakness(linked[nodeid], impl_files))}
    return {"status": requirement_status(counts, len(passed) - len(reasons)),
            "tests": sorted(linked), "counts": counts, "weak": sorted(reasons), "weak_reasons": reasons,
            "files": list(impl_files) if impl_files else []}


def make_requirements(tests: Mapping[str, Mapping], expected: Sequence[str] | None,
                      req_files: Mapping[str, Sequence[str]] | None = None) -> dict:
    """Entries for the expected ids, or for every linked id when no expected set was given."""
    ids = expected if expected is not None else {rid for entry in tests.values() for rid in entry["reqs"]}
    files = req_files or {}
    return {rid: make_requirement({n: e for n, e in tests.items() if rid in e["reqs"]}, files.get(rid))
            for rid in sorted(ids)}


def unknown_errors(tests: Mapping[str, Mapping], expected: Sequence[str] | None) -> list[dict]:
    """Marker errors for well-formed ids outside the expected set (none when no set was given)."""
    if expected is None:
        return []
    allowed = set(expected)
    return [marker_error(nodeid, rid, "unknown requirement id (not in the expected set)")
            for nodeid, entry in tests.items() for rid in entry["reqs"] if rid not in allowed]


def make_session(exitstatus: int, collected: int, duration_s: float, versions: Mapping[str, str]) -> dict:
    """The `session` block."""
    return {"exitstatus": int(exitstatus), "collected": collected,
            "duration_s": round(duration_s, 6), "versions": dict(versions)}


def make_gate(session: Mapping, snapshot: Mapping, requirements: Mapping[str, Mapping],
              marker_errors: Sequence[Mapping], collection_errors: Sequence[Mapping],
              forgery: Sequence[Mapping] = (), measurement_error: str | None = None) -> dict:
    """Gate passes only on exit 0, a good snapshot, clean markers, no forgery and every requirement verified."""
    reasons: list[str] = [f"evidence untrusted: {f['file']}:{f['line']} {f['what']}"
                          + (f" ({f['detail']})" if f.get("detail") else "") for f in forgery]
    if measurement_error:
        reasons.append(measurement_error)
    status = session["exitstatus"]
    if status == EXIT_NO_TESTS:
        reasons.append(f"no tests collected (pytest exit {EXIT_NO_TESTS})")
    elif status != 0:
        reasons.append(f"pytest exit status {status}")
    if snapshot.get("error"):
        reasons.append(f"workspace snapshot failed: {snapshot['error']}")
    reasons += [f"collection error: {err['nodeid']}" for err in collection_errors]
    reasons += [f"{err['nodeid']}: {err['error']}: {err['value']!r}" for err in marker_errors]
    if not requirements:
        reasons.append("no requirements expected or linked")
    reasons += [f"{rid}: {req['status']}" for rid, req in requirements.items() if req["status"] != "verified"]
    return {"passed": not reasons, "reasons": reasons}


def make_document(*, run_id: str | None, complete: bool, session: Mapping, snapshot: Mapping,
                  tests: Mapping[str, Mapping], expected: Sequence[str] | None,
                  marker_errors: Sequence[Mapping], collection_errors: Sequence[Mapping],
                  proofs: Mapping[str, Mapping] | None, req_files: Mapping[str, Sequence[str]] | None = None,
                  forgery: Sequence[Mapping] = (), measurement_error: str | None = None,
                  carried: Mapping[str, Mapping] | None = None) -> dict:
    """The whole evidence document; `proofs` ({nodeid: proof}) is None when nothing was measured;
    `carried` ({nodeid: entry with its proof and `carried_from`}) are tests an earlier session ran
    on the same inputs (carry.py), joined as they were recorded there."""
    if proofs is not None:
        tests = {nodeid: {**entry, **proofs.get(nodeid, _NO_RUN_PROOF)} for nodeid, entry in tests.items()}
    if carried:
        tests = {**tests, **{nodeid: dict(entry) for nodeid, entry in carried.items()}}
    tests = dict(sorted(tests.items()))
    unknown = unknown_errors(tests, expected)
    errors = sorted([*marker_errors, *unknown], key=lambda err: (err["nodeid"], str(err["value"]), err["error"]))
    requirements = make_requirements(tests, expected, req_files)
    forgery = sorted(forgery, key=lambda f: (f["file"], f["line"], f["what"]))
    if forgery:
        requirements = {rid: {**req, "status": "untrusted"} for rid, req in requirements.items()}
    return {
        "schema_version": SCHEMA_VERSION,
        "run_id": run_id,
        "complete": complete,
        "session": dict(session),
        "snapshot": dict(snapshot),
        "requirements": requirements,
        "tests": tests,
        "unlinked_tests": sorted(nodeid for nodeid, entry in tests.items() if not entry["reqs"]),
        "unknown_requirement_ids": sorted({err["value"] for err in unknown}),
        "marker_errors": errors,
        "collection_errors": list(collection_errors),
        "forgery": forgery,
        "trusted": not forgery,
        "gate": make_gate(session, snapshot, requirements, errors, collection_errors, forgery, measurement_error),
    }


# A test whose call phase never ran measured code (or never ran at all) executed nothing.
_NO_RUN_PROOF = {"checks": 0, "fake_checks": [], "executed": {}, "lines": {}}


def dump_document(document: Mapping) -> str:
    """Serialize deterministically: sorted keys, indent 2, trailing newline."""
    return json.dumps(document, sort_keys=True, indent=2) + "\n"
