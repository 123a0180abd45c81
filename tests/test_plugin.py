"""pytest_harness: pure evidence roll-up, workspace snapshot, and the plugin driven through pytester."""

from __future__ import annotations

import json
import runpy
import sys
import types
from pathlib import Path

import pytest

from pytest_harness import evidence
from pytest_harness.snapshot import changed_files, snapshot_files

pytest_plugins = ["pytester"]

CANONICAL = Path(__file__).parent / "data" / "plugin_canonical.py"
ALL_REQS = ",".join(f"REQ-{n:03d}" for n in range(1, 11))
# Importing hypothesis costs >1 s per subprocess here and has nothing to do with these tests; nor
# have anyio's plugin (its modules assertion-rewritten from source in every session without a
# bytecode cache, ~0.4 s of CPU) and xdist's (test_plugin_outputs runs the plugin under xdist).
FAST = ("-p", "no:hypothesispytest", "-p", "no:cacheprovider", "-p", "no:anyio", "-p", "no:xdist")


@pytest.fixture(autouse=True)
def _clean_harness_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HARNESS_EVIDENCE_PATH", "HARNESS_REQS", "HARNESS_RUN_ID", "HARNESS_RUNS_DIR"):
        monkeypatch.delenv(name, raising=False)


def run_with_evidence(pytester: pytest.Pytester, out: Path, *args: str, subprocess: bool = False):
    """Run pytest with evidence written to `out`; return (result, document or None)."""
    argv = (*FAST, "--harness-evidence", str(out), *args)
    result = pytester.runpytest_subprocess(*argv) if subprocess else pytester.runpytest_inprocess(*argv)
    return result, (json.loads(out.read_text()) if out.exists() else None)


# ---- pure functions -------------------------------------------------------------------------

@pytest.mark.parametrize("when, outcome, wasxfail, longrepr, expected", [
    ("setup", "passed", False, "", None),
    ("setup", "failed", False, "RuntimeError: boom", "error"),
    ("setup", "failed", False, "Failed: Timeout (>1.0s) from pytest-timeout.", "timeout"),
    ("setup", "skipped", False, "", "skipped"),
    ("setup", "skipped", True, "", "xfailed"),  # xfail(run=False)
    ("call", "passed", False, "", "passed"),
    ("call", "passed", True, "", "xpassed"),
    ("call", "failed", False, "AssertionError", "failed"),
    ("call", "failed", False, "[XPASS(strict)] fixed", "failed"),
    ("call", "failed", False, "E   Failed: Timeout (>0.5s) from pytest-timeout.", "timeout"),
    ("call", "failed", False, "+++++++ Timeout +++++++", "timeout"),
    ("call", "skipped", False, "", "skipped"),
    ("call", "skipped", True, "", "xfailed"),
    ("call", "rerun", False, "", None),
    ("teardown", "passed", False, "", None),
    ("teardown", "failed", False, "RuntimeError", "error"),
])
def test_phase_outcome(when, outcome, wasxfail, longrepr, expected):
    assert evidence.phase_outcome(when, outcome, wasxfail, longrepr) == expected


@pytest.mark.parametrize("phases, outcome, failure", [
    ([("setup", "passed", ""), ("call", "failed", "assert 1 == 2"), ("teardown", "failed", "boom")],
     "failed", "assert 1 == 2"),                                   # the first failure sticks
    ([("call", "passed", ""), ("teardown", "failed", "boom")], "error", "boom"),
    ([("setup", "failed", "fixture"), ("teardown", "passed", "")], "error", "fixture"),
])
def test_fold_report(phases, outcome, failure):
    entry = evidence.make_test_entry(["REQ-002", "REQ-001", "REQ-001"])
    for when, phase, text in phases:
        entry = evidence.fold_report(entry, when=when, outcome=phase, wasxfail=False, longrepr=text, duration=0.25)
    assert entry["reqs"] == ["REQ-001", "REQ-002"]
    assert (entry["outcome"], entry["failure"]) == (outcome, failure)
    assert entry["duration_s"] == 0.25 * len(phases)


def test_failure_text_keeps_the_tail():
    text = "x" * 100 + "TAIL"
    assert evidence.failure_text("  ") is None
    assert evidence.failure_text(text) == text
    long = "head" + "y" * 5000 + "TAIL"
    short = evidence.failure_text(long)
    assert short.endswith("TAIL") and "head" not in short
    assert len(short) == evidence.FAILURE_CHARS + 3


def _tests(*rows):
    return {f"t.py::t{i}": {"reqs": ["REQ-001"], "outcome": o, "checks": a, "executed": {"src/a.py": 1}}
            for i, (o, a) in enumerate(rows)}


@pytest.mark.parametrize("rows, status, weak", [
    ([], "uncovered", 0),
    ([("passed", 2)], "verified", 0),
    ([("passed", None)], "verified", 0),              # not measured: unknown, not weak
    ([("passed", 0)], "weak", 1),
    ([("passed", 0), ("passed", 1)], "verified", 1),
    ([("passed", 3), ("failed", 0)], "failing", 0),
    ([("passed", 3), ("error", 0)], "failing", 0),
    ([("passed", 3), ("timeout", 0)], "failing", 0),
    ([("passed", 1), ("skipped", 0)], "verified", 0),
    ([("skipped", 0), ("not_run", None)], "not_run", 0),
    ([("xfailed", 0), ("xpassed", 1)], "not_run", 0),  # an xfail-marked test is not evidence
])
def test_requirement_rollup(rows, status, weak):
    req = evidence.make_requirement(_tests(*rows))
    assert req["status"] == status
    assert len(req["weak"]) == weak
    assert set(req["counts"]) == set(evidence.OUTCOMES)
    assert sum(req["counts"].values()) == len(rows)


@pytest.mark.parametrize("args, kwargs, ids, bad_values", [
    (("REQ-001",), {}, ["REQ-001"], []),
    (("REQ-001", "REQ-002"), {}, ["REQ-001", "REQ-002"], []),
    ((), {}, [], [None]),
    (("REQ-1", "REQ-1000", "AUTH-001", "FR-12"), {}, ["REQ-1", "REQ-1000", "AUTH-001", "FR-12"], []),
    (("REQ-",), {}, [], ["REQ-"]),
    (("1REQ-1",), {}, [], ["1REQ-1"]),
    (("req-001",), {}, [], ["req-001"]),
    (("REQ-001\n",), {}, [], ["REQ-001\n"]),
    (("REQ-\u0661\u0662\u0663",), {}, [], ["REQ-\u0661\u0662\u0663"]),  # non-ASCII digits
    ((1,), {}, [], ["1"]),
    (("REQ-003",), {"id": "REQ-004"}, ["REQ-003"], ["id='REQ-004'"]),
])
def test_check_marker(args, kwargs, ids, bad_values):
    found, errors = evidence.check_marker("t.py::t", args, kwargs)
    assert found == ids
    assert [err["value"] for err in errors] == bad_values
    assert all(err["nodeid"] == "t.py::t" for err in errors)


def test_parse_expected():
    assert evidence.parse_expected(None) is None
    assert evidence.parse_expected(" ") is None
    assert evidence.parse_expected("REQ-002, REQ-001,REQ-002") == ["REQ-001", "REQ-002"]
    with pytest.raises(ValueError, match="'REQ-1x'"):
        evidence.parse_expected("REQ-001,REQ-1x")


@pytest.mark.parametrize("exitstatus, reqs, reason", [
    (0, {"REQ-001": "verified"}, None),
    (5, {"REQ-001": "uncovered"}, "no tests collected (pytest exit 5)"),
    (1, {"REQ-001": "failing"}, "pytest exit status 1"),
    (0, {"REQ-001": "verified", "REQ-002": "weak"}, "REQ-002: weak"),
    (0, {}, "no requirements expected or linked"),
])
def test_make_gate(exitstatus, reqs, reason):
    session = evidence.make_session(exitstatus, 1, 0.1, {})
    gate = evidence.make_gate(session, {"files": {}}, {k: {"status": v} for k, v in reqs.items()}, [], [])
    assert gate["passed"] is (reason is None)
    if reason is not None:
        assert reason in gate["reasons"]


# ---- snapshot -------------------------------------------------------------------------------

def _workspace(root: Path) -> None:
    for rel, text in {"src/main.py": "app = 1\n", "tests/test_a.py": "def test(): pass\n",
                      "src/__pycache__/main.cpython-311.pyc": "x", "app.db": "x", "data.sqlite3": "x",
                      "app.db-journal": "x", "evidence/e.json": "{}", ".pytest_cache/v": "x",
                      ".hypothesis/x": "x", "stray.pyc": "x"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_snapshot_hashes_sources_only_with_posix_relpaths(tmp_path):
    _workspace(tmp_path)
    snap = snapshot_files(tmp_path)
    # a sourceless .pyc outside __pycache__ is importable on its own: hashed (harness/sandbox/bytecode.py)
    assert sorted(snap["files"]) == ["src/main.py", "stray.pyc", "tests/test_a.py"]
    assert all(v.startswith("sha256:") and len(v) == 71 for v in snap["files"].values())
    assert snap["digest"].startswith("sha256:")
    assert snapshot_files(tmp_path) == snap


def test_snapshot_changes_when_a_file_changes(tmp_path):
    _workspace(tmp_path)
    before = snapshot_files(tmp_path)
    (tmp_path / "src" / "main.py").write_text("app = 2\n")
    (tmp_path / "app.db").write_text("ignored change")
    after = snapshot_files(tmp_path)
    assert after["digest"] != before["digest"]
    assert changed_files(before["files"], after["files"]) == ["src/main.py"]
    (tmp_path / "src" / "extra.py").write_text("")
    assert changed_files(before["files"], snapshot_files(tmp_path)["files"]) == ["src/extra.py", "src/main.py"]


def test_snapshot_hashes_symlinks_without_following_them(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("secret")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "link.txt").symlink_to(outside)
    (root / "dirlink").symlink_to(tmp_path)
    before = snapshot_files(root)["files"]
    outside.write_text("changed")
    assert list(before) == ["link.txt"]
    assert snapshot_files(root)["files"] == before


# ---- the plugin, end to end -----------------------------------------------------------------

@pytest.mark.slow
def test_canonical_file_outcomes_rollup_and_gate(pytester, tmp_path):
    pytester.makepyfile(test_canonical=CANONICAL.read_text())
    out = tmp_path / "ev" / "evidence.json"
    result, doc = run_with_evidence(pytester, out, "--harness-reqs", ALL_REQS,
                                    "--harness-run-id", "run_ab12cd34", subprocess=True)
    expected = runpy.run_path(str(CANONICAL))
    assert result.ret == 1
    assert doc["schema_version"] == 2 and doc["complete"] is True and doc["run_id"] == "run_ab12cd34"
    assert doc["session"]["exitstatus"] == 1
    assert doc["session"]["collected"] == len(expected["EXPECTED_OUTCOMES"])
    assert set(doc["session"]["versions"]) == {"pytest", "python", "plugin"}
    assert {n.split("::")[1]: t["outcome"] for n, t in doc["tests"].items()} == expected["EXPECTED_OUTCOMES"]
    assert {rid: req["status"] for rid, req in doc["requirements"].items()} == expected["EXPECTED_STATUS"]
    tests = doc["tests"]
    assert tests["test_canonical.py::test_pass"]["checks"] == 2
    assert tests["test_canonical.py::test_pass"]["fake_checks"] == ["test_canonical.py:28 compares literals"]
    assert tests["test_canonical.py::test_multi"]["checks"] == 1  # pytest.raises is a check
    assert tests["test_canonical.py::test_multi"]["reqs"] == ["REQ-001", "REQ-006"]
    assert "deliberate failure" in tests["test_canonical.py::test_fail"]["failure"]
    assert "fixture exploded" in tests["test_canonical.py::test_error"]["failure"]
    assert "teardown exploded" in tests["test_canonical.py::test_teardown_error"]["failure"]
    assert tests["test_canonical.py::test_pass"]["failure"] is None
    assert doc["requirements"]["REQ-006"]["counts"]["passed"] == 3
    assert doc["requirements"]["REQ-007"]["weak"] == ["test_canonical.py::test_no_assert"]
    assert "no real check" in doc["requirements"]["REQ-007"]["weak_reasons"]["test_canonical.py::test_no_assert"]
    assert doc["trusted"] is True and doc["forgery"] == []
    assert doc["unlinked_tests"] == ["test_canonical.py::test_unlinked"]
    assert doc["unknown_requirement_ids"] == [] and doc["marker_errors"] == []
    assert doc["gate"]["passed"] is False
    assert {"pytest exit status 1", "REQ-007: weak", "REQ-010: uncovered"} <= set(doc["gate"]["reasons"])
    # A consumer recomputes the same hashes; only pytester's own stdout/stderr capture files grew.
    recomputed = snapshot_files(pytester.path)
    assert "test_canonical.py" in doc["snapshot"]["files"]
    assert set(changed_files(doc["snapshot"]["files"], recomputed["files"])) <= {"stdout", "stderr"}
    assert out.read_text() == evidence.dump_document(doc)
    assert [p.name for p in out.parent.iterdir()] == ["evidence.json"]  # no temp file left


@pytest.mark.slow
def test_checks_are_null_when_coverage_is_unavailable(pytester, tmp_path):
    pytester.makepyfile(coverage="raise ImportError('coverage.py is not installed here')\n")
    pytester.makepyfile("""
        import pytest
        @pytest.mark.req("REQ-001")
        def test_no_assert():
            pass
    """)
    result, doc = run_with_evidence(pytester, tmp_path / "e.json", "--harness-reqs", "REQ-001", subprocess=True)
    assert result.ret == 0
    entry = doc["tests"]["test_checks_are_null_when_coverage_is_unavailable.py::test_no_assert"]
    assert entry["checks"] is None and entry["executed"] is None
    assert doc["requirements"]["REQ-001"]["status"] == "verified"
    assert doc["gate"] == {"passed": True, "reasons": []}


@pytest.mark.slow
def test_session_that_dies_leaves_the_previous_document_untouched(pytester, tmp_path):
    pytester.makepyfile("""
        import os, pytest
        @pytest.mark.req("REQ-001")
        def test_dies():
            os._exit(9)
    """)
    out = tmp_path / "e.json"
    out.write_text("previous")
    # the `=` form: with an existing PATH outside the project the space form makes pytest's rootdir
    # (which the plugin snapshots) the common parent, the whole basetemp (test_plugin_gate: #8846)
    result = pytester.runpytest_subprocess(*FAST, f"--harness-evidence={out}")
    assert result.ret == 9
    assert out.read_text() == "previous"
    assert [p.name for p in tmp_path.iterdir()] == ["e.json"]


def test_no_tests_collected_is_never_green(pytester, tmp_path):
    pytester.makepyfile("x = 1\n")
    result, doc = run_with_evidence(pytester, tmp_path / "e.json")
    assert result.ret == 5
    assert doc["complete"] is True and doc["session"]["collected"] == 0
    assert doc["gate"]["passed"] is False
    assert "no tests collected (pytest exit 5)" in doc["gate"]["reasons"]


@pytest.mark.slow
def test_collection_error_is_recorded_and_fails_the_gate(pytester, tmp_path):
    pytester.makepyfile(test_broken="import no_such_module_here\n")
    result, doc = run_with_evidence(pytester, tmp_path / "e.json", "--harness-reqs", "REQ-001")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert doc["collection_errors"][0]["nodeid"] == "test_broken.py"
    assert "no_such_module_here" in doc["collection_errors"][0]["failure"]
    assert "collection error: test_broken.py" in doc["gate"]["reasons"]


def test_malformed_markers_are_recorded_by_test_and_fail_the_gate(pytester, tmp_path):
    pytester.makepyfile(test_bad="""
        import pytest
        @pytest.mark.req("REQ-1x")
        def test_short():
            assert len("x") == 1
        @pytest.mark.req()
        def test_empty():
            assert len("x") == 1
        @pytest.mark.req("REQ-001", 7)
        def test_mixed():
            assert len("x") == 1
    """)
    result, doc = run_with_evidence(pytester, tmp_path / "e.json")
    assert result.ret == 0  # outcomes are not changed; only the gate fails
    result.assert_outcomes(passed=3)
    errors = {(e["nodeid"], e["value"]) for e in doc["marker_errors"]}
    assert errors == {("test_bad.py::test_short", "REQ-1x"), ("test_bad.py::test_empty", None),
                      ("test_bad.py::test_mixed", "7")}
    assert doc["requirements"]["REQ-001"]["status"] == "verified"
    assert sorted(doc["unlinked_tests"]) == ["test_bad.py::test_empty", "test_bad.py::test_short"]
    assert doc["gate"]["passed"] is False
    assert any("test_bad.py::test_short" in r and "'REQ-1x'" in r for r in doc["gate"]["reasons"])


def test_unknown_id_against_expected_set_from_env(pytester, tmp_path, monkeypatch):
    pytester.makepyfile(test_unknown="""
        import pytest
        @pytest.mark.req("REQ-099")
        def test_other():
            assert len("x") == 1
    """)
    out = tmp_path / "env.json"
    monkeypatch.setenv("HARNESS_EVIDENCE_PATH", str(out))
    monkeypatch.setenv("HARNESS_REQS", "REQ-001")
    monkeypatch.setenv("HARNESS_RUN_ID", "run_env")
    result = pytester.runpytest_inprocess(*FAST)
    doc = json.loads(out.read_text())
    assert result.ret == 0
    assert doc["run_id"] == "run_env"
    assert doc["unknown_requirement_ids"] == ["REQ-099"]
    assert doc["marker_errors"][0]["nodeid"] == "test_unknown.py::test_other"
    assert list(doc["requirements"]) == ["REQ-001"]
    assert doc["requirements"]["REQ-001"]["status"] == "uncovered"
    assert doc["gate"]["passed"] is False


def test_malformed_expected_ids_are_a_usage_error_naming_the_source(pytester, tmp_path):
    pytester.makepyfile("def test_ok():\n    assert True\n")
    result, doc = run_with_evidence(pytester, tmp_path / "e.json", "--harness-reqs", "REQ-001,REQ-2x")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--harness-reqs" in result.stderr.str() and "REQ-2x" in result.stderr.str()
    assert doc is None


def test_deselected_linked_test_is_not_run(pytester, tmp_path):
    pytester.makepyfile(test_canonical=CANONICAL.read_text())
    result, doc = run_with_evidence(pytester, tmp_path / "e.json", "--harness-reqs", ALL_REQS, "-k", "test_pass")
    assert result.ret == 0
    assert doc["session"]["collected"] == 1
    assert doc["tests"]["test_canonical.py::test_fail"]["outcome"] == "not_run"
    assert doc["requirements"]["REQ-002"]["status"] == "not_run"
    assert doc["requirements"]["REQ-001"]["status"] == "verified"
    assert "test_canonical.py::test_unlinked" not in doc["tests"]


def test_snapshot_is_taken_before_tests_run(pytester, tmp_path):
    pytester.makepyfile(test_writer="""
        from pathlib import Path
        import pytest
        @pytest.mark.req("REQ-001")
        def test_rewrites_notes():
            Path(__file__).with_name("notes.txt").write_text("after")
            assert Path(__file__).with_name("notes.txt").read_text() == "after"
    """)
    pytester.makefile(".txt", notes="before")
    _, doc = run_with_evidence(pytester, tmp_path / "e.json")
    recomputed = snapshot_files(pytester.path)
    assert changed_files(doc["snapshot"]["files"], recomputed["files"]) == ["notes.txt"]


def test_unwritable_evidence_path_is_an_internal_error(pytester, tmp_path):
    pytester.makepyfile("import pytest\n@pytest.mark.req('REQ-001')\ndef test_ok():\n    assert len('x') == 1\n")
    blocker = tmp_path / "file"
    blocker.write_text("")
    result, _ = run_with_evidence(pytester, blocker / "e.json")
    assert result.ret == pytest.ExitCode.INTERNAL_ERROR
    assert "could not write evidence" in result.stdout.str()


def _files(root: Path) -> list[Path]:
    """Files under root, minus bytecode caches and pytester's own stdout/stderr capture files."""
    return sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                  and p.name not in ("stdout", "stderr"))


@pytest.mark.slow
def test_plugin_is_inert_without_evidence(pytester, monkeypatch):
    pytester.makepyfile(test_canonical=CANONICAL.read_text())
    monkeypatch.setenv("HARNESS_REQS", "not-an-id")  # ignored unless evidence is requested
    before = _files(pytester.path)
    args = (*FAST, "-k", "not timeout")
    with_plugin = pytester.runpytest_subprocess(*args)
    without_plugin = pytester.runpytest_subprocess(*args, "-p", "no:harness")
    assert with_plugin.ret == without_plugin.ret == 1
    outcomes = [{k: v for k, v in r.parseoutcomes().items() if k != "warnings"}
                for r in (with_plugin, without_plugin)]
    assert outcomes[0] == outcomes[1]  # only the unknown-marker warnings differ
    assert "harness evidence" not in with_plugin.stdout.str()
    assert _files(pytester.path) == before


def _reverify_ok(run_id, runs_dir):
    return 7


def _reverify_unknown(run_id, runs_dir):
    from harness.errors import UnknownRunError
    raise UnknownRunError(f"no run {run_id!r}: list runs with `builder runs`")


@pytest.mark.parametrize("reverify, ret, stderr", [(_reverify_ok, 7, ""), (_reverify_unknown, 4, "no run 'run_x'")])
def test_harness_run_delegates_to_reverify_and_skips_collection(pytester, monkeypatch, reverify, ret, stderr):
    calls = []
    fake = types.ModuleType("harness.orchestration.reverify")
    fake.reverify_run = lambda run_id, runs_dir: calls.append((run_id, runs_dir)) or reverify(run_id, runs_dir)
    monkeypatch.setitem(sys.modules, "harness.orchestration.reverify", fake)
    pytester.makepyfile("def test_would_fail():\n    assert False\n")
    result = pytester.runpytest_inprocess(*FAST, "--harness-run", "run_x", "--harness-runs-dir", "myruns")
    assert result.ret == ret
    assert calls == [("run_x", pytester.path / "myruns")]
    assert "test_would_fail" not in result.stdout.str()
    assert stderr in result.stderr.str()
