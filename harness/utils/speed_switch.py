"""The one speed switch (harness/speed owns the paths it turns off): `HARNESS_SPEED=0` (or `builder new/resume --no-speed`) turns every acceleration
path off and the pipeline runs plain — cold verification sessions, no carry, no prestarted
server, no runtime check or audit lanes started ahead, no candidate precompute, no worker.

Finer switches stay for debugging one path: `HARNESS_WARM=0` (the warm verification worker, its
rewrite memo and the prestarted server) and `HARNESS_CARRY=0` (carry between task sessions). They
can only turn a path off: with HARNESS_SPEED=0 every path is off whatever they say.

This module reads the process environment only (stdlib only, no harness import), so the lowest
layers (sandbox, verification) can ask it without an import cycle.
"""

from __future__ import annotations

import os

ENV_SPEED = "HARNESS_SPEED"   # "0": the plain pipeline
ENV_WARM = "HARNESS_WARM"     # "0": every command runs cold (and no server is prestarted)
ENV_CARRY = "HARNESS_CARRY"   # "0": task sessions carry nothing


def _on(name: str) -> bool:
    return os.environ.get(name, "1").strip() != "0"


def speed_on() -> bool:
    """False when HARNESS_SPEED=0: every path below is off."""
    return _on(ENV_SPEED)


def warm_on() -> bool:
    return speed_on() and _on(ENV_WARM)


def carry_on() -> bool:
    return speed_on() and _on(ENV_CARRY)


def speculation_on() -> bool:
    """Work started ahead (runtime check, audit lanes, candidate precompute): only with speed on."""
    return speed_on()


def turn_off() -> None:
    """`--no-speed`: this process and every child it starts run plain."""
    os.environ[ENV_SPEED] = "0"
