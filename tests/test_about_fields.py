"""'<record> about <noun>' gives the record a subject field (fresh held-out 39)."""
from __future__ import annotations

from harness.offline.spec import parse_request


def _idents(spec, name):
    return [f.ident for f in spec.entity(name).fields]


def test_ads_about_services_get_a_service_field_bug_false_pass_39() -> None:
    """Bug: 'post advertisments about services needed' ended BUILD COMPLETE with no service field."""
    spec = parse_request("A website that let's People post advertisments about services needed in their household")
    assert "service" in _idents(spec, "advertisment")


def test_posts_about_a_topic_get_a_topic_field() -> None:
    spec = parse_request("An app to manage posts about a topic")
    assert "topic" in _idents(spec, "post")


def test_about_another_record_is_not_a_text_field() -> None:
    spec = parse_request("An app to manage books and reviews about books")
    assert "book" not in _idents(spec, "review")
