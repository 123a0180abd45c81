"""Bug: SIGTERM during BUILD printed `harness.interrupts.Terminated` and the builder went on
building until it was killed 30 s later (a clean-clone CI run): the signal arrived while a
finalizer ran, where Python swallows exceptions. The interrupt is now delivered again outside
the finalizer, so the process unwinds and exits 143/130 with no traceback."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

SCRIPT = r"""
import gc, os, signal, sys, time
from harness import interrupts

class Finalized:
    def __del__(self):
        os.kill(os.getpid(), SIG)      # the signal lands while this finalizer runs
        for _ in range(200000):        # bytecode boundaries inside the finalizer: the handler runs here
            pass

interrupts.install()
try:
    Finalized()                        # dropped at once: __del__ runs, its exception is swallowed
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        time.sleep(0.01)
    print("went on after the interrupt", flush=True)
    sys.exit(3)
except interrupts.INTERRUPTS as exc:
    print("unwound", type(exc).__name__, flush=True)
    sys.exit(interrupts.exit_code(exc))
"""


@pytest.mark.parametrize("sig, code, name", [(signal.SIGTERM, 143, "Terminated"), (signal.SIGINT, 130, "KeyboardInterrupt")])
def test_interrupt_swallowed_by_a_finalizer_still_unwinds_bug(sig, code, name):
    proc = subprocess.run([sys.executable, "-c", f"SIG = {int(sig)}\n" + SCRIPT], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == code, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stdout.strip() == f"unwound {name}"
    assert "Traceback" not in proc.stderr, proc.stderr
