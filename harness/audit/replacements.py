"""An invalid mutant's replacement, once: the rule lives in pytest_harness/mutation_replacements.py,
shared by the harness's audit (harness/audit/run.py) and the plugin's `--harness-mutate`
(pytest_harness/mutate.py), so both judge a requirement on the same mutants."""

from pytest_harness.mutation_replacements import merge, replacement_plan, wanted

__all__ = ["merge", "replacement_plan", "wanted"]
