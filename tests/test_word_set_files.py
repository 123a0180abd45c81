"""The parser's word-set files (harness/offline/words/*.toml, harness/offline/spec/wordsets.py):
one file a grammatical role, each short enough to read, loaded by one loader that stops on a set
name defined twice or a malformed file with a line naming the file and the line."""

from __future__ import annotations

import re

import pytest

from harness.offline.spec.wordsets import MAPS_FILE, SET_FILES, WORDS_DIR, WordDataError, load_sets, word_set


def test_every_toml_file_of_the_words_folder_is_loaded_and_each_is_short():
    others = {MAPS_FILE.name, "vi_phrases.toml"}   # word maps and the Vietnamese phrase table
    assert {p.name for p in WORDS_DIR.glob("*.toml")} == set(SET_FILES) | others
    for name in SET_FILES:
        assert len((WORDS_DIR / name).read_text(encoding="utf-8").splitlines()) <= 400, name
    assert "admins" in word_set("role_nouns") and "the" in word_set("lexicon.function")


def test_a_set_name_defined_in_two_files_is_an_error_naming_both_files_and_lines(tmp_path):
    first, second = tmp_path / "records.toml", tmp_path / "fields.toml"
    first.write_text('# records\nback = "item items"\n\n[entities]\nheads = """\n    a = b\n"""\n', encoding="utf-8")
    second.write_text('# fields\n[other]\nx = "y"\n\n[entities]\nheads = "z"\n', encoding="utf-8")
    with pytest.raises(WordDataError) as caught:
        load_sets([first, second])
    assert str(caught.value) == (f"{second}:6: word set 'entities.heads' is defined again (first at {first}:5)")


def test_a_section_may_be_spread_over_files_when_its_set_names_differ(tmp_path):
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.write_text('[lexicon]\nfunction = "a an"\n', encoding="utf-8")
    second.write_text('[lexicon]\nroles = "admin"\n', encoding="utf-8")
    assert load_sets([first, second]) == {"lexicon.function": {"a", "an"}, "lexicon.roles": {"admin"}}


@pytest.mark.parametrize("text, line, reason", [
    ('ok = "a"\nbroken = "a b\n', 2, "not a word-set file"),
    ('ok = "a"\nok = "b"\n', 2, "not a word-set file"),
    ('\n[section]\ncount = 3\n', 3, "word set 'section.count' is not a string of words"),
])
def test_a_malformed_word_set_file_is_an_error_naming_the_file_and_line(tmp_path, text, line, reason):
    path = tmp_path / "fields.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(WordDataError, match=f"^{re.escape(str(path))}:{line}: {reason}") as caught:
        load_sets([path])
    assert "\n" not in str(caught.value)
