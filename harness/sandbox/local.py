"""LocalSandbox: every path is jailed under one root; commands run contained (see runner.py).

Path rules: a relative POSIX path without `..`, NUL bytes or an absolute/drive prefix, resolved
component by component through directory descriptors (jail.py) so it cannot leave the root even
when the workspace changes underneath. Anything else raises `SandboxError`. `execute` never
raises for a failing command: failures come back as data.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath, PureWindowsPath

from harness.errors import SandboxError
from harness.sandbox import jail, runner
from harness.sandbox.runner import DEFAULT_TIMEOUT_S, ExecResult
from harness.utils.workspace_layout import SKIP_DIRS, SKIP_SUFFIXES


__all__ = ["DEFAULT_TIMEOUT_S", "ExecResult", "LocalSandbox"]


class LocalSandbox:
    """A directory jail plus the contained runner; `root` is the workspace itself."""

    def __init__(self, root: Path | str):
        self.root = Path(os.path.abspath(root))

    # ---- paths -------------------------------------------------------------------------------

    def _real_root(self) -> Path:
        return Path(os.path.realpath(self.root))

    def _parts(self, rel: str | os.PathLike[str], *, allow_root: bool = False) -> list[str]:
        """Validate `rel` syntactically; its components (empty list = the root)."""
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
        return clean

    def _walk(self, rel: str | os.PathLike[str], **kw) -> jail.Walk:
        return jail.walk(self._real_root(), self._parts(rel, allow_root=kw.pop("allow_root", False)),
                         os.fspath(rel), **kw)

    def resolve(self, rel: str | os.PathLike[str] = ".") -> Path:
        """The real (symlink-free) absolute path of `rel`; `.` is the root itself."""
        shown = os.fspath(rel) if isinstance(rel, (str, os.PathLike)) else rel
        parts = self._parts(rel, allow_root=True)
        real, real_root = Path(os.path.realpath(self.root.joinpath(*parts))), self._real_root()
        if real != real_root and real_root not in real.parents:
            raise SandboxError(f"path escapes the sandbox root (symlink or outside): {shown!r}")
        with jail.walk(real_root, parts, str(shown)):  # the same answer through descriptors
            pass
        return real

    def create_workspace(self, run_id: str = "") -> Path:
        """Create the root if missing and return it (the caller passes runs/<id>/workspace as root)."""
        self.root.mkdir(parents=True, exist_ok=True)
        return self.root

    def exists(self, rel: str | os.PathLike[str]) -> bool:
        """True if `rel` exists inside the jail (raises SandboxError for an illegal path)."""
        try:
            with self._walk(rel) as w:
                return w.name is None or _lexists(w)
        except (FileNotFoundError, NotADirectoryError):
            return False

    # ---- files -------------------------------------------------------------------------------

    def write_file(self, rel: str | os.PathLike[str], content: str | bytes) -> Path:
        """Atomically write `content` (UTF-8 for str) to `rel`, creating parent directories."""
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        self.root.mkdir(parents=True, exist_ok=True)
        with self._walk(rel, create_dirs=True) as w:
            jail.replace_file(w, data)
            return Path(os.readlink(f"/proc/self/fd/{w.dir_fd}")) / w.name

    def read_bytes(self, rel: str | os.PathLike[str]) -> bytes:
        """Bytes of the regular file `rel`; FileNotFoundError if it does not exist."""
        with self._walk(rel) as w:
            return jail.read_bytes(w, os.fspath(rel))

    def read_file(self, rel: str | os.PathLike[str]) -> str:
        """Text of `rel` (UTF-8, invalid bytes replaced); FileNotFoundError if it does not exist."""
        return self.read_bytes(rel).decode("utf-8", errors="replace")

    def read_if_file(self, rel: str | os.PathLike[str]) -> str | None:
        """Text of `rel`, or None when it is missing, not a plain file, or not allowed."""
        try:
            return self.read_file(rel)
        except (OSError, SandboxError):
            return None

    def hash_file(self, rel: str | os.PathLike[str]) -> str | None:
        """"sha256:<hex>" of `rel` read through the jail, or None when it cannot be read."""
        try:
            return "sha256:" + hashlib.sha256(self.read_bytes(rel)).hexdigest()
        except (OSError, SandboxError):
            return None

    def delete_file(self, rel: str | os.PathLike[str]) -> None:
        """Remove the file `rel`; a symlink is removed itself, never its target."""
        with self._walk(rel, follow_last=False) as w:
            os.unlink(w.name, dir_fd=w.dir_fd)

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

    def execute(self, cmd: str | list[str], cwd: str | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
                env: Mapping[str, str] | None = None, writable: Iterable[Path] = (),
                pass_fds: Iterable[int] = ()) -> ExecResult:
        """Run `cmd` contained in the jail (no shell, no network, allowlisted env, hard timeout)."""
        rel_cwd = "." if cwd is None else cwd
        workdir = self.resolve(rel_cwd)
        if not workdir.is_dir():
            shown = cmd if isinstance(cmd, str) else " ".join(map(str, cmd))
            return ExecResult(2, "", f"invalid path configuration: working directory not found: {rel_cwd}",
                              0, False, shown)
        return runner.execute(cmd, workspace=self._real_root(), cwd=workdir, timeout_s=timeout_s, env=env,
                              writable=writable, pass_fds=pass_fds)

    def spawn(self, argv: list[str], **kw) -> runner.SandboxProcess:
        """Start a long-lived contained process in the workspace (see runner.spawn)."""
        return runner.spawn(argv, workspace=self._real_root(), **kw)


def _lexists(w: jail.Walk) -> bool:
    try:
        os.stat(w.name, dir_fd=w.dir_fd, follow_symlinks=False)
        return True
    except FileNotFoundError:
        return False
