"""The OS sandbox: bubblewrap when it is installed and works, else none — and always say which.

Inside bwrap a command sees a read-only host reduced to the system directories, the Python
installation and the harness packages; the workspace and the caller's scratch directories are the
only writable places; /tmp and HOME are private; /proc is fresh in a new PID namespace, so no
harness or host process is visible; `--die-with-parent` ends everything if the harness dies.
Tests get no network at all (`--unshare-net`); the runtime check's server shares the host's
network so the harness can probe it over loopback.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ENV_FORCE = "HARNESS_SANDBOX"   # "none": never use bwrap; unset/"auto": use it when it works
BWRAP = "bubblewrap"
NONE = "none (install bubblewrap)"
_SYSTEM_DIRS = ("/usr", "/etc")
_SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")


@functools.cache
def _working_bwrap(path: str) -> bool:
    """True when `path` can actually create namespaces here (containers often forbid it)."""
    try:
        probe = subprocess.run([path, "--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--die-with-parent",
                                "--proc", "/proc", "--dev", "/dev", "true"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=10, env={"PATH": "/usr/bin:/bin"})
    except (OSError, subprocess.SubprocessError):
        return False
    return probe.returncode == 0


def bwrap_path() -> str | None:
    """The bwrap executable to use, or None (not installed, not working, or HARNESS_SANDBOX=none)."""
    if os.environ.get(ENV_FORCE, "").strip().lower() == "none":
        return None
    path = shutil.which("bwrap")
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
    return sorted(r for r in roots if os.path.isdir(r) and not r.startswith(_SYSTEM_DIRS))


def _host_view() -> list[str]:
    args: list[str] = []
    for d in _SYSTEM_DIRS:
        if os.path.isdir(d):
            args += ["--ro-bind", d, d]
    for d in _SYSTEM_LINKS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
    return args


def _python_view() -> list[str]:
    """Binds of the interpreter's prefixes and our packages; they go after the private /tmp so an
    installation under /tmp (a CI clone, a venv in a temp dir) is not hidden by that tmpfs."""
    args: list[str] = []
    for root in _python_roots():
        args += ["--ro-bind", root, root]
    return args


def bwrap_argv(bwrap: str, argv: list[str], *, workspace: Path, cwd: Path, writable: Iterable[Path],
               network: bool) -> list[str]:
    """The bwrap command line that runs `argv` contained (see the module docstring)."""
    args = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc", "--unshare-uts",
            "--unshare-cgroup-try", "--cap-drop", "ALL", *_host_view(),
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", *_python_view()]
    if not network:
        args.append("--unshare-net")
    ws = str(workspace)
    args += ["--bind", ws, ws]
    for path in writable:
        args += ["--bind", str(path), str(path)]
    args += ["--remount-ro", "/", "--chdir", str(cwd), "--", *argv]
    return args
