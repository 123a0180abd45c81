"""The subcommands of `builder`, in --help order. Each is a `Command` (name, help, arguments,
run(args) -> exit code) declared in the module that holds its body; adding a command is a new
module (or function) plus one entry here."""

from __future__ import annotations

from harness.commands import adopt, audit, bench, build, judge, report, serve, spec_draft, view
from harness.commands.base import Command

COMMANDS: tuple[Command, ...] = (
    build.NEW, spec_draft.SPEC, build.RESUME, view.LOGS, view.STATUS, view.RUNS, judge.TRACE, judge.REVIEW, audit.AUDIT,
    report.REPORT, serve.SERVE, adopt.ADOPT,
    build.INJECT, bench.BENCH,
)
