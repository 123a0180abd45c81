"""Run persistence: RunStore (state.json, artifacts, checkpoints, locks)."""

from harness.state.store import RunStore, validate_request

__all__ = ["RunStore", "validate_request"]
