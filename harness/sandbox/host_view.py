"""What of the host a bubblewrap sandbox sees: system directories, a short list of /etc, an identity.

The sandbox runs as uid/gid 65534 ("nobody") in its own user namespace. That uid maps to the
harness's own uid outside, so a harness running as root still owns every root-owned file the
sandbox can see: what protects root's files is that the sandbox cannot see them. It gets /usr
(and the /bin, /lib... links into it), the interpreter's prefixes and the harness packages
(isolation.py), and as /etc a copy of only the names in `ETC_NAMES` — what the dynamic linker,
Python, name resolution, time zones, TLS roots and MIME types read (`etc_dir`) — with the two link
farms among them (`BOUND_DIRS`: /etc/alternatives, /etc/ssl/certs) bound read-only over it. Never
/etc/shadow, /etc/gshadow, /etc/ssh, /etc/sudoers, the host's passwd/group (a two-line
passwd/group naming only the sandbox's user instead), /root, /home or the rest of /tmp.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil

from harness.utils import own_tmp

SANDBOX_UID = 65534
SANDBOX_GID = 65534
SYSTEM_DIRS = ("/usr",)
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_NAMES = (
    "alternatives", "ca-certificates", "ca-certificates.conf", "gai.conf", "host.conf", "hostname",
    "hosts", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "locale.alias", "locale.conf", "localtime",
    "mime.types", "nsswitch.conf", "os-release", "protocols", "python3", "services", "ssl/certs",
    "ssl/openssl.cnf", "pki/tls/certs", "pki/ca-trust", "timezone", "resolv.conf",
)
ETC_PATTERNS = ("python3.",)  # /etc/python3.11 (Debian's sitecustomize lives there)
# Entries of ETC_NAMES that are directories of hundreds of symlinks: bound read-only (one mount
# each, the same content the copy held) instead of copied. Creating their ~700 links took ~1 s here,
# on the critical path of every `builder` process's first sandboxed command (the copy is made once
# per process).
BOUND_DIRS = ("alternatives", "ssl/certs")
_PASSWD = f"nobody:x:{SANDBOX_UID}:{SANDBOX_GID}:nobody:/nonexistent:/usr/sbin/nologin\n"
_GROUP = f"nogroup:x:{SANDBOX_GID}:\n"


def etc_entries(etc: str = "/etc") -> list[str]:
    """The /etc paths the sandbox binds (those of ETC_NAMES/ETC_PATTERNS that exist here)."""
    found = [f"{etc}/{name}" for name in ETC_NAMES if os.path.lexists(f"{etc}/{name}")]
    try:
        names = sorted(os.listdir(etc))
    except OSError:
        names = []
    found += [f"{etc}/{n}" for n in names if n.startswith(ETC_PATTERNS) and os.path.isdir(f"{etc}/{n}")]
    return found


@functools.cache
def etc_dir() -> str:
    """The sandbox's /etc, made once per process and removed at its exit (or by the next harness's
    sweep): copies of the allowlisted entries (symlinks kept as symlinks) and a passwd and group
    naming only the sandbox's user. One bind instead of one per entry: each bind is a mount, and
    two dozen of them added ~25 ms to every sandboxed command's start."""
    owner = own_tmp.make("etc")        # swept by name if this process is killed; the copy goes with it
    path = own_tmp.make_beside(owner)  # a neutral name: a sandbox sees it (/proc/self/mountinfo)
    for source in etc_entries():
        target = path / source[len("/etc/"):]
        target.parent.mkdir(parents=True, exist_ok=True)
        if source in bound_dirs():
            target.mkdir()  # the mount point of its read-only bind (system_args)
            continue
        try:
            if os.path.isdir(source) and not os.path.islink(source):
                shutil.copytree(source, target, symlinks=True)
            else:
                shutil.copy2(source, target)  # a link (localtime) is copied as the file it names
        except OSError:
            continue  # unreadable or dangling: the sandbox goes without it
    for name, text in (("passwd", _PASSWD), ("group", _GROUP)):
        (path / name).write_text(text)
    for root, dirs, files in os.walk(path):
        for name in dirs + files:
            full = os.path.join(root, name)
            if not os.path.islink(full):
                os.chmod(full, 0o755 if os.path.isdir(full) else 0o644)
    os.chmod(path, 0o755)
    atexit.register(own_tmp.remove, owner)
    return str(path)


def bound_dirs(etc: str = "/etc") -> list[str]:
    """The BOUND_DIRS present here as real directories (a link, or a file, is copied or left out
    as any other entry)."""
    return [f"{etc}/{name}" for name in BOUND_DIRS
            if os.path.isdir(f"{etc}/{name}") and not os.path.islink(f"{etc}/{name}")]


def system_args(userns: bool, identity: tuple[int, int] | None = None) -> list[str]:
    """bwrap arguments: /usr and its links, the /etc allowlist, the sandbox identity (uid/gid
    65534, or `identity`: a served app runs as the user who serves it, judged or not)."""
    args: list[str] = []
    for d in SYSTEM_DIRS:
        if os.path.isdir(d):
            args += ["--ro-bind", d, d]
    for d in SYSTEM_LINKS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
    args += ["--ro-bind", etc_dir(), "/etc"]
    for source in bound_dirs():
        args += ["--ro-bind", source, source]
    if userns:
        uid, gid = identity or (SANDBOX_UID, SANDBOX_GID)
        args += ["--unshare-user", "--uid", str(uid), "--gid", str(gid)]
    return args
