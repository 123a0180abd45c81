"""`builder` command line: argparse only; main() is the one place errors become exit codes."""

from __future__ import annotations

import argparse
import signal
import sys
import threading

from harness import __version__, interrupts
from harness.errors import EXIT_USAGE, HarnessError

EPILOG = """exit codes:
  0   pass (BUILD COMPLETE / requirement gate met)
  1   build failed or a requirement is not PASS
  2   usage error (bad flag, bad request)
  3   run data problem (corrupt or contradictory run files, run locked)
  4   unknown run id
  75  temporary failure (LLM endpoint unavailable or budget exceeded); `builder resume <id>` continues
  130 interrupted by Ctrl+C, 143 by SIGTERM: the commands it started are stopped, the run is saved,
      and the message names it: `builder resume <id>` continues

output: colour only on a terminal (never when piped or with NO_COLOR set); while `new`/`resume`
work, a live line on a terminal shows the task, its stage and the time in it (plain lines when
piped); `status`, `runs` and `logs` take --json (logs: one JSON event per line).

environment: OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL (LLM path; without a key the offline
rule-based path is used), HARNESS_RUNS_DIR (default ./runs), HARNESS_MAX_LLM_CALLS,
HARNESS_MAX_TOKENS, HARNESS_MAX_MINUTES (run budgets)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        sys.stderr.write(f"builder: error: {message} (see `builder --help`)\n")
        raise SystemExit(EXIT_USAGE)


def _runs_dir(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs-dir", default=None, help="runs directory (default $HARNESS_RUNS_DIR or ./runs)")


def _budget(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-llm-calls", type=int, default=None, help="budget: model calls per run")
    p.add_argument("--max-tokens", type=int, default=None, help="budget: total tokens per run")
    p.add_argument("--max-minutes", type=float, default=None, help="budget: wall-clock minutes per run")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="builder", description="App-Builder Harness: request -> verified FastAPI + SQLite app.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"builder {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("new", help="build an app from a request (SPEC -> PLAN -> BUILD -> VERIFY -> REVIEW)")
    p.add_argument("request", nargs="?", default=None, help="what to build, in plain words")
    p.add_argument("--spec", metavar="APP.toml", default=None,
                   help="build exactly the AppSpec in this TOML file instead of a request (examples/club_bookings.toml)")

    _runs_dir(p)
    p.add_argument("--run-id", default=None, help="name the run (e.g. demo_todo) instead of run_XXXXXXXX")
    p.add_argument("--quiet", action="store_true", help="print only the final status line")
    p.add_argument("--json", action="store_true", help="print the final result as JSON on stdout")
    p.add_argument("--no-repair", action="store_true", help="do not attempt repairs of failed tasks")
    _budget(p)

    p = sub.add_parser("resume", help="continue an interrupted run from its checkpoints")
    p.add_argument("run_id")
    _runs_dir(p)
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--json", action="store_true")
    _budget(p)

    p = sub.add_parser("logs", help="readable events of a run")
    p.add_argument("run_id")
    _runs_dir(p)
    p.add_argument("--follow", "-f", action="store_true", help="keep printing new events")
    p.add_argument("--stage", default=None)
    p.add_argument("--task", default=None)
    p.add_argument("--tail", type=int, default=None, help="only the last N events")
    p.add_argument("--json", action="store_true", help="one JSON event per line (as stored in events.log)")

    p = sub.add_parser("status", help="handoff view: run, tasks, requirements, next step")
    p.add_argument("run_id")
    _runs_dir(p)
    p.add_argument("--json", action="store_true", help="print the status as one JSON document")

    p = sub.add_parser("runs", help="list runs with status and request")
    _runs_dir(p)
    p.add_argument("--json", action="store_true", help="print the runs as a JSON list")

    p = sub.add_parser("trace", help="print the traceability matrix; gate on coverage")
    p.add_argument("run_id")
    _runs_dir(p)
    p.add_argument("--fail-under", type=float, default=100.0, help="minimum %% of PASS requirements (default 100)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("review", help="re-review a run from its evidence (recomputes hashes)")
    p.add_argument("run_id")
    _runs_dir(p)
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("report", help="write runs/<id>/report.html: one self-contained page of the run")
    p.add_argument("run_id")
    _runs_dir(p)

    p = sub.add_parser("inject", help="inject a fault into a finished run and run verify -> repair -> review")
    p.add_argument("run_id")
    p.add_argument("fault", choices=["syntax-error", "name-error", "delete", "empty"])
    p.add_argument("--file", default="src/main.py", help="workspace file to break (default src/main.py)")
    p.add_argument("--no-op-repair", action="store_true", help="repair that changes nothing (proves loop detection)")
    _runs_dir(p)

    p = sub.add_parser("bench", help="benchmark: --quick checks the Todo scenario end to end")
    p.add_argument("--quick", action="store_true", help="deterministic Todo scenario with a check table")
    p.add_argument("--scale", type=int, nargs="*", default=None, help="N-entity CRUD builds (default 1 5 20)")
    p.add_argument("--plugin-overhead", metavar="DIR", default=None,
                   help="time DIR's own pytest suite without the plugin and with evidence recorded")
    p.add_argument("--rounds", type=int, default=3, help="rounds for --plugin-overhead (median; default 3)")
    p.add_argument("--pytest-arg", action="append", default=[], metavar="ARG",
                   help="extra pytest argument for --plugin-overhead, e.g. --pytest-arg=-n2 (repeatable)")
    return parser


def main(argv: list[str] | None = None) -> int:
    from harness import commands
    from harness.sandbox.secrets import adopt_secrets, reexec_without_secrets

    if argv is None:  # the real command line: no child may find the key in our exec environment
        reexec_without_secrets(sys.argv[1:])
        adopt_secrets()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    previous = _sigterm_raises()
    try:
        return commands.dispatch(args)
    except HarnessError as exc:
        sys.stderr.write(f"builder: {exc}\n")
        return exc.exit_code
    except interrupts.INTERRUPTS as exc:
        sys.stderr.write(interrupts.message(exc) + "\n")
        return interrupts.exit_code(exc)
    except BrokenPipeError:
        return 0
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _sigterm_raises():
    """Install the SIGTERM handler (main thread only); return the handler to restore."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGTERM) or signal.SIG_DFL
    interrupts.install_sigterm()
    return previous


if __name__ == "__main__":
    raise SystemExit(main())
