"""A requirement's black-box leg, read from runtime.json's acceptance checks: PASS only when it has
at least one check (spec-derived or a declared probe) and every one passed."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.models.results import AcceptanceCheck, RuntimeResult


@dataclass
class Leg:
    status: str                      # "PASS" | "FAIL"
    spec: int = 0                    # spec-derived checks run
    probes: int = 0                  # declared probes
    passed: int = 0
    failed: list[AcceptanceCheck] = field(default_factory=list)
    not_applicable: str = ""         # why the spec-derived checks did not apply (model-written app)

    @property
    def source(self) -> str:
        parts = [p for p, n in (("spec-derived", self.spec), ("model probes only" if not self.spec else "probes", self.probes)) if n]
        return " + ".join(parts) or "none"

    def missing(self, rid: str) -> list[str]:
        if not self.spec and not self.probes:
            why = f" ({self.not_applicable})" if self.not_applicable else ""
            return [f"black-box: no acceptance check for {rid}{why}"]
        return [f"black-box: acceptance check failed: {c.name} — {c.detail.splitlines()[0] if c.detail else ''}".rstrip(" —")
                for c in self.failed]


def leg(runtime: RuntimeResult | None, rid: str) -> Leg | None:
    """None when no acceptance leg ran (no runtime check, or a run recorded before it existed)."""
    if runtime is None or runtime.acceptance is None:
        return None
    mine = [c for c in runtime.acceptance if c.requirement == rid]
    real = [c for c in mine if c.source != "n/a"]
    out = Leg(status="PASS", spec=sum(c.source == "spec" for c in real), probes=sum(c.source == "probe" for c in real),
              passed=sum(c.ok for c in real), failed=[c for c in real if not c.ok],
              not_applicable="; ".join(c.detail for c in mine if c.source == "n/a"))
    out.status = "PASS" if real and not out.failed else "FAIL"
    return out


def leg_line(found: Leg | None) -> str:
    """`Black-box: YES (14/14 checks: spec-derived + probes)` for the summary and the report."""
    if found is None:
        return "Black-box: not run"
    total = found.spec + found.probes
    word = "YES" if found.status == "PASS" else "NO"
    return f"Black-box: {word} ({found.passed}/{total} checks: {found.source})"
