"""The scrubbed environment every child process gets: no secrets reach generated code."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

_SECRET = re.compile(r"(API_KEY|_TOKEN|_SECRET|_KEY|PASSWORD|PASSWD|CREDENTIALS?)$|^OPENAI_", re.I)


def is_secret_name(name: str) -> bool:
    """True for environment variable names that look like secrets."""
    return bool(_SECRET.search(name))


def scrubbed_env(extra: Mapping[str, str] | None = None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A copy of the environment without secret-looking variables, plus `extra`."""
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if not is_secret_name(k)}
    env.update(extra or {})
    return env
