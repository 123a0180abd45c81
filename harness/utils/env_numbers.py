"""Numbers from environment variables: one parser, so every HARNESS_* number fails the same way."""

from __future__ import annotations

import math
from collections.abc import Mapping


def env_number(env: Mapping[str, str], name: str, default, kind, *, error: type[Exception],
               allow_zero: bool = False):
    """`kind(env[name])` (int or float), or `default` when unset or blank.

    `error` (naming the variable and its value) when the value is not a number, not finite,
    negative, or zero where zero is not allowed.
    """
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        raise error(f"{name}={raw!r} is not a valid {kind.__name__}") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise error(f"{name}={raw!r} must be a positive finite number")
    return value
