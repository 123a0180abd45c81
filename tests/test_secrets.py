"""#16 API-key hygiene: the key leaves the exec environment, reaches only the harness's memory."""

from __future__ import annotations

import pytest
import json
import os
import subprocess
import sys

from harness.sandbox.secrets import environ_with_secrets

PROBE = '''
import json, os, sys
from harness.sandbox import secrets

secrets.reexec_without_secrets(sys.argv[1:], module="probe_mod")
secrets.adopt_secrets()
exec_env = open("/proc/self/environ", "rb").read().decode()
fd = os.environ.get("HARNESS_SECRETS_FD")
print(json.dumps({"argv": sys.argv[1:], "in_exec_env": "sk-probe-123" in exec_env,
                  "in_os_environ": "OPENAI_API_KEY" in os.environ,
                  "held": secrets.environ_with_secrets().get("OPENAI_API_KEY"),
                  "reexeced": "HARNESS_SECRETS_FD" in exec_env, "fd_left": fd}))
'''


def _probe(tmp_path, **env):
    (tmp_path / "probe_mod.py").write_text(PROBE)
    base = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "HARNESS_SECRETS_FD")}
    out = subprocess.run([sys.executable, "-m", "probe_mod", "new", "a b"], cwd=tmp_path, capture_output=True,
                         text=True, env={**base, "PYTHONPATH": str(tmp_path), **env}, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.slow
def test_key_in_the_exec_environment_is_moved_to_memory_by_a_reexec(tmp_path):
    """#16: /proc/<ppid>/environ showed OPENAI_API_KEY to generated tests; os.environ.pop is not enough."""
    seen = _probe(tmp_path, OPENAI_API_KEY="sk-probe-123")
    assert seen == {"argv": ["new", "a b"], "in_exec_env": False, "in_os_environ": False,
                    "held": "sk-probe-123", "reexeced": True, "fd_left": None}


def test_without_a_key_nothing_is_reexeced(tmp_path):
    seen = _probe(tmp_path)
    assert seen["reexeced"] is False and seen["held"] is None and seen["argv"] == ["new", "a b"]


def test_environ_with_secrets_keeps_the_base_without_held_secrets():
    assert environ_with_secrets({"A": "1"}) == {"A": "1"}
