"""Which bookings hold their slot (`options.while`), and the two-user part of the generated `test_no_double_booking`: a booked resource is booked for
everyone. With accounts, records private to their creator and a resource every user can book (a
shared one), a second user who books the same slot gets the 409 too — without the answer telling
whose booking it clashes with — and still does not see the first user's booking in the list."""

from __future__ import annotations

from harness.constructs.holding import HoldingError, booking_states
from harness.offline.generator.appmodel import AppModel, Entity


def clash_states(e: Entity) -> tuple[str, ...]:
    """The workflow states in which a booking holds its slot (`options.while`); empty: every state."""
    options = {k: v for k, v in e.feature("no_double_booking").items() if k != "fields"}
    try:
        return booking_states(e.plural, options, e.states if e.has_status else ())
    except HoldingError:   # the spec reader refused it already
        return ()


def other_user_lines(app: AppModel, e: Entity, resource_entity: str) -> str:
    """The lines (unindented) that book `body`'s slot again as a second user; empty when the app
    has no accounts, a member may not make the record, or the resource is not every user's."""
    if not app.auth or e.manage or not app.entity(resource_entity).shared:
        return ""
    lines = ['bob = login(client, "bobby")',
             "taken = client.post(URL, json=body, headers=bob)   # another user, the same slot",
             "assert taken.status_code == 409, taken.text",
             'assert "alice" not in taken.text and "owner" not in taken.text']
    if not (e.shared or e.view or e.assigned):   # the clash is refused, the booking stays private
        lines.append('assert booked.json()["id"] not in [item["id"] for item in '
                     'client.get(URL, headers=bob).json()]')
    return "\n".join(lines)
