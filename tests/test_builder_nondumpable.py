"""#49: the builder makes itself non-dumpable before it reads the API key, so a process of the same
uid — generated code run without bubblewrap, say — cannot read its memory through /proc/<pid>/mem.

A root harness's unsandboxed children are started without capabilities (a root process holding
CAP_SYS_PTRACE could read any memory), so the same holds when the harness runs as root.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.sandbox.procs import drop_capabilities

# A parent that holds a secret, optionally makes itself non-dumpable the way `builder` does, and
# runs the child through the sandbox runner without bubblewrap (how model-written code runs with
# HARNESS_SANDBOX=none); the child prints what it could read of the parent's secret.
PARENT = '''
import sys
from pathlib import Path

from harness.sandbox.procs import make_nondumpable
from harness.sandbox.runner import execute

SECRET = b"sk-" + b"memory-secret-" * 4
if sys.argv[1] == "harden":
    make_nondumpable()
address = id(SECRET) + bytes.__basicsize__ - 1   # where CPython keeps a bytes object's data
child = f"""
import os
try:
    with open(f"/proc/{{os.getppid()}}/mem", "rb") as mem:
        mem.seek({address})
        print(mem.read({len(SECRET)}).decode("latin-1"))
except OSError as exc:
    print(type(exc).__name__)
"""
res = execute([sys.executable, "-c", child], workspace=Path(sys.argv[2]), timeout_s=60)
print(res.stdout.strip())
'''


def _run(mode: str, tmp_path: Path) -> str:
    """The parent starts without capabilities too: as root it would otherwise hold some its child
    lacks, and the kernel refuses that child for that reason alone — the control case below needs a
    plain same-uid pair, as a non-root user's builder and its children are."""
    env = {"PATH": "/usr/bin:/bin", "HARNESS_SANDBOX": "none"}
    proc = subprocess.run([sys.executable, "-c", PARENT, mode, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, env=env, cwd=Path(__file__).resolve().parents[1],
                          preexec_fn=drop_capabilities)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.strip()


@pytest.mark.slow
def test_a_same_uid_child_cannot_read_the_memory_of_a_nondumpable_builder(tmp_path):
    assert _run("plain", tmp_path).startswith("sk-memory-secret-")   # the attack works on a dumpable process
    assert _run("harden", tmp_path) == "PermissionError"


def test_builder_main_makes_the_process_nondumpable(tmp_path):
    """`builder runs` (any command) leaves the process non-dumpable (PR_GET_DUMPABLE = 3 answers 0)."""
    code = ("import ctypes; from harness.cli import main; main(['runs', '--runs-dir', %r]); "
            "print('dumpable', ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))" % str(tmp_path / "runs"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip().splitlines()[-1] == "dumpable 0", proc.stdout + proc.stderr


def test_unsandboxed_children_of_a_root_harness_hold_no_capability(tmp_path, monkeypatch):
    """Without bubblewrap a root harness's child would hold every capability (CAP_SYS_PTRACE reads
    any process's memory, CAP_DAC_OVERRIDE any file): it is started with none."""
    from harness.sandbox.runner import execute

    monkeypatch.setenv("HARNESS_SANDBOX", "none")
    res = execute([sys.executable, "-c", "print(open('/proc/self/status').read())"], workspace=tmp_path)
    caps = {line.split(":")[0]: int(line.split()[1], 16) for line in res.stdout.splitlines() if line.startswith("Cap")}
    assert caps["CapEff"] == caps["CapPrm"] == caps["CapBnd"] == 0, caps
