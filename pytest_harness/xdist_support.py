"""pytest-xdist: what a worker sends to the controller, and how the controller merges it.

Each worker collects every test, links it to its requirement ids, runs its share and measures
each test's proof (checks, executed lines); only the controller writes the document. The controller already receives every test
report and every failed collection report through xdist (its own hooks fold them as in a serial
run); the workers add what only they know: the links, the proofs, the marker errors
and how many tests were collected. Payloads are plain JSON-ready dicts (execnet can send them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from pytest_harness import evidence

WORKEROUTPUT_KEY = "harness"
# A worker's report printed on the controller starts with "[gw0] linux -- Python 3.11.7 /path".
_WORKER_LINE_RE = re.compile(r"\A\[gw[0-9]+\] [^\n]* -- Python [^\n]*\n")


def is_worker(config: object) -> bool:
    """True inside an xdist worker process."""
    return hasattr(config, "workerinput")


def is_controller(config: object) -> bool:
    """True in the xdist controller process, which runs no tests (its DSession plugin is registered)."""
    manager = getattr(config, "pluginmanager", None)
    return bool(manager is not None and manager.has_plugin("dsession"))


def report_text(report: object) -> str:
    """A report's failure text as a serial run prints it (without xdist's worker header line)."""
    text = getattr(report, "longreprtext", "") or ""
    return _WORKER_LINE_RE.sub("", text, count=1) if hasattr(report, "node") else text


def worker_payload(*, links: Mapping[str, list[str]], proofs: Mapping[str, Mapping] | None,
                   marker_errors: Iterable[Mapping], collected: int) -> dict:
    """The worker's share of the evidence: {links, proofs, marker_errors, collected}."""
    return {"links": {nodeid: list(reqs) for nodeid, reqs in links.items()},
            "proofs": None if proofs is None else {n: dict(p) for n, p in proofs.items()},
            "marker_errors": [dict(err) for err in marker_errors],
            "collected": int(collected)}


def merge_payloads(payloads: Iterable[Mapping], reported: Mapping[str, Mapping]) -> dict:
    """Join worker payloads with the controller's folded reports into the serial-run shape.

    Returns {tests, proofs, marker_errors, collected}. Every worker links the same tests and
    finds the same marker errors, so links are united and errors deduplicated; proofs are joined
    (each test runs on one worker; None when no worker could measure). A test that no worker linked but that reported (a
    crashed worker's test) keeps its reported entry.
    """
    links: dict[str, set[str]] = {}
    proofs: dict[str, dict] | None = None
    errors: dict[tuple, dict] = {}
    collected = 0
    for payload in payloads:
        for nodeid, reqs in payload["links"].items():
            links.setdefault(nodeid, set()).update(reqs)
        if payload.get("proofs") is not None:
            proofs = {**(proofs or {}), **payload["proofs"]}
        for err in payload["marker_errors"]:
            errors.setdefault((err["nodeid"], str(err["value"]), err["error"]), dict(err))
        collected = max(collected, payload["collected"])
    tests = {nodeid: dict(entry) for nodeid, entry in reported.items()}
    for nodeid, reqs in links.items():
        entry = tests.get(nodeid) or evidence.make_test_entry([])
        tests[nodeid] = {**entry, "reqs": sorted(reqs)}
    return {"tests": tests, "proofs": proofs, "collected": collected,
            "marker_errors": [errors[key] for key in sorted(errors)]}
