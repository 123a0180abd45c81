"""Which executed lines are a requirement's own in the mutation audit, and which are shared (#47).

Before, a requirement's mutants were drawn from every line its tests ran in its files and judged by
its tests alone. Lines that nearly every test runs — a list's sort order, the update path's lock, a
helper every endpoint calls — then came up as survivors of requirements whose behaviour they are
not: a loans app's computed-value requirement was charged with the sort order's `order == 'desc'`
and the capacity's `states`, which its tests run and do not check, though the sort and capacity
tests kill both.

The rule. A line is **shared** when the tests of at least two requirements ran it and of more
than half of the verified requirements that list its file (SHARED_SHARE); every other line a
requirement's tests ran is **its own**. A requirement's mutants are its own lines' first (one site
a line, then more behaviour-changing sites on them), then shared lines' to fill its budget. Each is
judged by its own tests first. A mutant on a shared line that survives them runs on against the
rest of the suite — every other passing test that ran the line — in the same fork:

- killed by one of its own tests: a kill, as before;
- killed only by another requirement's test: **killed elsewhere** — that behaviour is someone
  else's and is checked; it counts neither for nor against this requirement;
- survives the whole suite: a survivor of this requirement (no test anywhere checks that line, so it
  is never dropped), as before.

The bar is unchanged (at least half of the judged, killed + survived, and at least one kill by its
own tests): a requirement whose mutants were all killed elsewhere killed none and fails, so tests
that run a requirement's code without checking it (blind or hollow) cannot pass on others' kills.
"""

from __future__ import annotations

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


def shared_lines(lines_of: dict[str, dict[str, set[int]]], files_of: dict[str, set[str]]) -> dict[str, set[int]]:
    """{file: its shared lines} over the lines of `lines_of` ({requirement: {file: lines its tests
    ran}}); `files_of`: {requirement: the files it lists}."""
    listed = listing(files_of)
    shared: dict[str, set[int]] = {}
    for (rel, line), rids in runners(lines_of).items():
        if is_shared(len(rids), listed.get(rel, 0)):
            shared.setdefault(rel, set()).add(line)
    return shared


def split_own(lines: dict[str, set[int]], shared: dict[str, set[int]]) -> tuple[dict[str, set[int]], dict[str, set[int]]]:
    """(its own lines, its shared lines) of one requirement's {file: lines}; files without any dropped."""
    own = {rel: mine for rel, ran in lines.items() if (mine := ran - shared.get(rel, set()))}
    common = {rel: mine for rel, ran in lines.items() if (mine := ran & shared.get(rel, set()))}
    return own, common


def verdict_of(status: str, killer: str | None, own_tests: set[str]) -> str:
    """A requirement's verdict on one mutant from its fork's status and the test that failed first:
    `elsewhere` when that test is not one of the requirement's own (its tests all passed)."""
    if status == "failed" and killer is not None and killer not in own_tests:
        return "elsewhere"
    return status
