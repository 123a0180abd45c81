"""Deterministic rule-based spec: a natural-language request (English or Vietnamese) -> AppSpec.

`rule_based_spec(request)` is the fallback used whenever no LLM answer is usable. It is pure
and deterministic: the same request gives a byte-identical `model_dump_json()` (lists and
insertion-ordered dicts only; sets are used for membership, never iterated).

The request is split into clauses; every token remembers its clause. Passes over one token
list mark the tokens they recognise with a role: status enums -> feature words (auth,
dashboard, pages, stack, completion) -> field lists -> entities (only from entity positions)
-> relations -> features and workflows -> completion targets. `accounting` then decides per
clause: mapped, not built (a content word no rule recognised) or context.
"""

from __future__ import annotations

from harness.errors import SpecError
from harness.models.spec import AppSpec
from harness.offline.spec import lexicon as lx
from harness.offline.spec import lexicon_roles as rl
from harness.offline.spec.about_fields import find_about_fields, find_detail_fields
from harness.offline.spec.account_rules import mark_account_rules
from harness.offline.spec.accounting import NEVER_IGNORED, account_clauses
from harness.offline.spec.app_name import mark_app_name
from harness.offline.spec.booking import find_availability, mark_unrecorded_bookings
from harness.offline.spec.build import Parsed, build_spec
from harness.offline.spec.clauses import split_clauses
from harness.offline.spec.compound_heads import drop_compound_heads
from harness.offline.spec.list_collectives import mark_list_collectives
from harness.offline.spec.entities import find_entities, mark_brands
from harness.offline.spec.register_verb import registers_a_record
from harness.offline.spec.record_words import drop_actor_entities, merge_record_word_entities
from harness.offline.spec.history_records import mark_history_records
from harness.offline.spec.negated_lists import negated_clauses
from harness.offline.spec.relations import find_relations
from harness.offline.spec.cascades import find_cascades
from harness.offline.spec.required_fields import mark_required_statements
from harness.offline.spec.enum_entities import drop_enum_value_entities, drop_field_head_entities
from harness.offline.spec.feature_phrases import (find_checkbox_selection, find_keyword_search,
                                                  find_newest_first, find_overview_totals,
                                                  find_persistence, reserve_feature_phrases)
from harness.offline.spec.media_fields import find_media_fields
from harness.offline.spec.features import built_features, find_features, find_workflow_chains
from harness.offline.spec.field_passes import (find_column_lists, find_field_bullets, find_field_lists,
                                               find_clock_fields, find_filter_fields, find_frequency,
                                               find_mark_as_fields, find_period_fields, find_ratings,
                                               find_status_of)
from harness.offline.spec.fields import read_enum
from harness.offline.spec.bullet_labels import mark_bullet_labels
from harness.offline.spec.field_mentions import mark_field_mentions
from harness.offline.spec.framing import mark_framing
from harness.offline.spec.layout import find_board_layouts, mark_responsive_mobile
from harness.offline.spec.login_with import mark_email_login
from harness.offline.spec.mark_states import mark_field_states, mark_opposite_states
from harness.offline.spec.record_lists import mark_app_collections
from harness.offline.spec.stack_asks import find_stack_asks
from harness.offline.spec.pass_helpers import nearest as _nearest
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tolerance import mark_qualifiers
from harness.offline.spec.patterns import run_pass
from harness.offline.spec.outline_heads import mark_entity_heads, mark_title_line
from harness.offline.spec.unbuilt_phrases import mark_unbuilt_phrases
from harness.offline.spec.tokens import Tok, tokenize_clauses

MAX_ENTITIES = 20      # more entities than this are ignored, said on the terminal and in the summary
_WINDOW = 8            # how far (tokens) a completion word reaches for its entity

NO_ENTITY_MESSAGE = ("no data entity recognized in the request; name what the app manages, "
                     "e.g. 'tasks' or 'products'")

_STATUS_WORDS = lx.STATUS_WORDS
# "choose if I want to increase or decrease ...": after these "if" is "whether" — the ask itself
_REST_PERIODS = lx._words("time times period periods day days interval intervals timer minutes seconds")
_CHOICE_VERBS = lx._words("choose decide select pick specify indicate set say tell know see check ask determine "
                          "confirm show toggle")


def rule_based_spec(request: str) -> AppSpec:
    """The AppSpec the rules infer from `request`; raises SpecError when it names nothing to build."""
    clauses = split_clauses(request)
    toks, vi, ignored = tokenize_clauses(clauses)
    p = Parsed(title_words=[(t.w, t.orig) for t in toks if t.orig], vi=vi, clauses=clauses)
    if ignored:
        shown = ", ".join(dict.fromkeys(ignored[:10]))
        p.notes.append(f"words not in the Vietnamese lexicon were ignored: {shown}")
    p.app_name = mark_app_name(toks) or mark_title_line(toks, clauses)
    mark_brands(toks)
    mark_bullet_labels(toks)
    run_pass("disclaimers", toks, p)
    reserve_feature_phrases(toks)
    _mark_self_intro(toks)
    status_enums = _find_status_enums(toks)
    complete_idx = _find_feature_words(toks, p, negated_clauses(request, clauses))
    mark_email_login(toks, p)
    find_board_layouts(toks, p)
    mark_responsive_mobile(toks)
    find_stack_asks(toks)
    run_pass("picture capture", toks, p)
    mark_list_collectives(toks)  # "recipes, ingredients, and inventory": inventory items
    mark_app_collections(toks)   # before the field lists: "A movie watchlist: each movie has …" is no record
    mark_history_records(toks)   # "a vaccine history (vaccine type, date given)": vaccine records
    find_field_lists(toks, p)
    cancel_idx = _mark_cancel(toks)
    mentions = find_entities(toks, p, MAX_ENTITIES)
    if find_column_lists(toks, mentions, p) + find_field_bullets(toks, mentions, p) \
            + find_filter_fields(toks, mentions, p):
        mentions = find_entities(toks, p, MAX_ENTITIES)
    find_status_of(toks, mentions, p)
    find_clock_fields(toks, mentions, p)
    find_mark_as_fields(toks, mentions, p)
    mark_field_states(toks, mentions, p)
    complete_idx = [c for c in complete_idx if not toks[c].role.startswith("field:")]
    find_frequency(toks, mentions, p)
    find_period_fields(toks, mentions, p)
    find_relations(toks, mentions, p)
    find_cascades(toks, mentions, p)
    find_ratings(toks, mentions, p)
    find_about_fields(toks, mentions, p)
    find_detail_fields(toks, mentions, p)
    find_media_fields(toks, mentions, p)
    drop_enum_value_entities(toks, mentions, p)
    drop_field_head_entities(toks, mentions, p)
    merge_record_word_entities(toks, mentions, p)
    drop_actor_entities(toks, mentions, p)
    _attach_workflows(toks, mentions, status_enums, p)
    fields_of = {e: [it.words[-1] for it in p.fields.get(e, [])] + ["name", "title"] for e in p.entities}
    field_words = {e: {w for it in p.fields.get(e, []) for w in it.words} for e in p.entities}
    p.features = find_features(toks, mentions, fields_of, built_features(), field_words, p.parents)
    p.features += find_availability(toks, mentions, p) + find_keyword_search(toks, mentions) \
        + find_overview_totals(toks, mentions, p) + find_newest_first(toks, mentions, p) \
        + find_persistence(toks, mentions, p)
    _find_status(toks, mentions, complete_idx, p)
    _find_cancel(toks, mentions, cancel_idx, p)
    find_checkbox_selection(toks, p)
    mark_qualifiers(toks, p)
    mark_opposite_states(toks, p)
    run_pass("listed field words", toks, p)
    mark_account_rules(toks, clauses, p.auth, p.login_email)
    mark_required_statements(toks, clauses, p)
    mark_framing(toks, clauses, NEVER_IGNORED)
    mark_entity_heads(toks, p.entities)
    mark_field_mentions(toks, p.fields)
    mark_unbuilt_phrases(toks, p.parents)
    mark_unrecorded_bookings(toks, p)
    p.accounts = account_clauses(toks, clauses)
    for clause, reason in p.blocked:
        p.accounts[clause].blocked.append(reason)
    _drop_unasked_entities(toks, p)
    drop_compound_heads(toks, p)
    if not p.entities:
        err = SpecError(_nothing_message(p))
        err.clauses = list(p.clauses)   # the draft of a run that stops here still lists them
        raise err
    return build_spec(p)


_PRODUCT_RULES = frozenset({"tool-head", "subject", "app-list"})


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


# --- passes ----------------------------------------------------------------------------------------

def _mark_self_intro(toks: list[Tok]) -> None:
    """ "I'm a teacher", "as a manager": who asks is context, not a record type; so is the
    benefit of a user story ("... so that I can review my spending")."""
    stories = {t.clause for k, t in enumerate(toks) if (t.w == "i" and _word(toks, k + 1) in ("want", "need"))
               or (t.w == "as" and _word(toks, k + 1) in ("a", "an"))}
    for i in range(len(toks)):
        why = toks[i].w in ("if", "because", "since", "before") or (toks[i].w == "in" and _word(toks, i + 1) == "case")
        if toks[i].w == "if" and _word(toks, i - 1) in _CHOICE_VERBS:   # "choose if I want to ...": whether
            why = False
        if why and toks[i].clause in stories:   # "... if it was added by mistake": the reason, not the ask
            k = i
            while k < len(toks) and toks[k].clause == toks[i].clause and toks[k].w not in (".", ","):
                if not toks[k].used:
                    _use(toks[k], "context")
                k += 1
        if toks[i].w == "so" and _word(toks, i + 1) == "that":
            k = i
            while k < len(toks) and toks[k].clause == toks[i].clause and toks[k].w != ".":
                if not toks[k].used:
                    _use(toks[k], "context")
                k += 1
        for a, b in rl.SELF_INTRO:
            if toks[i].w == a and (b is None or _word(toks, i + 1) == b):
                j = i + (1 if b is None else 2)
                while j < len(toks) and toks[j].w in lx.DETERMINERS | lx.ADJECTIVES:
                    j += 1
                k = j
                while k < len(toks) and k - j < 3 and toks[k].w[:1].isalpha() and toks[k].w not in lx.FUNCTION \
                        and (not rl.is_supported_verb(toks[k].w) or _compound_actor(toks, k)):
                    _use(toks[k], "context")
                    k += 1


def _compound_actor(toks: list[Tok], k: int) -> bool:
    """ "as a book lender": a noun that is also a verb, modifying the actor noun after it."""
    nxt = toks[k + 1] if k + 1 < len(toks) else None
    return (toks[k].w in lx.VERB_NOUNS and nxt is not None and nxt.clause == toks[k].clause and nxt.w[:1].isalpha()
            and nxt.w not in lx.FUNCTION and not rl.is_supported_verb(nxt.w))


def _find_status_enums(toks: list[Tok]) -> list[tuple[int, list[str]]]:
    """ "status: draft / submitted / approved", "state (open, closed)": ordered states."""
    out = []
    for i, t in enumerate(toks):
        if t.w in _STATUS_WORDS and _word(toks, i + 1) in ("(", ":") and not t.used:
            values, end = read_enum(toks, i + 1)
            if values:
                for k in range(i, end):
                    _use(toks[k], "workflow:")
                out.append((i, values))
    return out


def _find_feature_words(toks: list[Tok], p: Parsed, negated: set[int] = frozenset()) -> list[int]:
    """Mark the feature words (login, dashboard, pages, API, mark-as-complete …); `negated`: the
    clauses of bullet lists under a negating heading (negated_lists.py), whose login is not asked for."""
    complete_idx: list[int] = []
    for i, t in enumerate(toks):
        w = t.w
        if t.used or not w:
            continue
        role = w
        if w in lx.AUTH:
            if w in ("user", "users") and not _auth_context(toks, i):
                continue
            if _negated(toks, i, lx.AUTH) or t.clause in negated:   # "available without registration and login"
                _use(t, "context")
                continue
            if w == "register" and registers_a_record(toks, i):
                continue   # "register each transaction": recording a record, not signing up
            p.auth, role = True, "auth"
        elif w in lx.DASHBOARD:
            p.dashboard, role = True, "dashboard"
        elif w in lx.COMPLETE:
            if w.startswith("complete") and _word(toks, i - 1) in ("a", "an", "the", "fully"):
                continue
            complete_idx.append(i)
            role = "complete:"
        elif w in lx.FRAMEWORKS:
            p.pages = True
            p.frameworks.append(lx.FRAMEWORKS[w])
            role = f"stack:{lx.FRAMEWORKS[w]}"
        elif w in lx.PAGE_WORDS:
            if _word(toks, i + 1) in ("count", "number", "numbers", "counts") and _word(toks, i - 1) != "the":
                continue   # "page count", "page number": a column of a book, not the app's pages
            p.pages = True
            p.settings = p.settings or w == "settings"
            role = "stack:settings page" if w == "settings" else "pages"
        elif w in lx.API_WORDS and not (w == "rest" and _word(toks, i + 1) in _REST_PERIODS):   # "rest time"
            p.api = True
            role = "stack:GraphQL" if w == "graphql" else "api"
        elif w in lx.OTHER_BACKENDS:
            role = f"stack:{lx.OTHER_BACKENDS[w]}"
        elif w in lx.OTHER_DBS:
            role = f"stack:{lx.OTHER_DBS[w]}"
        else:
            continue
        _use(t, role)
    return complete_idx


_ACCOUNT_VERBS = lx._words("create creates creating add adds register registers")
_NEGATED_REACH = 6
_NEGATION_SKIP = lx._words("and or , / a an any the need needs needed require requires required requiring to "
                           "for of user users")


def _negated(toks: list[Tok], i: int, group: frozenset[str]) -> bool:
    """Whether word i is negated: "without registration and login", "no need to log in", "doesn't
    require an account" (back over words of `group` and linking words to a negation)."""
    for j in range(i - 1, max(-1, i - 1 - _NEGATED_REACH), -1):
        w = toks[j].w
        if w in lx.NEGATIONS:
            return True
        if toks[j].clause != toks[i].clause or not (w in group or w in _NEGATION_SKIP):
            return False
    return False


def _auth_context(toks: list[Tok], i: int) -> bool:
    """ "user accounts", "users log in": the word asks for login, not "users can add recipes".
    "Create a user" is an account, under the login the request asks for; "all users' recipes",
    "each user's notes" are records owned by account holders."""
    near = {_word(toks, j) for j in range(i - 2, i + 4)}
    before = _word(toks, i - 2) if _word(toks, i - 1) in ("a", "an", "new") else _word(toks, i - 1)
    return bool(near & (lx.AUTH - {"user", "users"})) or _word(toks, i - 1) in ("multiple", "different") \
        or before in _ACCOUNT_VERBS \
        or toks[i].possessive and (toks[i].w == "users" or _word(toks, i - 1) in ("each", "every"))


def _attach_workflows(toks: list[Tok], mentions: dict[int, str], status_enums: list, p: Parsed) -> None:
    for i, values in status_enums:
        entity = _nearest(toks, i, mentions, reach=20)
        if entity:
            p.workflows.setdefault(entity, values)
            for t in toks:
                if t.clause == toks[i].clause and t.role == "workflow:":
                    t.role = f"workflow:{entity}"
    for entity, states in find_workflow_chains(toks, mentions):
        p.workflows.setdefault(entity, states)


def _find_status(toks: list[Tok], mentions: dict[int, str], complete_idx: list[int], p: Parsed) -> None:
    for c in complete_idx:
        hit = _nearest(toks, c, mentions, _WINDOW)
        if hit is None:
            hit = next((e for e in p.entities if e.rpartition(" ")[2] in lx.STATUS_NOUNS), None)
        if hit is None and len(p.entities) == 1:
            hit = p.entities[0]
        if hit and hit not in p.workflows:
            toks[c].role = f"complete:{hit}"
            if hit not in p.status:
                p.status.append(hit)
        elif hit:
            toks[c].role = f"workflow:{hit}"


_CANCEL = frozenset({"cancel", "cancels", "cancelled", "canceled", "cancelling", "canceling", "cancellation",
                     "cancellations"})
CANCEL_STATES = ["active", "cancelled"]


def _mark_cancel(toks: list[Tok]) -> list[int]:
    """The cancel words (before entities are found: "cancel them" is no record type)."""
    out = [i for i, t in enumerate(toks) if not t.used and t.w in _CANCEL]
    for i in out:
        _use(toks[i], "workflow:")
    return out


def _find_cancel(toks: list[Tok], mentions: dict[int, str], cancel_idx: list[int], p: Parsed) -> None:
    """ "you can book or cancel": a record that is cancelled is kept with a status, not deleted."""
    for i in cancel_idx:
        hit = _nearest(toks, i, mentions, _WINDOW) or (p.entities[0] if len(p.entities) == 1 else None)
        if hit is None:
            toks[i].used, toks[i].role = False, ""
            continue
        if hit not in p.workflows and hit not in p.status:
            p.workflows[hit] = list(CANCEL_STATES)
        toks[i].role = f"workflow:{hit}"
