"""Which executed lines a requirement answers for in the mutation audit, and which are shared (#47).

Before, every requirement answered for mutants on every line its tests ran in its files. Lines
that nearly every test runs — a list's sort order, the update path's lock, a helper every endpoint
calls — then came up as mutants of requirements whose behaviour they are not: a computed-value
requirement was charged with the sort order's survivor, and a spec with a capacity and a computed
value failed a requirement whose own behaviour was well tested.

The rule (SHARED_SHARE): a line is **shared** when the tests of at least two requirements ran it
and of more than half of the verified requirements that list its file. Each other line a
requirement's tests ran is **its own**: its mutants there are judged by its own tests, as before.
A requirement whose tests ran only shared lines (a sort order or a computed value, carried out by
the code every list or read runs) has no mutant of its own (ONLY_SHARED): it is judged by the
whole suite on the shared mutants of its lines, kills and survivors. Giving it its least-shared
lines instead brought the defect back: the computed-value requirement of a loans app was then
judged, by its own tests, on the sort order's line.

Shared lines are judged by the whole suite: one more entry of the plan, SHARED, whose mutants run
against every passing test that ran the line. A shared mutant the whole suite kills is nobody's
survivor; one it lets survive is charged, as a survivor, to every requirement whose tests ran its
line (mutation_verdict.summarize): no test anywhere checks that line, so it never drops silently.
"""

from __future__ import annotations

from pytest_harness.time_box import SHARED  # noqa: F401 - the plan's key for the shared lines

ONLY_SHARED = "every mutable line its tests ran is shared: judged by the whole suite"
SHARED_FACTOR = 2    # the shared entry's mutants: this many times a requirement's
SHARED_SHARE = 0.5   # shared: run by the tests of more than this share of the requirements listing the file


def runners(lines_of: dict[str, dict[str, set[int]]]) -> dict[tuple[str, int], set[str]]:
    """{(file, line): the requirements whose tests ran it} from {requirement: {file: lines}}."""
    out: dict[tuple[str, int], set[str]] = {}
    for rid, lines in lines_of.items():
        for rel, ran in lines.items():
            for line in ran:
                out.setdefault((rel, line), set()).add(rid)
    return out


def listing(files_of: dict[str, set[str]]) -> dict[str, int]:
    """{file: how many verified requirements list it}."""
    out: dict[str, int] = {}
    for files in files_of.values():
        for rel in files:
            out[rel] = out.get(rel, 0) + 1
    return out


def is_shared(ran_by: int, listed_by: int) -> bool:
    """Whether a line run by the tests of `ran_by` requirements, of `listed_by` listing its file, is shared."""
    return ran_by >= 2 and ran_by > SHARED_SHARE * listed_by


def split_lines(lines_of: dict[str, dict[str, set[int]]], files_of: dict[str, set[str]],
                mutable: dict[str, set[int]]) -> tuple[dict[str, dict[str, set[int]]], dict[str, set[int]]]:
    """({requirement: {file: its own lines}}, {file: shared lines}) over the lines of `lines_of`
    that hold a mutant (`mutable`: {file: lines with a candidate})."""
    ran_by, listed = runners(lines_of), listing(files_of)
    shared: dict[str, set[int]] = {}
    for (rel, line), rids in ran_by.items():
        if line in mutable.get(rel, ()) and is_shared(len(rids), listed.get(rel, 0)):
            shared.setdefault(rel, set()).add(line)
    own = {rid: {rel: mine for rel, ran in lines.items()
                 if (mine := {n for n in ran if n in mutable.get(rel, ()) and n not in shared.get(rel, ())})}
           for rid, lines in lines_of.items()}
    return own, shared


def charged(ran_by: dict[tuple[str, int], set[str]], rel: str, line: int) -> list[str]:
    """The requirements a shared mutant on `rel:line` is charged to when the whole suite lets it survive."""
    return sorted(ran_by.get((rel, line), ()))
