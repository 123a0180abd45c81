"""Field passes of the rule-based spec (harness/offline/spec/field_passes.py): each rule that finds
an entity's fields, on a request written for the rule (general phrasing, not a dataset request)."""

from __future__ import annotations

from harness.offline.spec import parse_request


def fields(spec, entity: str) -> dict[str, str]:
    """field name -> kind of one entity of the spec."""
    return {f.name: f.kind for f in next(e for e in spec.data_model if entity in (e.name, e.ident)).fields}


def statuses(spec) -> list[str]:
    return [c.status for c in spec.clauses]


def test_a_column_list_in_a_clause_without_a_record_belongs_to_the_record_named_before():
    spec = parse_request("Show the books in a list. The checkout tab lists the books the user selected in a "
                         "table; the columns must be Title, Author, ISBN and Price.")
    assert {"author": "short_text", "isbn": "short_text", "price": "money"}.items() <= fields(spec, "book").items()


def test_a_parenthesised_list_after_record_information_is_its_fields_and_etc_is_no_field():
    spec = parse_request("Product management: create and edit product information (name, description, SKU, "
                         "category, etc.)")
    assert list(fields(spec, "product")) == ["name", "description", "sku", "category"]
    assert statuses(spec) == ["mapped"]


def test_the_fields_after_record_details_comma_including_are_its_fields():
    spec = parse_request("An app to manage recipes. Show the recipe details, including the cooking time, "
                         "the difficulty and an image.")
    assert {"cooking time", "difficulty", "image"} <= set(fields(spec, "recipe"))


def test_an_ing_word_before_a_column_word_is_part_of_the_field():
    spec = parse_request("Track orders with a shipping address, a billing date and a total.")
    assert list(fields(spec, "order")) == ["shipping address", "billing date", "total"]
    assert fields(spec, "order")["billing date"] == "date"


def test_a_filter_by_columns_gives_the_record_those_columns():
    spec = parse_request("Users can book courts. Users can filter courts by location.")
    assert "location" in fields(spec, "court")


def test_filter_criteria_such_as_give_columns_but_keywords_ask_for_search_not_a_column():
    spec = parse_request("Users can add expenses. Users can filter expenses based on criteria such as date "
                         "ranges, categories, or specific keywords.")
    # (the amount is implied: an expense records money, tests/test_spec_budget_categories.py)
    assert fields(spec, "expense") == {"date": "date", "category": "short_text",
                                       "amount": "money"}
    # "keywords" is not a column: it asks for search (?q= over the text fields), which is built
    assert [(f.kind, f.entity) for f in spec.features] == [("filter", "expense"), ("search", "expense")]
    # #48: the filter matches a date; a date *range* is no element of the spec, so it is named
    assert statuses(spec)[1] == "not_built" and spec.clauses[1].unaccounted == ["ranges"]


def test_a_status_for_several_records_gives_each_of_them_a_status():
    spec = parse_request("An app to manage orders and invoices. Keep a status for each order and invoice.")
    assert [(e.name, e.has_status) for e in spec.data_model] == [("order", True), ("invoice", True)]
    # no state is named: the generated open/done is a guess, so the clause is not built and names
    # "status" for the user to give its states (acct48 D2, tests/test_status_without_states_bug.py)
    assert statuses(spec) == ["mapped", "not_built"] and spec.clauses[1].unaccounted == ["status"]


def test_a_field_bullet_naming_a_second_record_is_a_reference_to_it():
    spec = parse_request("Build an expense tracker with categories and subcategories.\n\nEach expense stores:\n"
                         "- date\n- amount\n- category\n- subcategory\n")
    expense = spec.entity("expense")
    assert expense.parent == "category"
    ref = next(f for f in expense.fields if f.name == "subcategory")
    assert (ref.kind, ref.ref) == ("reference", "subcategory")


def test_clock_in_and_out_gives_the_time_record_clock_in_and_clock_out_times():
    for text in ("A time card app where users clock in and out.",
                 "A time card app; users can adjust their clock-in and clock-out times."):
        spec = parse_request(text)
        entity = spec.data_model[0].name
        assert {"clock-in time": "time", "clock-out time": "time"}.items() <= fields(spec, entity).items(), text


def test_mark_a_record_as_a_word_is_a_yes_no_field_but_mark_as_done_stays_the_status():
    spec = parse_request("An app to manage recipes and their ingredients. Users can mark ingredients as "
                         "\"purchased\".")
    ingredient = next(e for e in spec.data_model if e.name == "ingredient")
    assert fields(spec, "ingredient")["purchased"] == "boolean" and not ingredient.has_status
    done = parse_request("An app to manage tasks; mark tasks as done.")
    assert done.entity("task").has_status and "done" not in fields(done, "task")


def test_on_a_daily_or_weekly_basis_is_a_frequency_with_those_values():
    spec = parse_request("An app to manage habits. Users can track a habit on a daily or weekly basis.")
    frequency = next(f for f in spec.entity("habit").fields if f.name == "frequency")
    assert (frequency.kind, frequency.enum_values) == ("enum", ["daily", "weekly"])
    assert [c.status for c in spec.clauses] == ["mapped", "mapped"]


def test_choose_how_often_is_a_frequency_field_of_the_record():
    """good-habit-tracker (github.com/Tucker-Gilligan): "how often" was an ignorable adverb, so the
    clause was claimed as built by the habit CRUD and its completion, with no frequency anywhere."""
    spec = parse_request("An app to manage habits. As a user, I can choose how often I want to complete my habit.")
    assert fields(spec, "habit")["frequency"] == "short_text"
    assert statuses(spec) == ["mapped", "mapped"]


def test_choose_if_i_want_to_is_the_ask_not_the_reason_of_a_user_story():
    """Regression (good-habit-tracker): "if" after a choice verb was read as a user story's reason,
    so "choose if I want to increase or decrease the frequency of this habit" became context that
    asks for nothing; it is an ask the offline rules cannot build."""
    spec = parse_request("An app to manage habits. As a user, I can choose if I want to increase or "
                         "decrease the frequency of this habit.")
    clause = spec.clauses[1]
    assert clause.status == "not_built" and '"increase", "decrease"' in clause.reason
    reason = parse_request("An app to manage tasks. As a user, I want to delete a task if it was added by mistake.")
    # the ask is built; #48: "by mistake" is no element of the spec, so the clause names it
    assert statuses(reason) == ["mapped", "not_built"] and reason.clauses[1].unaccounted == ["mistake"]


def test_a_field_list_continues_over_a_hard_wrapped_line_but_not_over_a_sentence_end():
    wrapped = parse_request("An app to manage recipes with a title, a\ncooking time and a difficulty.")
    assert {"cooking time", "difficulty"} <= set(fields(wrapped, "recipe"))
    ended = parse_request("An app to manage recipes with a title.\nServings are shown on the card.")
    assert "serving" not in fields(ended, "recipe")


def test_a_record_card_containing_a_list_lists_the_records_fields_and_its_own_name_prefix_is_dropped():
    spec = parse_request("An app to manage recipes. Display a recipe card containing the recipe title, "
                         "the meal type (breakfast, lunch or supper) and the number of servings.")
    recipe = spec.entity("recipe")
    assert [(f.name, f.kind) for f in recipe.fields] == [
        ("title", "short_text"), ("meal type", "enum"), ("number of servings", "integer")]
    assert next(f for f in recipe.fields if f.name == "meal type").enum_values == ["breakfast", "lunch", "supper"]


def test_a_possessive_record_before_a_list_of_two_or_more_names_its_fields():
    spec = parse_request("A plant app: record each plant's name, species and watering date.")
    assert fields(spec, "plant") == {"name": "short_text", "species": "short_text", "watering date": "date"}


def test_a_participle_trigger_right_after_the_record_lists_its_fields():
    spec = parse_request("Manage members specifying name, email and phone.")
    assert fields(spec, "member") == {"name": "short_text", "email": "email", "phone": "phone"}


def test_a_frequency_before_a_record_gives_it_a_date_or_a_period_and_its_total():
    spec = parse_request("A money app. Users add their daily expenses. Users add their weekly / monthly "
                         "total income.")
    assert fields(spec, "expense")["date"] == "date"
    income = spec.entity("income")
    assert [(f.name, f.kind, f.enum_values) for f in income.fields if f.name != "name"] == [
        ("period", "enum", ["weekly", "monthly"]), ("total", "money", [])]


def test_record_after_a_colon_is_the_verb_not_a_field():
    spec = parse_request("An app to manage rooms. Add room: record the information (number, type, capacity).")
    assert "record" not in fields(spec, "room")
