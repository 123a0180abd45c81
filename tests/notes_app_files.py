'''Hand-written answers of the scripted notes model: a markdown notes app with tags and search.

Written by hand for this test (never produced by the harness's generator): the storage module,
a markdown renderer, full-text search and the HTTP API, each with its pytest file. Placeholders
`{DB_ENV}` and `{IMPORTS_*}` are filled by notes_model.py from what the prompt showed.
'''

REQUIREMENTS_TXT = "fastapi\nuvicorn\nhttpx\npytest\n"

INIT_PY = '"""Markdown notes app."""\n'

STORE_PY = '''"""Note storage in SQLite: notes with a markdown body and tags."""

import os
import sqlite3

SCHEMA = """
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    tags TEXT
);
"""


def db_path():
    return {DB_PATH}


def connect():
    """A connection to the notes database, tables created."""
    conn = sqlite3.connect(db_path())
    conn.row_factory = sqlite3.Row
    conn.executescript(SCHEMA)
    return conn


def clean_tags(tags):
    """Tags lower-cased, stripped, de-duplicated and sorted."""
    return sorted({t.strip().lower() for t in tags or [] if t.strip()})


def create_note(conn, title, body, tags=None):
    """Insert a note and return it as a dict."""
    tags = clean_tags(tags)
    cur = conn.execute("INSERT INTO notes (title, body, tags) VALUES (?, ?, ?)",
                       (title, body, ",".join(tags) if tags else None))
    conn.commit()
    return get_note(conn, cur.lastrowid)


def _row(row):
    return {"id": row["id"], "title": row["title"], "body": row["body"],
            {TAGS_EXPR}}


def get_note(conn, note_id):
    """The note with that id as a dict, or None."""
    row = conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
    return _row(row) if row else None


def list_notes(conn, tag=None):
    """All notes, newest first; only those carrying `tag` when one is given."""
    notes = [_row(r) for r in conn.execute("SELECT * FROM notes ORDER BY id DESC").fetchall()]
    if tag:
        notes = [n for n in notes if tag.strip().lower() in n["tags"]]
    return notes
'''

PAGE_GOOD = '"SELECT * FROM notes ORDER BY id DESC"'
PAGE_BUGGY = '"SELECT * FROM notes ORDER BY id DESC LIMIT 2"'
TAGS_GOOD = '"tags": row["tags"].split(",") if row["tags"] else []'
TAGS_BUGGY = '"tags": row["tags"].split(",")'

TEST_STORE_PY = '''import pytest

from src import store


@pytest.fixture
def conn(tmp_path, monkeypatch):
    monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "notes.db"))
    c = store.connect()
    yield c
    c.close()


@pytest.mark.req("{R1}")
def test_created_note_reads_back(conn):
    note = store.create_note(conn, "Groceries", "# List\\n- milk", ["Home"])
    {CHECK_READ}


@pytest.mark.req("{R2}")
def test_tags_are_cleaned_and_filter_the_list(conn):
    store.create_note(conn, "a", "x", [" Work ", "work", "Ideas"])
    store.create_note(conn, "b", "y", ["home"])
    {CHECK_TAGS}
'''

CHECK_READ = ('again = store.get_note(conn, note["id"])\n'
              '    assert again["title"] == "Groceries" and again["body"] == "# List\\n- milk"\n'
              '    assert store.get_note(conn, 999) is None')
CHECK_TAGS = ('assert [n["title"] for n in store.list_notes(conn, tag="WORK")] == ["a"]\n'
              '    assert store.list_notes(conn, tag="work")[0]["tags"] == ["ideas", "work"]')


def hollow_tests(keys) -> str:
    """Tests that prove nothing: one `assert True` per requirement (must never count as evidence)."""
    body = "import pytest\n"
    for n, key in enumerate(keys, start=1):
        body += f'\n\n@pytest.mark.req("{{{key}}}")\ndef test_requirement_{n}():\n    assert True\n'
    return body

MARKDOWN_PY = '''"""A small markdown-to-HTML renderer: headings, bullet lists, paragraphs, **bold**, *italic*, `code`."""

import html
import re

_INLINE = [(re.compile(r"`([^`]+)`"), r"<code>\\1</code>"),
           (re.compile(r"\\*\\*([^*]+)\\*\\*"), r"<strong>\\1</strong>"),
           (re.compile(r"\\*([^*]+)\\*"), r"<em>\\1</em>")]
_HEADING = re.compile(r"(#{1,6})\\s+(.*)")


def inline(text):
    out = html.escape(text)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def render(source):
    """HTML for the markdown `source` (raw HTML in it is escaped)."""
    blocks, items, para = [], [], []

    def flush():
        if para:
            blocks.append("<p>" + inline(" ".join(para)) + "</p>")
            para.clear()
        if items:
            blocks.append("<ul>" + "".join(f"<li>{inline(i)}</li>" for i in items) + "</ul>")
            items.clear()

    for line in source.splitlines():
        text = line.strip()
        heading = _HEADING.match(text)
        if not text:
            flush()
        elif heading:
            flush()
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif text.startswith(("- ", "* ")):
            if para:
                flush()
            items.append(text[2:])
        else:
            if items:
                flush()
            para.append(text)
    flush()
    return "\\n".join(blocks)
'''

SEARCH_PY = '''"""Full-text search over notes: every word of the query must occur in the title or the body."""

import re

{IMPORTS_STORE}

_WORD = re.compile(r"\\w+")


def words(text):
    return [w.lower() for w in _WORD.findall(text)]


def search(conn, query, tag=None):
    """Notes matching every word of `query` (any case), most hits first, then newest."""
    terms = set(words(query))
    if not terms:
        return []
    hits = []
    for note in list_notes(conn, tag=tag):
        found = words(note["title"] + " " + note["body"])
        if terms <= set(found):
            hits.append((-sum(found.count(t) for t in terms), -note["id"], note))
    return [note for _, _, note in sorted(hits, key=lambda h: (h[0], h[1]))]
'''

TEST_SEARCH_PY = '''import pytest

from src import store
from src.markdown import render
from src.search import search


@pytest.fixture
def conn(tmp_path, monkeypatch):
    monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "notes.db"))
    c = store.connect()
    yield c
    c.close()


@pytest.mark.req("{R1}")
def test_markdown_renders_headings_lists_and_emphasis():
    html = render("# Title\\n\\nSome **bold** text\\n\\n- one\\n- two")
    assert "<h1>Title</h1>" in html and "<strong>bold</strong>" in html
    assert "<ul><li>one</li><li>two</li></ul>" in html
    assert "&lt;script&gt;" in render("<script>alert(1)</script>")


@pytest.mark.req("{R3}")
def test_search_matches_every_word_in_any_case(conn):
    store.create_note(conn, "Trip plan", "Pack the **tent**", ["travel"])
    store.create_note(conn, "Recipes", "A tent-shaped cake")
    store.create_note(conn, "Work", "quarterly report", ["work"])
    assert sorted(n["title"] for n in search(conn, "TENT")) == ["Recipes", "Trip plan"]
    assert [n["title"] for n in search(conn, "tent", tag="travel")] == ["Trip plan"]
    assert [n["title"] for n in search(conn, "report quarterly")] == ["Work"]
    assert search(conn, "missing") == []
'''

MAIN_PY = '''"""The notes API: create and read notes (body rendered from markdown), list by tag, search."""

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel, Field

{IMPORTS_MAIN}

app = FastAPI(title="Markdown notes")


class NoteIn(BaseModel):
    title: str = Field(min_length=1)
    body: str = ""
    tags: list[str] = []


def _out(note):
    return {**note, "html": render(note["body"])}


@app.get("{HEALTH}")
def health():
    return {"status": "ok"}


@app.post("/notes", status_code=201)
def create(note: NoteIn):
    conn = store.connect()
    try:
        return _out(store.create_note(conn, note.title, note.body, note.tags))
    finally:
        conn.close()


@app.get("/notes")
def list_all(tag: str | None = None):
    conn = store.connect()
    try:
        return [_out(n) for n in store.list_notes(conn, tag=tag)]
    finally:
        conn.close()


@app.get("/notes/{note_id}")
def read(note_id: int):
    conn = store.connect()
    try:
        note = store.get_note(conn, note_id)
    finally:
        conn.close()
    if note is None:
        raise HTTPException(status_code=404, detail="note not found")
    return _out(note)


@app.get("/search")
def find(q: str, tag: str | None = None):
    conn = store.connect()
    try:
        return [_out(n) for n in search(conn, q, tag=tag)]
    finally:
        conn.close()
'''

TEST_API_PY = '''import pytest
from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path, monkeypatch):
    monkeypatch.setenv("APP_DB_PATH", str(tmp_path / "app.db"))
    from src.main import app

    with TestClient(app) as c:
        yield c


@pytest.mark.req("{R1}")
def test_create_and_read_a_note_with_its_html(client):
    assert client.get("/health").json() == {"status": "ok"}
    made = client.post("/notes", json={"title": "Hello", "body": "# Hi\\nthere", "tags": ["Work"]})
    assert made.status_code == 201
    got = client.get(f"/notes/{made.json()['id']}")
    assert got.status_code == 200 and got.json()["html"].startswith("<h1>Hi</h1>")
    assert client.get("/notes/9999").status_code == 404
    assert client.post("/notes", json={"title": ""}).status_code == 422


@pytest.mark.req("{R2}")
def test_list_notes_by_tag(client):
    client.post("/notes", json={"title": "a", "body": "x", "tags": ["Work"]})
    client.post("/notes", json={"title": "b", "body": "y", "tags": ["home"]})
    assert [n["title"] for n in client.get("/notes", params={"tag": "work"}).json()] == ["a"]
    assert len(client.get("/notes").json()) == 2


@pytest.mark.req("{R3}")
def test_search_endpoint(client):
    client.post("/notes", json={"title": "Trip", "body": "pack the tent", "tags": ["travel"]})
    client.post("/notes", json={"title": "Cake", "body": "flour and sugar"})
    assert [n["title"] for n in client.get("/search", params={"q": "Tent"}).json()] == ["Trip"]
    assert client.get("/search", params={"q": "tent", "tag": "home"}).json() == []
'''
