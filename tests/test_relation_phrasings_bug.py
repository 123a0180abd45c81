"""#51, stranger trial 2026-12-07f O4/O5: the parser builds the relation these phrasings ask for, in
the right direction (rows of the pass "record references", patterns/relations.jsonl). Before, "choose
a hairstylist for each appointment" made each hairstylist belong to one appointment (the relation
backwards) and "Owner has Name, …, pets" linked no pet to an owner."""

from __future__ import annotations

from harness.agents.spec_agent import postprocess
from harness.offline.spec import parse_request


def _spec(request: str):
    return postprocess(parse_request(request))


def _entity(spec, ident: str):
    return next(e for e in spec.data_model if e.ident == ident)


def _refs(entity) -> dict[str, str]:
    return {f.ident: f.ref for f in entity.fields if f.ref}


def test_a_record_chosen_for_each_other_record_is_referred_to_by_it_bug():
    spec = _spec("Users can choose a hairstylist for each appointment. "
                 "The manager can add and remove hairstylists and add their schedule.")
    assert _entity(spec, "hairstylist").parent is None
    assert _refs(_entity(spec, "appointment")) == {"hairstylist": "hairstylist"}
    assert spec.clauses[0].status == "mapped"
    assert spec.clauses[1].status == "not_built"   # "their schedule": a schedule of what, nothing says


def test_records_ending_a_field_list_belong_to_its_record_bug():
    spec = _spec("Owner CRUD. Pet CRUD that belongs to an owner. "
                 "Data Models: Owner has Name, Addr, City, State, phone, email, pets. Pets have birthdate, type, name.")
    owner = _entity(spec, "owner_item")
    assert _entity(spec, "pet").parent == owner.ident
    assert "pets" not in {f.ident for f in owner.fields}
    assert [c.status for c in spec.clauses] == ["mapped", "mapped", "mapped", "mapped"]


def test_the_phrasings_keep_what_was_linked_already():
    spec = _spec("Games have a name. Each game has many players and each player many games.")
    assert _entity(spec, "game").many == ["player"] and _entity(spec, "player").parent is None
    spec = _spec("Owners have a name. Each owner has many pets. Pets have a name and a birthdate.")
    assert _entity(spec, "pet").parent == "owner_item"


def test_a_record_chosen_for_its_parent_keeps_the_parent_bug():
    """ "many visits" at the end of the vets' list makes each visit a vet's (before: no link); choosing a
    vet for each visit is then that parent, no second reference."""
    spec = _spec("Visits have a date. Vets have a name and many visits. Choose a vet for each visit.")
    assert _entity(spec, "visit").parent == "vet" and not _refs(_entity(spec, "visit"))
