"""Black-box acceptance: HTTP checks derived from the spec alone, run by the harness from its own
process against the app the runtime check started. Shares no code with the generator
(harness/offline/generator); docs/acceptance.md lists the checks per capability and the threat model."""

from harness.acceptance.legs import leg, leg_line
from harness.acceptance.run import run_acceptance

__all__ = ["leg", "leg_line", "run_acceptance"]
