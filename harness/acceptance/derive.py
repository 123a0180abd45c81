"""From the spec alone, the black-box checks each requirement must pass (one list per requirement).

What a capability asks for decides the checks (docs/acceptance.md has the table):
create → every field read back equal, each typed field refuses a wrong value, required fields,
unique fields and references to missing records refused; crud → that plus list, update, delete,
unknown id, an unknown query parameter; list → every created record listed, an unknown query
parameter refused; relation → a missing parent refused, a parent's records listed exactly, the
delete rule; complete → the status sticks; workflow → allowed moves stick, skipped ones are 409,
a stamped date is set on the move into its state; auth → accounts, tokens, near-miss passwords
refused, log out ends the token and the page cookie, and a second user's isolation over the API,
the pages and the page forms (the stored-password scan and the restart: checks_stored.py, run.py); dashboard → a count follows a new record; pages → each page answers and shows a record
made through the API, its text markup shown as text (escaped); feature → the feature's own behaviour (search/filter exact, sort order,
totals, counts, CSV, no double booking, newest first, ownership); health → GET /health.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from harness.constructs.parent_key import parent_key_of
from harness.acceptance import checks_access as access
from harness.acceptance import checks_app as app
from harness.acceptance import checks_data as data
from harness.acceptance import checks_flow as flow
from harness.acceptance import checks_page_escaping as escaping
from harness.acceptance import checks_pages_private as pages_private
from harness.acceptance import checks_public as public
from harness.acceptance import checks_page_forms as page_forms
from harness.acceptance import checks_session as session
from harness.acceptance.checks_record_tools import TOOL_CHECKS
from harness.acceptance.checks_computed import computed_values_hold
from harness.acceptance.checks_features import FEATURE_CHECKS
from harness.acceptance.samples import searchable, wrong_values
from harness.models.spec import AppSpec, DataEntity, Feature, Requirement


@dataclass(frozen=True)
class Check:
    requirement: str
    name: str
    run: Callable          # run(api) -> detail; raises CheckFailed
    entity: str | None = None
    first: bool = False    # run before the others (pages: before other checks fill the lists)
    again: bool = False    # run again after the restart (the writes of the app's second life)


_FEATURE_WORDS = {
    "search": r"search|find", "filter": r"filter", "sort": r"sort|order by", "csv_export": r"csv|export",
    "aggregate": r"total|sum|aggregate", "status_counts": r"per status|status count|counts? .*status",
    "no_double_booking": r"twice|double|overlap|same slot", "newest_first": r"newest|recent|reverse",
    "ownership": r"own|only their", "persistence": r"persist|restart|refresh",
    "period_summary": r"weekly|monthly|yearly|per (week|month|year)|summary",
    "capacity": r"capacity|place",
    "limit": r"at most|exceed|more than",
}


def feature_of(spec: AppSpec, req: Requirement) -> Feature | None:
    """The feature a `feature` requirement is about: its entity's feature whose words it uses."""
    mine = [f for f in spec.features if f.entity == req.entity or (req.entity is None and f.entity is None)]
    words = f"{req.text} {req.acceptance}".lower()
    named = [f for f in mine if re.search(rf"\b{re.escape(f.kind)}\b", req.acceptance.lower())]
    worded = [f for f in mine if re.search(_FEATURE_WORDS.get(f.kind, f.kind), words)]
    for found in (named, worded):
        if found:
            return found[0]
    return mine[0] if len(mine) == 1 else None


def _entity_input(spec: AppSpec, e: DataEntity, rid: str, full: bool) -> list[Check]:
    """create with every field; typed, required, unique, reference refusals (crud adds the rest)."""
    c = [Check(rid, f"create a {e.name} with every field and read it back", partial(data.create_read_back, entity=e), e.ident, again=True)]
    if full:
        c += [Check(rid, f"list shows every created {e.name}", partial(data.list_shows_all, entity=e), e.ident),
              Check(rid, f"update a {e.name} and read it back", partial(data.update_sticks, entity=e), e.ident, again=True),
              Check(rid, f"delete a {e.name}", partial(data.delete_removes, entity=e), e.ident, again=True),
              Check(rid, f"unknown {e.name} id → 404", partial(data.unknown_id_404, entity=e), e.ident),
              _unknown_query(rid, e)]
    for f in e.fields:
        if wrong_values(f):
            c.append(Check(rid, f"{e.name}.{f.ident} refuses a wrong value", partial(data.refuses_wrong, entity=e, field=f), e.ident))
        if f.required:
            c.append(Check(rid, f"a {e.name} without {f.ident} is refused", partial(data.refuses_missing, entity=e, ident=f.ident), e.ident))
        if f.unique:
            c.append(Check(rid, f"a duplicate {e.name}.{f.ident} is refused", partial(data.refuses_duplicate, entity=e, field=f), e.ident))
        target = spec.entity(f.ref) if f.ref else None
        if target is not None:
            c.append(Check(rid, f"{e.name}.{f.ident} to a missing {target.name} is refused",
                           partial(data.refuses_missing_reference, entity=e, ident=f.ident), e.ident))
            if full:
                c.append(Check(rid, f"a {target.name} a {e.name} refers to cannot be deleted",
                               partial(data.delete_rule, entity=e, target=target, ident=f.ident, cascade=False), e.ident))
    return c


def _private_pages(spec: AppSpec, e: DataEntity, rid: str) -> list[Check]:
    """With HTML pages: another account's pages and page forms, as its API, leave the record alone."""
    if not (spec.pages and spec.html):
        return []
    return [Check(rid, f"another account's pages do not show a {e.name}",
                  partial(pages_private.pages_hide_others_records, spec=spec, entity=e), e.ident),
            Check(rid, f"another account's page forms cannot change or delete a {e.name}",
                  partial(pages_private.forms_leave_others_records, spec=spec, entity=e), e.ident)]


def _page_form(spec: AppSpec, e: DataEntity, rid: str, verb: str) -> list[Check]:
    """With HTML pages: the `verb` form a page shows for the owner's record does it."""
    if not (spec.pages and spec.html):
        return []
    return [Check(rid, f"a page's {verb} form {'completes' if verb == 'complete' else 'deletes'} a {e.name}",
                  partial(page_forms.form_acts, spec=spec, entity=e, verb=verb), e.ident)]


def _unknown_query(rid: str, e: DataEntity) -> Check:
    return Check(rid, f"the {e.plural} list refuses an unknown query parameter",
                 partial(data.refuses_unknown_query, entity=e), e.ident)


def _relation(spec: AppSpec, e: DataEntity, rid: str) -> list[Check]:
    parent = spec.entity(e.parent) if e.parent else None
    if parent is None:
        return []
    key = parent_key_of(spec, e)
    cascade = e.on_parent_delete == "cascade"
    return [Check(rid, f"a {e.name} without its {parent.name} is refused", partial(data.refuses_missing, entity=e, ident=key), e.ident),
            Check(rid, f"a {e.name} of a missing {parent.name} is refused", partial(data.refuses_missing_reference, entity=e, ident=key), e.ident),
            Check(rid, f"a {parent.name}'s {e.plural} are listed exactly", partial(data.children_listed_exactly, entity=e, parent=parent), e.ident),
            Check(rid, f"deleting a {parent.name} {'cascades' if cascade else 'with ' + e.plural + ' is refused'}",
                  partial(data.delete_rule, entity=e, target=parent, ident=key, cascade=cascade), e.ident)]


def _feature(spec: AppSpec, e: DataEntity | None, req: Requirement) -> list[Check]:
    feature = feature_of(spec, req)
    rid = req.id
    if feature is None:
        return []
    if feature.kind == "ownership" and spec.auth:
        return [Check(rid, f"another account cannot see or change a {x.name}", partial(app.isolated, entity=x), x.ident)
                for x in ([e] if e else spec.data_model)]
    run = FEATURE_CHECKS.get(feature.kind)
    if run is None or e is None:
        return []
    return [Check(rid, f"{feature.kind.replace('_', ' ')} on {e.plural}", partial(run, entity=e, feature=feature), e.ident)]


def _access(spec: AppSpec, e: DataEntity | None, req: Requirement) -> list[Check]:
    """roles, change_password, read, shared, manage, view, assigned_to and many (by the requirement's source)."""
    rid, source = req.id, req.acceptance
    if source == "auth.roles" and spec.roles:
        return [Check(rid, "the first account registered is admin and can make others admin",
                      partial(access.first_is_admin, spec=spec), first=True),
                Check(rid, "the first account is admin; a new one has the last role", partial(access.roles_work, spec=spec))]
    if source == "auth.change_password":
        return [Check(rid, "change my password", partial(access.password_changes, spec=spec))]
    if e is None:
        return []
    if source.endswith(".read") and e.read == "public":
        return [Check(rid, f"anyone reads a {e.name}; only its author changes it",
                      partial(public.public_read, spec=spec, entity=e), e.ident)]
    if source.endswith(".shared") and e.shared:
        return [Check(rid, f"another account sees a shared {e.name}", partial(access.shared_seen, spec=spec, entity=e), e.ident)]
    if source.endswith(".manage") and e.manage:
        return [Check(rid, f"only {e.manage} adds {e.plural}", partial(access.managed, spec=spec, entity=e), e.ident)]
    if source.endswith(".view") and e.view:
        return [Check(rid, f"the {e.view} role sees every {e.name}", partial(access.viewed, spec=spec, entity=e), e.ident)]
    if source.endswith(".assigned_to") and e.assigned:
        return [Check(rid, f"the assignee sees a {e.name}", partial(access.assigned_seen, spec=spec, entity=e), e.ident)]
    other = spec.entity(source.rsplit(" ", 1)[-1]) if ".many " in source else None
    if other is not None and other.ident in e.many:
        return [Check(rid, f"{e.plural} link {other.plural}", partial(access.linked, spec=spec, entity=e, other=other), e.ident)]
    return []


def _escaping(spec: AppSpec, req: Requirement) -> list[Check]:
    """With HTML pages: each entity with a page of its own and a text field gets its markup shown as
    text (checks_page_escaping.py), under the `pages` requirement, else the entity's own list, crud or
    create requirement (`req`: the one being derived; its checks go to it when it owns them)."""
    if not (spec.pages and spec.html):
        return []
    shown = [e for e in spec.data_model if searchable(e) and any(p.entity == e.ident for p in spec.pages)]
    pages = next((r for r in spec.requirements if r.capability == "pages"), None)
    out = []
    for e in shown:
        owner = pages or next((r for cap in ("list", "crud", "create") for r in spec.requirements
                               if r.capability == cap and r.entity == e.ident), None)
        if owner is not None and owner.id == req.id:
            out.append(Check(req.id, f"pages show a {e.name}'s text as text, not markup",
                             partial(escaping.pages_escape_text, spec=spec, entity=e), e.ident, first=True))
    return out


def derive(spec: AppSpec) -> list[Check]:
    """Every spec-derived check, in requirement order."""
    checks: list[Check] = []
    for req in spec.requirements:
        e = spec.entity(req.entity) if req.entity else None
        rid, cap = req.id, req.capability
        if cap == "health":
            checks.append(Check(rid, "GET /health answers ok", app.health))
            if not any(r.capability == "pages" for r in spec.requirements):
                checks += [Check(rid, f"page {p.route} answers HTML", partial(app.page_answers, page=p), first=True)
                           for p in spec.pages if p.route == "/"]
        elif cap in ("create", "crud") and e is not None:
            checks += _entity_input(spec, e, rid, full=cap == "crud")
            checks += _page_form(spec, e, rid, "delete") if cap == "crud" else []
        elif cap == "list" and e is not None:
            checks += [Check(rid, f"list shows every created {e.name}", partial(data.list_shows_all, entity=e), e.ident),
                       _unknown_query(rid, e)]
        elif cap == "relation" and e is not None:
            checks += _relation(spec, e, rid)
        elif cap == "complete" and e is not None and e.workflow:   # states of its own: no /complete
            checks.append(Check(rid, f"{e.name} status moves and is read back", partial(flow.workflow_moves, entity=e), e.ident, again=True))
        elif cap == "complete" and e is not None:
            checks += [Check(rid, f"complete a {e.name} and read it back", partial(flow.complete_sticks, entity=e), e.ident, again=True),
                       Check(rid, f"complete an unknown {e.name} → 404", partial(flow.complete_unknown_404, entity=e), e.ident)]
            checks += _page_form(spec, e, rid, "complete")
        elif cap == "workflow" and e is not None and ".stamp " in req.acceptance:
            ident = req.acceptance.rsplit(" ", 1)[-1]
            if ident in e.stamps:
                checks.append(Check(rid, f"{e.name}.{ident} is stamped on moving to {e.stamps[ident]}",
                                    partial(flow.stamped_today, entity=e, ident=ident), e.ident))
        elif cap == "workflow" and e is not None and e.workflow:
            checks += [Check(rid, f"{e.name} moves through its workflow", partial(flow.workflow_moves, entity=e), e.ident, again=True),
                       Check(rid, f"{e.name} refuses a move the workflow does not allow", partial(flow.workflow_refuses_skips, entity=e), e.ident)]
        elif cap == "auth" and spec.auth:
            checks += [Check(rid, "register, log in, who am I", app.account_works),
                       Check(rid, "a password near the right one is refused", session.near_passwords_refused)]
            if session.states_logout(spec, req):
                checks.append(Check(rid, "log out ends the session", partial(session.logout_ends_session, spec=spec)))
            for x in spec.data_model:
                if x.read == "public":   # anyone reads them: the public-read check below
                    continue
                checks.append(Check(rid, f"{x.plural} need a token", partial(app.needs_token, entity=x), x.ident))
                needs = [spec.entity(i) for i in [x.parent, *(f.ref for f in x.fields)] if i]
                # shared records are seen by everyone, and a second account cannot make the managed
                # records this one refers to: the access checks below
                if not x.shared and not any(n is not None and n.manage for n in needs):
                    checks.append(Check(rid, f"another account cannot see or change a {x.name}",
                                        partial(app.isolated, entity=x), x.ident, again=True))
                    checks += _private_pages(spec, x, rid)
        elif cap == "computed" and e is not None and e.computed:
            checks.append(Check(rid, f"computed values of a {e.name}", partial(computed_values_hold, entity=e), e.ident))
        elif cap in ("access", "account", "link"):
            checks += _access(spec, e, req)
        elif cap == "dashboard":
            first = e or (spec.data_model[0] if spec.data_model else None)
            checks.append(Check(rid, "the dashboard counts a new record", partial(app.dashboard_counts, entity=first)))
            checks += [Check(rid, f"page {p.route} answers HTML", partial(app.page_answers, page=p), first=True)
                       for p in spec.pages if p.route.rstrip("/").endswith("dashboard")]
        elif cap == "pages":
            for p in spec.pages:
                shown = spec.entity(p.entity) if p.entity else None
                checks.append(Check(rid, f"page {p.route} shows a record made through the API", partial(app.page_shows_record, page=p, entity=shown), shown.ident, first=True)
                              if shown else Check(rid, f"page {p.route} answers HTML", partial(app.page_answers, page=p), first=True))
        elif cap == "feature":
            checks += _feature(spec, e, req)
        elif cap in TOOL_CHECKS and e is not None:
            checks += [Check(rid, what, partial(run, spec=spec, entity=e), e.ident) for what, run in TOOL_CHECKS[cap](e)]
        checks += _escaping(spec, req)
    return checks
