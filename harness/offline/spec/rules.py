"""Deterministic rule-based spec: a natural-language request (English or Vietnamese) -> AppSpec.

`rule_based_spec(request)` is the fallback used whenever no LLM answer is usable. It is pure
and deterministic: the same request gives a byte-identical `model_dump_json()` (lists and
insertion-ordered dicts only; sets are used for membership, never iterated).

The request is split into clauses; every token remembers its clause. `PASSES` below is the one
ordered list of what runs over the tokens, each with why it runs where it does. A pass marks the
tokens it recognises with a role; a pass named "table" is rows of the pattern tables
(patterns/*.jsonl, patterns.py), any other is code that a pattern cannot say (the reason says
what). `accounting` then decides per clause: mapped, not built (a content word no rule
recognised) or context.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from harness.errors import SpecError
from harness.models.spec import AppSpec
from harness.offline.spec import lexicon as lx
from harness.offline.spec.about_fields import find_about_fields
from harness.offline.spec.account_rules import mark_account_rules
from harness.offline.spec.accounting import NEVER_IGNORED, account_clauses
from harness.offline.spec.app_name import mark_app_name
from harness.offline.spec.booking import find_availability
from harness.offline.spec.build import Parsed, build_spec
from harness.offline.spec.bullet_labels import mark_bullet_labels
from harness.offline.spec.cascades import find_cascades
from harness.offline.spec.clauses import split_clauses
from harness.offline.spec.compound_heads import drop_compound_heads
from harness.offline.spec.enum_entities import drop_enum_value_entities, drop_field_head_entities
from harness.offline.spec.entities import find_entities, mark_brands
from harness.offline.spec.feature_phrases import (find_keyword_search,
                                                  find_newest_first, find_overview_totals,
                                                  find_persistence)
from harness.offline.spec.feature_words import find_feature_words
from harness.offline.spec.features import built_features, find_features
from harness.offline.spec.field_mentions import mark_field_mentions
from harness.offline.spec.field_passes import (find_column_lists, find_field_bullets,
                                               find_field_lists, find_filter_fields,
                                               find_period_fields, find_ratings)
from harness.offline.spec.framing import mark_framing
from harness.offline.spec.history_records import mark_history_records
from harness.offline.spec.layout import find_board_layouts
from harness.offline.spec.list_collectives import mark_list_collectives
from harness.offline.spec.login_with import mark_email_login
from harness.offline.spec.mark_states import mark_field_states, mark_opposite_states
from harness.offline.spec.media_fields import find_media_fields
from harness.offline.spec.negated_lists import negated_clauses
from harness.offline.spec.outline_heads import mark_entity_heads, mark_title_line
from harness.offline.spec.patterns import run_pass
from harness.offline.spec.record_lists import mark_app_collections
from harness.offline.spec.record_words import drop_actor_entities, merge_record_word_entities
from harness.offline.spec.relations import find_relations
from harness.offline.spec.required_fields import mark_required_statements
from harness.offline.spec.self_intro import mark_self_intro
from harness.offline.spec.tokens import Tok, tokenize_clauses
from harness.offline.spec.tolerance import mark_qualifiers
from harness.offline.spec.unbuilt_phrases import mark_collection_moves, mark_restrictions
from harness.offline.spec.workflow_words import attach_workflows, find_cancel, find_status, find_status_enums
from harness.offline.spec.wordsets import word_set

MAX_ENTITIES = 20      # more entities than this are ignored, said on the terminal and in the summary

NO_ENTITY_MESSAGE = ("no data entity recognized in the request; name what the app manages, "
                     "e.g. 'tasks' or 'products'")


@dataclass
class ParseState:
    """What the passes share: the tokens, the parse, and what one pass hands a later one."""

    request: str
    clauses: list[str]
    toks: list[Tok]
    p: Parsed
    status_enums: list = field(default_factory=list)       # (token, states) of "status: a / b / c"
    complete_idx: list[int] = field(default_factory=list)  # completion words, attached after entities
    cancel_idx: list[int] = field(default_factory=list)    # cancel words, attached after entities
    mentions: dict[int, str] = field(default_factory=dict)  # token index -> the entity it names


Pass = tuple[str, Callable[[ParseState], object], str]   # (name, run, why it is code / why here)


def table(name: str) -> Callable[[ParseState], None]:
    """A pass made of pattern-table rows (patterns/*.jsonl, "pass": name)."""
    return lambda s: run_pass(name, s.toks, s.p, s.mentions)


def _refind_entities(s: ParseState) -> None:
    found = find_column_lists(s.toks, s.mentions, s.p) + find_field_bullets(s.toks, s.mentions, s.p) \
        + find_filter_fields(s.toks, s.mentions, s.p)
    if found:
        s.mentions = find_entities(s.toks, s.p, MAX_ENTITIES)


def _features(s: ParseState) -> None:
    toks, mentions, p = s.toks, s.mentions, s.p
    fields_of = {e: [it.words[-1] for it in p.fields.get(e, [])] + ["name", "title"] for e in p.entities}
    field_words = {e: {w for it in p.fields.get(e, []) for w in it.words} for e in p.entities}
    p.features = find_features(toks, mentions, fields_of, built_features(), field_words, p.parents)
    p.features += find_availability(toks, mentions, p) + find_keyword_search(toks, mentions) \
        + find_overview_totals(toks, mentions, p) + find_newest_first(toks, mentions, p) \
        + find_persistence(toks, mentions, p)


def _account(s: ParseState) -> None:
    s.p.accounts = account_clauses(s.toks, s.clauses)
    for clause, reason in s.p.blocked:
        s.p.accounts[clause].blocked.append(reason)


def code(run: Callable[..., object], *reads: str) -> Callable[[ParseState], object]:
    """A code pass, called with the parts of the state it reads ("toks", "p", "mentions", ...)."""
    return lambda s: run(*(getattr(s, name) for name in reads))


def _set(attr: str, run: Callable[[ParseState], object]) -> Callable[[ParseState], None]:
    return lambda s: setattr(s, attr, run(s))


# The order is the contract: a pass only sees what the passes above it left unused.
PASSES: tuple[Pass, ...] = (
    ("app name", lambda s: setattr(s.p, "app_name", mark_app_name(s.toks) or mark_title_line(s.toks, s.clauses)),
     "first: the name the app is called by is no record; code: reads the request's title line"),
    ("brands", code(mark_brands, "toks"),
     "before entities: Stripe, Notion are no records; code: a word's casing against its clause's"),
    ("bullet labels", code(mark_bullet_labels, "toks"),
     "before fields: 'Plant List: Add plants ...'; code: label length and casing from the clause start"),
    ("disclaimers", table("disclaimers"), "table; early: what the app says it does not do asks for nothing"),
    ("feature phrases reserved", table("feature phrases reserved"),
     "table; before fields and entities: 'newest first', 'persist after a refresh' are features"),
    ("story reasons", table("story reasons"), "table; before entities: '... because it was added by mistake'"),
    ("so that", table("so that"), "table; before entities: the benefit of a user story is context"),
    ("self introduction", code(mark_self_intro, "toks"),
     "before entities: 'as a teacher' is who asks; code: which nouns a verb-noun actor spans"),
    ("status enums", _set("status_enums", lambda s: find_status_enums(s.toks)),
     "before field lists: 'status: a / b'; code: reads the value list, hands its states to 'workflows'"),
    ("feature words", _set("complete_idx", lambda s: find_feature_words(
        s.toks, s.p, negated_clauses(s.request, s.clauses))),
     "login/dashboard/pages/API/stack words; code: negation reach, account context, the parse's flags"),
    ("e-mail login", code(mark_email_login, "toks", "p"),
     "after feature words (needs auth); code: one decision per clause taken before any word is marked"),
    ("board layouts", code(find_board_layouts, "toks", "p"),
     "before entities: a board's 'columns' are lanes; code: the blocked reason names the lanes"),
    ("responsive mobile", table("responsive mobile"), "table; before entities: 'mobile' is a layout here"),
    ("stack asks", table("stack asks"), "table; before entities: 'browser storage' is a stack ask"),
    ("picture capture", table("picture capture"), "table; before entities: 'take an invoice photo' is no photo record"),
    ("list collectives", code(mark_list_collectives, "toks"),
     "before entities: 'recipes, ingredients and inventory'; code: renames the word"),
    ("app collections", code(mark_app_collections, "toks"),
     "before field lists: 'a movie watchlist: each movie has'; code: marks every mention request-wide"),
    ("history records", code(mark_history_records, "toks"),
     "before field lists: 'vaccine history (type, date)'; code: judges the list by field kinds, rewrites"),
    ("field lists", code(find_field_lists, "toks", "p"),
     "before entities: 'X with a, b, c'; code: the list grammar that builds fields"),
    ("cancel words", _set("cancel_idx", lambda s: run_pass("cancel words", s.toks, s.p)),
     "table; before entities: 'cancel them' is no record; its tokens go to 'cancel status'"),
    ("entities", _set("mentions", lambda s: find_entities(s.toks, s.p, MAX_ENTITIES)),
     "after every pass that reserves words; code: noun-phrase positions, the entity cap"),
    ("column lists, field bullets, filter fields", _refind_entities,
     "need the entities; code: a new field list can name a new record, so entities are found again"),
    ("status of", table("status of"), "table; needs entities: 'a status for each order' gives those records a status"),
    ("clock fields", table("clock fields"), "table; needs entities: 'clock in and out' times of the nearest record"),
    ("mark-as fields", table("mark-as fields"), "table; needs entities: 'mark ingredients as purchased' is a yes/no field"),
    ("field states", code(mark_field_states, "toks", "mentions", "p"),
     "needs the yes/no fields; code: which record's field a word is; 'completion words left' follows"),
    ("completion words left", lambda s: setattr(s, "complete_idx", [
        c for c in s.complete_idx if not s.toks[c].role.startswith("field:")]),
     "after field states; code: drops the completion words that became fields"),
    ("frequency", table("frequency"), "table; needs entities: 'on a daily or weekly basis' is a frequency field"),
    ("period fields", code(find_period_fields, "toks", "mentions", "p"),
     "needs entities: start/end dates; code: adds fields to the parse"),
    ("relations", code(find_relations, "toks", "mentions", "p"),
     "needs entities: 'each X has many Y'; code: sets parents in the parse"),
    ("many-to-many links", table("many-to-many links"),
     "table; after relations: a link of two records replaces the parent or field an earlier pass read"),
    ("cascades", code(find_cascades, "toks", "mentions", "p"),
     "after relations: deleting a parent; code: compares with the parse's parents"),
    ("ratings", code(find_ratings, "toks", "mentions", "p"),
     "needs entities: 'rate from 1 to 5'; code: adds a field with its range"),
    ("about fields", code(find_about_fields, "toks", "mentions", "p"),
     "needs entities: 'notes about'; code: adds fields to the parse"),
    ("detail fields", table("detail fields"), "table; needs entities: 'information about the property' is its field"),
    ("media fields", code(find_media_fields, "toks", "mentions", "p"),
     "needs entities: a picture URL; code: adds fields to the parse"),
    ("enum value entities dropped", code(drop_enum_value_entities, "toks", "mentions", "p"),
     "after every field pass: a listed value is no record; code: edits the entity list"),
    ("field head entities dropped", code(drop_field_head_entities, "toks", "mentions", "p"),
     "after every field pass: a field's head is no record; code: edits the entity list"),
    ("record word entities merged", code(merge_record_word_entities, "toks", "mentions", "p"),
     "after the drops: 'expense record' is an expense; code: edits the entity list"),
    ("actor entities dropped", code(drop_actor_entities, "toks", "mentions", "p"),
     "after the merge: users that only act are no records; code: edits the entity list"),
    ("workflows", code(attach_workflows, "toks", "mentions", "status_enums", "p"),
     "the entities are final; code: states go to the nearest record"),
    ("record tools", table("record tools"),
     "table; the entities are final, before features: 'import from a CSV file' is no CSV export"),
    ("features", _features,
     "needs each record's fields; code: the generator's feature registry, field names per record"),
    ("completion status", code(find_status, "toks", "mentions", "complete_idx", "p"),
     "after workflows; code: the nearest record, or the one with a status noun"),
    ("cancel status", code(find_cancel, "toks", "mentions", "cancel_idx", "p"),
     "after workflows; code: the nearest record"),
    ("checkbox selection", table("checkbox selection"),
     "table; after completion status: a checkbox that marks a record done selects nothing"),
    ("qualifier words", table("qualifier words"),
     "table; after fields and features: 'an existing task', 'a button that triggers a modal'"),
    ("qualifier columns", code(mark_qualifiers, "toks", "p"),
     "after 'qualifier words': a record's column, an app-list heading; code: reads each record's columns"),
    ("opposite states", code(mark_opposite_states, "toks", "p"),
     "after completion status: 'watched or unwatched'; code: reads the parse's yes/no fields"),
    ("listed field words", table("listed field words"), "table; after every field rule: what none of them read"),
    ("account rules", lambda s: mark_account_rules(s.toks, s.clauses, s.p.auth, s.p.login_email),
     "needs the login flags; code: regular expressions over the clause text"),
    ("required statements", code(mark_required_statements, "toks", "clauses", "p"),
     "needs the fields; code: regular expressions over the clause text, sets fields required"),
    ("framing", lambda s: mark_framing(s.toks, s.clauses, NEVER_IGNORED),
     "after every ask rule: headings no rule claimed; code: regular expressions over whole clauses"),
    ("entity heads", lambda s: mark_entity_heads(s.toks, s.p.entities),
     "needs the final entities; code: compares words with the entity names"),
    ("field mentions", lambda s: mark_field_mentions(s.toks, s.p.fields),
     "needs the final fields; code: compares word runs with each record's field labels"),
    ("time windows", table("time windows"), "table; last marks, phrases not built: 'last 6 days'"),
    ("memberships", table("memberships"), "table; needs entity roles: people 'can be in multiple events'"),
    ("people in records", table("people in records"), "table; needs entity roles: 'groups with multiple users'"),
    ("restrictions", code(mark_restrictions, "toks"),
     "after features and login: 'cannot delete'; code: clause-wide checks of features, login and others"),
    ("upcoming", table("upcoming"), "table; needs entity roles: 'upcoming meetings'"),
    ("collection moves", lambda s: mark_collection_moves(s.toks, s.p.parents),
     "needs the relations; code: compares the two records with the parents"),
    ("time logs", table("time logs"), "table; needs entity roles: 'log time against assessments'"),
    ("unrecorded bookings", table("unrecorded bookings"),
     "table; last marks: 'book courts' when no booking record keeps who booked what"),
    ("clause accounting", _account, "after every mark: each clause mapped, not built or context; code: the accounting"),
    ("unasked entities dropped", lambda s: _drop_unasked_entities(s.toks, s.p),
     "needs the accounts; code: edits the entity list"),
    ("compound heads dropped", code(drop_compound_heads, "toks", "p"),
     "needs the accounts; code: edits the entity list"),
)


def new_state(request: str) -> ParseState:
    """The request's clauses and tokens, before any pass."""
    clauses = split_clauses(request)
    toks, vi, ignored = tokenize_clauses(clauses)
    p = Parsed(title_words=[(t.w, t.orig) for t in toks if t.orig], vi=vi, clauses=clauses)
    if ignored:
        shown = ", ".join(dict.fromkeys(ignored[:10]))
        p.notes.append(f"words not in the Vietnamese lexicon were ignored: {shown}")
    return ParseState(request, clauses, toks, p)


def run_passes(state: ParseState, until: str | None = None) -> None:
    """Run the passes in order (those before the pass named `until` only, when given)."""
    for name, run, _why in PASSES:
        if name == until:
            return
        run(state)


def rule_based_spec(request: str) -> AppSpec:
    """The AppSpec the rules infer from `request`; raises SpecError when it names nothing to build."""
    state = new_state(request)
    run_passes(state)
    p = state.p
    if not p.entities:
        err = SpecError(_nothing_message(p))
        err.clauses = list(p.clauses)   # the draft of a run that stops here still lists them
        raise err
    return build_spec(p)


_PRODUCT_RULES = word_set("rules.product_rules")


def _drop_unasked_entities(toks: list[Tok], p: Parsed) -> None:
    """When no clause at all is built, a noun that only names the kind of product ("an online 3D
    room planner") is not a record type that was asked for; records someone manages stay."""
    if any(a.status == "mapped" for a in p.accounts):
        return
    plural = {t.role[7:] for t in toks if t.role.startswith("entity:") and lx.singularize(t.w) != t.w}
    keep = [e for e in p.entities if p.fields.get(e) or p.entity_rules.get(e) not in _PRODUCT_RULES
            or p.entity_rules.get(e) == "app-list" and e in plural]   # "an app for orders" stays
    changed = True
    while changed:   # parents of kept entities stay
        changed = False
        for e in list(keep):
            parent = p.parents.get(e)
            if parent and parent not in keep:
                keep.append(parent)
                changed = True
    dropped = [e for e in p.entities if e not in keep]
    if not dropped:
        return
    p.entities = [e for e in p.entities if e in keep]
    for name in dropped:
        p.plurals.pop(name, None)
        p.fields.pop(name, None)
        p.workflows.pop(name, None)
        p.parents.pop(name, None)
    p.parents = {c: par for c, par in p.parents.items() if par in keep}
    p.status = [e for e in p.status if e in keep]
    p.features = [f for f in p.features if f[1] in keep]


def _nothing_message(p: Parsed) -> str:
    from harness.offline.spec.coverage import clause_reason

    listed = "; ".join(f'C-{n:03d} "{c}" ({a.status}' + (f": {clause_reason(a, p)})" if a.status == "not_built"
                                                            else ")")
                       for n, (c, a) in enumerate(zip(p.clauses, p.accounts), 1))
    return NO_ENTITY_MESSAGE + (f". Clauses: {listed}" if listed else "")


