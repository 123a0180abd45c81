"""How app-store style descriptions name a record's fields (#14 leftovers, found on Play-store plant-care
descriptions): "by entering <fields>", "<noun> entries", inline bullet labels, "a <field> number in
<unit>", a back reference to a field. Each request is written for the rule, not copied."""

from __future__ import annotations

from harness.offline.spec import parse_request


def fields(spec, entity: str) -> dict[str, str]:
    return {f.name: f.kind for f in spec.entity(entity).fields}


def names(spec) -> list[str]:
    return [e.name for e in spec.data_model]


def test_by_entering_names_the_fields_of_the_record_added_and_its_destination_is_no_record():
    spec = parse_request("Add books to your reading collection by entering title, author, and page count.")
    assert names(spec) == ["book"]
    assert fields(spec, "book") == {"title": "short_text", "author": "short_text", "page count": "integer"}
    pets = parse_request("Register a pet by typing a name, a breed, and a weight number in kilograms.")
    assert fields(pets, "pet") == {"name": "short_text", "breed": "short_text", "weight": "decimal"}


def test_a_field_number_in_a_unit_is_the_field_counted_in_that_unit():
    spec = parse_request("Manage plants with a name and a feeding interval number in days.")
    assert fields(spec, "plant") == {"name": "short_text", "feeding interval": "integer"}


def test_an_ing_word_before_an_interval_or_frequency_is_one_field():
    spec = parse_request("Manage horses with a name, a grooming frequency and a feeding schedule.")
    assert {"grooming frequency", "feeding schedule"} <= set(fields(spec, "horse"))


def test_noun_entries_are_records_of_the_noun_and_journal_entries_are_their_own_record():
    spec = parse_request("Create bird entries with a text nickname, species type, and notes.")
    assert names(spec) == ["bird"]
    assert fields(spec, "bird")["nickname"] == "short_text" and fields(spec, "bird")["notes"] == "long_text"
    journal = parse_request("Keep diary entries with a date and a mood.")
    assert names(journal) == ["diary entry"]


def test_an_inline_bullet_label_before_a_sentence_is_context_not_a_record_nor_a_field_trigger():
    spec = parse_request("* Feeding Tracking: Add fish by entering a name and a tank size.\n"
                         "* Diary Notes: Type and save notes for each fish.")
    assert "feeding" not in names(spec) and "tracking" not in names(spec)
    assert "type" not in fields(spec, "fish")
    assert not [c for c in spec.clauses if c.status == "not_built"]
    listed = parse_request("Products: Name, Price, Stock")   # a label over a list stays the record
    assert {"name", "price", "stock"} <= set(fields(listed, "product"))


def test_a_utility_for_recording_records_is_the_app_and_a_numeric_count_is_no_record():
    spec = parse_request("This app is a utility for recording books with a title. View a numeric count of books.")
    assert names(spec) == ["book"]


def test_a_back_reference_to_a_field_is_no_record():
    spec = parse_request("Add a plant by entering a name and a watering frequency. Show a warning when the "
                         "entered frequency is exceeded.")
    assert names(spec) == ["plant"]


def test_care_of_a_record_is_the_app_area_not_a_record():
    spec = parse_request("A tool for logging pet care: add pets with a name and a breed.")
    assert names(spec) == ["pet"]


def clause_status(spec, start: str) -> str:
    return next(c.status for c in spec.clauses if c.text.startswith(start))


def test_what_the_app_says_it_does_not_do_asks_for_nothing():
    spec = parse_request("An app to manage fish with a name. It does not provide automatic feeding or push "
                         "notifications.")
    assert clause_status(spec, "It does not") == "context"
    inline = parse_request("An app to manage fish with a name. This app is a log for fish and does not automate feeding.")
    assert not [c for c in inline.clauses if c.status == "not_built"]


def test_a_rule_the_app_must_enforce_is_no_disclaimer():
    spec = parse_request("An app to manage invoices with an amount. The app does not allow deleting paid invoices.")
    assert clause_status(spec, "The app does not allow") != "context"


def test_a_record_form_with_fields_for_a_list_gives_the_records_fields():
    spec = parse_request("A trip form with fields for destination, numeric budget, and season selection.")
    assert names(spec) == ["trip"]
    assert {"destination": "short_text", "budget": "money", "season": "short_text"}.items() <= fields(spec, "trip").items()
    plain = parse_request("A trip form with destination, budget and date.")
    assert {"destination": "short_text", "budget": "money", "date": "date"}.items() <= fields(plain, "trip").items()


def test_fields_named_before_the_record_they_belong_to():
    spec = parse_request("Manage trips. Input fields for destination, budget, and date for each trip.")
    assert {"destination": "short_text", "budget": "money", "date": "date"}.items() <= fields(spec, "trip").items()
    assert not [c for c in spec.clauses if c.status == "not_built"]
