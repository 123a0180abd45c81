"""After trial j F3 ("add or remove songs from an existing playlist" → a many-to-many link), every
"add X to Y" became one: "Users can add tasks to a project" gave task ↔ project many-to-many (a task
in many projects) instead of the task's parent. A membership is read only when the clause removes
too or the holder is a collection people put records in (playlist, list, cart, shelf, class …)."""

from __future__ import annotations

import pytest

from tests.spec_golden import spec_document


def _records(request_text: str) -> dict[str, tuple]:
    return {e["name"]: (e.get("parent"), e.get("many")) for e in spec_document(request_text)["data_model"]}


def test_adding_tasks_to_a_project_keeps_the_tasks_parent_bug():
    records = _records("Projects have a name. Tasks have a title. Users can add tasks to a project.")
    assert records["task"] == ("project", None)


@pytest.mark.parametrize("request_text, item, holder", [
    ("The app manages songs and playlists. A user can add or remove songs from an existing playlist.", "song", "playlist"),
    ("Books have a title. Shelves have a name. Add books to a shelf.", "book", "shelf"),
    ("Projects have a name. Tasks have a title. Users can add or remove tasks from a project.", "task", "project"),
])
def test_a_removal_or_a_collection_is_still_a_membership(request_text, item, holder):
    assert holder in (_records(request_text)[item][1] or [])
