"""A warm worker's forked child, cut off from the worker and from the sessions before and beside it
(stdlib only; loaded by worker.py by path).

Under bubblewrap a cold command starts with an empty private /tmp and HOME; a forked child would
share the worker's. So each child enters its own user and mount namespace (`private_mounts`) and
gets a fresh tmpfs on /tmp — the sandbox's binds under /tmp (the workspace, the worker's outroot,
an interpreter installed there) bound again into it, read-only ones staying read-only — a fresh
tmpfs over its scratch directory (HOME), and the worker's outroot read-only but for the command's
own outbox. Nothing it writes there is seen by a later or concurrent session. Without bubblewrap a
cold command shares the host's /tmp, and so does a child (same outcome both ways).

The worker itself is non-dumpable (`PR_SET_DUMPABLE` 0, worker.main): a child — same uid, no
capability — can neither read its memory (/proc/<worker>/mem) nor take its control socket
(pidfd_getfd); the child closes every fd but its command's before any workspace code runs.
"""

import ctypes
import os
import tempfile

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
MS_RDONLY = 0x1
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_MOVE = 0x2000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
BUBBLEWRAP = "bubblewrap"

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source, target, fstype, flags, data=None):
    _check(_libc.mount(source and source.encode(), target.encode(), fstype and fstype.encode(), flags,
                       data and data.encode()), f"mount {target}")


def _mounts_under(top):
    """Mount points strictly below `top`, outermost first (a nested one comes along with MS_REC)."""
    points = []
    with open("/proc/self/mountinfo") as fh:
        for line in fh:
            point = line.split()[4].replace("\\040", " ")
            if point.startswith(top + "/"):
                points.append(point)
    outer = []
    for point in sorted(set(points), key=len):
        if not any(point.startswith(p + "/") for p in outer):
            outer.append(point)
    return outer


def _enter_namespaces():
    uid, gid = os.getuid(), os.getgid()
    _check(_libc.unshare(CLONE_NEWUSER | CLONE_NEWNS), "unshare")
    for name, text in (("setgroups", "deny"), ("uid_map", f"{uid} {uid} 1"), ("gid_map", f"{gid} {gid} 1")):
        with open(f"/proc/self/{name}", "w") as fh:
            fh.write(text)
    _mount(None, "/", None, MS_REC | MS_PRIVATE)


def private_mounts(staging, home, outroot, outboxes):
    """Give this child a fresh /tmp (built on `staging`, an empty directory in the worker's /tmp)
    and a fresh tmpfs over `home`'s directory; `outroot` read-only but for `outboxes`. Only under
    bubblewrap (see the module docstring); raises OSError when the kernel refuses."""
    if os.environ.get("HARNESS_ISOLATION") != BUBBLEWRAP:
        return False
    _enter_namespaces()
    keep = _mounts_under("/tmp")
    _mount("tmpfs", staging, "tmpfs", 0, "mode=1777")
    for point in keep:
        target = staging + point[len("/tmp"):]
        if os.path.isdir(point):
            os.makedirs(target, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(target), exist_ok=True)
            open(target, "a").close()
        _mount(point, target, None, MS_BIND | MS_REC)
    _mount(staging, "/tmp", None, MS_MOVE)
    scratch = os.path.dirname(home)
    if scratch.startswith("/tmp/") and os.path.isdir(scratch):
        _mount("tmpfs", scratch, "tmpfs", 0, "mode=0700")
        os.makedirs(home, exist_ok=True)
    if outroot and os.path.isdir(outroot):
        for box in outboxes:
            if box.startswith(outroot + "/") and os.path.isdir(box):
                _mount(box, box, None, MS_BIND)
        _mount(None, outroot, None, MS_REMOUNT | MS_BIND | MS_RDONLY | _kept_flags(outroot))
    return True


def _kept_flags(path):
    """The mount flags of `path` a remount must repeat (a user namespace may not clear locked ones)."""
    flags = os.statvfs(path).f_flag
    pairs = ((os.ST_NOSUID, 0x2), (os.ST_NODEV, 0x4), (os.ST_NOEXEC, 0x8), (os.ST_NOATIME, 0x400),
             (os.ST_NODIRATIME, 0x800), (os.ST_RELATIME, 1 << 21))
    return sum(ms for st, ms in pairs if flags & st)


def enter(request):
    """Isolate this forked child for `request` (private_mounts); then its TMPDIR is its own /tmp."""
    if private_mounts(os.environ["TMPDIR"], os.environ.get("HOME", ""), request.get("outroot", ""),
                      request.get("writable", [])):
        os.environ["TMPDIR"] = "/tmp"
        tempfile.tempdir = None
