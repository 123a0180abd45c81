"""#48, stranger trial 2026-12-07f O3/O4/O5: a record named inside a clause about another record is
realised only by a relation between the two in the direction the words say. Before, "choose" was
credited to the crud and the record words to the records merely existing, so "choose one of the
hairstylists" (nothing refers to a hairstylist), "choose a hairstylist for each appointment" over a
hairstylist belonging to one appointment, "Owner has …, pets" with no owner-pet link and "I can add
their schedule" over a schedule tied to nothing were all reported built."""

from __future__ import annotations

from harness.agents.spec_agent import postprocess
from harness.models.spec import AppSpec, DataEntity, EntityField, Requirement
from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request


def _spec(*entities: tuple[str, str | None, list[str]], many: dict[str, list[str]] | None = None) -> AppSpec:
    """Records (name, parent, referenced records), each with a name field and its crud."""
    return AppSpec(title="Shop", data_model=[
        DataEntity(name=name, plural=name + "s", ident=name, parent=parent, many=(many or {}).get(name, []),
                   fields=[EntityField(name="name", ident="name")] + [
                       EntityField(name=ref, ident=f"{ref}_id", kind="reference", ref=ref) for ref in refs])
        for name, parent, refs in entities],
        requirements=[Requirement(id="REQ-001", text="crud", capability="crud")])


def _clause(request: str, start: str):
    spec = postprocess(parse_request(request))
    return next(c for c in spec.clauses if c.text.startswith(start))


def test_choosing_one_of_a_record_nothing_refers_to_is_not_built_bug():
    request = ("As a user: I Should be able to book appointments. I Should be able to choose one of the "
               "hairstylists. As the manager: I can add and remove hairstylists. I can add their schedule.")
    chosen = _clause(request, "I Should be able to choose")
    assert chosen.status == "not_built" and '"choose", "hairstylists"' in chosen.reason
    theirs = _clause(request, "I can add their schedule")
    assert theirs.status == "not_built" and '"schedule"' in theirs.reason


def test_a_record_chosen_for_each_other_record_needs_the_reference_that_way_bug():
    backwards = _spec(("appointment", None, []), ("hairstylist", "appointment", []))
    assert account_text("Users can choose a hairstylist for each appointment", backwards).unaccounted == [
        "choose", "hairstylist"]
    unlinked = _spec(("appointment", None, []), ("hairstylist", None, []))
    assert account_text("I Should be able to choose one of the hairstylists", unlinked).unaccounted == [
        "choose", "hairstylists"]
    right = _spec(("appointment", None, ["hairstylist"]), ("hairstylist", None, []))
    assert account_text("Users can choose a hairstylist for each appointment", right).unaccounted == []
    assert account_text("I can choose one of the hairstylists", right).unaccounted == []


def test_a_record_in_the_field_list_of_another_needs_the_link_bug():
    unlinked = _spec(("owner", None, []), ("pet", None, []))
    text = "Data Models: Owner has Name, pets."
    assert account_text(text, unlinked).unaccounted == ["pets"]
    linked = _spec(("owner", None, []), ("pet", "owner", []))
    assert account_text(text, linked).unaccounted == []


def test_the_number_of_the_named_record_says_which_one_refers_bug():
    pets_of_owner = _spec(("owner", None, []), ("pet", "owner", []))
    owner_of_pet = _spec(("owner", None, ["pet"]), ("pet", None, []))
    assert account_text("Each owner has many pets", pets_of_owner).unaccounted == []
    assert account_text("Each owner has many pets", owner_of_pet).unaccounted == ["pets"]
    visit = _spec(("vet", None, []), ("visit", None, ["vet"]))
    assert account_text("Visits have a name and a vet", visit).unaccounted == []
    assert account_text("Each vet has visits", visit).unaccounted == []
    backwards = _spec(("vet", "visit", []), ("visit", None, []))
    assert account_text("Visits have a name and a vet", backwards).unaccounted == ["vet"]
    both = _spec(("tag", None, []), ("post", None, []), many={"post": ["tag"]})
    assert account_text("Each post has many tags", both).unaccounted == []


def test_their_record_said_by_the_speaker_needs_a_link_to_another_record():
    tied = _spec(("hairstylist", None, []), ("schedule", "hairstylist", []))
    loose = _spec(("hairstylist", None, []), ("schedule", None, []))
    assert account_text("I can add their schedule", tied).unaccounted == []
    assert account_text("I can add their schedule", loose).unaccounted == ["schedule"]


def test_what_asks_for_no_relation_stays_as_it_was():
    loose = _spec(("task", None, []), ("project", None, []))
    assert account_text("Select a task to view its details", loose).unaccounted == []
    assert account_text("Users can create tasks and projects", loose).unaccounted == []
    assert account_text("Each project has a name", loose).unaccounted == []
    compound = _spec(("customer", None, []), ("job", None, []))
    assert account_text("Offer a menu for selecting the customer type", compound).unaccounted == ["menu", "type"]
    assert account_text("Each job has vaccine records and a customer history", compound).unaccounted == [
        "vaccine", "history"]
    shown = _spec(("client", None, []), ("post", None, []))   # the client's name on a post: the post's client
    assert account_text("Post contains: Client name, a title", shown).unaccounted == ["Client", "title"]
