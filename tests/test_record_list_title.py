"""A request titled with its records' collection ("A movie watchlist: each movie has a title, …") builds
those records (bug: the title became a `watchlist` record with a `movie` field, and the movie's own
fields were reported not built)."""

from __future__ import annotations

from harness.offline.spec import parse_request


def _tables(text: str) -> dict[str, list[str]]:
    return {e.name: [f.name for f in e.fields] for e in parse_request(text).data_model}


def test_a_watchlist_title_before_a_colon_is_no_record_bug():
    spec = parse_request("A movie watchlist: each movie has a title, a genre (drama, comedy or horror) "
                         "and watched (yes/no).")
    assert {e.name: [f.name for f in e.fields] for e in spec.data_model} == {"movie": ["title", "genre", "watched"]}
    assert all(c.status == "mapped" for c in spec.clauses)


def test_a_wishlist_that_is_a_record_with_fields_stays_a_record():
    assert _tables("Wishlist: name, price, link") == {"wishlist": ["name", "price", "link"]}
