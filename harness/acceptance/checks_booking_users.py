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


def _resources(api: Api, entity: DataEntity, slot: Slot) -> list[DataEntity | None]:
    """The entities of the booked resource's columns (the parent, the reference fields)."""
    refs = {f.ident: f.ref for f in entity.fields if f.ref}
    key = parent_key_of(api.spec, entity)
    out = []
    for column in slot.same:
        if column == slot.day:
            continue
        target = entity.parent if column == key else refs.get(column)
        out.append(api.spec.entity(target) if target else None)
    return out


def bookable_by_all(api: Api, entity: DataEntity, slot: Slot) -> bool:
    """Every signed-in user may book what the first account booked: a member makes the record and
    the resource is shared."""
    found = _resources(api, entity, slot)
    return not entity.manage and bool(found) and all(r is not None and r.shared for r in found)


def other_user_clash(api: Api, entity: DataEntity, slot: Slot, first: dict[str, Any],
                     taken: dict[str, Any], shown: str) -> str:
    """Book `taken` (the first account's resource and a slot overlapping its booking `first`) as a
    second account, the other fields its own; CheckFailed unless it is refused as the rule asks.
    Empty without accounts."""
    if not api.spec.auth:
        return ""
    owner: Account | None = api.account()
    other = api.account("second")
    got = api.call("POST", api.collection(entity), other, api.body_for(entity, other, **taken))
    if not bookable_by_all(api, entity, slot):
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
