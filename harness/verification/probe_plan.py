"""Which HTTP probes the runtime check sends: the plan's own, the generator's for its own app,
or none (generic checks only: /health or / answers 2xx, /docs does not crash)."""

from __future__ import annotations

from harness.errors import HarnessError
from harness.models.spec import AppSpec
from harness.models.tasks import Plan


def runtime_steps(spec: AppSpec, plan: Plan | None) -> tuple[list, str]:
    """(steps, source): source is "plan", "generator" or "generic".

    The generator's entity routes are probed only for an app whose every file the generator
    writes (the offline plan, or a model plan made of generator files); never for an app the
    generator did not write.
    """
    if plan is not None and plan.probes:
        return list(plan.probes), "plan"
    if plan is None or plan.offline_fallback:
        from harness.offline.generator import round_trip_steps

        try:
            return round_trip_steps(spec), "generator"
        except HarnessError:
            return [], "generic"
    return [], "generic"
