"""Race-free path resolution under one root: directory descriptors, O_NOFOLLOW, symlinks by hand.

Every component is opened relative to its parent's descriptor with O_NOFOLLOW, so a directory
swapped for a symlink between a check and its use makes the open fail instead of escaping.
Symlinks are followed only by reading them ourselves: a target that leaves the root (absolute or
through `..`) is refused. Files with more than one hard link are never read — a hard link to a
host file looks like a plain file otherwise.
"""

from __future__ import annotations

import errno
import os
import stat
import uuid
from collections import deque
from pathlib import Path

from harness.errors import SandboxError

MAX_SYMLINKS = 40
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


class Walk:
    """The directory descriptor a path's last component lives in, and that component's name."""

    def __init__(self, fds: list[int], name: str | None):
        self.fds = fds
        self.name = name

    @property
    def dir_fd(self) -> int:
        return self.fds[-1]

    def close(self) -> None:
        for fd in self.fds:
            os.close(fd)
        self.fds = []

    def __enter__(self) -> Walk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def walk(root: Path, parts: list[str], shown: str, *, follow_last: bool = True, create_dirs: bool = False) -> Walk:
    """Resolve `parts` under `root` (a real path); SandboxError when any step would leave it."""
    real_root = os.path.realpath(root)
    fds = [os.open(real_root, _DIR_FLAGS)]
    pending = deque(parts)
    links = 0
    try:
        while pending:
            name = pending.popleft()
            if name in ("", "."):
                continue
            if name == "..":
                if len(fds) == 1:
                    raise SandboxError(f"path escapes the sandbox root (symlink or outside): {shown!r}")
                os.close(fds.pop())
                continue
            last = not pending
            if last and not follow_last:
                return Walk(fds, name)
            try:
                st = os.stat(name, dir_fd=fds[-1], follow_symlinks=False)
            except FileNotFoundError:
                if last:
                    return Walk(fds, name)
                if not create_dirs:
                    raise
                os.mkdir(name, 0o755, dir_fd=fds[-1])
                st = os.stat(name, dir_fd=fds[-1], follow_symlinks=False)
            if stat.S_ISLNK(st.st_mode):
                links += 1
                if links > MAX_SYMLINKS:
                    raise SandboxError(f"too many symlinks in sandbox path: {shown!r}")
                try:
                    target = os.readlink(name, dir_fd=fds[-1])
                except OSError as exc:  # no longer a symlink (EINVAL) or gone (ENOENT): swapped after the stat
                    raise SandboxError(f"path changed while being resolved (symlink swap?): {shown!r}") from exc
                if os.path.isabs(target):
                    inside = os.path.relpath(os.path.normpath(target), real_root)
                    if inside.split(os.sep)[0] == "..":
                        raise SandboxError(f"path escapes the sandbox root (symlink or outside): {shown!r}")
                    for fd in fds[1:]:
                        os.close(fd)
                    del fds[1:]
                    target = inside
                pending.extendleft(reversed(target.split("/")))
                continue
            if last:
                return Walk(fds, name)
            fds.append(_open_dir(name, fds[-1], shown))
        return Walk(fds, None)
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise


def _open_dir(name: str, dir_fd: int, shown: str) -> int:
    try:
        return os.open(name, _DIR_FLAGS, dir_fd=dir_fd)
    except OSError as exc:
        # it became a symlink (O_NOFOLLOW|O_DIRECTORY says ELOOP or ENOTDIR) or a file after we looked
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise SandboxError(f"path changed while being resolved (symlink swap?): {shown!r}") from None
        raise


def open_file(w: Walk, shown: str) -> int:
    """A read descriptor of the regular, singly-linked file `w` names (FileNotFoundError if none)."""
    if w.name is None:
        raise IsADirectoryError(f"the sandbox root is not a file: {shown!r}")
    try:
        fd = os.open(w.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=w.dir_fd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise SandboxError(f"path changed while being resolved (symlink swap?): {shown!r}") from None
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(f"is a directory: {shown!r}")
        raise SandboxError(f"not a regular file: {shown!r}")
    if st.st_nlink > 1:
        os.close(fd)
        raise SandboxError(f"refusing to read a file with {st.st_nlink} hard links: {shown!r}")
    return fd


def read_bytes(w: Walk, shown: str) -> bytes:
    fd = open_file(w, shown)
    with os.fdopen(fd, "rb") as fh:
        return fh.read()


def replace_file(w: Walk, data: bytes) -> None:
    """Write `data` to a temp file beside `w.name` and rename it over the name (atomic)."""
    tmp = f".{w.name}.{uuid.uuid4().hex[:8]}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644, dir_fd=w.dir_fd)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.rename(tmp, w.name, src_dir_fd=w.dir_fd, dst_dir_fd=w.dir_fd)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=w.dir_fd)
        except FileNotFoundError:
            pass
        raise
