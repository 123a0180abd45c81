"""LocalSandbox: every path is jailed under one root; commands run as bounded subprocesses.

Path rules: a relative POSIX path without `..`, NUL bytes or an absolute/drive prefix, whose
real location (symlinks resolved) stays under the root's real location. Anything else raises
`SandboxError`. `execute` never raises for a failing command: failures come back as data.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import IO, Any

from harness.errors import SandboxError
from harness.sandbox.env import scrubbed_env

OUTPUT_TAIL_CHARS = 4000
DEFAULT_TIMEOUT_S = 120.0
TERM_GRACE_S = 1.0
SKIP_DIRS = frozenset({"__pycache__", ".pytest_cache", ".hypothesis"})
SKIP_SUFFIXES = (".pyc",)


@dataclass(frozen=True)
class ExecResult:
    """Outcome of one command. `exit_code` is None only when the command was killed on timeout."""

    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: int
    timed_out: bool
    command: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    # Dict-style access: SPEC describes execute() as returning {exit_code, stdout, stderr, duration_ms}.
    def __getitem__(self, key: str) -> Any:
        if key not in self.__dataclass_fields__:
            raise KeyError(key)
        return getattr(self, key)

    def keys(self) -> list[str]:
        return list(self.__dataclass_fields__)

    def get(self, key: str, default: Any = None) -> Any:
        return getattr(self, key) if key in self.__dataclass_fields__ else default

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class LocalSandbox:
    """A directory jail plus a subprocess runner; `root` is the workspace itself."""

    def __init__(self, root: Path | str):
        self.root = Path(os.path.abspath(root))

    # ---- paths -------------------------------------------------------------------------------

    def _real_root(self) -> Path:
        return Path(os.path.realpath(self.root))

    def _lexical(self, rel: str | os.PathLike[str], *, allow_root: bool = False) -> Path:
        """Validate `rel` syntactically and return root/rel without following symlinks."""
        if not isinstance(rel, (str, os.PathLike)):
            raise SandboxError(f"path must be a string, got {type(rel).__name__}: {rel!r}")
        text = os.fspath(rel)
        if not text or not text.strip():
            raise SandboxError("empty path is not allowed in the sandbox")
        if "\x00" in text:
            raise SandboxError(f"NUL byte in sandbox path: {text!r}")
        win = PureWindowsPath(text)
        if text.startswith(("/", "\\")) or PurePosixPath(text).is_absolute() or win.drive:
            raise SandboxError(f"absolute path not allowed in the sandbox: {text!r}")
        parts = text.replace("\\", "/").split("/")
        if ".." in parts:
            raise SandboxError(f"'..' not allowed in sandbox path: {text!r}")
        clean = [p for p in parts if p not in ("", ".")]
        if not clean and not allow_root:
            raise SandboxError(f"path names the sandbox root, not a file: {text!r}")
        return self.root.joinpath(*clean)

    def _check_inside(self, path: Path, shown: str) -> Path:
        """Resolve every symlink in `path` and fail unless the result stays under the root."""
        real = Path(os.path.realpath(path))
        real_root = self._real_root()
        if real != real_root and real_root not in real.parents:
            raise SandboxError(f"path escapes the sandbox root (symlink or outside): {shown!r}")
        return real

    def resolve(self, rel: str | os.PathLike[str] = ".") -> Path:
        """The real (symlink-free) absolute path of `rel`; `.` is the root itself."""
        return self._check_inside(self._lexical(rel, allow_root=True), os.fspath(rel))

    def create_workspace(self, run_id: str = "") -> Path:
        """Create the root if missing and return it (the caller passes runs/<id>/workspace as root)."""
        self.root.mkdir(parents=True, exist_ok=True)
        return self.root

    def exists(self, rel: str | os.PathLike[str]) -> bool:
        """True if `rel` exists inside the jail (raises SandboxError for an illegal path)."""
        return self.resolve(rel).exists()

    # ---- files -------------------------------------------------------------------------------

    def write_file(self, rel: str | os.PathLike[str], content: str | bytes) -> Path:
        """Atomically write `content` (UTF-8 for str) to `rel`, creating parent directories."""
        lexical = self._lexical(rel)
        self._check_inside(lexical, os.fspath(rel))
        parent = self._check_inside(lexical.parent, os.fspath(rel))
        parent.mkdir(parents=True, exist_ok=True)
        # Re-check after mkdir: a parent created through a symlinked ancestor must still be inside.
        parent = self._check_inside(lexical.parent, os.fspath(rel))
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{lexical.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, parent / lexical.name)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
        return parent / lexical.name

    def read_file(self, rel: str | os.PathLike[str]) -> str:
        """Text of `rel` (UTF-8); FileNotFoundError if it does not exist."""
        return self.resolve(rel).read_text(encoding="utf-8")

    def delete_file(self, rel: str | os.PathLike[str]) -> None:
        """Remove the file `rel` (a symlink inside the jail is removed, not its target)."""
        lexical = self._lexical(rel)
        self._check_inside(lexical, os.fspath(rel))
        self._check_inside(lexical.parent, os.fspath(rel))
        os.unlink(lexical)

    def list_files(self, rel: str | os.PathLike[str] = ".") -> list[str]:
        """Sorted root-relative POSIX paths of files under `rel` (caches and *.pyc skipped)."""
        start = self.resolve(rel)
        real_root = self._real_root()
        if start.is_file():
            return [start.relative_to(real_root).as_posix()]
        found: list[str] = []
        for dirpath, dirnames, filenames in os.walk(start):
            dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
            for name in filenames:
                if name.endswith(SKIP_SUFFIXES):
                    continue
                path = Path(dirpath) / name
                real = Path(os.path.realpath(path))
                if real_root in real.parents:
                    found.append(path.relative_to(real_root).as_posix())
        return sorted(found)

    # ---- commands ----------------------------------------------------------------------------

    def execute(
        self,
        cmd: str | list[str],
        cwd: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        env: dict[str, str] | None = None,
    ) -> ExecResult:
        """Run `cmd` (shlex-split, never a shell) in the jail with a scrubbed env and a hard timeout."""
        shown = cmd if isinstance(cmd, str) else shlex.join(cmd)
        try:
            argv = shlex.split(cmd) if isinstance(cmd, str) else [str(a) for a in cmd]
        except ValueError as exc:
            return _failed(shown, 2, f"invalid command: {exc}")
        if not argv:
            return _failed(shown, 127, "command not found: (empty command)")
        rel_cwd = "." if cwd is None else cwd
        workdir = self.resolve(rel_cwd)
        if not workdir.is_dir():
            return _failed(shown, 2, f"invalid path configuration: working directory not found: {rel_cwd}")
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            return _run(argv, shown, workdir, timeout_s, scrubbed_env(env), out, err)


def _failed(command: str, exit_code: int, message: str) -> ExecResult:
    return ExecResult(exit_code, "", message, 0, False, command)


def _run(argv: list[str], shown: str, workdir: Path, timeout_s: float,
         env: dict[str, str], out: IO[bytes], err: IO[bytes]) -> ExecResult:
    # Output goes to temp files, not pipes, so a straggler holding the pipe can never block us.
    start = time.monotonic()
    try:
        proc = subprocess.Popen(argv, shell=False, cwd=workdir, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, start_new_session=True)
    except FileNotFoundError:
        return _failed(shown, 127, f"command not found: {argv[0]}")
    except PermissionError:
        return _failed(shown, 126, f"permission denied: {argv[0]}")
    except OSError as exc:
        return _failed(shown, 126, f"cannot execute {argv[0]}: {exc.strerror or exc}")
    timed_out = False
    try:
        proc.wait(timeout=max(timeout_s, 0.0))
    except subprocess.TimeoutExpired:
        timed_out = True
        _signal_group(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=TERM_GRACE_S)
        except subprocess.TimeoutExpired:
            pass
    finally:
        # Kill whatever is left of the session (grandchildren included), then reap the child.
        _signal_group(proc.pid, signal.SIGKILL)
        proc.wait()
    duration_ms = int((time.monotonic() - start) * 1000)
    exit_code = None if timed_out else proc.returncode
    stderr = _tail(err)
    if timed_out:
        note = f"command timed out after {timeout_s:g}s: {shown}"
        stderr = _tail_text(f"{stderr.rstrip()}\n{note}" if stderr.strip() else note)
    return ExecResult(exit_code, _tail(out), stderr, duration_ms, timed_out, shown)


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _tail(fh: IO[bytes], limit: int = OUTPUT_TAIL_CHARS) -> str:
    """The last `limit` characters written to `fh` (decoded as UTF-8, invalid bytes replaced)."""
    size = fh.seek(0, os.SEEK_END)
    fh.seek(max(0, size - limit * 4))
    return _tail_text(fh.read().decode("utf-8", errors="replace"), limit)


def _tail_text(text: str, limit: int = OUTPUT_TAIL_CHARS) -> str:
    return text[-limit:]
