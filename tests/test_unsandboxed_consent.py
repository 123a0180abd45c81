"""#49: an LLM run does not execute model-written code without a working sandbox unless the user
says so (HARNESS_SANDBOX=none); the offline generator's own code still runs, labelled unsandboxed.

"No working sandbox" is forced with HARNESS_BWRAP naming a bwrap that does not exist, through the
real `builder` CLI against the fake OpenAI server.
"""

from __future__ import annotations

import argparse

import pytest
from fake_openai_server import FakeOpenAIServer, error
from test_llm_e2e import TODO, cli

from harness.commands.base import provider_for
from harness.errors import EXIT_TEMPFAIL, EXIT_USAGE, InputError
from harness.sandbox.isolation import UNSANDBOXED_REFUSAL, isolation_label

NO_BWRAP = "/nonexistent/bwrap"


def test_llm_run_without_a_working_sandbox_is_refused_before_any_model_call(tmp_path):
    with FakeOpenAIServer([error(500, "never asked")]) as server:
        proc = cli(["new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "refused"], tmp_path,
                   OPENAI_API_KEY="sk-consent", OPENAI_BASE_URL=server.url, OPENAI_MODEL="fake-model-1",
                   HARNESS_BWRAP=NO_BWRAP)
        asked = len(server.requests)
    assert proc.returncode == EXIT_USAGE
    assert proc.stderr == f"builder: {UNSANDBOXED_REFUSAL}\n"   # one line: why, and how to install it
    assert "apt-get install bubblewrap" in proc.stderr and "HARNESS_SANDBOX=none" in proc.stderr
    assert asked == 0 and not (tmp_path / "runs" / "refused").exists()


@pytest.mark.slow
def test_llm_run_with_harness_sandbox_none_goes_ahead_without_bubblewrap(tmp_path):
    """The explicit consent: the same run reaches the model (here a server that answers 503, so the
    run stops there with exit 75 instead of building a whole app)."""
    with FakeOpenAIServer([error(503, "down")] * 8) as server:
        proc = cli(["new", TODO, "--runs-dir", str(tmp_path / "runs"), "--run-id", "consented"], tmp_path,
                   OPENAI_API_KEY="sk-consent", OPENAI_BASE_URL=server.url, OPENAI_MODEL="fake-model-1",
                   HARNESS_BWRAP=NO_BWRAP, HARNESS_SANDBOX="none", HARNESS_LLM_MAX_RETRIES="0")
        asked = len(server.requests)
    assert UNSANDBOXED_REFUSAL not in proc.stderr and proc.returncode == EXIT_TEMPFAIL
    assert asked >= 1, proc.stdout[-2000:] + proc.stderr[-2000:]


def test_offline_generator_may_run_without_a_sandbox(monkeypatch):
    """No key: the offline path's provider is made without a sandbox, and the run says `none`."""
    for name in ("OPENAI_API_KEY", "HARNESS_SANDBOX"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HARNESS_BWRAP", NO_BWRAP)
    args = argparse.Namespace(max_llm_calls=None, max_tokens=None, max_minutes=None)
    assert not provider_for(args).is_live
    assert isolation_label() == "none (install bubblewrap)"


def test_live_provider_without_sandbox_raises_the_one_line_refusal(monkeypatch):
    from harness.sandbox.isolation import require_sandbox_for_model_code

    monkeypatch.delenv("HARNESS_SANDBOX", raising=False)
    monkeypatch.setenv("HARNESS_BWRAP", NO_BWRAP)
    with pytest.raises(InputError) as caught:
        require_sandbox_for_model_code()
    assert "\n" not in str(caught.value)
    monkeypatch.setenv("HARNESS_SANDBOX", "none")
    require_sandbox_for_model_code()  # consent given: no error


def _model_built_run(runs, run_id="modelrun"):
    """A stored run whose events say the model wrote a task's files (what a live-model build logs)."""
    from harness.state.store import RunStore
    from harness.utils.events import read_events

    store = RunStore(runs)
    state = store.create_run(TODO, run_id=run_id)
    store.events(state).emit("build", "completed", agent="builder", task_id="TASK-001", tool="llm")
    assert read_events(store.run_dir(run_id) / "events.log")[-1]["tool"] == "llm"
    return store


@pytest.mark.parametrize("command", [["audit", "modelrun"], ["resume", "modelrun"]])
def test_rerunning_model_written_code_without_a_sandbox_is_refused(tmp_path, command):
    """#49 (left by the first pass): `builder audit` / `builder resume` of a model-built run ran its
    code again without bubblewrap and without consent; now the same one-line refusal, exit 2."""
    runs = tmp_path / "runs"
    _model_built_run(runs)
    proc = cli([*command, "--runs-dir", str(runs)], tmp_path, HARNESS_BWRAP=NO_BWRAP)
    assert proc.returncode == EXIT_USAGE, proc.stdout + proc.stderr
    assert UNSANDBOXED_REFUSAL in proc.stderr and "Traceback" not in proc.stderr


def test_harness_run_of_model_written_code_without_a_sandbox_is_refused(tmp_path, monkeypatch):
    from harness.orchestration.reverify import reverify_run

    runs = tmp_path / "runs"
    _model_built_run(runs)
    monkeypatch.setenv("HARNESS_BWRAP", NO_BWRAP)
    monkeypatch.delenv("HARNESS_SANDBOX", raising=False)
    with pytest.raises(InputError, match="refusing to run model-written code"):
        reverify_run("modelrun", runs, say=lambda line: None)


def test_offline_generated_run_is_not_refused_by_the_rerun_rule(tmp_path, monkeypatch):
    from harness.trace.authorship import require_sandbox_for_run

    runs = tmp_path / "runs"
    store = _model_built_run(runs, run_id="offline")
    (store.run_dir("offline") / "events.log").write_text("")
    monkeypatch.setenv("HARNESS_BWRAP", NO_BWRAP)
    monkeypatch.delenv("HARNESS_SANDBOX", raising=False)
    require_sandbox_for_run(store.run_dir("offline"))   # offline generator's code: allowed, labelled
    monkeypatch.setenv("HARNESS_SANDBOX", "none")
    _model_built_run(runs, run_id="consented")
    require_sandbox_for_run(store.run_dir("consented"))   # the user said so
