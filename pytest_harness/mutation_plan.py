"""Which mutants each requirement gets: sites on the lines its passing tests ran in its files, its
own lines first; a mutant on a line most requirements' tests run (shared) runs on against the rest
of the suite (mutation_attribution.py).

The lines come from the evidence (each test's call-phase `lines`), the files from the
requirement's entry (`files`: its implementation files). The choice is deterministic: a
random.Random seeded with the seed and the requirement id orders each file's lines, and the pick
goes round-robin over the files, one site per line, so the mutants spread over the requirement's
files and lines. The order of execution interleaves requirements (every requirement's first
mutant before any requirement's second) so a time box still audits every requirement.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

from pytest_harness.mutant_diff import line_diff
from pytest_harness.mutation_attribution import shared_lines, split_own
from pytest_harness.mutator import KIND_RANK, Mutant, candidates, described
from pytest_harness.time_box import FORK_S

DEFAULT_SEED = 15
# Guard ids (#47): every mutant's id, and the id the guard holds while the original code runs
# (mutation_runner.original_id), are draws from the system's random source, uniform over
# [1, ID_SPACE): the value the code under test can read says nothing about whether it runs a mutant
# or the original, and no seed it could know predicts them. (Before, mutants were 1..n and the
# original above 2**20: `guard > 2**20` told them apart.) The ids are labels only: which mutants are
# chosen stays reproducible (the seed). So large a range that the original's draw meeting a compiled
# guard's id is negligible (~1e-13 for a thousand guards); the runner also draws again on a clash
# with any id its plan names.
ID_SPACE = 2 ** 53   # exact in any JSON reader (audit.json's ids and "REQ:id" keys)
_SYSTEM_RANDOM = random.SystemRandom()


def guard_ids(count: int, rng: random.Random | None = None) -> list[int]:
    """`count` distinct guard ids, uniform over [1, ID_SPACE) (`rng`: the system's random source)."""
    return (rng or _SYSTEM_RANDOM).sample(range(1, ID_SPACE), count)


def guard_id(taken: set[int] | frozenset[int] = frozenset(), rng: random.Random | None = None) -> int:
    """One guard id from the same distribution, none of `taken` (the original code's, in the runner)."""
    while True:
        drawn = (rng or _SYSTEM_RANDOM).randrange(1, ID_SPACE)
        if drawn not in taken:
            return drawn


@dataclass
class Chosen:
    """One mutant of one file, with the global id its guard tests for."""

    id: int
    file: str
    mutant: Mutant
    diff: str = ""   # the changed line(s): `-` original, `+` mutated (mutant_diff.line_diff)


@dataclass
class AuditPlan:
    """Per requirement: the tests to run and the mutants (ids) to run them against."""

    tests: dict[str, list[str]] = field(default_factory=dict)
    mutants: dict[str, list[int]] = field(default_factory=dict)
    runs: dict[tuple[str, int], list[str]] = field(default_factory=dict)  # the tests that ran the line, fastest first
    chosen: dict[int, Chosen] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)   # requirement -> why it has no mutants
    shared: set[int] = field(default_factory=set)   # the mutants on shared lines (mutation_attribution.py)
    decoys: dict[int, Chosen] = field(default_factory=dict)   # mutants that change no behaviour (decoys.py)
    sequence: dict[str, list[int]] = field(default_factory=dict)   # per requirement: mutants and decoys, in order

    def run_ids(self, rid: str) -> list[int]:
        """`rid`'s runs in order: its mutants with its decoys among them (decoy_plan.interleave)."""
        return self.sequence.get(rid) or self.mutants.get(rid) or []

    def decoys_of(self, rid: str) -> list[int]:
        return [mid for mid in self.run_ids(rid) if mid in self.decoys]

    def order(self) -> list[tuple[str, int, list[str]]]:
        """(requirement, mutant id, tests to run) in execution order, round-robin over requirements;
        a decoy is an entry like any other (nothing in it says what it is)."""
        runs = {rid: self.run_ids(rid) for rid in self.mutants}
        out, depth = [], max((len(v) for v in runs.values()), default=0)
        for i in range(depth):
            out += [(rid, ids[i], self.runs[(rid, ids[i])]) for rid, ids in sorted(runs.items())
                    if i < len(ids)]
        return out

    def by_file(self) -> dict[str, dict[str, int]]:
        """{file: {mutant key: id}}: what to compile into each file of the scratch copy (decoys too)."""
        out: dict[str, dict[str, int]] = {}
        for c in (*self.chosen.values(), *self.decoys.values()):
            out.setdefault(c.file, {})[c.mutant.key] = c.id
        return out


def executed_lines(evidence: dict, rid: str) -> tuple[list[str], dict[str, set[int]]]:
    """(passing tests of `rid`, {implementation file of rid: lines those tests' calls ran})."""
    req = (evidence.get("requirements") or {}).get(rid) or {}
    files = set(req.get("files") or [])
    tests = [n for n in req.get("tests", []) if (evidence.get("tests") or {}).get(n, {}).get("outcome") == "passed"]
    lines: dict[str, set[int]] = {}
    for nodeid in tests:
        for rel, ran in ((evidence["tests"][nodeid].get("lines")) or {}).items():
            if rel in files:
                lines.setdefault(rel, set()).update(ran)
    return tests, lines


# Which mutants a requirement gets (#47), by the mutator's RANK (pytest_harness/mutator.py, a reason
# per kind): on a line with several sites, the best-ranked one (a comparison before `return None`,
# which an `x is not None` test kills without checking anything); the requirement's first mutant is
# its best-ranked site on any line it ran, so a comparison, a condition or a filter is judged within
# any budget when its tests ran one; the mutants run best-ranked first (within the time box). The
# other lines keep their shuffled order: choosing every line by kind made the generator's own tests
# fall under the bar on lines they execute but do not check.
def _rank(m: Mutant) -> int:
    return KIND_RANK.get(m.kind, len(KIND_RANK))


def spread(by_file: dict[str, list[Mutant]], limit: int, rng: random.Random) -> list[tuple[str, Mutant]]:
    """Up to `limit` mutants: first the best-ranked site of any line (RANK; ties: the first in the
    shuffled order), then round-robin over files, one per line until a file's lines run out; on a
    line, its best-ranked site. Returned best-ranked first (the order they run in)."""
    queues = []
    for rel in sorted(by_file):
        per_line: dict[int, list[Mutant]] = {}
        for m in by_file[rel]:
            per_line.setdefault(m.line, []).append(m)
        lines = sorted(per_line)
        rng.shuffle(lines)
        queue = []
        for line in lines:
            sites = per_line[line]
            best = min(_rank(m) for m in sites)
            sites = [m for m in sites if _rank(m) == best]
            queue.append(sites[rng.randrange(len(sites))])
        queues.append((rel, queue))
    rng.shuffle(queues)
    picked: list[tuple[str, Mutant]] = []
    firsts = [(_rank(m), i, q, rel) for q, (rel, queue) in enumerate(queues) for i, m in enumerate(queue)]
    if firsts and limit > 0:
        _r, i, q, rel = min(firsts)
        picked.append((rel, queues[q][1].pop(i)))
    while len(picked) < limit and any(q for _, q in queues):
        for rel, queue in queues:
            if queue and len(picked) < limit:
                picked.append((rel, queue.pop(0)))
    return sorted(picked, key=lambda pick: _rank(pick[1]))


BEHAVIOUR = KIND_RANK["arith"]   # kinds ranked up to this change behaviour; `drop` and `return` mostly crash


def pick(own: dict[str, list[Mutant]], common: dict[str, list[Mutant]], limit: int,
         rng: random.Random) -> list[tuple[str, Mutant]]:
    """A requirement's mutants (mutation_attribution.py): one a line on its own lines (`spread`), then
    more behaviour-changing sites of its own lines (best-ranked first), then its shared lines' to fill
    `limit`. Before, a requirement with few own lines filled its budget with the shared lines of
    others' behaviour and, with one site a line, judged two own mutants at most (a hollow
    `is not None` test then met the bar at 1 of 2)."""
    picked = spread({f: ms for f, ms in own.items() if ms}, limit, rng)
    taken = {(rel, m.key) for rel, m in picked}
    more = sorted(((_rank(m), rel, m.line, m.key, m) for rel, ms in sorted(own.items()) for m in ms
                   if (rel, m.key) not in taken and _rank(m) <= BEHAVIOUR), key=lambda t: t[:4])
    picked += [(rel, m) for _r, rel, _line, _key, m in more[:max(0, limit - len(picked))]]
    if len(picked) < limit:
        picked += spread({f: ms for f, ms in common.items() if ms}, limit - len(picked), rng)
    return picked


def make_plan(evidence: dict, workspace: Path, max_mutants: int, seed: int = DEFAULT_SEED,
              ids: dict[tuple[str, str], int] | None = None, id_rng: random.Random | None = None,
              instead: dict[str, tuple[set[tuple[str, str]], int]] | None = None,
              decoys: int | None = None, decoy_rng: random.Random | None = None) -> AuditPlan:
    """The audit plan of every verified requirement of the evidence document (`pick`: which mutants;
    a mutant on a shared line runs the requirement's tests, then every other passing test that ran
    the line: mutation_attribution.py). `ids`: the guard id of every (file, mutant key) a copy holds
    already (harness/speed/lanes_ahead.py); a chosen mutant it lacks raises KeyError (that copy cannot
    serve the plan). Otherwise the ids are fresh draws (`guard_ids`; `id_rng` only for a test). The
    choice itself never depends on the ids. `instead`: {requirement: ((file, mutant key) of every
    mutant planned for it already, how many of them came out invalid)} — the plan then holds only
    that many replacements for each: of its picks with no budget, those not planned already,
    behaviour-changing kinds first (an invalid mutant judged nothing: mutation_replacements.py).
    `decoys`: how many decoys each requirement gets (decoy_plan.py; DECOYS by default, none for
    replacements), drawn with `decoy_rng` (the system's random source unless a test gives one)."""
    from pytest_harness.decoy_plan import DECOYS, interleave, pick_decoys

    decoys = (0 if instead is not None else DECOYS) if decoys is None else decoys
    plan = AuditPlan()
    keys: dict[tuple[str, str], int] = {}   # every distinct (file, mutant key) picked: its draw's index
    picks: dict[str, list[tuple[str, Mutant]]] = {}
    decoy_picks: dict[str, list[tuple[str, Mutant]]] = {}
    requirements = evidence.get("requirements") or {}
    verified = {rid: executed_lines(evidence, rid) for rid, req in requirements.items()
                if req.get("status") == "verified"}
    # Each file's candidates once, on the lines any requirement's tests ran (the only ones a pick can use).
    ran_any: dict[str, set[int]] = {}
    for _tests, lines in verified.values():
        for rel, ran in lines.items():
            ran_any.setdefault(rel, set()).update(ran)
    sources = {rel: _all_candidates(workspace / rel, ran) for rel, ran in ran_any.items()}
    shared = shared_lines({rid: lines for rid, (_tests, lines) in verified.items()},
                          {rid: set(requirements[rid].get("files") or []) for rid in verified})
    for rid, req in sorted(requirements.items()):
        if instead is not None and not (rid in instead and rid in verified):
            continue
        if rid not in verified:
            plan.skipped[rid] = f"not verified ({req.get('status', 'uncovered')})"
            continue
        tests, lines = verified[rid]
        own, common = split_own(lines, shared)
        picked = pick({rel: [m for m in sources[rel] if m.line in ran] for rel, ran in sorted(own.items())},
                      {rel: [m for m in sources[rel] if m.line in ran] for rel, ran in sorted(common.items())},
                      max_mutants if instead is None else len(sources) * 10**6, random.Random(f"{seed}:{rid}"))
        if instead is not None:   # replacements: behaviour-changing sites first (a crash judges nothing)
            planned, wanted = instead[rid]
            left = [(rel, m) for rel, m in picked if (rel, m.key) not in planned]
            picked = sorted(left, key=lambda pick: _rank(pick[1]) > BEHAVIOUR)[:wanted]
            if not picked:
                continue
        if not picked:
            plan.skipped[rid] = "no mutable line executed by its tests in its implementation files"
            continue
        plan.tests[rid] = tests
        picks[rid] = picked
        for rel, m in picked:
            keys.setdefault((rel, m.key), len(keys))
        if decoys:
            decoy_picks[rid] = pick_decoys(_decoy_sites(workspace, own) or _decoy_sites(workspace, common),
                                           lambda rel, line: _tests_of_line(evidence, tests, rel, line), decoys,
                                           [_tests_of_line(evidence, tests, rel, m.line) for rel, m in picked],
                                           decoy_rng, lambda names: _run_cost(evidence, names))
            for rel, m, _listed in decoy_picks[rid]:
                keys.setdefault((rel, m.key), len(keys))
    if ids is None:   # one draw per distinct mutant
        drawn = guard_ids(len(keys), id_rng)
        ids = {pair: drawn[n] for pair, n in keys.items()}
    passing = _passing(evidence)
    for rid, picked in picks.items():
        plan.mutants[rid] = []
        for rel, m in picked:
            mid = ids[(rel, m.key)]
            plan.chosen[mid] = Chosen(id=mid, file=rel, mutant=m)
            plan.mutants[rid].append(mid)
            plan.runs[(rid, mid)] = _tests_of_line(evidence, plan.tests[rid], rel, m.line)
            if m.line in shared.get(rel, ()):   # then the rest of the suite: killed there is "elsewhere"
                plan.shared.add(mid)
                plan.runs[(rid, mid)] += _tests_of_line(evidence, [n for n in passing if n not in plan.tests[rid]],
                                                        rel, m.line)
        placed = []
        for rel, m, listed in decoy_picks.get(rid, ()):   # as a mutant run on its line starts: the first
            did = ids[(rel, m.key)]   # of the requirement's tests that ran it (decoy_plan.pick_decoys)
            plan.decoys[did] = Chosen(id=did, file=rel, mutant=m)
            plan.runs[(rid, did)] = _tests_of_line(evidence, plan.tests[rid], rel, m.line)[:listed]
            placed.append(did)
        if placed:
            plan.sequence[rid] = interleave(plan.mutants[rid], placed, decoy_rng)
    _describe_chosen(plan, workspace)
    return plan


def _run_cost(evidence: dict, tests: list[str]) -> float:
    """What a run of `tests` that all pass costs, in the evidence's seconds (a fork's own beside)."""
    entries = evidence.get("tests") or {}
    return FORK_S + sum(float((entries.get(n) or {}).get("duration_s") or 0.0) for n in tests)


def _decoy_sites(workspace: Path, lines: dict[str, set[int]]) -> dict[str, list[Mutant]]:
    """{file: its decoy sites on `lines`} (decoy_plan.file_decoys), files with none left out."""
    from pytest_harness.decoy_plan import file_decoys

    out = {}
    for rel, ran in sorted(lines.items()):
        try:
            found = [m for m in file_decoys((workspace / rel).read_text(encoding="utf-8")) if m.line in ran]
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            continue
        if found:
            out[rel] = found
    return out


def _passing(evidence: dict) -> list[str]:
    """Every test of the session that passed (the rest of the suite a shared line's mutant runs on)."""
    return sorted(n for n, entry in (evidence.get("tests") or {}).items() if entry.get("outcome") == "passed")


def _describe_chosen(plan: AuditPlan, workspace: Path) -> None:
    """Give the chosen mutants their descriptions and diffs (rendering every candidate's was most
    of the plan's time); each diff from the mutant's own node, before `described` drops it."""
    texts: dict[str, str] = {}
    for chosen in plan.chosen.values():
        if chosen.file not in texts:
            try:
                texts[chosen.file] = (workspace / chosen.file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                texts[chosen.file] = ""
        chosen.diff = line_diff(texts[chosen.file], chosen.mutant) if texts[chosen.file] else ""
        chosen.mutant = described([chosen.mutant])[0]


def _tests_of_line(evidence: dict, tests: list[str], rel: str, line: int) -> list[str]:
    """The tests whose call ran `rel:line` (only they can observe a mutant there), fastest first."""
    entries = evidence["tests"]
    ran = [n for n in tests if line in ((entries[n].get("lines") or {}).get(rel) or ())]
    return sorted(ran, key=lambda n: (entries[n].get("duration_s") or 0.0, n))


def _all_candidates(path: Path, lines: set[int] | None = None) -> list[Mutant]:
    """The file's mutants on `lines`, undescribed (`_describe_chosen` renders the chosen ones')."""
    try:
        found = file_candidates(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return []
    return found if lines is None else [m for m in found if m.line in lines]


# Every undescribed mutant of a source text, by the text: the same source always gives the same
# sites (keys are node positions), so a plan may take them from here. Filled by the plan itself and
# by `precompute`, which the build runs beside the verification of the task that completes the app.
_CANDIDATES: dict[str, list[Mutant]] = {}
_CANDIDATES_MAX = 512


def file_candidates(source: str) -> list[Mutant]:
    """candidates(source, describe=False), computed once per source text (SyntaxError as it)."""
    hit = _CANDIDATES.get(source)
    if hit is None:
        hit = candidates(source, None, describe=False)
        if len(_CANDIDATES) >= _CANDIDATES_MAX:
            _CANDIDATES.clear()
        _CANDIDATES[source] = hit
    return hit


def precompute(workspace: Path) -> int:
    """Fill the cache for the workspace's modules outside tests/ (the only ones a plan mutates);
    how many were computed. CPython 3.11's ast must not be used from two threads at once: run it
    in a thread only while no other thread can (see harness/speed/runtime_ahead.py)."""
    done = 0
    for path in app_modules(Path(workspace)):
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if source not in _CANDIDATES:
            try:
                file_candidates(source)
            except (SyntaxError, ValueError):
                continue
            done += 1
    return done


def app_modules(workspace: Path) -> list[Path]:
    """The workspace's modules outside tests/ (the only ones a plan mutates), sorted."""
    out = []
    for path in sorted(workspace.rglob("*.py")):
        rel = path.relative_to(workspace).parts
        if rel[0] != "tests" and not any(part.startswith(".") or part in ("__pycache__", "evidence") for part in rel):
            out.append(path)
    return out
