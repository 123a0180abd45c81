"""Stranger trial 2026-12-08j F3/O1 (f02, h02, k08, j1): "A user can add or remove songs from an
existing playlist" was reported built over a song with a parent playlist (each song in one playlist,
never added to a second, removed only by deleting it) or, in j1, a song whose parent was an album
with no playlist link at all (`notes` even said the link was dropped). "add X to / remove X from
(an existing) Y" with X and Y records asks for a membership, realised only by a many-to-many link
of the two (`many`, docs/spec-language.md; accounting/relation_asks.py)."""

from __future__ import annotations

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
