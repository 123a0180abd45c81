"""Files the judged code made, read by the harness outside the sandbox (hostile attack D1).

A served app turned its database file (/srv/app-data/app.db) into a symbolic link to a host file
it cannot see; the runtime check opened that name in the harness's own process and reported the
host file's tables in runtime.json — the harness read for the app what the sandbox kept from it.
Invariant: the harness, outside the sandbox, never follows a link the judged code made.

So every such file is copied before it is read: the directory it is in is opened with O_NOFOLLOW
and must be, by its /proc/self/fd path, the directory the harness expects; the file is opened
relative to that descriptor with O_NOFOLLOW (and O_NONBLOCK: a FIFO cannot hang the harness), and
must be a regular file with one link and at most MAX_BYTES; the bytes go to a private copy.
Anything else raises `Refused` with one line saying what the file is; the caller fails its check
with that line. `Refused` is an sqlite3.DatabaseError, so a database reader's own handler
reports it.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness.utils import own_tmp

MAX_BYTES = 512 << 20
_CHUNK = 1 << 20


class Refused(sqlite3.DatabaseError):
    """The harness will not read this file: it is a link, not a regular file, or not where expected."""


def present(path: Path) -> bool:
    """Whether anything is at `path` (a link counts: it is not followed)."""
    return os.path.lexists(path)


def copy_regular(src: Path, dst: Path, required: bool = True) -> bool:
    """Copy the regular file `src` to `dst` (created new) without following a link; False when it
    is absent and not `required` (absent and required: FileNotFoundError). Raises Refused."""
    src = Path(src)
    folder = os.path.realpath(src.parent)
    try:
        dir_fd = os.open(src.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise Refused(f"the directory of {src.name} cannot be opened without following a link: "
                      f"{exc.strerror or exc}") from None
    try:
        if os.readlink(f"/proc/self/fd/{dir_fd}") != folder:
            raise Refused(f"the directory of {src.name} is not {folder}")
        try:
            fd = os.open(src.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC,
                         dir_fd=dir_fd)
        except FileNotFoundError:
            if required:
                raise
            return False
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise Refused(f"{src.name} is a symbolic link (made by the app): the harness does not follow "
                              "it and did not read it") from None
            raise Refused(f"{src.name} cannot be opened as a file: {exc.strerror or exc}") from None
        with os.fdopen(fd, "rb") as source:
            info = os.fstat(source.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise Refused(f"{src.name} is not a regular file: the harness did not read it")
            if info.st_nlink != 1:
                raise Refused(f"{src.name} has {info.st_nlink} hard links: the harness did not read it")
            if info.st_size > MAX_BYTES:
                raise Refused(f"{src.name} is {info.st_size} bytes, over the {MAX_BYTES} the harness reads")
            with open(dst, "xb") as out:
                copied = 0
                while chunk := source.read(_CHUNK):
                    copied += len(chunk)
                    if copied > MAX_BYTES:
                        raise Refused(f"{src.name} grew past the {MAX_BYTES} bytes the harness reads")
                    out.write(chunk)
        return True
    finally:
        os.close(dir_fd)


@contextmanager
def sqlite_copy(db: Path) -> Iterator[Path]:
    """A private copy of the app's SQLite file `db` and its write-ahead log (`-wal`, when there is
    one), to open instead of the app's; removed afterwards. Raises Refused (also when there is no
    `db`)."""
    tmp = own_tmp.make("etc")
    try:
        copy = tmp / Path(db).name
        try:
            copy_regular(Path(db), copy)
        except FileNotFoundError:
            raise Refused(f"{Path(db).name} is not there") from None
        copy_regular(Path(db).with_name(Path(db).name + "-wal"), tmp / (copy.name + "-wal"), required=False)
        yield copy
    finally:
        own_tmp.remove(tmp)
