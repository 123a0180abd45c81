"""Black-box check that a form a page shows for a record does what its button says, for the record's
owner: a complete form completes it, a delete form deletes it — read back through the API.

Hostile trial g (A7): the page's "Done" form stored nothing while the API's complete route worked
and the app's own page test was weakened; every check passed, because the page checks looked only
at what pages show and at another account's forms. The forms are found in the page's HTML as a
browser finds them (a `<form method="post">` whose action ends with `/<id>/complete` or
`/<id>/delete` right after the entity's collection name — `/forms/tools/10/delete` is tool 10's,
never loan 10's — its hidden inputs sent along); an app that shows no such form for the record is
not judged by it (the line says so)."""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlsplit

from harness.acceptance.checks_flow import DONE_WORDS
from harness.acceptance.checks_pages_private import page_routes
from harness.acceptance.client import Api, CheckFailed
from harness.constructs.collection_url import collection_slug
from harness.models.spec import AppSpec, DataEntity


class _Forms(HTMLParser):
    """Every form of a page: action, method and the hidden inputs a browser would send."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []
        self._open: dict | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.lower(): v or "" for k, v in attrs}
        if tag == "form":
            self._open = {"action": a.get("action", ""), "method": (a.get("method") or "get").lower(), "data": {}}
            self.forms.append(self._open)
        elif tag == "input" and self._open is not None and a.get("name") and a.get("type", "").lower() == "hidden":
            self._open["data"][a["name"]] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._open = None


def record_form(html: str, slug: str, record_id: object, verb: str) -> dict | None:
    """The page's first post form whose action's path ends with /<slug>/<record_id>/<verb>, else None."""
    parser = _Forms()
    parser.feed(html)
    for form in parser.forms:
        if form["method"] == "post" and urlsplit(form["action"]).path.rstrip("/").endswith(f"/{slug}/{record_id}/{verb}"):
            return form
    return None


def form_acts(api: Api, spec: AppSpec, entity: DataEntity, verb: str) -> str:
    """The owner posts the `verb` form a page shows for its new record; the API then reads it
    completed (complete) or gone (delete)."""
    owner = api.writer(entity)
    headers = api.headers("text/html", owner, form=True)
    rec = api.create(entity, owner)
    url = f"{api.collection(entity)}/{rec['id']}"
    for route in page_routes(spec, entity):
        page = api.call("GET", route, owner, accept="text/html")
        form = record_form(page.text, collection_slug(entity.plural), rec["id"], verb) if page.ok() else None
        if form is None:
            continue
        action = urlsplit(form["action"]).path
        got = api.http.request("POST", action, data=form["data"], headers=headers)
        api.http.cookies.clear()
        api.seen.append(f"POST {action} (the {verb} form on {route}, the owner) → {got.status_code}")
        if got.status_code >= 400:
            raise CheckFailed(f"the {verb} form on {route} answered {got.status_code} for the owner's {entity.name}")
        after = api.call("GET", url, owner)
        if verb == "delete" and after.status != 404:
            raise CheckFailed(f"after the owner posted the delete form on {route} its {entity.name} is still there: {after.line}")
        status = after.body.get("status") if isinstance(after.body, dict) else None
        if verb == "complete" and status not in DONE_WORDS:
            raise CheckFailed(f"after the owner posted the complete form on {route} its {entity.name} reads "
                              f"status {status!r}: {after.line}")
        return f"the {verb} form {route} shows for a {entity.name} did it (read back through the API)"
    return f"no page shows a {verb} form for a {entity.name}: nothing to post"
