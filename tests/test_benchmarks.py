"""`builder bench` helpers: the check table and the time split read real run data."""

import pytest

from harness.benchmarks import quick_checks, time_split
from harness.providers.mock import MockProvider
from harness.sandbox.local import LocalSandbox


def test_quick_checks_all_pass_on_a_real_todo_run(todo_run):
    _, ctx = todo_run
    checks = quick_checks(ctx)
    assert len(checks) == 10
    assert [name for name, ok, _ in checks if not ok] == []
    black_box = next(detail for name, _, detail in checks if name == "black-box acceptance")
    assert black_box.endswith(" checks") and black_box.split("/")[0] == black_box.split("/")[1].split()[0]


def test_time_split_prints_the_black_box_legs_share(todo_run):
    _, ctx = todo_run
    line = next(x for x in time_split(ctx, 10_000) if "acceptance (black-box)" in x)
    assert "% of the build" in line and "checks passed" in line


def test_quick_checks_fail_when_an_artifact_is_missing(fresh_todo_run):
    from harness.orchestration.context import RunContext
    from harness.providers.mock import MockProvider

    store, run_id = fresh_todo_run
    (store.run_dir(run_id) / "review.json").unlink()
    ctx = RunContext(store=store, state=store.load(run_id), llm=MockProvider())
    failed = {name for name, ok, _ in quick_checks(ctx) if not ok}
    assert failed == {"required artifacts exist"}


def test_time_split_reports_overhead_percentage(todo_run):
    _, ctx = todo_run
    lines = time_split(ctx, total_ms=ctx.subprocess_ms * 2)
    assert "harness overhead" in lines[-1] and "(50.0%)" in lines[-1]


def test_time_split_shows_the_audits_wall_time_beside_its_stage(todo_run):
    store, ctx = todo_run
    wall = store.read_audit(ctx.run_id)["duration_ms"] / 1000
    lines = time_split(ctx, total_ms=ctx.subprocess_ms * 2)
    shown = next(line for line in lines if line.startswith("  audit wall time"))
    assert shown.startswith(f"  audit wall time {wall:.2f}s, ") and "beside the runtime check" in shown


def test_ratio_line_gives_the_build_with_and_without_the_audit_and_its_share():
    from harness.benchmarks import ratio_line

    line = ratio_line(build_s=12.0, audit_s=3.0, floor_s=8.0)
    assert "with audit  12.00s = 1.50x floor (8.00s)" in line
    assert "without audit   9.00s = 1.12x" in line and "audit 3.00s = 25.0% of the build" in line


def test_runner_counts_name_reused_evidence_apart_from_warm_and_cold():
    from harness.benchmarks import runner_counts
    from harness.models.results import VerificationResult

    def r(runner, reused=None):
        return VerificationResult(task_id="T", status="PASS", command="pytest -q", exit_code=0, runner=runner,
                                  reused_from=reused)
    assert runner_counts([r("warm"), r("warm"), r("cold"), r("warm", "evidence/T-b001-1.json")]) == \
        "1 cold, 1 reused, 2 warm"
    suite = r("warm").model_copy(update={"task_id": "TASK-005", "tests": 25, "carried": 17})
    assert runner_counts([r("warm"), suite, suite.model_copy(update={"reused_from": "evidence/x.json"})]) == \
        "1 reused, 2 warm; TASK-005: 17 of 25 tests carried"


def test_scale_summary_reports_marginal_cost_between_sizes_and_prompt_growth():
    from harness.benchmarks import scale_summary

    lines = scale_summary({1: 10.0, 5: 14.0, 20: 29.0}, {1: 1000, 20: 1100})
    assert lines[0] == "marginal cost per added entity (1->20): 1.00s  (1->5: 1.00s, 5->20: 1.00s)"
    assert lines[1] == "builder prompt size, largest task (chars): 1000 at N=1, 1100 at N=20 (+10%)"
    assert scale_summary({5: 3.0}, {}) == []
    with_entity = scale_summary({1: 10.0, 5: 14.0, 20: 29.0}, {1: 1000, 20: 1100}, {1: 500, 5: 700, 20: 700})
    assert with_entity[2] == "builder prompt size, largest entity task (chars): 500 at N=1, 700 at N=5, 700 at N=20 (+40%)"


def test_scale_summary_reports_the_marginal_cpu_per_entity_when_measured():
    from harness.benchmarks import cpu_seconds, scale_summary

    lines = scale_summary({1: 10.0, 5: 14.0, 20: 29.0}, {}, None, {1: 8.0, 5: 12.0, 20: 42.0})
    assert lines[1] == "marginal CPU per added entity (1->20): 1.79s  (1->5: 1.00s, 5->20: 2.00s)"
    assert not any("CPU" in line for line in scale_summary({1: 10.0, 5: 14.0}, {}))
    before = cpu_seconds()
    sum(i * i for i in range(200_000))
    assert cpu_seconds() > before


def test_session_line_gives_entity_sessions_and_the_last_whole_suite_apart_from_reused_results():
    from harness.benchmarks import session_line
    from harness.models.results import VerificationResult
    from harness.models.run import RunState
    from harness.models.tasks import Plan, Task

    def result(task_id, command, ms, reused=None):
        return VerificationResult(task_id=task_id, status="PASS", command=command, exit_code=0,
                                  duration_ms=ms, reused_from=reused)

    state = RunState(run_id="r", trace_id="t", user_request="u",
                     plan=Plan(tasks=[Task(id="TASK-001", description="models", kind="models"),
                                           Task(id="TASK-002", description="a", kind="entity:a"),
                                           Task(id="TASK-003", description="b", kind="entity:b"),
                                           Task(id="TASK-004", description="app", kind="acceptance")]))
    state.verification_results = [
        result("TASK-001", "python -m pytest -q tests/test_models.py", 1000),
        result("TASK-002", "python -m pytest -q tests/test_api_a.py", 1500),
        result("TASK-003", "python -m pytest -q tests/test_api_b.py", 2500),
        result("TASK-004", "python -m pytest -q", 9000),
        result("WORKSPACE", "pytest -q", 0, reused="evidence/TASK-004.json")]
    assert session_line(state) == ("pytest sessions: entity tasks 2.00s mean (2, 4.0s), whole suite 9.0s, "
                                   "all 14.0s")
    state.verification_results = state.verification_results[:1]
    assert session_line(state) == "pytest sessions: entity tasks none, no whole suite, all 1.0s"


def test_prompt_sizes_are_the_builders_prompts_of_the_scale_plan():
    from harness.agents import builder
    from harness.agents.planner import fallback_plan
    from harness.agents.spec_agent import SpecAgent
    from harness.benchmarks import prompt_sizes, scale_request

    seen = prompt_sizes(2)
    plan = fallback_plan(SpecAgent(MockProvider()).fallback(scale_request(2)))
    assert len(seen) == len(plan.tasks)
    assert len(seen.entity) == sum(t.kind.startswith("entity:") for t in plan.tasks) == 2
    first = plan.tasks[0]
    assert seen[0] == len(builder.build_prompt(first, SpecAgent(MockProvider()).fallback(scale_request(2)), [],
                                               plan, None))
    assert all(0 < size <= builder.PROMPT_BUDGET_CHARS for size in seen)


def test_offline_builder_assembles_no_prompt_and_still_checks_the_budget(tmp_path, monkeypatch):
    """Regression (#19): without a model the builder assembled every task's prompt (0.7 s over the
    20-entity build's 24 tasks) and sent none. It still rejects a bad HARNESS_PROMPT_BUDGET_CHARS."""
    from harness.agents import builder
    from harness.agents.planner import fallback_plan
    from harness.agents.spec_agent import SpecAgent
    from harness.errors import ProviderConfigError
    from harness.tools.file_tools import FileTools

    spec = SpecAgent(MockProvider()).fallback("Build a Simple Todo App with add/list/complete")
    plan = fallback_plan(spec)
    task = plan.tasks[0]
    assembled = []
    real = builder.build_prompt
    monkeypatch.setattr(builder, "build_prompt", lambda *a, **k: assembled.append(a[0]) or real(*a, **k))
    written = builder.Builder(MockProvider()).build(task, spec, FileTools(LocalSandbox(tmp_path), task.files_touched), [],
                                                    plan=plan, workspace=tmp_path)
    assert written.source == "generator" and written.written and assembled == []
    builder.Builder(MockProvider(script=["{}", "{}"])).build(task, spec, FileTools(LocalSandbox(tmp_path), task.files_touched),
                                                               [], plan=plan, workspace=tmp_path)
    assert assembled == [task]  # a (scripted) model gets the prompt
    monkeypatch.setenv("HARNESS_PROMPT_BUDGET_CHARS", "lots")
    with pytest.raises(ProviderConfigError):
        builder.Builder(MockProvider()).build(task, spec, FileTools(LocalSandbox(tmp_path), task.files_touched), [], plan=plan,
                                              workspace=tmp_path)


def test_every_scale_noun_is_a_record_the_offline_rules_build():
    """Regression: 'warehouses', 'stores' and 'returns' were not understood offline, so the 20-entity
    scale build FAILed ('not built') and its marginal cost measured a failed build."""
    from harness.agents.spec_agent import SpecAgent
    from harness.benchmarks import SCALE_NOUNS
    from harness.providers.mock import MockProvider

    request = "Build a CRUD API for " + ", ".join(SCALE_NOUNS[:-1]) + " and " + SCALE_NOUNS[-1]
    spec = SpecAgent(MockProvider()).fallback(request)
    assert len(spec.data_model) == len(SCALE_NOUNS) == 20
    assert [c.status for c in spec.clauses] == ["mapped"]


def test_no_two_scale_nouns_may_be_one_record_bug():
    """Regression: 'suppliers' and 'vendors' are one group of harness/offline/words/same_records_en.txt,
    so since the accounting names a second noun for one record (#48, D6) the 20-entity scale request
    ended 'not built: "vendors" (may be the same record as supplier)' and `builder bench --scale
    ... 20` measured a refused build."""
    from pathlib import Path

    from harness.benchmarks import SCALE_NOUNS

    words = Path(__file__).parents[1] / "harness" / "offline" / "words" / "same_records_en.txt"
    groups = [set(line.split()) for line in words.read_text(encoding="utf-8").splitlines()
              if line.strip() and not line.startswith("#")]
    singular = {n.removesuffix("ies") + "y" if n.endswith("ies") else n.removesuffix("s") for n in SCALE_NOUNS}
    clashes = [sorted(g & singular) for g in groups if len(g & singular) > 1]
    assert clashes == []


def test_floor_lines_show_every_floor_sample_and_compare_with_their_medians(todo_run):
    from harness.benchmarks import floor_lines, median_floor

    _, ctx = todo_run
    floor = median_floor([(6.0, 2.0), (8.0, 4.0), (30.0, 9.0)])   # one slow sample moves no median
    assert floor == (8.0, 4.0, [8.0, 12.0, 39.0])
    lines = floor_lines(floor, [("warm", ctx, 24000.0)])
    assert "= 12.00s (medians of 3 samples, one after each build: 8.00s, 12.00s, 39.00s)" in lines[0]
    assert "with audit  24.00s = 2.00x floor (12.00s)" in lines[1]


def test_the_warm_figure_is_the_median_build_not_the_first_or_the_fastest():
    from harness.benchmarks import median_build

    builds = [("first", 6200.0, []), ("fast", 5200.0, []), ("middle", 5500.0, [])]
    assert median_build(builds)[0] == "middle"


def test_process_lines_give_each_whole_builder_new_as_a_ratio_to_the_same_floor(tmp_path):
    """#46: `bench --quick` reports `builder new` as a whole process (what a user waits for) beside
    the floor the same bench measured, with and without the audit; a failed process fails a check."""
    from harness.bench_process import ProcessBuild, process_checks, process_lines

    builds = [ProcessBuild("with audit", "builder new 'x'", 18.0, 0, tmp_path),
              ProcessBuild("without audit", "builder new 'x' --no-audit", 15.0, 1, tmp_path)]
    lines = process_lines(builds, floor_s=12.0)
    assert "whole process" in lines[0]
    assert "with audit" in lines[1] and "18.00s = 1.50x floor (12.00s), exit 0" in lines[1]
    assert "15.00s = 1.25x floor (12.00s), exit 1: builder new 'x' --no-audit" in lines[2]
    assert [(name, ok) for name, ok, _ in process_checks(builds)] == [
        ("whole process (with audit)", True), ("whole process (without audit)", False)]


@pytest.mark.slow
def test_builder_new_is_measured_as_its_own_process_that_builds_the_run(tmp_path):
    """The whole-process figure is of a real `builder new`: a child process that leaves a finished
    run (the floor is measured on workspaces like it)."""
    from harness.bench_process import measure

    sampled = []
    builds = measure("Build a Simple Todo App with add/list/complete", tmp_path / "runs", lambda: sampled.append(1))
    assert [b.label for b in builds] == ["with audit", "without audit"] and sampled == [1, 1]
    assert [b.exit_code for b in builds] == [0, 0]
    assert all((b.workspace / "src" / "main.py").is_file() for b in builds)
    from harness.state.store import RunStore

    store = RunStore(tmp_path / "runs")
    audited = [store.artifact_path(run_id, "audit").is_file() for run_id in ("process_with_audit", "process_without_audit")]
    assert audited == [True, False]
