"""`builder bench`: the Todo scenario check table, scaling runs, the plugin's overhead."""

from __future__ import annotations

from harness.commands.base import Command


def cmd_bench(args) -> int:
    from harness.benchmarks import run_bench

    if args.plugin_overhead:
        from harness.bench_plugin import run_plugin_overhead

        return run_plugin_overhead(args.plugin_overhead, args.rounds, args.pytest_arg, args.mark_tests)
    if args.fidelity:
        from harness.fidelity import run_fidelity

        return run_fidelity(spec_only=args.spec_only)
    return run_bench(quick=args.quick, scale=args.scale)


def _bench_arguments(p) -> None:
    p.add_argument("--quick", action="store_true", help="deterministic Todo scenario with a check table; warm builds (the median of three) and a cold build beside the measured floor (medians of its samples), with and without the mutation audit, and the audit's share; then `builder new` of the Todo request as a whole process (spawn to exit), with and without the audit, beside the same floor")
    p.add_argument("--scale", type=int, nargs="*", default=None, help="N-entity CRUD builds (default 1 5 20): the marginal cost per entity and the builder prompt size")
    p.add_argument("--plugin-overhead", metavar="DIR", default=None,
                   help="time DIR's own pytest suite without the plugin and with evidence recorded")
    p.add_argument("--rounds", type=int, default=3, help="rounds for --plugin-overhead (median; default 3)")
    p.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                   help="extra pytest argument for --plugin-overhead, e.g. --pytest-arg=-n2 (repeatable)")
    p.add_argument("--mark-tests", type=int, default=None, metavar="N",
                   help="with --plugin-overhead: mark N of the project's collected tests (spread evenly) with req ids "
                        "in both modes, for a project whose tests carry no markers")
    p.add_argument("--fidelity", action="store_true", help="build the real-request dev set (tests/data/requests) "
                   "and compare entities, fields, features and outcome with the expectations")
    p.add_argument("--spec-only", action="store_true", help="with --fidelity: only the spec stage (fast)")


BENCH = Command("bench", "benchmark: --quick checks the Todo scenario end to end", _bench_arguments, cmd_bench)
