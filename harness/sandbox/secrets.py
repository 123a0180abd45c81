"""Secrets the harness holds and no child may see, not even through `/proc/<ppid>/environ`.

`/proc/<pid>/environ` shows the environment a process was *exec'd* with; deleting a variable
from `os.environ` afterwards changes nothing there. So `builder` re-executes itself once without
the secret variables and hands their values over through an inherited pipe, read and closed at
start-up; from then on they live only in this module's memory.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping

SECRET_NAMES = ("OPENAI_API_KEY",)
ENV_FD = "HARNESS_SECRETS_FD"
MAX_BYTES = 60_000  # below the pipe buffer: the write never blocks before the exec
_held: dict[str, str] = {}


def reexec_without_secrets(argv: list[str], module: str = "harness.cli") -> None:
    """If a secret is in this process's environment, exec `python -m module argv` without it.

    Returns only when there is nothing to hide (or the pipe cannot carry it); never on success.
    """
    secrets = {name: os.environ[name] for name in SECRET_NAMES if os.environ.get(name)}
    if not secrets or ENV_FD in os.environ:
        return
    data = json.dumps(secrets).encode("utf-8")
    if len(data) > MAX_BYTES:
        return
    read_fd, write_fd = os.pipe()
    os.write(write_fd, data)
    os.close(write_fd)
    os.set_inheritable(read_fd, True)
    env = {k: v for k, v in os.environ.items() if k not in SECRET_NAMES}
    env[ENV_FD] = str(read_fd)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, "-m", module, *argv], env)


def adopt_secrets() -> None:
    """Read the secrets a re-exec passed (then close the pipe) into memory; no-op otherwise."""
    raw_fd = os.environ.pop(ENV_FD, None)
    if raw_fd is None:
        return
    try:
        fd = int(raw_fd)
        with os.fdopen(fd, "rb") as fh:
            data = json.loads(fh.read(MAX_BYTES + 1) or b"{}")
    except (ValueError, OSError):
        return
    if isinstance(data, dict):
        _held.update({k: v for k, v in data.items() if k in SECRET_NAMES and isinstance(v, str)})


def environ_with_secrets(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default os.environ) plus the secrets held in memory: what a provider reads."""
    return {**(os.environ if base is None else base), **_held}
