"""The audit's mutant choice lives in the plugin package (pytest_harness/mutation_plan.py), so the
plugin's `--harness-mutate` plans exactly as the harness does; these names stay importable from here."""

from pytest_harness.mutation_plan import (_CANDIDATES, DEFAULT_SEED, AuditPlan, Chosen,  # noqa: F401
                                          app_modules, executed_lines, file_candidates, make_plan,
                                          precompute, spread)
