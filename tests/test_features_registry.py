"""The feature registry: one entry per FeatureKind, and can_build's reasons."""

from __future__ import annotations

import typing

import pytest

from harness.models.spec import AppSpec, DataEntity, EntityField, Feature, FeatureKind
from harness.offline.features import FEATURES, can_build


def _spec(auth: bool = False) -> AppSpec:
    expense = DataEntity(name="expense", plural="expenses", ident="expense", fields=[
        EntityField(name="title", ident="title"),
        EntityField(name="amount", ident="amount", type="float", kind="money"),
        EntityField(name="kind", ident="kind", kind="enum", enum_values=["income", "expense"]),
        EntityField(name="date", ident="date", type="date", kind="date")])
    note = DataEntity(name="note", plural="notes", ident="note",
                      fields=[EntityField(name="done", ident="done", type="bool")])
    return AppSpec(auth=auth, data_model=[expense, note])


def test_every_feature_kind_has_an_entry():
    assert set(FEATURES) == set(typing.get_args(FeatureKind))
    assert all(entry.probe and entry.files for entry in FEATURES.values())


@pytest.mark.parametrize(("feature", "auth", "expected"), [
    (Feature(kind="ownership"), True, ""),
    (Feature(kind="ownership"), False, "ownership needs accounts (authentication)"),
    (Feature(kind="search", entity="ghost"), False, "search needs a data entity to work on"),
    (Feature(kind="search", entity="note"), False, "search on notes needs a field of kind"),
    (Feature(kind="aggregate", entity="note"), False, "aggregate on notes needs a field of kind"),
])
def test_can_build_names_what_is_missing(feature, auth, expected):
    ok, reason = can_build(feature, _spec(auth))
    if FEATURES[feature.kind].built:
        assert ok is (expected == "")
        assert reason.startswith(expected)
    else:
        assert (ok, reason) == (False, f"the offline generator has no {feature.kind} feature")


def test_a_feature_the_generator_does_not_build_is_never_buildable():
    for kind, entry in FEATURES.items():
        if not entry.built:
            assert can_build(Feature(kind=kind, entity="expense"), _spec(True))[0] is False
