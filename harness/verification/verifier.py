"""Verifier: runs a task's verification commands for real, through the pytest_harness plugin."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Protocol

from harness.models.enums import FailureType
from harness.models.results import VerificationResult
from harness.models.tasks import Task
from harness.sandbox import workspace_guard
from harness.sandbox.bytecode import BytecodeError, drop_caches
from harness.sandbox.isolation import isolation_label
from harness.sandbox.local import DEFAULT_TIMEOUT_S, LocalSandbox
from harness.sandbox.workspace_guard import WorkspaceGuard
from harness.utils import own_tmp
from harness.verification.carry_inputs import carried_counts, is_whole_suite, stage
from harness.sandbox.judged_files import Refused, copy_regular
from harness.verification.outbox import OUTBOX
from harness.verification.evidence_inputs import NO_DIGEST, DigestPipe, document_digest, req_files_arg

DEFAULT_COMMAND = "pytest -q"
PER_TEST_TIMEOUT_S = 60
TAIL = 4000
_OUTBOX = re.compile(re.escape(tempfile.gettempdir()) + r"/(?:harness-warm-[\w-]+/(?:clone-\w+/)?)?harness-out-[\w-]+/evidence\.json")


class Runner(Protocol):
    """How a verification command may run besides cold (harness/speed/runners.py: the warm worker).

    `session(probe, root, env)`: a session able to run this command, or None (run it cold). A
    session has `outbox()` (a fresh scratch directory the sandbox can write) and `execute(argv, *,
    cwd, env, timeout_s, pass_fds, writable)` -> ExecResult, or None when the session crashed (the
    command then runs cold, once); `writable` are its outboxes, the only places it may write. The verifier never starts or reaches a worker itself.
    `release(place)`: end whatever serves commands in `place` (the audit clearing its scratch lanes).
    `retry_cold` (optional, default True): False when a crashed session must not be retried cold
    (work started early, harness/speed/suite_ahead.py: the command then fails and is run again
    where it belongs).
    """

    def session(self, probe: list[str], root: Path, env: dict[str, str]): ...

    def release(self, place: Path) -> None: ...


def is_pytest(argv: list[str]) -> bool:
    return bool(argv) and (argv[0] == "pytest" or argv[1:3] == ["-m", "pytest"])


def _requirements(workspace: Path | None) -> str:
    return (LocalSandbox(workspace).read_if_file("requirements.txt") if workspace else None) or ""


def command_argv(command: str, evidence_path: Path | None, reqs: list[str], workspace: Path | None = None,
                 req_files: dict[str, list[str]] | None = None, digest_fd: int | None = None,
                 carry_args: list[str] = ()) -> list[str]:
    """The argv actually run: our interpreter for python/pytest, plugin flags for pytest runs.

    Installed pytest plugins the workspace did not ask for (the harness's own dev tools, e.g.
    hypothesis at ~1 s of import per run) are disabled: see harness/verification/plugins.py.
    """
    from harness.verification.plugins import disable_args
    from harness.verification.pytest_root import root_args

    argv = shlex.split(command)
    if not argv:
        return argv
    if argv[0] == "pytest":
        argv = [sys.executable, "-m", "pytest", *argv[1:]]
    elif argv[0] in ("python", "python3"):
        argv = [sys.executable, *argv[1:]]
    if is_pytest(argv):
        extra = ["-p", "no:cacheprovider", *disable_args(_requirements(workspace))]
        if workspace is not None:
            extra += root_args(workspace, argv[3:] if argv[1:3] == ["-m", "pytest"] else argv[1:])
            # The harness chooses what runs: the workspace's `addopts` could deselect the tests that
            # see a bug or load a plugin from a path the snapshot does not hash (hostile trial
            # 2026-12-07, A16/A17). Its other settings (markers, pythonpath, testpaths) still apply.
            extra += ["-o", "addopts="]
            # Nor do its harness_* ini keys or HARNESS_* variables weaken the judgement (A7 waived its own
            # forgery finding, A8 switched tracing off): the plugin takes its settings from this
            # command line only (pytest_harness/judged.py).
            extra.append("--harness-judged")
        if not any(a.startswith("--timeout") for a in argv):
            extra.append(f"--timeout={PER_TEST_TIMEOUT_S}")
        if evidence_path is not None:
            # `=` form: a separate PATH outside the workspace moves pytest's rootdir (pytest-dev/pytest#8846)
            extra.append(f"--harness-evidence={evidence_path}")
            if reqs:
                extra.append(f"--harness-reqs={','.join(reqs)}")
            extra += req_files_arg(req_files)
            if digest_fd is not None:
                extra.append(f"--harness-digest-fd={digest_fd}")
            extra += carry_args  # earlier documents it may carry passing tests from (carry_inputs.py)
        argv = argv + extra
    return argv


def redact_paths(text: str, workspace: Path, evidence_path: Path | None) -> str:
    """Replace host-specific absolute paths of the run with stable placeholders."""
    ws = str(workspace.resolve())
    text = text.replace(ws, "<workspace>").replace(str(workspace), "<workspace>")
    text = _OUTBOX.sub("<evidence>", text)
    if evidence_path is not None:
        run_dir = evidence_path.resolve().parent.parent
        text = text.replace(str(run_dir), "<run>")
    return text.replace(sys.executable, "python")


def run_command(command: str, workspace: Path, *, task_id: str, evidence_path: Path | None = None,
                reqs: list[str] | None = None, run_id: str = "", timeout_s: float = DEFAULT_TIMEOUT_S,
                attempt: int = 0, evidence_rel: str | None = None,
                req_files: dict[str, list[str]] | None = None, pass_fds: tuple[int, ...] = (),
                carry: list | None = None, runner: Runner | None = None,
                collect: Mapping[str, Path] | None = None) -> VerificationResult:
    """Execute one verification command in the workspace and turn the outcome into data.

    `runner`: how it may run besides cold (None: cold, in a fresh sandboxed process).
    `carry` (carry_inputs.CarryInput) are earlier documents a whole-suite session may carry passing
    tests from; the result counts the tests its document holds and how many were carried.
    `collect` ({name: destination}): files the command leaves in its outbox (named by OUTBOX in the
    command, outbox.py), moved to their destinations after it.

    A pytest run with evidence gets a digest pipe (an inherited fd); a document whose bytes differ
    from the digest the plugin sent, or one without a digest, fails the command: it changed after
    the session. Without bubblewrap (the workspace is not read-only) a session during which the
    workspace changed fails too (sandbox/workspace_guard.py).
    """
    from harness.verification.classifier import classify, locate

    sandbox = LocalSandbox(workspace)
    pipe = DigestPipe() if evidence_path is not None else None
    guard = WorkspaceGuard(workspace, active=workspace_guard.needed(isolation_label()))
    res, runner_used, pipe = _execute(sandbox, command, evidence_path, reqs or [], run_id, timeout_s, req_files,
                                      pipe, pass_fds, carry or [], runner, dict(collect or {}))
    digest, rejected = _check_digest(pipe, evidence_path, command)
    rejected = guard.violation() or rejected  # without bubblewrap: a session that wrote the workspace is void
    if isinstance(res, str):
        return VerificationResult(task_id=task_id, status="FAIL", command=command, exit_code=2,
                                  stderr=res, failure_type=FailureType.CONFIG_ERROR, attempt=attempt)
    ok = res.exit_code == 0 and not res.timed_out and not rejected
    ftype = None if ok else classify(res.stdout, res.stderr, res.exit_code, timed_out=res.timed_out,
                                     duration_ms=res.duration_ms, timeout_s=timeout_s)
    diag = {} if ok else locate(res.stdout, res.stderr, sandbox.list_files())
    stdout = redact_paths(res.stdout, workspace, evidence_path)
    stderr = redact_paths(res.stderr, workspace, evidence_path)
    if rejected:
        diag = {**diag, "summary": rejected}
        stderr = f"{stderr.rstrip()}\nharness: {rejected}".lstrip()
    if not ok:
        diag = {**diag, "stderr_tail": (stderr or stdout)[-1500:]}
    tests, carried, carried_from = carried_counts(evidence_path if digest and not rejected else None)
    return VerificationResult(evidence_digest=digest, tests=tests, carried=carried, carried_from=carried_from,
        task_id=task_id, status="PASS" if ok else "FAIL", command=command, exit_code=res.exit_code,
        stdout=stdout[-TAIL:], stderr=stderr[-TAIL:], duration_ms=res.duration_ms,
        failure_type=ftype if not ok else None, timed_out=res.timed_out,
        evidence_path=evidence_rel if evidence_path is not None and evidence_path.exists() else None,
        diagnostics=diag, attempt=attempt, runner=runner_used)


def verification_env(run_id: str) -> dict[str, str]:
    """The environment every verification command of `run_id` gets (and its warm worker is keyed by)."""
    return {"PYTHONDONTWRITEBYTECODE": "1", "HARNESS_RUN_ID": run_id, "PYTHONUNBUFFERED": "1"}


def _execute(sandbox: LocalSandbox, command: str, evidence_path: Path | None, reqs: list[str],
             run_id: str, timeout_s: float, req_files: dict[str, list[str]] | None, pipe: DigestPipe | None,
             pass_fds: tuple[int, ...] = (), carry: list = (), runner: Runner | None = None,
             collect: dict[str, Path] | None = None):
    """Run `command` contained, in a session of `runner` when it offers one, else cold.

    (ExecResult or the message of an invalid command, "warm"/"cold", the digest pipe of the attempt
    that answered). A session that crashes during the command (its runner discards it) and the
    command is retried cold, once, with a fresh digest pipe: the crashed attempt's child may already have sent
    its own digest into the first one.
    """
    env = verification_env(run_id)
    if evidence_path is not None:
        evidence_path.parent.mkdir(parents=True, exist_ok=True)
        evidence_path.unlink(missing_ok=True)
    fds = ((pipe.write_fd,) if pipe else ()) + pass_fds  # pass_fds: e.g. the mutation audit's digest pipe
    try:
        probe = command_argv(command, None, [], sandbox.root)
    except ValueError as exc:
        return f"invalid command: {exc}", "cold", pipe
    try:   # the source is what runs: no bytecode cache of the workspace is ever loaded (sandbox/bytecode.py)
        drop_caches(sandbox.root)
    except BytecodeError as exc:
        return str(exc), "cold", pipe
    worker = runner.session(probe, sandbox.root, env) if runner is not None else None
    retry = worker is None or getattr(runner, "retry_cold", True)
    for mode in (("warm", "cold") if retry else ("warm",)) if worker is not None else ("cold",):
        if mode == "cold" and worker is not None and pipe is not None:
            pipe.discard()
            pipe = DigestPipe()
            fds = (pipe.write_fd, *pass_fds)
        # The run directory is not writable from inside the sandbox: the plugin writes into a bound
        # scratch directory and the harness moves the document into place afterwards.
        outbox = worker.outbox() if mode == "warm" else own_tmp.make("out")
        try:
            carry_args = stage(list(carry), outbox) if evidence_path is not None and carry else []
            argv = command_argv(command, outbox / "evidence.json" if evidence_path else None, reqs, sandbox.root,
                                req_files, pipe.write_fd if pipe else None, carry_args)
            argv = [a.replace(OUTBOX, str(outbox)) for a in argv]
            if mode == "warm":
                res = worker.execute(argv, cwd=sandbox.root, env=env, timeout_s=timeout_s, pass_fds=fds,
                                     writable=[outbox])
            else:
                res = sandbox.execute(argv, timeout_s=timeout_s, writable=[outbox], env=env, pass_fds=fds)
            if res is not None and evidence_path is not None:
                _hand_over(outbox / "evidence.json", Path(evidence_path))
            for name, dest in (collect or {}).items() if res is not None else ():
                _hand_over(outbox / name, Path(dest))
        finally:
            shutil.rmtree(outbox, ignore_errors=True)
        if res is not None:
            return res, mode, pipe
    if not retry:
        return "the warm session ended before the command did (not retried cold)", "warm", pipe
    raise AssertionError("unreachable: the cold run always returns a result")


def _hand_over(src: Path, dest: Path) -> None:
    """Copy a file the command left in its outbox to `dest` without following a link the code under
    test made (judged_files.py); a link, or anything but a regular file, is not handed over."""
    part = dest.with_name(dest.name + ".part")
    part.unlink(missing_ok=True)
    try:
        if copy_regular(src, part, required=False):
            os.replace(part, dest)
    except Refused:
        part.unlink(missing_ok=True)


def _check_digest(pipe: DigestPipe | None, evidence_path: Path | None, command: str) -> tuple[str | None, str]:
    """(digest the plugin sent, rejection reason or "") once the child has exited."""
    if pipe is None:
        return None, ""
    sent = pipe.received()
    if evidence_path is None or not evidence_path.exists():
        return None, ""
    if sent == NO_DIGEST:
        return sent, f"evidence rejected: the plugin sent no digest for {evidence_path.name}"
    if document_digest(evidence_path) != sent:
        return sent, f"evidence rejected: {evidence_path.name} changed after the pytest session ended"
    return sent, ""


def verify_task(task: Task, workspace: Path, *, evidence_dir: Path | None = None, reqs: list[str] | None = None,
                run_id: str = "", attempt: int = 0, timeout_s: float = DEFAULT_TIMEOUT_S,
                tag: str | None = None, req_files: dict[str, list[str]] | None = None,
                carry: list | None = None, runner: Runner | None = None) -> list[VerificationResult]:
    """Run every verification command of `task` (default `pytest -q`); one result per command.
    A whole-suite command gets `carry` (earlier documents, see carry_inputs.py).

    Evidence goes to `<evidence_dir>/<task>-<tag>-<n>.json`; pass a fresh `tag` per verification
    round so a rebuilt task never overwrites the evidence an earlier result points at.
    """
    results = []
    for n, command in enumerate(task.verification or [DEFAULT_COMMAND], start=1):
        name = f"{task.id}-{tag or f'a{attempt}'}-{n}.json"
        path = evidence_dir / name if evidence_dir is not None else None
        rel = f"{evidence_dir.name}/{name}" if evidence_dir is not None else None
        results.append(run_command(command, workspace, task_id=task.id, evidence_path=path, reqs=reqs,
                                   run_id=run_id, timeout_s=timeout_s, attempt=attempt, evidence_rel=rel,
                                   req_files=req_files, carry=carry if is_whole_suite(command) else None,
                                   runner=runner))
    return results


def verify_workspace(workspace: Path, *, evidence_path: Path | None = None, reqs: list[str] | None = None,
                     run_id: str = "", evidence_rel: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
                     req_files: dict[str, list[str]] | None = None, runner: Runner | None = None) -> VerificationResult:
    """Project-level check: the workspace's whole pytest suite, once, every test executed (a verdict
    reads this document: nothing in it is carried from an earlier session)."""
    return run_command(DEFAULT_COMMAND, workspace, task_id="WORKSPACE", evidence_path=evidence_path,
                       reqs=reqs, run_id=run_id, timeout_s=timeout_s, evidence_rel=evidence_rel,
                       req_files=req_files, runner=runner)
