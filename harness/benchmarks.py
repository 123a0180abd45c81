"""`builder bench`: the deterministic Todo scenario with a check table, and scaling runs."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from harness.errors import EXIT_BUILD_FAILED, EXIT_OK, HarnessError
from harness.providers.mock import MockProvider
from harness.state.store import RunStore
from harness.utils.events import EVENT_KEYS, read_events

TODO_REQUEST = "Build a Simple Todo App with add/list/complete"
# Nouns the offline rules understand as records (a request naming one they don't is honestly
# "not built", which would make the scale run measure a failed build).
SCALE_NOUNS = ["products", "suppliers", "customers", "orders", "invoices", "shipments", "employees",
               "departments", "warehouses", "contracts", "payments", "categories", "brands", "coupons",
               "reviews", "carriers", "regions", "projects", "tasks", "notes"]
REQUIRED_ARTIFACTS = ("spec", "tasks", "verification", "review")
# Warm Todo builds `bench --quick` times (the median is compared with the floor's medians): one
# build swung 5.2-6.2 s between runs on this shared 2-core machine.
WARM_BUILDS = 3


def scale_request(n: int) -> str:
    """`Build a CRUD API for products, suppliers and customers` for n = 3 (n ≤ len(SCALE_NOUNS))."""
    nouns = SCALE_NOUNS[:n]
    return "Build a CRUD API for " + (", ".join(nouns[:-1]) + " and " + nouns[-1] if n > 1 else nouns[0])


def _build(request: str, runs: Path):
    from harness.orchestration.pipeline import new_run

    lines: list[str] = []
    started = time.monotonic()
    ctx = new_run(RunStore(runs), request, MockProvider(), say=lines.append)
    return ctx, (time.monotonic() - started) * 1000, lines


def quick_checks(ctx) -> list[tuple[str, bool, str]]:
    """(name, ok, detail) for every item of SPEC M11 plus event keys and trace coverage."""
    st = ctx.state
    store = ctx.store
    events = read_events(store.events_path(ctx.run_id))
    files = [p for p in ctx.workspace.rglob("*") if p.is_file()]
    verified = [r for r in st.verification_results if r.exit_code is not None]
    matrix = store.read_matrix(ctx.run_id)
    required = [store.state_path(ctx.run_id), store.events_path(ctx.run_id),
                *(store.artifact_path(ctx.run_id, name) for name in REQUIRED_ARTIFACTS)]
    missing = [store.relative(ctx.run_id, p) for p in required if not p.exists()]
    bad_events = [e for e in events if any(k not in e for k in EVENT_KEYS)]
    return [
        ("spec generated", bool(st.spec and st.spec.requirements), f"{len(st.spec.requirements) if st.spec else 0} requirements"),
        ("plan generated", bool(st.plan and st.plan.tasks), f"{len(st.plan.tasks) if st.plan else 0} tasks"),
        ("files written", len(files) > 0, f"{len(files)} files in workspace"),
        ("verification executed", bool(verified) and all(r.status == "PASS" for r in verified[-1:]),
         f"{len(verified)} commands run"),
        ("runtime checked", bool(st.runtime and st.runtime.status == "PASS"), st.runtime.status if st.runtime else "none"),
        ("review produced", bool(st.review and st.review.overall_status == "PASS"),
         st.review.overall_status if st.review else "none"),
        ("required artifacts exist", not missing, "missing: " + ", ".join(missing) if missing else "all present"),
        ("events carry required keys", bool(events) and not bad_events, f"{len(events)} events, {len(bad_events)} incomplete"),
        ("black-box acceptance", _acceptance_ok(st.runtime), _acceptance_detail(st.runtime)),
        ("trace coverage 100%", matrix is not None and matrix.coverage_pct == 100.0,
     f"{matrix.coverage_pct if matrix else None}%"),
    ]


def _acceptance_ok(runtime) -> bool:
    return bool(runtime and runtime.acceptance and all(c.ok for c in runtime.acceptance))


def _acceptance_detail(runtime) -> str:
    if runtime is None or runtime.acceptance is None:
        return "not run"
    return f"{sum(c.ok for c in runtime.acceptance)}/{len(runtime.acceptance)} checks"


def time_split(ctx, total_ms: float) -> list[str]:
    sub = ctx.subprocess_ms
    overhead = max(0.0, total_ms - sub)
    lines = [f"  {stage:<7} {ms / 1000:6.2f}s" for stage, ms in ctx.timings.items()]
    if "AUDIT" in ctx.timings:
        lines.append(f"  audit share {ctx.timings['AUDIT'] / 1000:.2f}s of {total_ms / 1000:.2f}s "
                     f"({100 * ctx.timings['AUDIT'] / max(total_ms, 1):.1f}% of the build)")
        wall_ms = (ctx.store.read_audit(ctx.run_id) or {}).get("duration_ms")
        if wall_ms:  # the audit starts beside the runtime check (harness/speed/audit_ahead.py)
            lines.append(f"  audit wall time {wall_ms / 1000:.2f}s, {max(0, wall_ms - ctx.timings['AUDIT']) / 1000:.2f}s "
                         f"of it beside the runtime check, before the AUDIT stage")
    lines += acceptance_share(ctx, total_ms)
    lines.append(f"  total   {total_ms / 1000:6.2f}s  subprocesses (pytest, uvicorn) {sub / 1000:.2f}s  "
                 f"harness overhead {overhead / 1000:.2f}s ({100 * overhead / max(total_ms, 1):.1f}%)")
    return lines


def acceptance_share(ctx, total_ms: float) -> list[str]:
    """The black-box leg's time (harness/acceptance, inside the runtime check) and its share."""
    runtime = ctx.state.runtime
    if runtime is None or runtime.acceptance is None:
        return ["  acceptance (black-box) not run"]
    checks = [c for c in runtime.acceptance if c.source != "n/a"]
    ok = sum(c.ok for c in checks)
    return [f"  acceptance (black-box) {runtime.acceptance_ms / 1000:.2f}s of {total_ms / 1000:.2f}s "
            f"({100 * runtime.acceptance_ms / max(total_ms, 1):.1f}% of the build; {ok}/{len(checks)} checks passed, "
            f"run inside the runtime check)"]


# Harness modules a build imports on first use. The second (cold) build of `bench --quick` finds
# them imported; the first (warm) one paid for them (~0.6 s here, where PYTHONDONTWRITEBYTECODE=1
# leaves the harness without a bytecode cache). Both builds now start with them imported.
BUILD_IMPORTS = ("harness.offline.spec", "harness.verification.verifier", "harness.verification.runtime",
                 "harness.verification.classifier", "harness.speed.warm.workers", "harness.speed.door",
                 "harness.speed.runners", "harness.speed.validity", "harness.speed.audit_ahead",
                 "harness.speed.runtime_ahead", "harness.speed.warm_start", "harness.speed.server_prestart")


def import_build_modules() -> float:
    """Import BUILD_IMPORTS; the seconds it took."""
    import importlib

    started = time.monotonic()
    for name in BUILD_IMPORTS:
        importlib.import_module(name)
    return time.monotonic() - started


def bench_quick() -> int:
    from harness.bench_floor import floor_s
    from harness.bench_process import measure, process_checks, process_lines

    imports_s = import_build_modules()
    with tempfile.TemporaryDirectory(prefix="builder-bench-") as tmp:
        try:
            warm = [_build(TODO_REQUEST, Path(tmp) / "runs")]
            samples = [floor_s(warm[0][0].workspace)]
            with _warm_off():
                cold_ctx, cold_ms, _ = _build(TODO_REQUEST, Path(tmp) / "cold-runs")
            samples.append(floor_s(warm[0][0].workspace))  # the machine's load moves: one sample after each build
            for n in range(1, WARM_BUILDS):
                warm.append(_build(TODO_REQUEST, Path(tmp) / f"runs-{n}"))
                samples.append(floor_s(warm[0][0].workspace))
            process = measure(TODO_REQUEST, Path(tmp) / "process-runs",  # `builder new` as its own process
                              lambda: samples.append(floor_s(warm[0][0].workspace)))
            floor = median_floor(samples)
        except HarnessError as exc:
            print(f"bench: the Todo scenario failed to run: {exc}")
            return EXIT_BUILD_FAILED
        ctx, total_ms, _ = median_build(warm)
        checks = quick_checks(warm[0][0]) + [(f"{name} (warm build {n + 1})", ok, detail)
                                             for n, build in enumerate(warm[1:], start=1)
                                             for name, ok, detail in quick_checks(build[0]) if not ok] \
            + process_checks(process)
        print(f"bench --quick: {TODO_REQUEST!r}")
        for name, ok, detail in checks:
            print(f"  [{'PASS' if ok else 'FAIL'}] {name:<28} {detail}")
        print(f"time split (the harness's lazily imported modules were imported before both builds, {imports_s:.2f}s):")
        for line in time_split(ctx, total_ms):
            print(line)
        from harness.bench_toolz import toolz_overhead_line

        print(toolz_overhead_line(), flush=True)  # evidence (coverage + checks) vs bare pytest on toolz
        lines = floor_lines(floor, [("warm", ctx, total_ms), ("cold", cold_ctx, cold_ms)])
        lines.insert(3, f"              the median of {len(warm)} warm builds "
                        f"({', '.join(f'{build[1] / 1000:.2f}s' for build in warm)}), each checked as above")
        for line in lines + process_lines(process, floor[0] + floor[1]):
            print(line)
        ok = all(c[1] for c in checks)
        print("BENCH PASS" if ok else "BENCH FAIL")
        return EXIT_OK if ok else EXIT_BUILD_FAILED


def median_build(builds: list[tuple]) -> tuple:
    """The build (ctx, total ms, lines) whose wall time is the median of `builds` (an odd count)."""
    return sorted(builds, key=lambda build: build[1])[len(builds) // 2]


def _warm_off():
    """HARNESS_WARM=0 for a comparison build: every command runs as a cold subprocess."""
    import contextlib
    import os

    from harness.utils.speed_switch import ENV_WARM

    @contextlib.contextmanager
    def _cm():
        old, os.environ[ENV_WARM] = os.environ.get(ENV_WARM), "0"
        try:
            yield
        finally:
            os.environ.pop(ENV_WARM) if old is None else os.environ.__setitem__(ENV_WARM, old)
    return _cm()


def median_floor(samples: list[tuple[float, float]]) -> tuple[float, float, list[float]]:
    """(median pytest floor, median uvicorn floor, each sample's total) of the floor samples: on a
    shared machine one slow sample moves a mean, not a median."""
    import statistics

    return (statistics.median(p for p, _ in samples), statistics.median(u for _, u in samples),
            [p + u for p, u in samples])


def floor_lines(floor: tuple, builds: list[tuple[str, object, float]]) -> list[str]:
    """The floor beside each build's wall time, as ratios with and without the mutation audit (the
    build minus its AUDIT stage), the audit's share, and which runner served its commands."""
    pytest_s, uvicorn_s = floor[:2]
    total = pytest_s + uvicorn_s
    shown = floor[2] if len(floor) > 2 else [total]
    lines = [f"floor: one cold pytest of the finished workspace {pytest_s:.2f}s + uvicorn to /health 200 "
             f"{uvicorn_s:.2f}s = {total:.2f}s"
             + (f" (medians of {len(shown)} samples, one after each build: "
                f"{', '.join(f'{t:.2f}s' for t in shown)})" if len(shown) > 1 else "")]
    for label, ctx, ms in builds:
        lines.append(f"  build, {label:<4} {ratio_line(ms / 1000, ctx.timings.get('AUDIT', 0) / 1000, total)}")
        lines.append(f"              pytest commands: {runner_counts(ctx.state.verification_results)}")
    return lines


def ratio_line(build_s: float, audit_s: float, floor_s: float) -> str:
    """`with audit 12.30s = 1.50x floor; without 9.80s = 1.20x; audit 2.50s = 20.3% of the build`."""
    without = build_s - audit_s
    return (f"with audit {build_s:6.2f}s = {build_s / floor_s:.2f}x floor ({floor_s:.2f}s); "
            f"without audit {without:6.2f}s = {without / floor_s:.2f}x; "
            f"audit {audit_s:.2f}s = {100 * audit_s / max(build_s, 1e-9):.1f}% of the build")


def runner_counts(results) -> str:
    """`5 warm, 1 reused`: how the build's verification commands were served."""
    kinds = ["reused" if r.reused_from else (r.runner or "?") for r in results]
    line = ", ".join(f"{kinds.count(k)} {k}" for k in sorted(set(kinds)))
    carried = [r for r in results if r.carried and not r.reused_from]
    if carried:  # the whole-suite session's tests the task sessions had already proved (carry.py)
        line += "; " + ", ".join(f"{r.task_id}: {r.carried} of {r.tests} tests carried" for r in carried)
    return line


def bench_scale(sizes: list[int]) -> int:
    """N-entity CRUD builds: wall time, stage times, the builder prompts' size (each task's prompt
    assembled as the builder would for a model: `prompt_sizes`), and the marginal cost per added entity."""
    print(f"{'N':>3} {'status':<6} {'total':>8} {'per-entity':>10}  {'prompt max/mean':>15}  {'entity task':>11}  stages")
    worst = EXIT_OK
    totals: dict[int, float] = {}
    prompts: dict[int, int] = {}
    entity_prompts: dict[int, int] = {}
    entity_roles: dict[int, tuple[int, int]] = {}
    cpus: dict[int, float] = {}
    for n in sizes:
        request = scale_request(n)
        sizes_seen = prompt_sizes(n)
        with tempfile.TemporaryDirectory(prefix="builder-scale-") as tmp:
            cpu_before = cpu_seconds()
            try:
                ctx, total_ms, _ = _build(request, Path(tmp) / "runs")
            except HarnessError as exc:
                print(f"{n:>3} ERROR  {exc}")
                worst = EXIT_BUILD_FAILED
                continue
            status = ctx.state.review.overall_status if ctx.state.review else "FAIL"
            stages = " ".join(f"{k}={v / 1000:.2f}s" for k, v in ctx.timings.items())
            most = max(sizes_seen, default=0)
            mean = sum(sizes_seen) // max(len(sizes_seen), 1)
            entity = max(sizes_seen.entity, default=0)
            print(f"{n:>3} {status:<6} {total_ms / 1000:7.2f}s {total_ms / 1000 / n:9.2f}s  "
                  f"{most:>7}/{mean:<7}  {entity:>11}  {stages}  llm tokens {ctx.state.llm_tokens}", flush=True)
            cpu = cpu_seconds() - cpu_before
            print(f"    {session_line(ctx.state)}; cpu {cpu:.1f}s", flush=True)
            if status != "PASS":  # a failed build is no measure of the cost of an entity
                worst = EXIT_BUILD_FAILED
                continue
            totals[n] = total_ms / 1000
            prompts[n] = most
            entity_prompts[n] = entity
            entity_roles[n] = (sizes_seen.entity[0] if sizes_seen.entity else 0, max(sizes_seen.entity[1:], default=0))
            cpus[n] = cpu
    for line in scale_summary(totals, prompts, entity_prompts, cpus) + entity_role_lines(entity_roles):
        print(line)
    if prompts:
        from harness.agents.builder import PROMPT_BUDGET_CHARS

        print(f"builder prompt budget: {PROMPT_BUDGET_CHARS} characters, the whole prompt (largest seen: "
              f"{max(prompts.values())})")
    return worst


def session_line(state) -> str:
    """`pytest sessions: entity tasks 1.52s mean (20, 30.4s), whole suite 41.2s, all 80.1s`: what
    the build's verification sessions took (duration_ms of each result; reused ones cost nothing)."""
    kinds = {t.id: t.kind for t in (state.plan.tasks if state.plan else [])}
    ran = [r for r in state.verification_results if not r.reused_from]
    entity = [r.duration_ms / 1000 for r in ran if kinds.get(r.task_id, "").startswith("entity")]
    suite = [r.duration_ms / 1000 for r in ran if r.command.split() in (["pytest", "-q"], ["python", "-m", "pytest", "-q"])]
    mean = f"{sum(entity) / len(entity):.2f}s mean ({len(entity)}, {sum(entity):.1f}s)" if entity else "none"
    return (f"pytest sessions: entity tasks {mean}, whole suite {suite[-1]:.1f}s" if suite else
            f"pytest sessions: entity tasks {mean}, no whole suite") + f", all {sum(r.duration_ms for r in ran) / 1000:.1f}s"


def cpu_seconds() -> float:
    """CPU seconds of this process and of every process it has reaped (the warm workers, their
    forked sessions, uvicorn): a build's figure moves less with the machine's load than its wall time."""
    import resource

    own, reaped = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + reaped.ru_utime + reaped.ru_stime


def scale_summary(totals: dict[int, float], prompts: dict[int, int],
                  entity_prompts: dict[int, int] | None = None, cpus: dict[int, float] | None = None) -> list[str]:
    """Marginal cost per added entity (overall and between neighbouring sizes) and prompt growth
    (the largest task's; and the largest entity task's, one entity's CRUD), over the sizes whose
    build passed."""
    if len(totals) < 2:
        return []
    sizes = sorted(totals)
    lo, hi = sizes[0], sizes[-1]
    steps = ", ".join(f"{a}->{b}: {(totals[b] - totals[a]) / (b - a):.2f}s" for a, b in zip(sizes, sizes[1:]))
    lines = [f"marginal cost per added entity ({lo}->{hi}): {(totals[hi] - totals[lo]) / (hi - lo):.2f}s  ({steps})"]
    if cpus and lo in cpus and hi in cpus:
        cpu_steps = ", ".join(f"{a}->{b}: {(cpus[b] - cpus[a]) / (b - a):.2f}s" for a, b in zip(sizes, sizes[1:])
                              if a in cpus and b in cpus)
        lines.append(f"marginal CPU per added entity ({lo}->{hi}): {(cpus[hi] - cpus[lo]) / (hi - lo):.2f}s  ({cpu_steps})")
    if prompts.get(lo) and prompts.get(hi):
        lines.append(f"builder prompt size, largest task (chars): {prompts[lo]} at N={lo}, {prompts[hi]} at N={hi} "
                     f"({100 * (prompts[hi] - prompts[lo]) / prompts[lo]:+.0f}%)")
    entity = {n: size for n, size in (entity_prompts or {}).items() if size and n in totals}
    if len(entity) >= 2:
        shown = ", ".join(f"{entity[n]} at N={n}" for n in sorted(entity))
        first, last = entity[min(entity)], entity[max(entity)]
        lines.append(f"builder prompt size, largest entity task (chars): {shown} ({100 * (last - first) / first:+.0f}%)")
    return lines


def entity_role_lines(roles: dict[int, tuple[int, int]]) -> list[str]:
    """The entity tasks' prompts like for like: the first entity task (it writes the shared helpers
    and has no sibling to read, the only one at N=1) and the largest of the others, per size."""
    first = {n: a for n, (a, _) in sorted(roles.items()) if a}
    others = {n: b for n, (_, b) in sorted(roles.items()) if b}
    if len(first) < 2:
        return []
    line = ("builder prompt size, first entity task (chars): " + ", ".join(f"{v} at N={n}" for n, v in first.items()))
    if len(others) >= 2:
        lo, hi = others[min(others)], others[max(others)]
        line += ("; the other entity tasks' largest: " + ", ".join(f"{v} at N={n}" for n, v in others.items())
                 + f" ({100 * (hi - lo) / lo:+.0f}%)")
    return [line]


class PromptSizes(list):
    """Every builder prompt's length, and (`entity`) those of the entity tasks."""

    def __init__(self) -> None:
        super().__init__()
        self.entity: list[int] = []


def prompt_sizes(n: int) -> PromptSizes:
    """The length of every builder prompt of the n-entity scale request (`assembled_prompts`: each
    task's prompt as the builder would send it to a model; an offline build sends and assembles none)."""
    seen = PromptSizes()
    for task, prompt in assembled_prompts(n):
        seen.append(len(prompt))
        if task.kind.startswith("entity:"):
            seen.entity.append(len(prompt))
    return seen


def assembled_prompts(n: int, budget: int | None = None) -> list[tuple[object, str]]:
    """(task, builder prompt) for every task of the n-entity scale request's offline plan, without a
    build: each prompt assembled as the builder would (`build_prompt`) over a workspace holding what
    the tasks before it wrote (the generator's units, in plan order) and PASS results of its
    dependencies. Seconds instead of the minutes of `builder bench --scale`'s full builds."""
    from harness.agents import builder
    from harness.agents.planner import fallback_plan
    from harness.agents.spec_agent import SpecAgent
    from harness.models.results import VerificationResult
    from harness.offline.generator import generate_unit

    spec = SpecAgent(MockProvider()).fallback(scale_request(n))
    plan = fallback_plan(spec)
    out, results = [], []
    extra = {} if budget is None else {"budget": budget}
    with tempfile.TemporaryDirectory(prefix="builder-prompts-") as tmp:
        workspace = Path(tmp)
        for task in plan.tasks:
            deps = [r for r in results if r.task_id in task.depends_on]
            out.append((task, builder.build_prompt(task, spec, deps, plan, workspace, **extra)))
            for rel, text in generate_unit(spec, task.kind).items():
                path = workspace / rel
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
            results.append(VerificationResult(task_id=task.id, status="PASS", exit_code=0,
                                              command=task.verification[0] if task.verification else "pytest -q"))
    return out


def run_bench(quick: bool = False, scale: list[int] | None = None) -> int:
    if scale is not None:
        return bench_scale([n for n in (scale or [1, 5, 20]) if n > 0])
    return bench_quick()
