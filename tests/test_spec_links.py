"""`many = ["<entity>"]`: records linked many-to-many (examples/notes_tags.toml, from the "Build Your
Own Notes App API" brief): read exactly, bad links named in one line, and the generated link tests
pass and catch an app whose links or link filter do not work. Also the volunteer rota example
(shared + manage + assigned_to on one entity) and the display-column bug it found."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.generator.analyse import analyse
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

EXAMPLES = Path(__file__).parents[1] / "examples"
NOTES = EXAMPLES / "notes_tags.toml"
ROTA = EXAMPLES / "volunteer_rota.toml"


def test_the_notes_example_links_notes_and_tags():
    spec = load_spec_file(NOTES)
    assert spec.entity("note").many == ["tag"] and spec.entity("tag").many == []
    link = next(r for r in spec.requirements if r.capability == "link")
    assert (link.entity, link.acceptance) == ("note", "note.many tag")
    files = generate_files(spec)
    assert 'CREATE TABLE IF NOT EXISTS "link_note_tag"' in files["src/models.py"]
    assert "'/api/notes/{item_id}/tags/{other_id}'" in files["src/api_note.py"]
    assert "def test_note_links_any_number_of_tags" in files["tests/test_api_note.py"]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return path


TAG = '[[entities]]\nname = "tag"\n'


@pytest.mark.parametrize(("text", "expected"), [
    (TAG + '[[entities]]\nname = "note"\nmany = ["ghost"]\n', "app.toml:5: entities[2].many: no other entity named 'ghost'"),
    (TAG + '[[entities]]\nname = "note"\nmany = ["note"]\n', "app.toml:5: entities[2].many: no other entity named 'note'"),
    (TAG + '[[entities]]\nname = "note"\nmany = ["tag", "tag"]\n', "entities[2].many: 'tag' is named twice"),
    (TAG + '[[entities]]\nname = "note"\nmany = [3]\n', "entities[2].many: must be a list of entity names"),
    (TAG + 'many = ["note"]\n[[entities]]\nname = "note"\nmany = ["tag"]\n', "are linked twice"),
    (TAG + '[[entities]]\nname = "note"\nmany = ["tag"]\nfields = ["tag"]\n', "'tag' is also a field of note"),
])
def test_link_errors_name_the_line_and_key(tmp_path, text, expected):
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(_write(tmp_path, text))
    assert expected in str(raised.value) and "\n" not in str(raised.value)


def test_display_column_was_a_time_field_bug():
    """A shift whose required fields are a date and two times was shown (and its generated form
    tests filled) by its start time, as if it were text: the pages tests failed with 422."""
    shift = analyse(load_spec_file(ROTA)).entity("shift")
    assert shift.display is not None and shift.display.kind != "time"


# An app whose link filter is ignored: ?tag= lists every note.
NO_FILTER = ("for name in [k for k in equals if k in self.links]:", "for name in []:")


@pytest.mark.slow
def test_the_generated_link_tests_pass_and_fail_when_the_filter_is_ignored(tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(NOTES))
    ws = write_files(files, suites.base / "notes")
    kept = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert kept.exit_code == 0 and "failed" not in kept.stdout, kept.stdout[-3000:]
    models = files["src/models.py"]
    assert NO_FILTER[0] in models
    (ws / "src" / "models.py").write_text(models.replace(*NO_FILTER), encoding="utf-8")
    broken = suites.run(ws, "-q", "-p", "no:cacheprovider",
                        "tests/test_api_note.py::test_note_links_any_number_of_tags")
    assert broken.exit_code == 1 and "1 failed" in broken.stdout, broken.stdout[-3000:]


@pytest.mark.slow
def test_the_volunteer_rota_suite_passes(tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(ROTA))
    ws = write_files(files, suites.base / "rota")
    result = suites.run(ws, "-q", "-p", "no:cacheprovider")
    assert result.exit_code == 0 and "failed" not in result.stdout, result.stdout[-3000:]
