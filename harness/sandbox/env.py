"""The environment every child process gets: an allowlist, never a copy of the harness's own.

Only locale/terminal basics and PATH pass from the harness's environment; HOME and TMPDIR point
at the command's scratch directory; the caller may add PYTHON*, APP_* and HARNESS_* variables.
Anything else (DATABASE_URL, SSH_AUTH_SOCK, webhook URLs, API keys) never reaches generated code.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping

PASSED = frozenset({"PATH", "LANG", "LANGUAGE", "TZ", "TERM"})
_PASSED_PREFIXES = ("LC_",)
_EXTRA_ALLOWED = re.compile(r"^(PYTHON|APP_|HARNESS_)[A-Z0-9_]*$")
_SECRET = re.compile(r"(API_KEY|_TOKEN|_SECRET|_KEY|PASSWORD|PASSWD|CREDENTIALS?)$|^OPENAI_", re.I)
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"


def is_secret_name(name: str) -> bool:
    """True for environment variable names that look like secrets."""
    return bool(_SECRET.search(name))


def child_env(extra: Mapping[str, str] | None = None, *, home: str, tmpdir: str,
              base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The allowlisted environment plus `extra`; a disallowed or secret-looking extra name raises ValueError."""
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if k in PASSED or k.startswith(_PASSED_PREFIXES)}
    env.setdefault("PATH", DEFAULT_PATH)
    env.update(HOME=home, TMPDIR=tmpdir, PYTHONNOUSERSITE="1")
    for name, value in (extra or {}).items():
        if not _EXTRA_ALLOWED.match(name) or is_secret_name(name):
            raise ValueError(f"environment variable {name!r} is not allowed for sandboxed commands")
        env[name] = str(value)
    return env


def served_env(extra: Mapping[str, str] | None = None, *, home: str, tmpdir: str,
               base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A served app's environment (harness/verification/app_server.py): `child_env` with nothing that
    says who started it. Locale and time zone pass from the caller (they are the user's); PATH is
    fixed (the interpreter's directory, then DEFAULT_PATH) and TERM is left out, so a CI judge and a
    user's terminal give the same; a HARNESS_* name in `extra` raises ValueError."""
    if any(name.startswith("HARNESS_") for name in extra or {}):
        raise ValueError("a served app gets no HARNESS_* variable")
    env = child_env(extra, home=home, tmpdir=tmpdir, base=base)
    env.pop("TERM", None)
    env["PATH"] = f"{os.path.dirname(sys.executable)}:{DEFAULT_PATH}"
    return env
