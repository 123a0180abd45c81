"""The file descriptors of the warm worker's forked child (stdlib only; loaded by warm_worker.py by
path): the command's stdio and passed fds dup'ed onto the numbers its argv names, every other fd
closed, and the child's set-up message read back without blocking."""

import fcntl
import os


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
