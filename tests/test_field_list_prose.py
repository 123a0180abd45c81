"""Plain field lists of fresh requests (/work trials 2026-12-06): "<records>, including a, b and c",
"With respect to <records> the system shall: Store a, b and c", and "any other appropriate details"
(no field, no record). The first request of each group is the trial's; the others are variants
written for the rule; the negatives are lists of features or verbs that must not become fields."""

from __future__ import annotations

import pytest

from harness.offline.spec import parse_request


def fields(spec, entity: str) -> list[str]:
    return next([f.name for f in e.fields] for e in spec.data_model if e.name == entity)


def names(spec) -> list[str]:
    return [e.name for e in spec.data_model]


def clause(spec, start: str):
    return next(c for c in spec.clauses if c.text.startswith(start))


SHOP = ("Build an app which allows a shopkeeper to track their shop's inventory. The inventory should track "
        "individual products, including a name, description, stock quantity, buying cost, and selling price. "
        "The inventory should track manufacturers, including a name and any other appropriate details.")


def test_fields_after_comma_including_belong_to_the_plural_record_before_it():
    spec = parse_request(SHOP)
    assert fields(spec, "product") == ["name", "description", "stock quantity", "buying cost", "selling price"]
    assert clause(spec, "The inventory should track individual products").status == "mapped"


@pytest.mark.parametrize("request_text, record, expected", [
    ("A clinic app. Track patients, including a name, a birth date and a phone number.",
     "patient", ["name", "birth date", "phone number"]),
    ("A shop app: track orders, including the customer, a date and a total.",
     "order", ["customer", "date", "total"]),
    ("Keep a list of plants, including their name, species and watering date.",
     "plant", ["name", "species", "watering date"]),
])
def test_comma_including_variants(request_text, record, expected):
    assert set(expected) <= set(fields(parse_request(request_text), record))


def test_features_after_comma_including_are_no_fields():
    spec = parse_request("A todo app for tasks, including reminders, sharing and search.")
    assert not {"reminders", "sharing", "search"} & set(fields(spec, "task"))


def test_records_after_comma_including_stay_records():
    spec = parse_request("Users can log their workouts, including exercises, sets, reps, and weights used.")
    assert "exercise" in names(spec)


def test_any_other_appropriate_details_names_no_record_and_no_field():
    spec = parse_request(SHOP)
    assert "appropriate" not in names(spec)
    assert fields(spec, "manufacturer") == ["name"]
    assert clause(spec, "The inventory should track manufacturers").status == "mapped"


@pytest.mark.parametrize("request_text, record", [
    ("A clinic app. Track patients, including a name, a birth date and other relevant information.", "patient"),
    ("An app for suppliers with a name, an email and any other details.", "supplier"),
    ("An app for vendors with a name and all other necessary information.", "vendor"),
])
def test_unnamed_details_variants(request_text, record):
    spec = parse_request(request_text)
    assert names(spec) == [record]
    assert "name" in fields(spec, record)
    assert all(c.status != "not_built" for c in spec.clauses), [(c.text, c.unaccounted) for c in spec.clauses]


VET = ("This system will also maintain a schedule of appointments for pets and veterinarians. With respect to "
       "owners the system shall: Store first name, last name, address, phone number, email address and list of "
       "pets. Allow owners to be added.")


def test_store_list_under_with_respect_to_frame_belongs_to_the_framed_records():
    spec = parse_request(VET)
    assert fields(spec, "owner") == ["first name", "last name", "address", "phone number", "email address"]
    owner = next(e for e in spec.data_model if e.name == "owner")
    assert next(e for e in spec.data_model if e.name == "pet").parent == owner.ident   # "list of pets"
    assert clause(spec, "With respect to owners").status == "mapped"


def test_records_after_a_framed_store_list_belong_to_the_framed_record():
    spec = parse_request("A pet app. Regarding owners, the system must store a name, a phone number and their pets.")
    owner = next(e for e in spec.data_model if e.name == "owner")
    assert next(e for e in spec.data_model if e.name == "pet").parent == owner.ident
    assert all(c.status == "mapped" for c in spec.clauses)


@pytest.mark.parametrize("request_text, record, expected", [
    ("A garage app. Regarding customers, the system must store name, email and phone number.",
     "customer", ["name", "email", "phone number"]),
    ("A school app. For teachers, the app shall record name and subject.", "teacher", ["name", "subject"]),
    ("A pet app. In regard to vets the system shall: Store name, clinic and phone.",
     "vet", ["name", "clinic", "phone"]),
])
def test_framed_store_variants(request_text, record, expected):
    assert set(expected) <= set(fields(parse_request(request_text), record))


def test_a_framed_store_of_records_and_verbs_adds_no_fields():
    spec = parse_request("A gym app. With respect to members the system shall: Store workouts and let members "
                         "share them.")
    assert "member" not in names(spec) or not {"workouts", "share"} & set(fields(spec, "member"))


@pytest.mark.parametrize("request_text, records", [
    ("The library management system must allow a librarian to track books. Perform general CRUD operations on "
     "Books and Members.", ["book", "member"]),
    ("A library app. Perform CRUD operations on books and members.", ["book", "member"]),
    ("A shop app. CRUD functionality for products, suppliers and orders.", ["product", "supplier", "order"]),
    ("A school app with CRUD on students and teachers.", ["student", "teacher"]),
])
def test_crud_operations_on_records_names_each_record(request_text, records):
    spec = parse_request(request_text)
    assert set(records) <= set(names(spec))
    assert spec.clauses[-1].status == "mapped"


def test_crud_without_records_names_none():
    spec = parse_request("A library app for books. Perform CRUD operations.")
    assert names(spec) == ["book"]


STUDENTS = ("Teachers should be able to log into the website. Students' profiles will be displayed on the page, "
            "including students' names, headshots, grade level, classes that they enrolled in, and the records of "
            "notes.")


def test_a_records_profile_including_a_list_gives_the_record_those_fields():
    spec = parse_request(STUDENTS)
    kinds = {f.name: f.kind for e in spec.data_model if e.name == "student" for f in e.fields}
    assert kinds == {"name": "short_text", "headshot": "url", "grade level": "short_text"}
    profile = clause(spec, "Students' profiles")
    assert profile.status == "not_built" and "classes" in profile.unaccounted   # the enrolment is no field


@pytest.mark.parametrize("request_text, record, expected", [
    ("A school app. Student profiles include names, headshots and grade level.",
     "student", ["name", "headshot", "grade level"]),
    ("A school app. Each student's profile shows the name, headshot and grade level.",
     "student", ["name", "headshot", "grade level"]),
    ("A gym app. Members' profiles, including a name, a photo and a phone number.",
     "member", ["name", "photo", "phone number"]),
    ("A clinic app. Patients' profiles are shown on a page, including a name, a birth date and a phone number.",
     "patient", ["name", "birth date", "phone number"]),
])
def test_profile_variants(request_text, record, expected):
    spec = parse_request(request_text)
    assert fields(spec, record) == expected
    assert all(c.status != "not_built" for c in spec.clauses), [(c.text, c.unaccounted) for c in spec.clauses]


def test_a_profile_listing_features_gives_the_record_no_fields():
    spec = parse_request("A school app for students with a name. Student profiles include reminders, sharing "
                         "and search.")
    assert fields(spec, "student") == ["name"]


ATTENDANCE = ("Build a Web Application Backend (No clientside required) for student attendance management. There "
              "should be authentication support with basic session management. Basic Functionality: Login. Update "
              "attendance for an entire class / student. Get attendance for a student given a time period. Logout.")


@pytest.mark.parametrize("request_text", [
    ATTENDANCE,
    "A school app. Teachers take attendance for each class.",
    "I want to create a website that takes attendance for sundayschool classes.",
])
def test_an_attendance_record_has_its_date_and_whether_present(request_text):
    kinds = {f.name: (f.kind, f.required) for e in parse_request(request_text).data_model
             if e.name == "attendance" for f in e.fields}
    assert kinds["date"] == ("date", True) and kinds["present"] == ("boolean", False)


def test_attendance_states_named_in_the_request_replace_present():
    spec = parse_request("A school app to track attendance with a date and a status (present, absent, late).")
    attendance = next(e for e in spec.data_model if e.name == "attendance")
    assert attendance.workflow == ["present", "absent", "late"]
    assert [f.name for f in attendance.fields if f.kind in ("boolean", "date")] == ["date"]


@pytest.mark.parametrize("request_text, record", [
    ("A todo app. Manage tasks, including adding, editing and deleting them.", "task"),
    ("A recipe app. Users manage recipes, including search, filters and sharing.", "recipe"),
])
def test_verbs_and_features_after_comma_including_are_no_fields(request_text, record):
    assert fields(parse_request(request_text), record) == ["title"]   # and no invented description (#48 D9)


def test_a_framed_store_of_verbs_adds_no_fields():
    spec = parse_request("A school app. For students, the system shall store and share their grades.")
    assert "student" not in names(spec) or fields(spec, "student") == ["name"]


def test_birthdate_in_one_word_is_a_date():
    spec = parse_request("A pet app. With respect to pets the system shall: Store name, species and birthdate.")
    assert {f.name: f.kind for e in spec.data_model if e.name == "pet" for f in e.fields}["birthdate"] == "date"
