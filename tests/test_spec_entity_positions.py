"""Entity positions that name something other than a record type (#13 entity precision): formats,
storage, pages, kinds of user, columns, the app's activity, compound qualifiers, reports, idioms
and agents the product is made of; and the purpose clause of a long request names a record."""

from __future__ import annotations

import pytest

from harness.errors import SpecError
from harness.offline.spec.rules import rule_based_spec


def _names(request: str) -> set[str]:
    try:
        return {e.name for e in rule_based_spec(request).data_model}
    except SpecError:
        return set()


def test_an_acronym_is_a_format_not_a_record():
    names = _names("An app to manage recipes. Users can add GIFs.")
    assert names == {"recipe"}


def test_a_storage_word_is_no_parent_record():
    names = _names("An app to manage recipes. Keep the recipes in a file.")
    assert names == {"recipe"}


def test_a_noun_before_a_page_word_names_a_page():
    names = _names("An app to manage books. The checkout page shows the books.")
    assert "checkout" not in names and "book" in names


def test_a_noun_before_accounts_is_a_kind_of_user():
    names = _names("An app to manage orders and employee accounts.")
    assert "employee" not in names and "order" in names


def test_the_object_followed_by_a_column_word_is_that_column():
    names = _names("An app to manage recipes. Users can enter the meal name to find recipes.")
    assert "meal" not in names and "recipe" in names


def test_the_activity_before_an_app_head_gives_way_to_the_record_it_names():
    assert _names("a booking platform to take appointments") == {"appointment"}


def test_a_noun_inside_a_compound_before_an_app_head_is_no_record():
    names = _names("A property rental application management platform to manage properties.")
    assert "rental" not in names and "property" in names


def test_reports_are_a_capability_not_a_record():
    spec = rule_based_spec("An app to manage rooms. Create reports of rooms.")
    assert {e.name for e in spec.data_model} == {"room"}
    assert any(c.status == "not_built" and "reports" in c.text for c in spec.clauses)


def test_take_names_what_is_taken_except_in_idioms():
    names = _names("An app to manage players. The staff take appointments. The players take turns.")
    assert names == {"player", "appointment"}


def test_an_agent_the_product_is_made_of_is_no_record():
    names = _names("An app to manage games. Create a computer player which can win the game.")
    assert "player" not in names and "game" in names


@pytest.mark.parametrize("first", ["I want a website that takes attendance for classes."])
def test_the_purpose_clause_of_a_long_request_names_a_record(first):
    rest = " Teachers log in. There is a dashboard. Each student has a name. Students can be added." \
           " Students can be edited. Students can be deleted."
    assert "attendance" in _names(first + rest)


_LONG_TAIL = " There is a dashboard. Users log in. The design is simple. It is fast. It is clean."


def test_the_object_of_a_user_story_in_a_long_request_is_a_record():
    req = "A site about blood donation. User can schedule an appointment to donate." + _LONG_TAIL
    assert "appointment" in _names(req)


def test_a_time_card_is_a_time_entry():
    assert _names("A time card app. Users can add time cards.") == {"time entry"}


def test_the_bullets_after_an_entity_verb_and_colon_are_its_objects():
    names = _names("I want a personal system where I track:\n- Projects\n- Todo for each project\n")
    assert names == {"project", "todo"}


def test_the_app_head_of_the_first_clause_names_the_record_when_nothing_else_does():
    req = "This project is for a simple recipe app that is easy to use." + _LONG_TAIL
    assert _names(req) == {"recipe"}
    assert "recipe" not in _names("A recipe app for meals. Users can add meals." + _LONG_TAIL)


def test_the_object_of_an_imperative_feature_bullet_counts_in_a_long_request():
    req = "Create Inventory Management System\n\nFeatures:\n- Create and edit product information\n" \
          "- Manage supplier information\n- Users log in\n- There is a dashboard\n- It is fast\n- It is clean"
    assert "supplier" in _names(req)


def test_a_column_word_before_a_noun_qualifies_it():
    assert "income" in _names("An app to track expenses. User can add their monthly total income.")


def test_crud_names_its_records():
    assert _names("A website to manage a dormitory.\n- CRUD students") == {"student"}


def test_vietnamese_income_and_spending_are_records_and_a_category_list_is_columns():
    spec = rule_based_spec("Hỗ trợ ghi chép, quản lí các khoản thu, chi của người dùng.\n"
                           "Cho phép người dùng thêm các khoản chi gồm các thông tin như số tiền, danh mục, mô tả.")
    assert {e.name for e in spec.data_model} == {"income", "expense"}
    expense = next(e for e in spec.data_model if e.name == "expense")
    assert "category" in {f.ident for f in expense.fields}   # labelled "danh mục" (the user's word)


def test_the_objects_of_include_are_records():
    names = _names("An app to manage recipes. Include ratings and comments made by customers.")
    assert {"rating", "comment"} <= names
