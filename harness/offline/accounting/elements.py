"""What a finished AppSpec realises, as words: every entity (and plural), field, enum value,
workflow state, bound, relation, feature, auth, dashboard and page, each under a label that
names the spec element ("field book.title", "bound book.rating 1..5")."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.offline.accounting.comparers import comparers
from harness.offline.accounting.groupings import groupings
from harness.offline.accounting.lexicon import element_words, keyed_words, stem, tokens, vi_norm
from harness.offline.accounting.same_records import later_names
from harness.offline.accounting.status_states import daily_status, guessed_status
from harness.models.spec import AppSpec


@dataclass
class SpecWords:
    """The spec's elements by word stem, number and Vietnamese phrase."""

    by_stem: dict[str, str] = field(default_factory=dict)          # stem -> element label
    entity_of: dict[str, str] = field(default_factory=dict)        # stem -> entity ident
    numbers: dict[str, str] = field(default_factory=dict)          # "5" -> "bound book.rating 1..5"
    keyed: dict[str, str] = field(default_factory=dict)            # stem -> label, from elements_en.txt
    keyed_key: dict[str, str] = field(default_factory=dict)        # stem -> its elements_en.txt key
    # elements_en.txt key of an element held per record (a feature, a record tool, an access key, a
    # status) -> the idents of the records that have it
    on_records: dict[str, frozenset[str]] = field(default_factory=dict)
    vi_names: dict[tuple[str, ...], str] = field(default_factory=dict)   # syllables -> label
    links: set[frozenset[str]] = field(default_factory=set)        # linked entity idents
    # (a, b): a record a refers to a record b (a's parent or reference field); a many-to-many link
    # both ways (relation_asks.py: "a hairstylist for each appointment" is appointment -> hairstylist)
    refs: set[tuple[str, str]] = field(default_factory=set)
    page_words: frozenset[str] = frozenset()
    title: frozenset[str] = frozenset()                            # the app's name, lower case
    present: dict[str, str] = field(default_factory=dict)          # elements_en.txt key -> label
    entity_pages: bool = False                                     # an HTML page per record type
    required: set[str] = field(default_factory=set)                # labels of the required fields
    unique: set[str] = field(default_factory=set)                  # labels of the unique fields
    # stem -> every record element holding it: (label, the record's ident, the stems of its name)
    owned: dict[str, list[tuple[str, str, frozenset[str]]]] = field(default_factory=dict)
    guessed_status: bool = False                                   # open/done, no state said (status_states.py)
    daily_status: bool = False                                     # a status on a dated child row (status_states.py)
    same_as: dict[str, str] = field(default_factory=dict)          # ident -> record it may be (same_records.py)
    roles: tuple[str, ...] = ()                                     # the account roles, admin first
    manage_of: dict[str, str] = field(default_factory=dict)        # ident -> its managing role (manage)
    invented: dict[str, str] = field(default_factory=dict)         # stem of a record no word introduces -> note
    comparers: list = field(default_factory=list)                  # elements that compare values (comparison_asks.py)
    # what records are counted or totalled per (grouping_asks.py): grouped label -> grouping element
    groupings: dict[str, str] = field(default_factory=dict)
    # ident -> label of a capacity whose place includes a date field ("at most 2 bookings per day")
    dated_capacity: dict[str, str] = field(default_factory=dict)

    def linked(self, a: str, b: str) -> bool:
        return a == b or frozenset((a, b)) in self.links

    def refers(self, a: str, b: str) -> bool:
        """Whether a record `a` holds a reference to a record `b` (each a names one b, or several b
        through a many-to-many link)."""
        return (a, b) in self.refs

    def label_for(self, s: str, about: frozenset[str], owner: str | None = None, before: str = "") -> str | None:
        """The element a word of stem `s` names in a clause about the records `about`: an element of
        the record `owner` that the words around it name ("the manufacturer's name"), else one of
        `about`; any element when the clause names no record. None: only other records hold it.
        An element whose own name holds the word before it ("product name" of an order) counts."""
        label = self.by_stem.get(s)
        held = self.owned.get(s, [])
        compound = [lab for lab, _ent, names in held if before and len(names) > 1 and stem(before) in names]
        if label is None:   # "donor id": only the record's own id, named with the record
            return compound[0] if compound else None
        if label.startswith("entity ") or not about:
            return label
        allowed = {owner} if owner else about
        mine = compound + [lab for lab, ent, _names in held if ent in allowed]
        return mine[0] if mine else None if any(lab == label for lab, _e, _n in held) else label


def _num(value: float | None) -> str | None:
    if value is None:
        return None
    return str(int(value)) if float(value).is_integer() else str(value)


def spec_words(spec: AppSpec) -> SpecWords:
    """Every word the spec realises, with the element that realises it."""
    sw = SpecWords()

    def claim(name: str, label: str, entity: str | None = None, owner: str | None = None) -> None:
        if owner:
            names = frozenset(stem(t) for t in tokens(name))
            for s in names:
                sw.owned.setdefault(s, []).append((label, owner, names))
        for tok in tokens(name):
            parts = [tok] + tok.replace("’", "'").split("-") + tok.split("_")
            for part in parts:
                s = stem(part)
                if any(ch.isdigit() for ch in part):
                    sw.numbers.setdefault(part, label)
                elif s and s not in sw.by_stem:
                    sw.by_stem[s] = label
                    if entity:
                        sw.entity_of[s] = entity
        syll = tuple(vi_norm(t) for t in tokens(name))
        if syll:
            sw.vi_names.setdefault(syll, label)

    for e in spec.data_model:
        for name in (e.name, e.plural, e.ident):
            claim(name, f"entity {e.name}", e.ident)
    for e in spec.data_model:
        if e.parent:
            sw.links.add(frozenset((e.ident, e.parent)))
            sw.refs.add((e.ident, e.parent))
        for f in e.fields:
            if f.required:
                sw.required.add(f"field {e.name}.{f.name}")
            if f.unique:
                sw.unique.add(f"field {e.name}.{f.name}")
            claim(f.name, f"field {e.name}.{f.name}", owner=e.ident)
            claim(f.ident, f"field {e.name}.{f.name}", owner=e.ident)
            for v in f.enum_values:
                claim(v, f"enum {e.name}.{f.name} = {v}", owner=e.ident)
            if f.ref:
                sw.links.add(frozenset((e.ident, f.ref)))
                sw.refs.add((e.ident, f.ref))
            bounds = [b for b in (_num(f.min_value), _num(f.max_value)) if b is not None]
            for b in bounds:
                sw.numbers.setdefault(b, f"bound {e.name}.{f.name} {'..'.join(bounds)}")
        for state in e.workflow:
            claim(state, f"workflow {e.name}: {state}", owner=e.ident)
        for other in e.many:
            sw.links.add(frozenset((e.ident, other)))
            sw.refs |= {(e.ident, other), (other, e.ident)}
        for name in e.computed:
            claim(name, f"computed {e.name}.{name}", owner=e.ident)
    for e in spec.data_model:   # every record has its id: "a donor id" said with the record's name
        names = frozenset(stem(t) for t in tokens(e.name)) | {stem("id")}
        sw.owned.setdefault(stem("id"), []).append((f"id {e.name}", "", names))
    for role in spec.roles:
        claim(role, f"account role {role}")
    dated = {e.ident for e in spec.data_model for feat in spec.features if feat.entity == e.ident
             and any(f.ident in feat.fields and (f.kind or f.type) in ("date", "datetime") for f in e.fields)}
    for feat in spec.features:   # "at most two volunteers": the capacity's limit, in digits or in words
        limit = feat.options.get("limit") if feat.kind == "capacity" else None
        if isinstance(limit, int):
            label = f"capacity {feat.entity} limit {limit}"
            sw.numbers.setdefault(str(limit), label)
            for s in element_words().get(f"number:{limit}", frozenset()):
                sw.by_stem.setdefault(s, label)
        if feat.kind == "capacity" and feat.entity in dated:
            sw.dated_capacity[feat.entity] = f"capacity {feat.entity} per {' and '.join(feat.fields)}"
    sw.entity_pages = any(r.capability == "pages" for r in spec.requirements)
    sw.title = frozenset(t.lower() for t in tokens(spec.title or ""))
    present = sw.present = _present(spec)
    for key, stems in element_words().items():
        if key in present:
            for s in stems:
                if s not in sw.keyed:
                    sw.keyed[s], sw.keyed_key[s] = present[key], key
    sw.on_records = _per_record(spec)
    sw.page_words = element_words().get("pages", frozenset()) if "pages" in present else frozenset()
    sw.same_as = later_names(spec)
    sw.guessed_status = guessed_status(spec)
    sw.daily_status = daily_status(spec)
    sw.roles = tuple(spec.roles)
    sw.manage_of = {e.ident: e.manage for e in spec.data_model if e.manage}
    sw.comparers = comparers(spec)
    sw.groupings = groupings(spec)
    return sw


def _per_record(spec: AppSpec) -> dict[str, frozenset[str]]:
    """elements_en.txt key -> the records that have the element, for the elements a record holds
    (a feature without a record is the whole app's: every record has it)."""
    every = frozenset(e.ident for e in spec.data_model)
    out: dict[str, frozenset[str]] = {}

    def add(key: str, idents: frozenset[str]) -> None:
        out[key] = out.get(key, frozenset()) | idents

    for f in spec.features:
        add(f"feature:{f.kind}", frozenset({f.entity}) if f.entity else every)
    for key, has in (("tool:calendar", lambda e: e.calendar), ("tool:csv_import", lambda e: e.csv_import),
                     ("tool:attachments", lambda e: e.attachment_types), ("tool:soft_delete", lambda e: e.soft_delete),
                     ("access:shared", lambda e: e.shared),
                     ("access:public", lambda e: e.read == "public"),
                     ("access:manage", lambda e: e.manage), ("access:view", lambda e: e.view),
                     ("access:assigned", lambda e: e.assigned), ("status", lambda e: e.has_status or e.workflow)):
        add(key, frozenset(e.ident for e in spec.data_model if has(e)))
    return out


def _present(spec: AppSpec) -> dict[str, str]:
    """element key of elements_en.txt -> the label of the spec element that has it."""
    caps = {r.capability for r in spec.requirements}
    out: dict[str, str] = {}
    if spec.auth:
        out["auth"] = "auth"
    if "dashboard" in caps or any(p.name.lower() == "dashboard" for p in spec.pages):
        out["dashboard"] = "dashboard"
    if spec.html and ("pages" in caps or "health" in caps or spec.pages):
        out["pages"] = "pages"
    if spec.html and "pages" in caps:   # a page per record type: something to navigate between
        out["pages:navigation"] = "pages"
    crud = [e.plural for e in spec.data_model]
    if caps & {"crud", "create", "list"} and crud:
        out["crud"] = "crud " + ", ".join(crud)
        out["api"] = "JSON API of " + ", ".join(crud)
        if len(crud) > 1:
            out["crud:each"] = "crud of each: " + ", ".join(crud)
    counts = keyed_words("elements_en.txt").get("count_fields", frozenset())
    stocked = [f"{e.name}.{f.name}" for e in spec.data_model for f in e.fields
               if {stem(w) for w in tokens(f.name)} & counts]
    if stocked:
        out["stock"] = "stock count " + ", ".join(stocked)
    status = [e.plural for e in spec.data_model if e.has_status or e.workflow]
    if status or caps & {"complete", "workflow"}:
        out["status"] = "status of " + (", ".join(status) or "records")
    if any(e.parent for e in spec.data_model) or any(f.ref for e in spec.data_model for f in e.fields):
        out["relation"] = "relation"
    for e in spec.data_model:
        for f in e.fields:
            out.setdefault(f"kind:{f.kind or ''}", f"kind of {e.name}.{f.name}")
    if any(e.on_parent_delete == "cascade" for e in spec.data_model):
        out["cascade"] = "cascading delete of " + ", ".join(e.plural for e in spec.data_model
                                                           if e.on_parent_delete == "cascade")
    if spec.auth and spec.login == "email":
        out["login:email"] = "auth (login with e-mail)"
    for tool, has in (("calendar", lambda e: e.calendar), ("csv_import", lambda e: e.csv_import),
                      ("attachments", lambda e: e.attachment_types), ("soft_delete", lambda e: e.soft_delete)):
        with_tool = [e.plural for e in spec.data_model if has(e)]
        if with_tool:
            out[f"tool:{tool}"] = f"{tool} of " + ", ".join(with_tool)
    if any(e.many for e in spec.data_model):
        out["link"] = "many-to-many link of " + ", ".join(e.plural for e in spec.data_model if e.many)
    if any(e.computed for e in spec.data_model):
        out["computed"] = "computed values of " + ", ".join(e.plural for e in spec.data_model if e.computed)
    if spec.roles:
        out["roles"] = "account roles " + ", ".join(spec.roles)
    if spec.change_password:
        out["account:password"] = "password change"
    for key, has in (("shared", lambda e: e.shared), ("manage", lambda e: e.manage),
                     ("view", lambda e: e.view), ("assigned", lambda e: e.assigned)):
        with_key = [e.plural for e in spec.data_model if has(e)]
        if with_key:
            out[f"access:{key}"] = f"{key} " + ", ".join(with_key)
    public = [e.plural for e in spec.data_model if e.read == "public"]
    if public:   # anyone reads them without an account
        out["access:public"] = "public read of " + ", ".join(public)
    idents = {e.ident: e.plural for e in spec.data_model}
    for f in spec.features:
        key = f"feature:{f.kind}"
        if key not in out:
            on = idents.get(f.entity or "", "the app")
            out[key] = f"feature {f.kind} on {on}" + (f" by {', '.join(f.fields)}" if f.fields else "")
    return out
