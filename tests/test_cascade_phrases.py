"""Records that contain records ("Projects contain tasks"), and cascading deletes asked for in words
(harness/offline/spec/cascades.py): the records named get on_parent_delete = "cascade", and their
relation requirement says so. The generator's relation test
(tests/test_generator.py covers its cascade branch through spec files) then proves it."""

from __future__ import annotations

from harness.offline.spec import parse_request

PROJECTS = "A project tracker with login. Projects contain tasks. Tasks have a title. "


def deletes(spec) -> dict[str, str]:
    return {e.ident: e.on_parent_delete for e in spec.data_model if e.parent}


def test_cascade_deletes_throughout_were_read_as_nothing_bug():
    """The Lifting Diary description ("Workouts contain exercises, exercises contain sets, with cascade
    deletes throughout") left its last clause not built: no rule read "cascade"; the exercises were
    no record either ("exercises" ends like a verb: "-ises")."""
    spec = parse_request("A workout tracker with login. Workouts contain exercises, exercises have a name, "
                         "with cascade deletes throughout.")
    assert deletes(spec) == {"exercise": "cascade"}
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]
    relation = next(r for r in spec.requirements if r.capability == "relation")
    assert relation.text.endswith("deleting a workout deletes its exercises")
    assert "returns 204 and its exercises are gone" in relation.acceptance


def test_deleting_a_parent_deletes_its_children_when_the_request_says_so():
    for sentence in ("Deleting a project deletes its tasks.", "Deleting a project removes all its tasks.",
                     "Use cascading deletes."):
        spec = parse_request(PROJECTS + sentence)
        assert deletes(spec) == {"task": "cascade"}, sentence
        assert [c.status for c in spec.clauses][-1] == "mapped", sentence


def test_without_the_ask_or_for_a_column_the_delete_is_still_refused():
    assert deletes(parse_request(PROJECTS)) == {"task": "restrict"}
    spec = parse_request("A project tracker with login. Projects contain tasks and tasks have notes. "
                         "Use cascade deletes for notes.")
    assert deletes(spec) == {"task": "restrict"}   # notes are a column here, no child record


def test_records_that_contain_records_make_both_tables_as_have_does_bug():
    """"Projects contain tasks." left tasks unbuilt ("no offline rule understands tasks") where
    "Projects have tasks." and "Projects include tasks." built a task table inside projects."""
    for sentence in ("Projects contain tasks.", "Each project contains tasks.", "Projects have tasks."):
        spec = parse_request("A project tracker with login. " + sentence)
        assert {e.ident: e.parent for e in spec.data_model} == {"project": None, "task": "project"}, sentence
        assert [c.status for c in spec.clauses] == ["mapped", "mapped"], sentence


def test_records_that_have_records_with_their_own_fields_are_records_not_a_text_column_bug():
    """"Notebooks have notes with a title and a body" made `notes` a text column of the notebook
    (and left the clause not built); "contain" made the notes records. A plural that opens the
    list and has fields of its own ("with a …") is a record type inside the first one."""
    spec = parse_request("A note app with login. Notebooks have notes with a title and a body.")
    assert {e.ident: e.parent for e in spec.data_model} == {"notebook": None, "note": "notebook"}
    assert [f.name for f in spec.entity("note").fields] == ["title", "body"]
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]
    spec = parse_request("A CRM. Contacts have notes.")   # no fields of their own: still a column
    assert [f.name for f in spec.entity("contact").fields] == ["notes"]   # drafts invent no name
