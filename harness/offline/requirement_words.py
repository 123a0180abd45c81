"""The words of a spec's requirements, from the spec alone: the text and acceptance the request
parser gives the same entities, features and pages (harness/offline/spec/build.py and
coverage.py word them from the parse with these same functions), so `builder new --spec` of a run's draft lists, numbers and
words its requirements as the run did. tests/test_draft_round_trip.py holds the two to it over the
whole dev set: a change of wording on one side fails it until the other side follows.
"""

from __future__ import annotations

from harness.constructs.parent_key import parent_key
from harness.models.spec import DataEntity, Feature
from harness.offline.generator.naming import field_ident, slug

Item = tuple[str, "str | None", str, str]   # (capability, entity ident, text, acceptance)

HEALTH: Item = ("health", None, "The app exposes GET /health and serves an HTML index page at /",
                'GET /health returns 200 with {"status": "ok"} and GET / returns 200 HTML')
# An API-only app (AppSpec.html False): no page at all, the index is JSON.
HEALTH_API: Item = ("health", None, "The app exposes GET /health and a JSON API only, with no pages",
                    'GET /health returns 200 with {"status": "ok"} and GET / returns JSON naming /docs')

FEATURE_TEXT = {
    "search": ("Users can search {plural}{by}", "GET /api/{seg}?q=<text> returns only the matching {plural}"),
    "filter": ("Users can filter {plural}{by}", "GET /api/{seg}?<field>=<value> returns only the matching {plural}"),
    "sort": ("Users can sort {plural}{by}", "GET /api/{seg}?sort=<field>&order=asc|desc returns {plural} in that order"),
    # what is built, dashboard or not (acct48 D4): the feature's own route; a dashboard, when the spec
    # has one, is a requirement of its own
    "aggregate": ("Users see totals of {plural}{by}", "GET /api/{seg}/totals returns the sums for {plural}"),
    "status_counts": ("Users see how many {plural} there are per status",
                      "GET /api/{seg}/counts returns {plural} counts per status"),
    "csv_export": ("Users can export {plural} as CSV", "GET /api/{seg}/export.csv returns every {name} as a CSV row"),
    "no_double_booking": ("A {name} cannot be booked twice for the same slot",
                          "creating an overlapping {name} returns 409"),
    "ownership": ("Each user only sees their own {plural}", "another user's {plural} return 404"),
    "persistence": ("Saved {plural} are kept after a refresh, a new login or a restart",
                    "a {name} created through the API is listed by the app started afresh on the same "
                    "database, for the same login"),
    "newest_first": ("Users see {plural} listed newest first",
                     "GET /api/{seg} lists {plural} by their date, newest first (the last added first on the same "
                     "date or without one)"),
}


def with_article(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def auth_item(email: bool) -> Item:
    with_email = " with an e-mail address and a password" if email else ""
    return ("auth", None,
            f"Users can register, log in{with_email} and log out (authentication); every data route "
            "requires a bearer token and each user only sees their own records",
            "POST /api/auth/register returns 201" + (" (a malformed e-mail address returns 422)" if email else "")
            + ", POST /api/auth/login returns a bearer token, GET /api/auth/me returns the current user, data "
            "routes return 401 without a token and another user's records return 404")


def entity_items(e: DataEntity, by_ident: dict[str, DataEntity], auth: bool = False) -> list[Item]:
    """crud, then the parent relation and the done status when the entity has them."""
    seg = slug(e.plural)
    display = next((f.ident for f in e.fields if f.type == "str" and f.required),
                   next((f.ident for f in e.fields if f.required), None))   # a required JSON key
    missing = f" and a missing {display} returns 422" if display else ""   # none required: no such claim
    # who may: a record a role manages is added, changed and deleted by that role (and the admin
    # role) alone, so "Users can create …" said what the app refuses (trial 2026-12-07e, acct48b)
    who = f"The {e.manage} role" if e.manage else "Users"
    as_who = f"As the {e.manage} role, " if e.manage else ""
    out: list[Item] = [("crud", e.ident, f"{who} can create, list, view, update and delete {e.plural}",
                        f"{as_who}POST /api/{seg} returns 201; GET /api/{seg} lists the created {e.plural}; GET, PUT "
                        f"and DELETE /api/{seg}/{{id}} return 200, 200 and 204; an unknown id returns 404"
                        f"{missing}")]
    if e.parent and e.parent in by_ident:
        parent = by_ident[e.parent]
        cascade = e.on_parent_delete == "cascade"
        out.append(("relation", e.ident,
                    f"Each {e.name} belongs to {with_article(parent.name)}; {e.plural} can be listed per {parent.name}"
                    + (f"; deleting {with_article(parent.name)} deletes its {e.plural}" if cascade else ""),
                    f"POST /api/{seg} requires an existing {parent_key(parent.name, parent.ident, auth)} "
                    f"(404 for an unknown "
                    f"{parent.name}) and GET /api/{slug(parent.plural)}/{{id}}/{seg} lists only "
                    f"that {parent.name}'s {e.plural}"
                    + (f"; DELETE /api/{slug(parent.plural)}/{{id}} returns 204 and its {e.plural} are gone (404)"
                       if cascade else "")))
    if e.has_status:
        out.append(("complete", e.ident, f"Users can mark {with_article(e.name)} as done",
                    f"A new {e.name} has status open and POST /api/{seg}/{{id}}/complete sets its "
                    "status to done; an unknown id returns 404"))
    return out


def workflow_item(e: DataEntity) -> Item:
    return ("workflow", e.ident, f"{e.plural.capitalize()} move through {' → '.join(e.workflow)}",
            f"a new {e.name} starts as {e.workflow[0]}; moving it to the next state returns 200 and "
            f"any other status change returns 409")


def feature_item(f: Feature, e: DataEntity, fallback: str) -> Item:
    """A feature's requirement; a kind the parser never words gets `fallback` (the spec file's)."""
    if f.kind not in FEATURE_TEXT:
        return ("feature", e.ident, fallback, f"{e.name}.features {f.kind}")
    text, acceptance = FEATURE_TEXT[f.kind]
    # the parser names a column by the request's word: the field's name, unless the field has a
    # display name of its own ("trạng thái" for `status`)
    names = {x.ident: x.name for x in e.fields if field_ident(x.name) == x.ident}
    by = f" by {', '.join(names.get(c, c.replace('_', ' ')) for c in f.fields)}" if f.fields else ""
    fill = {"plural": e.plural, "name": e.name, "seg": slug(e.plural), "by": by}
    return ("feature", e.ident, text.format(**fill), acceptance.format(**fill))


def dashboard_item(entities: list[DataEntity], auth: bool, html: bool = True) -> Item:
    plurals = [e.plural for e in entities]
    with_status = [e.plural for e in entities if e.has_status]
    text = f"A dashboard shows counts of {join_words(plurals)}"
    if with_status:
        text += f" and how many {join_words(with_status)} are open or done"
    if auth:
        text += " for the current user"
    acceptance = "GET /api/dashboard returns the number of " + join_words(plurals)
    if with_status:
        acceptance += f" with open/done counts for {join_words(with_status)}"
    return ("dashboard", None, text, acceptance + (" and GET /dashboard returns 200 HTML" if html else ""))


def pages_item(pages: list[tuple[str, str]]) -> Item:
    """(name, route) of every page but the index and the dashboard."""
    return ("pages", None, f"The app serves HTML pages for {join_words([n for n, _ in pages])} with real data and forms",
            f"GET {join_words([r for _, r in pages])} each return 200 HTML with a <form>; entity pages list the "
            "stored records")
