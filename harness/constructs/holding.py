"""The workflow states in which a record holds its place (`options.while`): a returned loan frees
its tool (`capacity`), a cancelled booking frees its slot (`no_double_booking`).

    features = [{ kind = "no_double_booking", options = { while = ["confirmed"] } }]

Pure and shared: the spec reader (harness/offline/features.py can_build), the generator and the
acceptance checks all resolve `while` here, so they agree on which records count.
"""

from __future__ import annotations

from typing import Any


class HoldingError(ValueError):
    """`while` cannot be built as written; the message says why, in one line."""


def entity_states(entity: Any) -> tuple[str, ...]:
    """A spec entity's status values: its workflow, open/done with `has_status`, else none."""
    return tuple(entity.workflow) or (("open", "done") if entity.has_status else ())


def holding_states(where: str, wanted: Any, states: tuple[str, ...]) -> tuple[str, ...]:
    """The states of `states` named by `wanted` (a state or a list of them), in workflow order;
    empty when every state holds (no `while`, or all of them named). HoldingError otherwise."""
    if wanted is None:
        return ()
    if isinstance(wanted, str):
        wanted = [wanted]
    if not isinstance(wanted, list) or not wanted or not all(isinstance(s, str) for s in wanted):
        raise HoldingError(f"{where}: while must be a list of workflow states")
    if not states:
        raise HoldingError(f"{where}: while needs a workflow (or has_status)")
    for state in wanted:
        if state not in states:
            raise HoldingError(f"{where}: while: no state {state!r} (states: {', '.join(states)})")
    if set(wanted) == set(states):
        return ()
    return tuple(s for s in states if s in wanted)


def booking_states(plural: str, options: dict[str, Any], states: tuple[str, ...]) -> tuple[str, ...]:
    """The states in which a booking of `no_double_booking` holds its slot (empty: every state).
    A new booking is in the first state and is checked when it is made, so that state must hold."""
    where = f"no_double_booking on {plural}"
    held = holding_states(where, options.get("while"), states)
    if held and states[0] not in held:
        raise HoldingError(f"{where}: while must include the first state {states[0]!r} (a new booking "
                           "is checked for a clash when it is made)")
    return held
