"""What every subcommand shares: the Command shape, common options, the store and provider."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.state.store import RunStore


@dataclass(frozen=True)
class Command:
    """One `builder` subcommand: its name and help, its arguments, and run(args) -> exit code."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def runs_dir_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs-dir", default=None, help="runs directory (default $HARNESS_RUNS_DIR or ./runs)")


def budget_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--max-llm-calls", type=int, default=None, help="budget: model calls per run")
    p.add_argument("--max-tokens", type=int, default=None, help="budget: total tokens per run")
    p.add_argument("--max-minutes", type=float, default=None, help="budget: wall-clock minutes per run")


def run_id_options(p: argparse.ArgumentParser) -> None:
    """`<run_id> [--runs-dir DIR]`: the arguments of every command that reads one run."""
    p.add_argument("run_id")
    runs_dir_option(p)


def store_for(args) -> RunStore:
    return RunStore(Path(args.runs_dir or os.environ.get("HARNESS_RUNS_DIR") or "runs"))


def provider_for(args):
    """The run's (metered) provider. A live model's code runs only in a working sandbox, or when
    the user switched the sandbox off on purpose (isolation.require_sandbox_for_model_code)."""
    from harness.providers import get_provider
    from harness.providers.budget import Budget, MeteredProvider
    from harness.sandbox.isolation import require_sandbox_for_model_code

    provider = get_provider()
    if provider.is_live:
        require_sandbox_for_model_code()
    return MeteredProvider(provider, Budget.from_args(args))


def printer(args):
    if getattr(args, "quiet", False):
        return lambda line: None
    stream = sys.stderr if getattr(args, "json", False) else sys.stdout
    return lambda line: print(line, file=stream, flush=True)


def require_spec(state) -> None:
    from harness.errors import no_spec_error

    if state.spec is None:
        raise no_spec_error(state.run_id, state.status.value == "FAIL", state.error)
