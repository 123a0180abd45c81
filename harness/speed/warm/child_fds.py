"""The file descriptors of the warm worker's forked child (stdlib only; loaded by worker.py by
path): the command's stdio and passed fds dup'ed onto the numbers its argv names, every other fd
closed, fresh sys.std* streams over them, the child's set-up message read back without blocking,
and the child's exit (flushing them)."""

import fcntl
import io
import os
import sys


def read_all(fd):
    chunks = []
    os.set_blocking(fd, False)
    try:
        while chunk := os.read(fd, 65536):
            chunks.append(chunk)
    except BlockingIOError:
        pass
    finally:
        os.close(fd)
    return b"".join(chunks)


def place(fds, targets, keep=()):
    """dup2 each received fd onto its target number; close everything else above stderr."""
    high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 256) for fd in fds]
    for fd in fds:
        os.close(fd)
    for fd, target in zip(high, targets):
        os.dup2(fd, target, inheritable=target > 2)
    keep = set(targets) | {0, 1, 2} | set(keep)
    for fd in high:
        if fd not in keep:
            os.close(fd)
    for fd in open_fds():
        if fd not in keep:
            try:
                os.close(fd)
            except OSError:
                pass


def open_fds():
    try:
        return [int(n) for n in os.listdir("/proc/self/fd")]
    except OSError:
        return []


def fresh_stdio():
    """New sys.std* over fds 0-2, configured as the interpreter configured the worker's own."""
    streams = []
    for fd, old, mode in ((0, sys.__stdin__, "rb"), (1, sys.__stdout__, "wb"), (2, sys.__stderr__, "wb")):
        raw = io.FileIO(fd, mode, closefd=False)
        buf = io.BufferedReader(raw) if mode == "rb" else io.BufferedWriter(raw)
        streams.append(io.TextIOWrapper(buf, encoding=old.encoding, errors=old.errors,
                                        line_buffering=old.line_buffering, write_through=old.write_through))
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams


def exit_child(code):
    """What the interpreter does at exit (atexit, non-daemon threads, flush), then leave."""
    try:
        import atexit
        import threading

        threading._shutdown()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code & 0xFF if code >= 0 else 1)
