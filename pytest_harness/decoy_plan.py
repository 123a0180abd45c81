"""Which decoys (pytest_harness/decoys.py) each requirement gets, and where they run (#47).

A decoy is drawn from the places a real mutant of the requirement is drawn from: a site on a line
its passing tests ran in its implementation files, its own lines first (mutation_attribution.py),
shared lines only when it has no own line with a decoy site. A decoy catches a mutant detector
only in a test its run lists (the tests that ran its line, as for a mutant), so each decoy goes on
the line whose tests add the most not listed yet, weighted by how many of the requirement's mutant
runs list each (`pick_decoys`); ties, and the site on the chosen line, are drawn at random. Past
DECOYS, more are drawn while the mutant runs listing a test no decoy lists are still half of them
or more (KILL_RATIO): a detector hidden only in tests no decoy meets could otherwise still meet the
bar on hollow tests. Then each decoy
goes to a random place among the requirement's mutants in the order they run.

The draws use the system's random source (`rng`, a seam for tests), never the audit's seed: the
seed is printed in audit.json, and code that could re-derive the plan from it would learn which
runs are decoys. Which real mutants are chosen stays reproducible; decoys change no verdict of an
honest suite.
"""

from __future__ import annotations

import ast
import random

from pytest_harness.mutator import Mutant, decoy_candidates
from pytest_harness.time_box import KILL_RATIO

DECOYS = 1           # per requirement at least (the audit's share of a Todo build: docs/speed.md)
MAX_DECOYS = 4       # at most, while detectors confined to the tests no decoy lists could still meet the bar
COST_SHARE = 0.1     # ... and the decoys cost less than this share of its mutant runs (all tests run)
_SYSTEM_RANDOM = random.SystemRandom()
_CACHE: dict[str, list[Mutant]] = {}
_CACHE_MAX = 512


def file_decoys(source: str) -> list[Mutant]:
    """decoy_candidates(source), computed once per source text (SyntaxError as it)."""
    hit = _CACHE.get(source)
    if hit is None:
        hit = decoy_candidates(source, None, tree=ast.parse(source))
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[source] = hit
    return hit


def buyable(runs: list[list[str]], covered: set[str]) -> int:
    """How many of the mutant runs list a test no decoy run lists: kills a detector in those tests
    alone could buy."""
    return sum(1 for tests in runs if set(tests) - covered)


def pick_decoys(sites: dict[str, list[Mutant]], tests_of_line, count: int, runs: list[list[str]] = (),
                rng: random.Random | None = None, cost=None) -> list[tuple[str, Mutant, int]]:
    """(file, decoy, how many of its line's tests its run lists): at least `count` decoys from
    `sites` ({file: decoy sites on lines the requirement may use}), more (up to MAX_DECOYS) while the
    mutant runs (`runs`: the tests each lists) a detector could still buy kills in without meeting a
    decoy are KILL_RATIO of them or more and the decoys cost under COST_SHARE of those runs — a
    detector confined to tests no decoy lists then cannot meet the bar. A decoy's run lists the
    first k of the tests that ran its line (fastest first, as a mutant's run lists them): a test in
    a fork sees only the tests before it, never how many come after, so the prefix looks like a
    mutant run that ends there. Each next decoy is the line and prefix whose newly listed tests
    weigh the most (each by the mutant runs listing it) for what its run costs (`cost(tests)`:
    seconds; `tests_of_line(file, line)`: the requirement's tests that ran it, fastest first);
    ties, and the site on the line, drawn at random."""
    rng = rng or _SYSTEM_RANDOM
    cost = cost or (lambda tests: 1.0)
    weight: dict[str, int] = {}
    for tests in runs:
        for n in set(tests):
            weight[n] = weight.get(n, 0) + 1
    budget = COST_SHARE * sum(cost(tests) for tests in runs)
    lines = {(rel, m.line) for rel, ms in sites.items() for m in ms}
    covered: set[str] = set()
    picked: list[tuple[str, Mutant, int]] = []
    spent = 0.0
    while lines and (len(picked) < count or (len(picked) < MAX_DECOYS and runs and spent < budget
                                             and buyable(runs, covered) >= KILL_RATIO * len(runs))):
        score = {}
        for rel, line in lines:
            tests = list(tests_of_line(rel, line))
            for k in range(1, len(tests) + 1):
                gain = sum(1 + weight.get(n, 0) for n in set(tests[:k]) - covered)
                score[(rel, line, k)] = gain / max(cost(tests[:k]), 1e-3)
        if not score:
            break
        best = max(score.values())
        rel, line, k = rng.choice(sorted(p for p, g in score.items() if g == best))
        lines.discard((rel, line))
        on_line = [m for m in sites[rel] if m.line == line]
        picked.append((rel, on_line[rng.randrange(len(on_line))], k))
        listed = list(tests_of_line(rel, line))[:k]
        covered |= set(listed)
        spent += cost(listed)
    return picked


def interleave(mutants: list[int], decoys: list[int], rng: random.Random | None = None) -> list[int]:
    """`mutants` in their order with each of `decoys` at a random place among them."""
    rng = rng or _SYSTEM_RANDOM
    out = list(mutants)
    for did in decoys:
        out.insert(rng.randrange(len(out) + 1), did)
    return out
