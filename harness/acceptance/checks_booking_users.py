"""The second-user leg of the black-box `no_double_booking` check. A booked resource is booked for
everyone: when the app has accounts, a second account books the slot the first account already
holds. On a resource every user may book (a shared one, and a record a member may make) that must
be the 409 too, its answer must not name the first account, and the first account's booking must
stay out of the second account's list when the records are private; on a resource the second
account cannot see, the request must be refused all the same (any status but a success)."""

from __future__ import annotations

from typing import Any

from harness.acceptance.client import Account, Api, CheckFailed
from harness.constructs.parent_key import parent_key_of
from harness.constructs.slot import Slot
from harness.models.spec import DataEntity


def _targets(api: Api, entity: DataEntity) -> dict[str, DataEntity | None]:
    """The entity each reference column (and the parent key) of `entity` points at."""
    out = {f.ident: api.spec.entity(f.ref) for f in entity.fields if f.ref}
    if entity.parent:
        out[parent_key_of(api.spec, entity)] = api.spec.entity(entity.parent)
    return out


def second_account(api: Api, entity: DataEntity, place: tuple[str, ...]) -> tuple[Account, bool] | None:
    """A second account that can make the record on the first account's `place` (its columns), and
    whether every user may take that place (every referenced part of it is shared); None without
    accounts, or when a member may not make the record or the rest of its body."""
    if not api.spec.auth or entity.manage:
        return None
    targets = _targets(api, entity)
    rest = [t for column, t in targets.items() if column not in place]
    if any(t is None or t.manage for t in rest):
        return None
    shared = all(t is not None and t.shared for column, t in targets.items() if column in place)
    return api.account("second"), shared


def other_user_clash(api: Api, entity: DataEntity, slot: Slot, first: dict[str, Any],
                     taken: dict[str, Any], shown: str) -> str:
    """Book `taken` (the first account's resource and a slot overlapping its booking `first`) as a
    second account, the other fields its own; CheckFailed unless it is refused as the rule asks.
    Empty without accounts."""
    second = second_account(api, entity, tuple(taken))
    if second is None:
        return ""
    other, bookable = second
    owner: Account | None = api.account()
    got = api.call("POST", api.collection(entity), other, api.body_for(entity, other, **taken))
    if not bookable:
        if got.ok():
            raise CheckFailed(f"a second user booked the first user's {slot.label} ({shown}) of a resource "
                              f"they cannot see: {got.line}")
        return f"; another user's overlapping one → {got.status}"
    if got.status != 409:
        raise CheckFailed(f"a second user's {entity.name} overlapping the first user's booked {slot.label} "
                          f"({shown}) was not refused with 409: {got.line} — the clash check must look at "
                          "every user's bookings")
    if owner is not None and owner.name.lower() in got.text.lower():
        raise CheckFailed(f"the 409 for a second user names the first user: {got.line}")
    if not entity.shared:
        listed = api.listed(api.collection(entity), other)
        if any(item.get("id") == first.get("id") for item in listed):
            raise CheckFailed(f"the second user's list shows the first user's private {entity.name} {first.get('id')}")
    return "; another user's overlapping one → 409 too"
