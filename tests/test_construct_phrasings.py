"""The #51 constructs in the phrasings real requests use: for each construct a few requests the
way people write them, each with the spec element it must yield (issue #51: "recognised by the
offline parser in its common phrasings").

TUNED rows were written first and the pattern tables were extended until they pass; HELD_OUT rows
were written at the same time and never tuned on — they measure how far the rows generalise, so a
held-out row that fails is marked `xfail` (not strict) rather than dropped. Each row is a whole
request (a record the construct acts on has to exist), and an expectation is one of:

    ("roles", [first, ..., last])          spec.roles
    ("manage", record, role)               the record's managing role
    ("view", record, role)                 the record's reading role
    ("shared", record)                     every signed-in user sees it
    ("assigned", record)                   assigned_to = "user"
    ("many", record, other)                a many-to-many link, either side
    ("change_password",)                   [auth] change_password
    ("summary", record)                    a period_summary feature on the record
    ("stamp", record)                      a workflow-stamped date on the record
    ("calendar", record) / ("csv_import", record) / ("attachments", record)   record tools
    ("computed", record, name_part)        a computed value whose name contains name_part
    ("capacity", record, resource_part)    a capacity feature on record whose field names the resource
"""

from __future__ import annotations

import pytest

from harness.agents.spec_agent import postprocess
from harness.offline.spec.rules import rule_based_spec

TUNED = [
    # roles and a managing role
    ("roles", "A yoga studio app where members book classes. Admins can see and edit every booking.",
     [("roles", ["admin", "member"])]),
    ("roles", "A tool library where members borrow tools. An administrator manages all loans.",
     [("roles", ["administrator", "member"]), ("manage", "loan", "administrator")]),
    ("manage", "A library app. Members borrow books. Only librarians can add, edit or delete books.",
     [("manage", "book", "librarian")]),
    ("manage", "A tool library. Admins can add, edit and delete tools; members can only view them.",
     [("manage", "tool", "admin"), ("shared", "tool")]),
    # a reading role
    ("view", "A job tracker for a cleaning company. Staff record jobs with a date and an address. "
             "Managers can see all the jobs but change only their own.",
     [("view", "job", "manager"), ("roles", ["admin", "manager", "staff"])]),
    ("view", "An expense app for a shop. Staff enter their own expenses with an amount. "
             "The accountant can view all expenses but not edit them.",
     [("view", "expense", "accountant")]),
    ("view", "A reporting tool where employees write reports. Supervisors can read every report, "
             "but only change their own.",
     [("view", "report", "supervisor")]),
    # shared records
    ("shared", "A video rental shop. Customers sign in to rent films. Films are visible to all customers.",
     [("shared", "film")]),
    ("shared", "A club app with login where members post events. Every member can see all the events.",
     [("shared", "event")]),
    ("shared", "A recipe app with accounts. Recipes are shared with everyone who logs in.",
     [("shared", "recipe")]),
    # assignment
    ("assigned", "A repair shop app to track jobs. Each job is assigned to a technician.",
     [("assigned", "job")]),
    ("assigned", "A field service app with jobs and staff accounts. Staff can only see jobs assigned to them.",
     [("assigned", "job")]),
    ("assigned", "A help desk where customers open tickets. A manager assigns tickets to support agents.",
     [("assigned", "ticket")]),
    # many-to-many
    ("many", "A notes app. Notes can have several tags and a tag belongs to many notes.",
     [("many", "note", "tag")]),
    ("many", "A recipe book. Each recipe has many ingredients and each ingredient is used in many recipes.",
     [("many", "recipe", "ingredient")]),
    ("many", "A school app. Students enrol in many courses and each course has many students.",
     [("many", "student", "course")]),
    ("many", "A bookmark manager. Users can tag their bookmarks.", [("many", "bookmark", "tag")]),
    # account features
    ("account", "A todo app with login. Users can change their password.", [("change_password",)]),
    ("account", "A journal app with accounts. I want to change my password from the settings page.",
     [("change_password",)]),
    ("account", "A budget app with user accounts; let users update their password.", [("change_password",)]),
    # period summaries and stamps
    ("summary", "Track expenses with an amount and a date. Show monthly totals of expenses.",
     [("summary", "expense")]),
    ("summary", "A running log: record each run with a date and a distance. Show the total distance "
                "per week.", [("summary", "run")]),
    ("stamp", "A to-do app. I want to see how many tasks I completed each week.",
     [("summary", "task"), ("stamp", "task")]),
    ("stamp", "A task tracker for a small team with a weekly summary of completed tasks.",
     [("summary", "task"), ("stamp", "task")]),
    # calendar
    ("calendar", "A booking app for a meeting room. I want to see my bookings in a calendar.",
     [("calendar", "booking")]),
    ("calendar", "A clinic app to book appointments with a date and time. Show upcoming appointments "
                 "on a calendar view.", [("calendar", "appointment")]),
    # CSV import
    ("csv_import", "An address book. Import contacts from a CSV file.", [("csv_import", "contact")]),
    ("csv_import", "A budget app to record transactions with an amount and a date. Transactions can be "
                   "imported from CSV.", [("csv_import", "transaction")]),
    # attachments
    ("attachments", "A plant care app. Attach a photo to a plant.", [("attachments", "plant")]),
    ("attachments", "An expense tracker where I record expenses and upload receipts for each expense.",
     [("attachments", "expense")]),
    ("attachments", "A help desk app for tickets. Each ticket can have file attachments.",
     [("attachments", "ticket")]),
    # computed values
    ("computed", "A plant care app. Plants have a last watered date and a watering interval in days. "
                 "The next watering date is last watered plus the interval in days.",
     [("computed", "plant", "next_watering")]),
    ("computed", "A task app where tasks have a title and a due date. Show how many days are left "
                 "until each task's due date.", [("computed", "task", "days")]),
    # capacity
    ("capacity", "A tool library: members borrow tools, and each loan records the tool, the member and "
                 "a date. A tool can be borrowed by one member at a time.", [("capacity", "loan", "tool")]),
    ("capacity", "Volunteers sign up for shifts. Each shift can have at most two volunteers.",
     [("capacity", "volunteer", "shift")]),
    # second round: variants written after the first rows, each naming its records plainly
    # editing alone is no `manage` (it would stop staff adding): "allowed to edit" alone is not built
    # (tests/test_access_claims.py, trial 2026-12-07e F3)
    ("manage", "Products have a name and a price. Staff log in. Only managers are allowed to add and edit products.",
     [("manage", "product", "manager")]),
    ("assigned", "Tasks have a title. Users log in. Users can assign tasks to other users.", [("assigned", "task")]),
    ("many", "Movies have a title. Movies can belong to multiple genres and a genre has many movies.",
     [("many", "movie", "genre")]),
    ("capacity", "Rooms have a name. Bookings have a room and a date. Each room can take at most 12 bookings.",
     [("capacity", "booking", "room")]),
    ("summary", "Purchases have a price and a date; show me what I spend every week.", [("summary", "purchase")]),
    ("computed", "Items have a price and a quantity. The subtotal equals the price multiplied by the quantity.",
     [("computed", "item", "subtotal")]),
]

HELD_OUT = [
    ("manage", "A shop inventory app with products. Only the manager is allowed to add or delete products.",
     [("manage", "product", "manager")]),
    ("view", "An invoicing app where clerks create invoices with an amount. The auditor can look at "
             "every invoice but only edit their own.", [("view", "invoice", "auditor")]),
    ("shared", "A classifieds site with accounts where users post listings. All users can browse every "
               "listing.", [("shared", "listing")]),
    ("assigned", "A team task app. Tasks can be assigned to team members.", [("assigned", "task")]),
    ("many", "A blog. An article can belong to several categories, and a category contains many articles.",
     [("many", "article", "category")]),
    ("many", "A photo album app. Photos can be tagged.", [("many", "photo", "tag")]),
    ("account", "A habit tracker with login. There is a page where a user can change his password.",
     [("change_password",)]),
    ("summary", "A shop app that records sales with an amount and a date. Show total sales per month.",
     [("summary", "sale")]),
    ("stamp", "An order tracker where orders move from placed to shipped to delivered. Show how many "
              "orders were delivered each month.", [("summary", "order"), ("stamp", "order")]),
    ("calendar", "A club app for events with a date. View all events on a monthly calendar.",
     [("calendar", "event")]),
    ("csv_import", "A club membership app. Upload a CSV of members to add them in bulk.",
     [("csv_import", "member")]),
    ("attachments", "A contract tracker. Users can attach PDF documents to each contract.",
     [("attachments", "contract")]),
    ("computed", "An order app: each order has a quantity and a unit price. Each order shows its total, "
                 "which is the quantity times the unit price.", [("computed", "order", "total")]),
    ("capacity", "A parking app: drivers book parking spaces; a booking records the space and a date. "
                 "A parking space can only be booked by one car at a time.", [("capacity", "booking", "space")]),
]

# A second held-out set, written after the first round of rows and before the second (which was
# tuned on other variants): each names its records plainly, so a failure is the construct's phrasing.
HELD_OUT_2 = [
    ("manage", "Events have a title and a date. Members log in. Only organisers are permitted to add events.",
     [("manage", "event", "organiser")]),
    ("view", "Timesheets have a date and hours. Employees log their own timesheets. Supervisors can view "
             "every timesheet but only change their own.", [("view", "timesheet", "supervisor")]),
    ("shared", "Documents have a title. Users log in. All documents are visible to every user.",
     [("shared", "document")]),
    ("assigned", "Bugs have a title and a severity. Users log in. A bug can be assigned to another user.",
     [("assigned", "bug")]),
    ("many", "Books have a title and authors have a name. A book can have several authors and an author "
             "can write many books.", [("many", "book", "author")]),
    ("account", "Users log in and can update their password on a profile page. Notes have a title.",
     [("change_password",)]),
    ("summary", "Workouts have a date and a duration in minutes. Show the total duration per month.",
     [("summary", "workout")]),
    ("stamp", "Chores have a title. Show how many chores were finished each week.",
     [("summary", "chore"), ("stamp", "chore")]),
    ("calendar", "Shifts have a date and a start time. Display shifts in a weekly calendar.",
     [("calendar", "shift")]),
    ("csv_import", "Products have a name and a price. I want to import products from a spreadsheet (CSV).",
     [("csv_import", "product")]),
    ("attachments", "Invoices have a number and an amount. Users can upload a PDF for each invoice.",
     [("attachments", "invoice")]),
    ("computed", "Loans have a member and a due date. Mark overdue loans.", [("computed", "loan", "overdue")]),
    ("capacity", "Classes have a name. Bookings have a class and a date. Each class can have at most 10 "
                 "bookings.", [("capacity", "booking", "class")]),
    ("roles", "Orders have a date. Customers place orders. Admins can view and delete all orders.",
     [("roles", ["admin", "member"])]),
]


def _entity(spec, name: str):
    for e in spec.data_model:
        if name in (e.ident, e.name):
            return e
    raise AssertionError(f"no record {name!r}: {[e.ident for e in spec.data_model]}")


def _check(spec, expect) -> None:
    kind, *args = expect
    if kind == "roles":
        assert spec.roles == args[0]
    elif kind == "change_password":
        assert spec.change_password
    elif kind == "many":
        a, b = _entity(spec, args[0]), _entity(spec, args[1])
        assert b.ident in a.many or a.ident in b.many, (a.many, b.many)
    elif kind in ("summary", "capacity"):
        e = _entity(spec, args[0])
        kinds = {"summary": "period_summary", "capacity": "capacity"}
        found = [f for f in spec.features if f.kind == kinds[kind] and f.entity == e.ident]
        assert found, [(f.kind, f.entity) for f in spec.features]
        if kind == "capacity":
            assert any(args[1] in fld for f in found for fld in f.fields), found
    else:
        e = _entity(spec, args[0])
        got = {"manage": lambda: e.manage, "view": lambda: e.view, "shared": lambda: e.shared,
               "assigned": lambda: e.assigned, "stamp": lambda: bool(e.stamps),
               "calendar": lambda: bool(e.calendar), "csv_import": lambda: e.csv_import > 0,
               "attachments": lambda: bool(e.attachment_types),
               "computed": lambda: any(args[1] in name for name in e.computed)}[kind]()
        if kind in ("manage", "view"):
            assert got == args[1]
        else:
            assert got, f"{kind} on {e.ident}: {e.computed if kind == 'computed' else got}"


# Rows that still fail, with why: most because the record the construct acts on is not read from
# the request at all (entity recognition, not the construct's phrasing).
_NO_RECORD = "the record the construct needs is not recognised in this request"
TUNED_OPEN = {
    "view-6": _NO_RECORD + " ('report' is never a record type: a word for a summary page)",
    "account-19": "the request names no record, so no spec is built",
    "summary-21": _NO_RECORD + " ('run' is read as a participle, so 'record each run' names no record)",
    "stamp-22": "'a to-do app' names a todo record, the clause says tasks",
}
HELD_OUT_OPEN = {
    "view-1": "held out: 'auditor' is no role noun",
    "summary-7": "held out: 'a shop app that records sales with an amount' makes no sale record",
    "stamp-8": "held out: 'orders move from placed to shipped to delivered' is not read as a workflow",
    "csv_import-10": "held out: 'upload a CSV of members' is not read as an import",
}
# shared-7 and assigned-12 pass since the pass "record objects" (people act on records: "customers open
# tickets", "customers sign in to rent films") and the optional word before a role noun ("support agents");
# held-out assigned-3 ("team members") passed with them, untuned. calendar-24 passes since an activity
# before an app head is kept when the request names it as records too ("a booking app ... my bookings"),
# attachments-28 since "care" is an app head's activity ("a plant care app"), capacity-34 since
# "each shift can have at most two volunteers" names the volunteers as records (pass "record objects").
# capacity-33 passes since "the <app-head word>," in a record's list is a record it names ("each loan records
# the tool, the member and a date": 'tool' no longer ends the list).
# computed-12 was seen failing (its clause was mapped to a typed-in 'total' field: an over-claim) before
# the row "X is A times B" and its "replaces_field" were added: no longer held out.


def _ids(rows):
    return [f"{construct}-{i}" for i, (construct, _r, _e) in enumerate(rows)]


def _params(rows, still_open):
    return [pytest.param(*row, id=ident, marks=[pytest.mark.xfail(reason=still_open[ident], strict=False)]
                         if ident in still_open else [])
            for row, ident in zip(rows, _ids(rows))]


@pytest.mark.parametrize("construct, request_text, expects", _params(TUNED, TUNED_OPEN))
def test_a_common_phrasing_yields_its_construct(construct, request_text, expects):
    spec = postprocess(rule_based_spec(request_text))
    for expect in expects:
        _check(spec, expect)


@pytest.mark.parametrize("construct, request_text, expects", _params(HELD_OUT, HELD_OUT_OPEN))
def test_a_held_out_phrasing_yields_its_construct(construct, request_text, expects):
    spec = postprocess(rule_based_spec(request_text))
    for expect in expects:
        _check(spec, expect)


@pytest.mark.parametrize("request_text", [
    "A job tracker for a cleaning company. Staff record jobs with a date and an address. "
    "Managers can see all the jobs but change only their own.",
    "A task tracker for a small team with a weekly summary of completed tasks.",
])
def test_the_new_constructs_pass_the_spec_file_checks(request_text, tmp_path):
    """A reading role and a stamped date the parser writes are ones the spec-file loader accepts
    (`view` between the admin role and a new account's; a stamp on an optional date of a workflow
    state) and build the same app: the draft round trip of tests/test_draft_round_trip.py."""
    from harness.offline.accounting.draft import draft_toml
    from harness.offline.spec import parse_request
    from tests.test_draft_round_trip import _round_trip, built_app

    spec = parse_request(request_text)
    assert any(e.view or e.stamps for e in spec.data_model)
    again = _round_trip(spec, draft_toml(spec, spec.clauses), tmp_path / "app.toml")
    assert [(e.view, e.stamps) for e in again.data_model] == [(e.view, e.stamps) for e in spec.data_model]
    assert built_app(again) == built_app(spec)


# calendar-8 here and calendar-9 above failed on "a weekly / monthly calendar"; the row "records in a
# weekly calendar" was added after they were seen failing, so they no longer count as held out.
HELD_OUT_2_OPEN = {
    "view-1": "the reading role is read (view = supervisor), but timesheets are named time_entry and "
              "'employees log their own timesheets' makes an employee record",
}


@pytest.mark.parametrize("construct, request_text, expects", _params(HELD_OUT_2, HELD_OUT_2_OPEN))
def test_a_second_held_out_phrasing_yields_its_construct(construct, request_text, expects):
    spec = postprocess(rule_based_spec(request_text))
    for expect in expects:
        _check(spec, expect)


def test_a_value_said_to_be_a_product_of_two_fields_is_computed_not_typed_in_bug():
    """'Each invoice shows its amount, which is the hours times the hourly rate' built a typed-in
    `amount` field and called the clause mapped: the product was never computed."""
    spec = postprocess(rule_based_spec("Invoices have hours and an hourly rate. Each invoice shows its amount, "
                                       "which is the hours times the hourly rate."))
    invoice = _entity(spec, "invoice")
    assert invoice.computed == {"amount": "hours * hourly_rate"}
    assert "amount" not in [f.ident for f in invoice.fields]


@pytest.mark.parametrize("limit", ["two", "2", "twelve"])
def test_a_capacity_limit_the_spec_builds_is_accounted_bug(limit):
    """'Each session can have at most two volunteers' built capacity with limit 2, yet the word
    accounting left 'two' (or '2') not understood, so the clause was reported not built and the
    build failed on an ask the spec does build; only 'one' (a function word) was accounted."""
    from harness.offline.spec import parse_request

    spec = parse_request("Sessions have a title and a date; volunteers have a name. "
                         f"Each session can have at most {limit} volunteers.")
    assert [f.options.get("limit") for f in spec.features if f.kind == "capacity"] == [int(
        {"two": 2, "twelve": 12}.get(limit, limit))]
    clause = next(c for c in spec.clauses if "at most" in c.text)
    assert clause.status == "mapped", (clause.status, clause.reason)
