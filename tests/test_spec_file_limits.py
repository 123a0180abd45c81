"""Issue 49: a `--spec` file is bounded (size, entities, fields per entity, nesting) and a parent
cycle is a spec error naming the cycle — each a one-line error, exit 2, in well under a second."""

from __future__ import annotations

import time

import pytest

from harness.cli import main
from harness.offline import spec_limits
from harness.offline.spec_file import SpecFileError, load_spec_file

ONE = '[[entities]]\nname = "task"\n'


def _entities(n: int, fields: int = 1) -> str:
    field_list = ", ".join(f'{{ name = "note {k}" }}' for k in range(fields))
    return "".join(f'[[entities]]\nname = "thing {k}"\nfields = [{field_list}]\n' for k in range(n))


def _error(tmp_path, text: str) -> str:
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    start = time.monotonic()
    with pytest.raises(SpecFileError) as caught:
        load_spec_file(path)
    assert time.monotonic() - start < 2.0
    message = str(caught.value)
    assert "\n" not in message and message.startswith(str(path))
    return message


def test_a_parent_cycle_is_a_spec_error_naming_the_cycle_instead_of_dropping_a_link(tmp_path):
    """Bug: alpha -> beta -> alpha silently dropped one link, and "each beta belongs to an alpha"
    was reported PASS."""
    text = ('[[entities]]\nname = "alpha"\nparent = "beta"\n'
            '[[entities]]\nname = "beta"\nparent = "alpha"\n')
    message = _error(tmp_path, text)
    assert "entities[1].parent: parent cycle: alpha -> beta -> alpha" in message
    three = ('[[entities]]\nname = "a"\nparent = "c"\n[[entities]]\nname = "b"\nparent = "a"\n'
             '[[entities]]\nname = "c"\nparent = "b"\n')
    assert "parent cycle: a -> c -> b -> a" in _error(tmp_path, three)


def test_a_chain_of_parents_is_not_a_cycle(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text('[[entities]]\nname = "club"\n[[entities]]\nname = "court"\nparent = "club"\n'
                    '[[entities]]\nname = "booking"\nparent = "court"\n', encoding="utf-8")
    spec = load_spec_file(path)
    assert [e.parent for e in spec.data_model] == [None, "club", "court"]


def test_5000_level_nesting_is_one_line_not_a_recursion_error(tmp_path):
    """Bug: 5,000-level nesting crashed with a RecursionError traceback."""
    arrays = ONE + 'features = [{ kind = "filter", options = { x = ' + "[" * 5000 + "]" * 5000 + " } }]\n"
    assert f"nest more than {spec_limits.MAX_DEPTH} deep" in _error(tmp_path, arrays)
    dotted = ONE + 'features = [{ kind = "filter", options = { ' + ".".join(["x"] * 5000) + " = 1 } }]\n"
    assert f"nest more than {spec_limits.MAX_DEPTH} deep" in _error(tmp_path, dotted)


def test_too_many_entities_is_refused_at_once(tmp_path):
    """Bug: 800 entities took 38 s and 20,000 gave no answer in 5 minutes."""
    message = _error(tmp_path, _entities(800))
    assert f"entities: 800 entities; at most {spec_limits.MAX_ENTITIES}" in message


def test_too_many_fields_in_one_entity_is_refused(tmp_path):
    message = _error(tmp_path, _entities(1, fields=spec_limits.MAX_FIELDS + 1))
    assert f"entities[1].fields: {spec_limits.MAX_FIELDS + 1} fields; at most {spec_limits.MAX_FIELDS}" in message


def test_a_spec_file_over_the_size_limit_is_refused_unread(tmp_path):
    message = _error(tmp_path, ONE + "#" * (spec_limits.MAX_BYTES + 1) + "\n")
    assert "larger than 256 KB" in message


def test_the_limits_still_admit_the_largest_allowed_spec(tmp_path):
    path = tmp_path / "app.toml"
    path.write_text(_entities(3, fields=spec_limits.MAX_FIELDS), encoding="utf-8")
    assert len(load_spec_file(path).data_model) == 3


def test_cli_reports_a_hostile_spec_in_one_line_with_exit_2(tmp_path, capsys):
    path = tmp_path / "app.toml"
    path.write_text(ONE + 'features = [{ kind = "filter", options = { x = ' + "[" * 5000 + "]" * 5000 + " } }]\n")
    assert main(["new", "--spec", str(path), "--runs-dir", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and "nest more than" in err
