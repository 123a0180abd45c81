"""The OS sandbox: bubblewrap when it is installed and works, else none — and always say which.

Inside bwrap a command sees a read-only host reduced to /usr, a short list of /etc, the Python
installation and the harness packages (host_view.py), as uid/gid 65534 in its own user namespace;
the workspace is bound read-only (code under test never changes the bytes a verdict is about);
the caller's scratch directories are the only writable places; /tmp and HOME are private; /proc
is fresh in a new PID namespace, so no harness or host process is visible; `--die-with-parent`
ends everything if the harness dies. Tests get no network at all (`--unshare-net`); the runtime
check's server shares the host's network so the harness can probe it over loopback.
HARNESS_BWRAP names the bwrap executable (default: `bwrap` on PATH); HARNESS_SHARED_DIR (tests of
hostile code only) a directory bound writable into every sandbox.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from harness.sandbox.host_view import SANDBOX_GID, SANDBOX_UID, SYSTEM_DIRS, system_args

ENV_FORCE = "HARNESS_SANDBOX"   # "none": never use bwrap; unset/"auto": use it when it works
ENV_BWRAP = "HARNESS_BWRAP"     # the bwrap executable (default: `bwrap` on PATH)
# A host directory bound writable into every sandbox: for the harness's own tests of hostile code
# (a probe leaves its report there) and debugging; never set for a real build.
ENV_SHARED = "HARNESS_SHARED_DIR"
BWRAP = "bubblewrap"
NONE = "none (install bubblewrap)"


def _probe(path: str, extra: list[str]) -> bool:
    try:
        probe = subprocess.run([path, "--ro-bind", "/", "/", *extra, "--unshare-pid", "--unshare-net",
                                "--die-with-parent", "--proc", "/proc", "--dev", "/dev", "true"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=10, env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


@functools.cache
def _working_bwrap(path: str) -> bool:
    """True when `path` can actually create namespaces here (containers often forbid it)."""
    return _probe(path, [])


@functools.cache
def userns_works(path: str) -> bool:
    """True when `path` can also map the sandbox's own user (uid/gid 65534) in a user namespace."""
    return _probe(path, ["--unshare-user", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_GID)])


def consented_to_none() -> bool:
    """True when the user switched the OS sandbox off on purpose (HARNESS_SANDBOX=none)."""
    return os.environ.get(ENV_FORCE, "").strip().lower() == "none"


UNSANDBOXED_REFUSAL = ("refusing to run model-written code without a sandbox: bubblewrap is not installed or "
                       "cannot create namespaces here, so that code would run with your full rights; install "
                       "it (apt-get install bubblewrap / dnf install bubblewrap) or set HARNESS_SANDBOX=none "
                       "to run it unsandboxed anyway")


def require_sandbox_for_model_code() -> None:
    """Raise InputError (one line: why, and how to install bubblewrap) when no working sandbox would
    contain model-written code and the user did not say HARNESS_SANDBOX=none. The offline
    generator's own code is not model-written: it may run unsandboxed (the run says so)."""
    from harness.errors import InputError

    if bwrap_path() is None and not consented_to_none():
        raise InputError(UNSANDBOXED_REFUSAL)


def shared_dir() -> str | None:
    """HARNESS_SHARED_DIR as a real directory path, or None (unset or not a directory)."""
    shared = os.environ.get(ENV_SHARED, "").strip()
    return os.path.realpath(shared) if shared and os.path.isdir(shared) else None


def bwrap_path() -> str | None:
    """The bwrap executable to use, or None (not installed, not working, or HARNESS_SANDBOX=none)."""
    if consented_to_none():
        return None
    path = os.environ.get(ENV_BWRAP, "").strip() or shutil.which("bwrap")
    return path if path and _working_bwrap(path) else None


def isolation_label() -> str:
    """What contains workspace code right now: "bubblewrap" or "none (install bubblewrap)"."""
    return BWRAP if bwrap_path() else NONE


def _python_roots() -> list[str]:
    """Directories the sandboxed interpreter needs: prefixes and the harness's own packages."""
    import harness
    import pytest_harness

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable)),
             os.path.dirname(os.path.abspath(harness.__file__)),
             os.path.dirname(os.path.abspath(pytest_harness.__file__))}
    return sorted(r for r in roots if os.path.isdir(r) and not r.startswith(SYSTEM_DIRS))


def _python_view() -> list[str]:
    """Binds of the interpreter's prefixes and our packages; they go after the private /tmp so an
    installation under /tmp (a CI clone, a venv in a temp dir) is not hidden by that tmpfs."""
    args: list[str] = []
    for root in _python_roots():
        args += ["--ro-bind", root, root]
    return args


def bwrap_argv(bwrap: str, argv: list[str], *, workspace: Path, cwd: Path | str, writable: Iterable[Path],
               network: bool, readonly: Iterable[Path] = (), mounts: Iterable[tuple[Path, str]] = (),
               unset: Iterable[str] = (), identity: tuple[int, int] | None = None) -> list[str]:
    """The bwrap command line that runs `argv` contained (see the module docstring): the workspace
    and `readonly` bound read-only, `writable` (scratch outside the workspace) read-write at their
    own paths, `mounts` (host directory, path inside) read-write at fixed paths; `unset` names
    variables bwrap itself carries but `argv` must not see; `identity` the uid/gid shown inside."""
    args = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--cap-drop", "ALL", *system_args(userns_works(bwrap), identity),
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", *_python_view()]
    if not network:
        args.append("--unshare-net")
    for path in (workspace, *readonly):
        args += ["--ro-bind", str(path), str(path)]
    for path in (*writable, *filter(None, [shared_dir()])):
        args += ["--bind", str(path), str(path)]
    for host, inside in mounts:
        args += ["--bind", str(host), inside]
    for name in unset:
        args += ["--unsetenv", name]
    args += ["--remount-ro", "/", "--chdir", str(cwd), "--", *argv]
    return args
