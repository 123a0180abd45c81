"""`builder` command line: parse, dispatch to harness/commands/, and turn errors into exit codes
(main() is the only place that does)."""

from __future__ import annotations

if __name__ == "__main__":  # `python -m harness.cli`: a signal while the modules load exits quietly
    from harness.interrupts import guard_startup

    guard_startup()

import argparse
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
piped); `new`, `resume`, `trace`, `review`, `status`, `runs` and `logs` take --json (logs: one JSON event per line).

environment: OPENAI_API_KEY, OPENAI_BASE_URL, OPENAI_MODEL (LLM path; without a key the offline
rule-based path is used), HARNESS_RUNS_DIR (default ./runs), HARNESS_MAX_LLM_CALLS,
HARNESS_MAX_TOKENS, HARNESS_MAX_MINUTES (run budgets), HARNESS_SANDBOX=none (run workspace code
without bubblewrap; the run then says `isolation: none (install bubblewrap)`; without a working
bubblewrap an LLM run refuses to start unless this is set)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, no usage dump
        sys.stderr.write(f"builder: error: {message} (see `builder --help`)\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    """The `builder` parser: global flags, then one subparser per entry of harness.commands.COMMANDS."""
    from harness.commands import COMMANDS

    parser = _Parser(prog="builder", description="App-Builder Harness: request -> verified FastAPI + SQLite app.",
                     epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"builder {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in COMMANDS:
        command.arguments(sub.add_parser(command.name, help=command.help))
    return parser


def dispatch(args: argparse.Namespace) -> int:
    """Run the parsed subcommand's body."""
    from harness.commands import COMMANDS

    return next(c for c in COMMANDS if c.name == args.command).run(args)


def main(argv: list[str] | None = None) -> int:
    """`builder ARGV`. With argv None (the real command line) a signal before the command starts
    exits at once (nothing to save; an exception raised inside a native module's import would
    crash it instead), and after an interrupt every process it started is ended and it exits
    without waiting for background threads."""
    from harness.sandbox.procs import make_nondumpable
    from harness.sandbox.secrets import adopt_secrets, reexec_without_secrets

    make_nondumpable()  # before the key is read: no same-uid process may read this memory
    if argv is None:  # the real command line: no child may find the key in our exec environment
        interrupts.guard_startup()
        reexec_without_secrets(sys.argv[1:])
        adopt_secrets()
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return EXIT_USAGE
    previous = interrupts.install() if threading.current_thread() is threading.main_thread() else None
    try:
        return dispatch(args)
    except HarnessError as exc:
        sys.stderr.write(f"builder: {exc}\n")
        return exc.exit_code
    except interrupts.INTERRUPTS as exc:
        sys.stderr.write(interrupts.message(exc) + "\n")
        if argv is None:
            interrupts.stop_now(interrupts.exit_code(exc))
        return interrupts.exit_code(exc)
    except BrokenPipeError:
        return 0
    finally:
        if previous is not None:
            interrupts.restore(previous)


if __name__ == "__main__":
    raise SystemExit(main())
