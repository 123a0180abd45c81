"""#47: a scripted model's meeting-room app with hollow tests (`x is not None`) whose "bookings of a
day" listing returns every day's bookings reached BUILD COMPLETE 4/4: the tests pass, the audit
killed a `return None` mutant per requirement. The black-box leg's filter check fails it, naming
the requirement and the check; the same app with a correct listing passes that check."""

from __future__ import annotations

import pytest
from fake_openai_server import FakeOpenAIServer
from rooms_model import REQUEST, RoomsModel

from harness.models.enums import RunStatus
from harness.orchestration.pipeline import new_run
from harness.providers.budget import Budget, MeteredProvider
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.state.store import RunStore

pytestmark = pytest.mark.slow


def _build(tmp_path, model):
    store = RunStore(tmp_path / "runs")
    with FakeOpenAIServer(responder=model) as server:
        environ = {"OPENAI_API_KEY": "sk-rooms", "OPENAI_BASE_URL": server.url, "HARNESS_LLM_TIMEOUT_S": "30"}
        ctx = new_run(store, REQUEST, MeteredProvider(EnvOpenAICompatibleProvider(environ=environ), Budget()),
                      say=lambda line: None)
    return ctx


def test_hollow_tests_on_a_broken_day_listing_end_build_failed_naming_the_check(tmp_path):
    ctx = _build(tmp_path, RoomsModel(broken_day_listing=True))
    assert ctx.state.plan.source == "llm"
    review = {r.id: r for r in ctx.state.review.requirements}
    assert ctx.state.status == RunStatus.FAIL
    req = review["REQ-003"]
    assert req.status == "FAIL" and req.tested     # its own tests passed: the white-box leg held
    assert any(m.startswith("black-box: acceptance check failed: filter on bookings — ?day_min=") for m in req.missing), req.missing
    assert req.black_box.startswith("Black-box: NO") and "spec-derived + probes" in req.black_box


def test_the_same_app_with_a_correct_listing_passes_the_filter_check(tmp_path):
    ctx = _build(tmp_path, RoomsModel(broken_day_listing=False))
    checks = [c for c in ctx.state.runtime.acceptance if c.requirement == "REQ-003"]
    assert [(c.name, c.ok) for c in checks if c.source == "spec"] == [("filter on bookings", True)]
    assert [c.name for c in checks if c.source == "probe"] == ["probe: a day's bookings"]
