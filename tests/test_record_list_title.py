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


def test_a_name_that_opens_the_request_as_an_app_is_its_title_not_an_unbuilt_clause_bug():
    """"Lifting Diary is a personal workout tracker for weightlifters" (a public write-up of a
    workout tracker) was not built: "no offline rule understands Lifting, Diary". The capitalised
    words before "is a … <app head>" name the app, as "a tracker called Pennywise" does."""
    spec = parse_request("Lifting Diary is a personal workout tracker. Workouts have a date and a name.")
    assert spec.title == "Lifting Diary" and [c.status for c in spec.clauses] == ["mapped", "mapped"]
    spec = parse_request("Pennywise is an expense tracker. Expenses have an amount and a date.")
    assert spec.title == "Pennywise" and [e.ident for e in spec.data_model] == ["expense"]
    spec = parse_request("Tasks is a big word. A todo app with tasks.")   # no app head: no name
    assert spec.clauses[0].status == "not_built"
