import pytest

from textkit import reading_minutes, slugify, word_count


@pytest.mark.req("TXT-1")
def test_word_count_counts_hyphenated_and_apostrophe_words_once():
    assert word_count("It's a well-known fact.") == 4
    assert word_count("") == 0


@pytest.mark.req("TXT-2")
def test_slugify_joins_words_with_single_hyphens():
    assert slugify("  Hello, World!  2026 ") == "hello-world-2026"


@pytest.mark.req("TXT-3")
@pytest.mark.parametrize("words, minutes", [(0, 0), (1, 1), (200, 1), (201, 2)])
def test_reading_minutes_rounds_up(words, minutes):
    assert reading_minutes("word " * words) == minutes
