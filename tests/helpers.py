"""Helpers shared by the harness's own tests: the Todo request, a scrubbed environment, the CLI
(in-process and as a real subprocess) and single pipeline stages."""

from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

TODO = "Build a Simple Todo App with add/list/complete"
SEED = "Build me a task management web app with authentication, projects, tasks, and a dashboard."


def clean_env(extra: dict | None = None) -> dict:
    """The test process's environment without OPENAI_* / HARNESS_* (module fixtures run before the
    autouse env scrubber), plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    env.update(extra or {})
    return env


def sandbox_opt_out_without_bwrap() -> dict:
    """{"HARNESS_SANDBOX": "none"} when no working bubblewrap is here, else {}: a test of something
    other than the sandbox that builds through a model (whose code `builder` refuses to run
    unsandboxed) states the documented opt-out on a machine without bubblewrap, and runs sandboxed,
    exactly as before, where bubblewrap works (CI installs it)."""
    from harness.sandbox import isolation

    return {} if isolation.bwrap_path() else {"HARNESS_SANDBOX": "none"}


def builder_argv(*args) -> list[str]:
    """`builder ARGS` as argv: the documented equivalent `python -m harness.cli` of this interpreter."""
    return [sys.executable, "-m", "harness.cli", *[str(a) for a in args]]


def run_builder(*args, cwd: Path | None = None, env: dict | None = None,
                timeout: float = 300) -> subprocess.CompletedProcess:
    """`builder ARGS` as a real subprocess with a scrubbed environment (plus `env`)."""
    return subprocess.run(builder_argv(*args), capture_output=True, text=True, cwd=cwd, env=clean_env(env),
                          timeout=timeout)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Run `builder <argv>` in-process; (exit code, stdout, stderr)."""
    from harness.cli import main

    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_spec_stage(store, run_id: str, llm):
    """Run only the pipeline's SPEC stage (with its transition and checkpoint) on a created run."""
    from harness.orchestration.context import RunContext
    from harness.orchestration.pipeline import STAGES, run_stage

    ctx = RunContext(store=store, state=store.load(run_id), llm=llm, say=lambda _line: None)
    run_stage(ctx, 1, STAGES[0])
    return ctx.state.spec


def write_files(files: dict[str, str], root: Path) -> Path:
    """Write {relative path: text} under `root` (parents created); returns `root`."""
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return root


@contextmanager
def warm_workers_stopped_after():
    """Stop every warm verification worker started inside the block, keep those that lived before it.

    A test's in-process verification (the verifier through runner.execute, without a pipeline run
    that stops its worker) would otherwise leave an idle worker — an interpreter holding pytest and
    fastapi — alive until the session ends; 15 were seen at once. Nothing is imported here: a
    session that never loaded harness.speed.warm.workers has no worker."""
    warm = sys.modules.get("harness.speed.warm.workers")
    before = set(warm._WORKERS) if warm is not None else set()
    try:
        yield
    finally:
        warm = sys.modules.get("harness.speed.warm.workers")
        for key in (set(warm._WORKERS) - before if warm is not None else ()):
            worker = warm._WORKERS.get(key)
            if worker is not None:
                warm.discard(worker)
