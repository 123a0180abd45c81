"""The runnable local 'model' (tests/fake_openai_server.py + rules_model.py) drives the real HTTP path."""

from fake_openai_server import FakeOpenAIServer
from rules_model import RulesModel

from harness.agents.builder import Builder
from harness.agents.planner import Planner
from harness.agents.spec_agent import SpecAgent
from harness.providers.env import EnvOpenAICompatibleProvider
from harness.sandbox.local import LocalSandbox
from harness.tools.file_tools import FileTools


def test_spec_plan_and_build_answers_come_over_http_without_fallback(tmp_path):
    with FakeOpenAIServer(responder=RulesModel()) as server:
        llm = EnvOpenAICompatibleProvider(environ={"OPENAI_API_KEY": "x", "OPENAI_BASE_URL": server.url})
        agent = SpecAgent(llm)
        spec = agent.generate("a todo app")
        assert agent.source == "llm" and len(spec.requirements) == 4
        planner = Planner(llm)
        plan = planner.plan(spec)
        assert plan.source == "llm" and not planner.fallback_reason
        first = plan.tasks[0]
        out = Builder(llm).build(first, spec, FileTools(LocalSandbox(tmp_path), first.files_touched))
        assert out.source == "llm" and sorted(out.written) == sorted(first.files_touched)
        assert len(server.requests) == 3
        assert all(r.headers["authorization"] == "Bearer x" for r in server.requests)
