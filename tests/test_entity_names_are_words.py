"""Regression: a parenthesis became a record type — "ingredients (list), notes" gave an entity named ")"
(ident "item", routes /api/s, "REST API for )s") in a public recipe-manager roadmap's MVP list."""

import pytest

from harness.offline.spec import parse_request

ROADMAP_MVP = ("Manual recipe entry — Form with title, ingredients (list), instructions (steps), source URL, notes. "
               "Recipe list view — Cards with title, description, tags. Recipe detail view — Full recipe with "
               "edit/delete buttons. Basic tagging — Add/remove tags (Dessert, Main Course, Quick, etc.). Text "
               "search — Filter recipes by title or ingredients. Cook mode — Checklist UI for ingredients/steps, "
               "screen wake lock.")


@pytest.mark.parametrize("request_text", [ROADMAP_MVP, "Recipes with title, ingredients (list), notes."])
def test_bug_parenthesis_entity_every_record_type_is_named_by_a_word(request_text):
    spec = parse_request(request_text)
    assert spec.data_model and all(e.name[:1].isalpha() and e.plural[:1].isalpha() for e in spec.data_model)
    assert "recipe" in {e.name for e in spec.data_model}


def test_the_roadmap_recipe_keeps_the_fields_it_lists():
    recipe = next(e for e in parse_request(ROADMAP_MVP).data_model if e.name == "recipe")
    assert {"title", "instructions", "source url", "notes"} <= {f.name for f in recipe.fields}
