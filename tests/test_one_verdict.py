"""#12: `builder review`, `builder trace`, `pytest --harness-run`, the benchmark and the summary give
one verdict on one run, because they all read the reviewer's decision (review.json / the matrix)."""

import pytest
from run_copies import cli, harness_run_in_process, strip_markers

from harness.benchmarks import quick_checks
from harness.orchestration.context import RunContext
from harness.providers.mock import MockProvider


def verdicts(store, run_id, capsys, tmp_path) -> dict[str, bool]:
    d = str(store.base)
    harness = harness_run_in_process(run_id, store.base, tmp_path, capsys).returncode == 0
    review = cli(capsys, "review", run_id, "--runs-dir", d)[0] == 0
    trace = cli(capsys, "trace", run_id, "--runs-dir", d)[0] == 0
    state = store.load(run_id)
    checks = dict((name, ok) for name, ok, _ in quick_checks(RunContext(store, state, MockProvider())))
    stored = store.read_artifact(run_id, "review")["overall_status"] == "PASS"
    return {"pytest --harness-run": harness, "builder review": review, "builder trace": trace,
            "review.json": stored, "summary": state.review.overall_status == "PASS",
            "bench: review produced": checks["review produced"],
            "bench: trace coverage": checks["trace coverage 100%"]}


@pytest.mark.slow
@pytest.mark.parametrize("broken, expected", [(False, True), (True, False)])
def test_every_judge_gives_the_same_verdict(fresh_todo_run, capsys, tmp_path, broken, expected):
    store, run_id = fresh_todo_run
    if broken:
        assert strip_markers(store.workspace(run_id), "REQ-002")   # REQ-002: no test proves it any more
    seen = verdicts(store, run_id, capsys, tmp_path)
    assert set(seen.values()) == {expected}, seen
