"""Bug (stranger trial 2026-12-07i O5, over-claim d9): "Each grade belongs to a student and a class"
made the student the grade's parent and nothing link the grade to the class; "class" was credited
because another clause made a class record, so the clause was reported built while POST /api/grades
with a class_id was 422 "Extra inputs are not permitted".

The parser now reads the second record of "belongs to A and B" as a reference (row "a record belongs to
a record and a record", patterns/relations.jsonl), and the accounting realises every record after a
belong verb only by the subject's link to it (accounting/relation_asks.py)."""

from __future__ import annotations


import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request
from served_app import spec_from_toml

GRADES = "Teachers add students, classes and grades. Each grade belongs to a student and a class."


def test_belongs_to_a_and_b_links_both_bug():
    spec = parse_request(GRADES)
    grade = spec.entity("grade")
    assert grade.parent == "student" and [f.ref for f in grade.fields if f.ref] == ["class_item"], grade
    assert spec.clauses[-1].status == "mapped", spec.clauses[-1]


def test_a_listed_record_without_the_link_is_named_bug(tmp_path):
    spec = spec_from_toml(tmp_path, '''title = "School"
[[entities]]
name = "student"
fields = ["name"]
[[entities]]
name = "class"
fields = ["name"]
[[entities]]
name = "grade"
parent = "student"
fields = ["score"]
''')
    words = account_text("Each grade belongs to a student and a class.", spec)
    assert words.unaccounted == ["class"], words.words


@pytest.mark.slow
def test_a_grade_of_a_student_in_a_class_over_http(tmp_path):
    from helpers import write_files
    from served_app import json_call, served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    def post(base, path, body):
        return json_call(base, "POST", path, body)

    spec = postprocess(parse_request(GRADES))
    ws = write_files(generate_files(spec), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        assert post(base, "/api/students", {"name": "Ann"})[0] == 201
        assert post(base, "/api/classes", {"name": "Maths"})[0] == 201
        status, grade = post(base, "/api/grades", {"student_id": 1, "class": 1})   # the reference field "class"
        assert status == 201 and grade["class"] == 1 and grade["student_id"] == 1
        assert post(base, "/api/grades", {"student_id": 1, "class": 99})[0] == 422   # no such class
        assert json_call(base, "GET", f"/api/grades/{grade['id']}")[1]["class"] == 1
