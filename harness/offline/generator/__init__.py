"""The deterministic app generator used by the rule-based path (AppSpec -> FastAPI + SQLite files).

Public API: `build_units` (what the fallback planner plans), `generate_unit` / `generate_files`
(the file texts), `round_trip_steps` (the runtime probe), `BuildUnit`, `UnsupportedFeatureError`.
"""

from harness.offline.generator.probes import ProbeStep, round_trip_steps
from harness.offline.generator.units import (
    BuildUnit,
    UnsupportedFeatureError,
    build_units,
    generate_files,
    generate_unit,
)

__all__ = [
    "BuildUnit", "ProbeStep", "UnsupportedFeatureError", "build_units", "generate_files",
    "generate_unit", "round_trip_steps",
]
