""""Everyone"/"anybody" as the readers of records are realised only by public read (stranger trial
2026-12-07h c3, the real request h10; harness/offline/accounting/everyone_asks.py).

Before, with a login on, "All posts are visible to everyone" was credited to posts being `shared`
(every *account* reads them): BUILD COMPLETE, and an anonymous GET /api/posts answered 401.
"""

from __future__ import annotations

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request

AUTHORS = "Users can create posts with a title and a body. Only authenticated users can create posts. "


@pytest.mark.parametrize("text", ["All posts are visible to everyone.", "Anybody can read the posts.",
                                  "Everyone can see all posts."])
def test_everyone_credited_to_shared_records_bug(text):
    spec = parse_request(AUTHORS + text)
    post = next(e for e in spec.data_model if e.name == "post")
    post.shared, post.read = True, None   # what the parser built before: every account reads them
    acc = account_text(text, spec)
    assert any(w.lower() in ("everyone", "anybody") for u in acc.unaccounted for w in u.split()), acc.words


@pytest.mark.parametrize("text", ["All posts are visible to everyone.", "Everyone can see all posts."])
def test_public_read_realises_everyone(text):
    spec = parse_request(AUTHORS + text)
    post = next(e for e in spec.data_model if e.name == "post")
    post.shared, post.read = True, "public"
    acc = account_text(text, spec)
    assert acc.unaccounted == [] and acc.words["everyone"].startswith("public read"), acc.words


def test_all_users_is_still_every_account():
    spec = parse_request(AUTHORS + "All users can see all posts.")
    post = next(e for e in spec.data_model if e.name == "post")
    post.shared, post.read = True, None
    assert account_text("All users can see all posts.", spec).unaccounted == []
