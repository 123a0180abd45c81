"""Stranger trial 2026-12-08j F3/O1 (f02, h02, k08, j1): "A user can add or remove songs from an
existing playlist" was reported built over a song with a parent playlist (each song in one playlist,
never added to a second, removed only by deleting it) or, in j1, a song whose parent was an album
with no playlist link at all (`notes` even said the link was dropped). "add X to / remove X from
(an existing) Y" with X and Y records asks for a membership, realised only by a many-to-many link
of the two (`many`, docs/spec-language.md; accounting/relation_asks.py)."""

from __future__ import annotations

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Requirement
from harness.offline.accounting.account import account_text


def _spec(song_parent: str | None = None, many: bool = False) -> AppSpec:
    return AppSpec(title="Music", data_model=[
        DataEntity(name="album", plural="albums", ident="album", fields=[EntityField(name="name", ident="name")]),
        DataEntity(name="playlist", plural="playlists", ident="playlist", fields=[EntityField(name="name", ident="name")]),
        DataEntity(name="song", plural="songs", ident="song", parent=song_parent, many=["playlist"] if many else [],
                   fields=[EntityField(name="title", ident="title")])],
        requirements=[Requirement(id="REQ-001", text="crud", capability="crud")])


TEXT = "A user can add or remove songs from an existing playlist."


def test_a_song_in_one_playlist_or_an_album_is_no_membership_bug():
    assert account_text(TEXT, _spec("playlist")).unaccounted == ["add", "remove", "playlist"]
    assert account_text(TEXT, _spec("album")).unaccounted == ["add", "remove", "playlist"]
    assert account_text("Users add songs to playlists.", _spec("playlist")).unaccounted == ["add", "playlists"]


def test_a_many_to_many_link_realises_the_membership_bug():
    assert account_text(TEXT, _spec("album", many=True)).unaccounted == []
    assert account_text("Users add songs to playlists.", _spec(many=True)).unaccounted == []


H02 = "The app manages songs and playlists. A user can add or remove songs from an existing playlist."


def test_adding_songs_to_playlists_builds_the_membership_bug():
    from tests.spec_golden import spec_document

    for request in (H02, "The app manages songs and playlists. Users add songs to playlists.",
                    "A user can see a list of all songs and a list of all playlists. "
                    "A user can add or remove songs from an existing playlist."):
        doc = spec_document(request)
        song = next(e for e in doc["data_model"] if e["name"] == "song")
        assert song.get("many") == ["playlist"] and not song.get("parent"), request
        assert {c["status"] for c in doc["clauses"]} == {"mapped"}, request
    belongs = spec_document("An app for projects and tasks. Each task belongs to a project. Add tasks to a project.")
    assert next(e for e in belongs["data_model"] if e["name"] == "task").get("parent") == "project"
    comments = spec_document("A blog with posts and comments. Users can add comments to posts.")
    comment = next(e for e in comments["data_model"] if e["name"] == "comment")
    assert comment.get("parent") == "post" and not comment.get("many")   # written for one post
    assert comments["clauses"][1]["status"] == "mapped"


@pytest.mark.slow
def test_a_song_is_added_to_two_playlists_and_removed_from_one_over_http(tmp_path):
    from tests.test_accounted_records_served import _call, _serve

    _spec, app = _serve(H02, tmp_path)
    with app as base:
        status, song = _call("POST", base + "/api/songs", {"title": "Let it be"})
        assert status == 201   # a song of the library, in no playlist
        lists = [_call("POST", base + "/api/playlists", {"name": n})[1]["id"] for n in ("Faves", "Road")]
        for pid in lists:
            assert _call("PUT", base + f"/api/songs/{song['id']}/playlists/{pid}")[0] == 204
        status, linked = _call("GET", base + f"/api/songs/{song['id']}/playlists")
        assert status == 200 and sorted(p["id"] for p in linked) == sorted(lists)
        assert _call("DELETE", base + f"/api/songs/{song['id']}/playlists/{lists[0]}")[0] == 204
        status, linked = _call("GET", base + f"/api/songs/{song['id']}/playlists")
        assert [p["id"] for p in linked] == [lists[1]]
        assert _call("GET", base + f"/api/songs/{song['id']}")[0] == 200   # still in the library
