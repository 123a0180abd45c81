"""Black-box check that the pages show stored text as text: a record whose text field holds markup
(an element, `<b>` or another, with an attribute naming a random word, and a `<script>`) is made through the API, and every page that may
show it — the entity's pages, the pages of no entity (the index, the dashboard), its edit page and
any page of the spec with an `{id}` in its route — must not turn it into elements: no element or
attribute of the page comes from the value, no script holds it. The entity's own pages must show it
(read as a browser reads it: the value, escaped in the HTML, appears as text or as an attribute
value in one piece).

Hostile trial i, A6: page cells returned `str(value)` (a stored cross-site script), its one test was
hollowed, and both legs passed: no outside check looked at escaping (`tests/test_stored_xss_in_pages_bug.py`).
"""

from __future__ import annotations

from html.parser import HTMLParser

from harness.acceptance.checks_pages_private import page_routes
from harness.acceptance.client import Api, CheckFailed
from harness.acceptance.samples import searchable
from harness.constructs.collection_url import collection_slug
from harness.models.spec import AppSpec, DataEntity


_TAGS = ("b", "i", "em", "strong", "span", "u", "mark")


def markup(api: Api) -> tuple[str, str]:
    """(marker, value): a text of the run's words wrapped in markup that names `marker`."""
    rng = api.phrases.rng
    # two words no other value holds, joined: no page's own markup (a class, a script) holds it
    marker = f"{api.phrases.word()}-{api.phrases.word()}"
    tag, name = rng.choice(_TAGS), rng.choice(("id", "class", "title"))
    return marker, f'<{tag} {name}="{marker}">{api.phrases.text()}</{tag}><script>document.title="{marker}"</script>'


class _Reader(HTMLParser):
    """What a browser would make of a page: where `marker` became markup, and the text shown."""

    def __init__(self, marker: str, value: str) -> None:
        super().__init__(convert_charrefs=True)
        self.marker, self.value = marker, value
        self.raw: list[str] = []          # how the value became markup
        self.shown = False                # the value appears whole, as text or an attribute value
        self._text: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._end_text()
        self._in_script = tag in ("script", "style")
        for name, value in attrs:
            if self.marker in name:
                self.raw.append(f"an attribute {name!r} of a <{tag}> element")
            elif value and self.marker in value:
                if self.value in value:
                    self.shown = True
                else:
                    self.raw.append(f'a <{tag} {name}="{value[:60]}"> element')

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self._in_script = False

    def handle_endtag(self, tag: str) -> None:
        self._end_text()
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            if self.marker in data:
                self.raw.append(f"a <script> holding {data.strip()[:60]!r}")
            return
        self._text.append(data)

    def _end_text(self) -> None:
        if self.value in "".join(self._text):
            self.shown = True
        self._text = []

    def close(self) -> None:
        super().close()
        self._end_text()


def read_page(html: str, marker: str, value: str) -> _Reader:
    reader = _Reader(marker, value)
    reader.feed(html)
    reader.close()
    return reader


def escaping_routes(spec: AppSpec, entity: DataEntity, record_id: int) -> tuple[list[str], list[str]]:
    """(pages that must show the record, every page to look at): the entity's own pages; then the
    index and the pages of no entity, the record's edit page and the spec's pages with `{...}` in
    their route (its id put in)."""
    own = [p.route for p in spec.pages if p.entity == entity.ident and "{" not in p.route]
    filled = [p.route.split("{", 1)[0] + str(record_id) + p.route.split("}", 1)[1]
              for p in spec.pages if p.entity == entity.ident and "{" in p.route and "}" in p.route]
    edit = f"/forms/{collection_slug(entity.plural)}/{record_id}/edit"
    every = [r for r in [*own, *page_routes(spec, entity), edit, *filled] if r not in ("/login", "/logout")]
    return own, list(dict.fromkeys(every))


def pages_escape_text(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    """A record whose text holds markup is shown as text on every page that shows it."""
    fields = searchable(entity)
    if not fields:
        return f"a {entity.name} has no text field to show"
    who = api.account()
    marker, value = markup(api)
    rec = api.create(entity, who, **{fields[0].ident: value})
    own, every = escaping_routes(spec, entity, rec["id"])
    looked, shown_on = [], []
    for route in every:
        got = api.call("GET", route, who, accept="text/html")
        if got.status != 200 or "<" not in got.text:
            if route in own:
                raise CheckFailed(f"page {route}: expected 200 HTML, got {got.line}")
            continue   # a page this app does not have (an edit page, a detail page)
        page = read_page(got.text, marker, value)
        if page.raw:
            raise CheckFailed(f"page {route} turns the {entity.name}'s {fields[0].ident} {value!r} into markup "
                              f"({'; '.join(page.raw[:3])}): stored text must be HTML-escaped")
        if route in own and not page.shown:
            raise CheckFailed(f"page {route} does not show the {entity.name}'s {fields[0].ident} {value!r} as "
                              f"text: {got.line}")
        looked.append(route)
        if page.shown:
            shown_on.append(route)
    return (f"a {fields[0].ident} holding element and <script> markup is shown as text on "
            f"{', '.join(shown_on) or 'no page'}; no page of {', '.join(looked)} makes markup of it")
