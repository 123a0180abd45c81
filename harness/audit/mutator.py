"""The audit's AST mutator lives in the plugin package (pytest_harness/mutator.py), so the plugin's
`--harness-mutate` uses it without the harness; these names stay importable from here."""

from pytest_harness.mutator import (FILTER_METHODS, GUARD, KIND_RANK, KINDS, RANK, Mutant,  # noqa: F401
                                    _Apply, apply, candidates, described)
