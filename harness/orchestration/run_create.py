"""Create a new run's directory and state: the first step of `builder new`, light enough to come
before the pipeline's imports (so the run's verification worker can start while they load)."""

from __future__ import annotations

from harness.models.run import RunOptions, RunState
from harness.providers.budget import Budget
from harness.state.store import RunStore


def create_new_run(store: RunStore, request: str, llm, *, run_id: str | None, repair: bool,
                   audited: bool) -> RunState:
    """runs/<id>/ with workspace/ and state.json recording the run's options (repair, audit, the
    provider's chosen budgets). InputError for a bad request or a run id that exists."""
    chosen = llm.budget.chosen() if isinstance(getattr(llm, "budget", None), Budget) else {}
    return store.create_run(request, run_id=run_id, options=RunOptions(repair=repair, audit=audited, budget=chosen))
