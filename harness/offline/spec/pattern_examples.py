"""A pattern row's example sentence run as its specification: what the row alone does to its own
example once the passes before its own have run (tests/test_pattern_tables.py checks it against
the row's `yields`). Kept apart from patterns.py, which rules.py imports, so that running the
passes from here makes no import cycle."""

from __future__ import annotations

from harness.offline.spec.patterns import run_patterns
from harness.offline.spec.rules import new_state, run_passes


def example_yield(pattern: dict) -> dict:
    """What the pattern alone does to its own example sentence once the passes before its own
    have run, in the `yields` format."""
    state = new_state(pattern["example"])
    run_passes(state, until=pattern["pass"])
    toks, p = state.toks, state.p
    before = [(t.used, t.role, t.orig, t.w) for t in toks]
    blocked = len(p.blocked)
    tools = {name: list(t) for name, t in p.tools.items()}
    had = {name: [it.label for it in items] for name, items in p.fields.items()}
    had_status = list(p.status)
    had_roles, had_access = list(p.roles), {name: dict(a) for name, a in p.access.items()}
    had_links = list(p.links)
    had_parents = dict(p.parents)
    had_computed = {name: dict(v) for name, v in p.computed.items()}
    had_features = list(p.features)
    had_workflows = {name: list(states) for name, states in p.workflows.items()}
    had_cascade = set(p.cascade)
    had_stamps = {name: dict(v) for name, v in p.stamps.items()}
    had_lists = {attr: len(getattr(p, attr)) for attr in pattern["action"].get("append", {})}
    had_objects, had_positions, had_claims = list(p.object_positions), list(p.positions), list(p.relation_claims)
    acted = run_patterns([pattern], toks, p, state.mentions)
    out: dict = {}
    for t, old in zip(toks, before):
        if (t.used, t.role) != old[:2]:
            out[t.role] = f"{out[t.role]} {t.w}" if t.role in out else t.w
        if t.orig != old[2]:
            out["reported"] = t.orig
        if t.w != old[3]:
            out.setdefault("renamed", {})[old[3]] = t.w
    if len(p.blocked) > blocked:
        out["blocked"] = True
    added = {name: [it.label for it in items if it.label not in had.get(name, [])] for name, items in p.fields.items()}
    if any(added.values()):
        out["fields"] = {name: labels for name, labels in added.items() if labels}
    if p.status != had_status:
        out["status"] = [name for name in p.status if name not in had_status]
    gained = {name: [t for t in got if t not in tools.get(name, [])] for name, got in p.tools.items()}
    if any(gained.values()):
        out["tools"] = {name: got for name, got in gained.items() if got}
    if p.roles != had_roles:
        out["roles"] = [list(r) for r in p.roles if r not in had_roles]
    access = {name: {k: v for k, v in a.items() if k not in had_access.get(name, {})} for name, a in p.access.items()}
    if any(access.values()):
        out["access"] = {name: a for name, a in access.items() if a}
    if p.features != had_features:
        out["features"] = [[k, r, list(c)] for k, r, c, _clause in p.features if (k, r, c, _clause) not in had_features]
    if p.computed != had_computed:
        out["computed"] = {name: {k: e for k, e in v.items() if k not in had_computed.get(name, {})}
                           for name, v in p.computed.items() if v != had_computed.get(name)}
    if p.workflows != had_workflows:
        out["workflows"] = {name: states for name, states in p.workflows.items() if had_workflows.get(name) != states}
    if p.stamps != had_stamps:
        out["stamps"] = {name: v for name, v in p.stamps.items() if had_stamps.get(name) != v}
    if p.cascade != had_cascade:
        out["cascade"] = sorted(p.cascade - had_cascade)
    if p.parents != had_parents:
        out["parents"] = {c: p.parents.get(c) for c in sorted(set(p.parents) | set(had_parents))
                          if p.parents.get(c) != had_parents.get(c)}
    if p.links != had_links:
        out["links"] = [list(pair) for pair in p.links if pair not in had_links]
    if acted and pattern["action"].get("leave"):
        out["left"] = True
    if had_lists:
        out["append"] = {attr: getattr(p, attr)[n:] for attr, n in had_lists.items()}
    if p.object_positions != had_objects:
        out["objects"] = [toks[i].w for i in p.object_positions if i not in had_objects]
    if p.relation_claims != had_claims:
        out["relations"] = [[child, parent] for _a, child, parent, _used in p.relation_claims[len(had_claims):]]
    if p.positions != had_positions:
        out["positions"] = [[toks[h].w, rule] for _a, h, rule in p.positions[len(had_positions):]]
    if acted and (pattern["action"].get("set") or pattern["action"].get("set_words")):
        out["set"] = {a: getattr(p, a) for a in {**pattern["action"].get("set", {}), **pattern["action"].get("set_words", {})}}
    return out
