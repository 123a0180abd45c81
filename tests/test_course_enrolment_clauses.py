"""Regressions from public course-management READMEs (github.com/kentleeme/revaturesreproject1,
github.com/autheorial/1040proj3): "Enroll in a Course" made a record type "enroll" (CRUD of
"enrolls" with a name and a description, each belonging to a course) and claimed the clause built;
"Assign an Instructor to Course" was claimed built with no link between instructors and courses
("an" between the verb and the record hid the assignment)."""

from harness.offline.spec import parse_request

LMS = ("Learning/Teaching Management Web Application\n- Features\n    - Login/logout (Non-CRUD)\n    - Admin\n"
       "        - Manage users, students, instructors\n        - Create a Course\n"
       "        - Assign an Instructor to Course\n    - Instructor\n        - Update Instructor info\n"
       "    - Student\n        - Enroll in a Course\n        - Drop a Course\n")


def test_bug_enroll_is_a_verb_not_a_record_type():
    spec = parse_request(LMS)
    assert "enroll" not in {e.name for e in spec.data_model}
    found = next(c for c in spec.clauses if c.text == "Enroll in a Course")
    assert found.status == "not_built" and '"Enroll"' in found.reason
    gradebook = parse_request("Allows user to add students, courses, and enroll existing students to existing courses.")
    assert {e.name for e in gradebook.data_model} == {"student", "course"}


def test_bug_assign_an_instructor_to_course_is_the_relation_it_asks_for():
    spec = parse_request(LMS)
    instructor = next(e for e in spec.data_model if e.name == "instructor")
    assert instructor.parent == "course"
    assert ("relation", "instructor") in {(r.capability, r.entity) for r in spec.requirements}
