"""The AST mutator (pytest_harness/mutator.py) and the mutant choice (pytest_harness/mutation_plan.py): pure."""

import ast
import builtins
import random

import pytest

from harness.audit.mutator import GUARD, apply, candidates
from harness.audit.plan import make_plan, spread

SOURCE = '''"""Doc."""


def grade(score: int, bonus: int = 0) -> str:
    total = score + bonus
    log = []
    log.append(total)
    if total >= 90:
        return "A"
    while total > 100:
        total -= 1
    return "B" if total == 50 else "C"


def within(x, items):
    return x in items
'''


class _Module:
    """`source` executed; attribute calls run with the guard at `mutant_id` (as the runner's child does)."""

    def __init__(self, source: str, mutant_id: int = 0):
        self.namespace: dict = {}
        self.mutant_id = mutant_id
        self._guarded(lambda: exec(compile(source, "<mutant>", "exec"), self.namespace))

    def _guarded(self, fn):
        setattr(builtins, GUARD, self.mutant_id)
        try:
            return fn()
        finally:
            delattr(builtins, GUARD)

    def __getitem__(self, name):
        return lambda *args: self._guarded(lambda: self.namespace[name](*args))


_run = _Module


def _one(kind: str, line: int):
    found = [m for m in candidates(SOURCE) if m.kind == kind and m.line == line]
    assert found, f"no {kind} mutant on line {line}: {candidates(SOURCE)}"
    return found[0]


@pytest.mark.parametrize("kind, line, before, after", [
    ("compare", 8, "if total >= 90:", "if total < 90:"),
    ("compare", 12, "'B' if total == 50 else 'C'", "'B' if total != 50 else 'C'"),
    ("compare", 16, "return x in items", "return x not in items"),
    ("boundary", 8, "if total >= 90:", "if total > 90:"),
    ("boundary", 10, "while total > 100:", "while total >= 100:"),
    ("boundary", 12, "'B' if total == 50 else 'C'", "'B' if total == 51 else 'C'"),
    ("arith", 5, "total = score + bonus", "total = score - bonus"),
    ("negate", 8, "if total >= 90:", "if not total >= 90:"),
    ("negate", 10, "while total > 100:", "while not total > 100:"),
    ("return", 9, "return 'A'", "return None"),
    ("update", 7, "log.append(total)", "pass"),
    ("drop", 6, "log = []", "pass"),
])
def test_each_operator_changes_exactly_its_site(kind, line, before, after):
    mutant = _one(kind, line)
    plain = apply(SOURCE, [mutant], guarded=False)
    original = ast.unparse(ast.parse(SOURCE))
    plain = ast.unparse(ast.parse(plain))  # apply keeps unmutated statements' own lines: compare renders
    assert before in original and after in plain
    changed = [(a, b) for a, b in zip(original.splitlines(), plain.splitlines()) if a != b]
    assert len(changed) == 1, changed
    assert mutant.description.startswith(f"line {line}: ")


def test_guarded_source_behaves_like_each_plain_mutant_and_like_the_original_at_zero():
    mutants = candidates(SOURCE)
    guarded = apply(SOURCE, mutants)
    calls = [(95, 0), (50, 0), (20, 30), (101, 0), (3, 4), (90, 0)]   # (90, 0): the `>= 90` boundary
    original = _run(SOURCE)
    at_zero = _run(guarded, 0)
    assert [at_zero["grade"](*c) for c in calls] == [original["grade"](*c) for c in calls]
    differing = judged = 0
    for i, m in enumerate(mutants, start=1):
        if m.line in (10, 11):
            continue  # e.g. `while not total > 100: total -= 1` never ends (the runner's time limit kills it)
        judged += 1
        plain = _run(apply(SOURCE, [m], guarded=False))
        schema = _run(guarded, i)
        results = []
        for fn in (plain, schema):
            out = []
            for c in calls:
                try:
                    out.append(fn["grade"](*c))
                except Exception as exc:  # noqa: BLE001 - a mutant may raise; both must raise alike
                    # a dropped assignment is a global name when plain, an unbound local when guarded
                    out.append("NameError" if isinstance(exc, NameError) else type(exc).__name__)
            out.append(fn["within"](1, [1]))
            results.append(out)
        assert results[0] == results[1], m
        differing += results[0] != [original["grade"](*c) for c in calls] + [True]
    assert differing == judged - 1  # every mutant but the dropped `log.append(total)` shows


def test_round_trip_without_mutants_keeps_the_ast():
    assert ast.dump(ast.parse(apply(SOURCE, []))) == ast.dump(ast.parse(SOURCE))


def _rendered_whole(source: str, mutants: list) -> str:
    """What apply gave before it rendered only the statements holding a mutant: the whole module."""
    from harness.audit.mutator import _Apply

    return ast.unparse(_Apply({m.key: i for i, m in enumerate(mutants, start=1)}, True).visit(ast.parse(source)))


SPLICED = '''import functools  # a comment that stays
X = 1; Y = X + 1


def deco(f):
    @functools.lru_cache(maxsize=X * 64)
    def inner(*a):
        return f(*a) + X
    return inner


@deco
def g(v):
    """Doc\x0cwith a form feed."""
    return v * 2
'''


@pytest.mark.parametrize("lines", [None, {2}, {6, 8}, {14, 15}, {8}])
def test_apply_renders_only_the_mutated_statements_and_parses_as_the_whole_render(lines):
    mutants = candidates(SPLICED, lines)
    assert mutants
    spliced = apply(SPLICED, mutants)
    assert ast.dump(ast.parse(spliced)) == ast.dump(ast.parse(_rendered_whole(SPLICED, mutants)))
    if lines in ({6, 8}, {14, 15}, {8}):  # `X = 1; Y = X + 1` shares a line: rendered whole only when mutated
        assert "# a comment that stays" in spliced


def test_a_site_in_a_decorator_is_mutated():
    """The decorator line comes before the definition's own line: a skip by line must not miss it."""
    site = [m for m in candidates(SPLICED, {6}) if m.kind == "arith"]
    assert [m.line for m in site] == [6]
    assert GUARD in apply(SPLICED, site).split("def inner")[0].split("def deco")[1]
    assert GUARD in apply(SPLICED, {m.key: i for i, m in enumerate(site, 1)})


def test_undescribed_candidates_get_the_same_descriptions_when_described():
    from harness.audit.mutator import described

    plain = candidates(SOURCE, describe=False)
    assert {m.description for m in plain} == {""}
    assert [m.description for m in described(plain)] == [m.description for m in candidates(SOURCE)]
    assert all(m.node is None for m in described(plain))


def test_annotations_and_docstrings_are_never_mutated():
    src = 'def f(x: 1 + 2 = 1) -> 3 - 1:\n    """a < b"""\n    y: 2 * 2 = x\n    return y\n'
    kinds = {(m.kind, m.line) for m in candidates(src)}
    assert ("arith", 1) not in kinds and ("drop", 2) not in kinds and ("arith", 3) not in kinds
    assert ("drop", 3) in kinds and ("return", 4) in kinds


def test_only_the_given_lines_are_candidates():
    assert {m.line for m in candidates(SOURCE, {5, 9})} == {5, 9}
    assert candidates(SOURCE, set()) == []


def test_candidates_are_deterministic():
    assert candidates(SOURCE) == candidates(SOURCE)
    assert apply(SOURCE, candidates(SOURCE)) == apply(SOURCE, candidates(SOURCE))


def test_spread_covers_files_and_lines_before_repeating_and_is_seeded():
    by_file = {"a.py": candidates(SOURCE), "b.py": candidates(SOURCE, {16})}
    picked = spread(by_file, 3, random.Random("15:REQ-001"))
    assert {f for f, _ in picked} == {"a.py", "b.py"}
    assert len({(f, m.line) for f, m in picked}) == 3
    assert picked == spread(by_file, 3, random.Random("15:REQ-001"))
    lines = {m.line for _, m in spread({"a.py": candidates(SOURCE)}, 6, random.Random(1))}
    assert len(lines) == 6  # six different lines before any line gets a second mutant


def _evidence(lines_a, lines_b):
    test = lambda lines: {"outcome": "passed", "lines": lines, "duration_s": 0.1}  # noqa: E731
    return {"requirements": {"REQ-001": {"status": "verified", "tests": ["t.py::a", "t.py::b"], "files": ["src/m.py"]},
                             "REQ-002": {"status": "weak", "tests": ["t.py::b"], "files": ["src/m.py"]}},
            "tests": {"t.py::a": test({"src/m.py": lines_a}), "t.py::b": test({"src/m.py": lines_b})}}


def test_plan_uses_only_lines_the_requirements_passing_tests_ran(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "m.py").write_text(SOURCE)
    plan = make_plan(_evidence([5, 7], [16]), tmp_path, max_mutants=10, decoys=0)   # decoys: random (decoy_plan.py)
    assert sorted(plan.mutants) == ["REQ-001"] and "not verified (weak)" in plan.skipped["REQ-002"]
    assert {plan.chosen[i].mutant.line for i in plan.mutants["REQ-001"]} == {5, 7, 16}
    by_line = {plan.chosen[i].mutant.line: plan.runs[("REQ-001", i)] for i in plan.mutants["REQ-001"]}
    assert by_line[5] == ["t.py::a"] and by_line[16] == ["t.py::b"]  # only tests that ran the line
    again = make_plan(_evidence([5, 7], [16]), tmp_path, 10, decoys=0)
    assert _choice(again) == _choice(plan)   # the same choice; the guard ids are fresh draws (#47)
    assert set(again.chosen).isdisjoint(plan.chosen)


def _choice(plan) -> list[tuple]:
    """The plan's order with each mutant named by its site instead of its (random) guard id."""
    return [(rid, plan.chosen[mid].file, plan.chosen[mid].mutant.key, tests) for rid, mid, tests in plan.order()]


FILTERS = '''def for_day(rows, day, query):
    picked = [r for r in rows if r["day"] == day]
    return picked, query.where(day)
'''


class _Query:
    def where(self, day):
        return f"where {day}"


def test_a_dropped_filter_returns_every_record_and_the_unfiltered_query():
    """#47's hollow day listing: the filter mutants drop a comprehension's `if` and a `.where(…)`."""
    rows = [{"day": 1}, {"day": 2}]
    filters = [m for m in candidates(FILTERS) if m.kind == "filter"]
    assert [m.line for m in filters] == [2, 3]
    query = _Query()
    original = _run(FILTERS)["for_day"](rows, 1, query)
    assert original == ([{"day": 1}], "where 1")
    guarded = apply(FILTERS, filters)
    assert _run(guarded, 1)["for_day"](rows, 1, query) == (rows, "where 1")
    assert _run(guarded, 2)["for_day"](rows, 1, query) == ([{"day": 1}], query)


RANKED = '''def late_fee(fee, days):
    charged = fee * 2
    total = charged
    total += 0
    if days > 14:
        total = fee * 3
    return total
'''


def test_a_comparison_is_judged_first_and_within_a_budget_of_one_whatever_the_seed():
    """#47: the mutator's RANK decides; before, a budget of one judged whichever line the seed
    shuffled first (often the `return None` or a dropped assignment)."""
    from harness.audit.mutator import KIND_RANK, KINDS, RANK

    assert KINDS[0] == "compare" and KINDS[-1] == "return" and all(why for _kind, why in RANK)
    sites = candidates(RANKED)
    assert {"compare", "return", "update", "arith"} <= {m.kind for m in sites}
    firsts = set()
    for seed in range(30):
        first = [m.kind for _, m in spread({"src/fees.py": sites}, 1, random.Random(seed))]
        assert first in (["compare"], ["boundary"])   # `days > 14`: swapped, or its boundary moved (same rank)
        firsts.add(first[0])
        picked = [m.kind for _, m in spread({"src/fees.py": sites}, 4, random.Random(seed))]
        assert picked[0] in ("compare", "boundary") and len(picked) == 4
        assert [KIND_RANK[k] for k in picked] == sorted(KIND_RANK[k] for k in picked)  # run best-ranked first
    assert firsts == {"compare", "boundary"}   # the seeded choice on the line takes either
