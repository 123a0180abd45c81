"""The suite caches its own bytecode even under PYTHONDONTWRITEBYTECODE=1 (conftest.py).

Without the cache every xdist worker compiled and assertion-rewrote every test module, and every
`builder` and sandboxed worker compiled the harness and the plugin, in every session.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_the_suite_and_its_children_write_bytecode_caches():
    assert sys.dont_write_bytecode is False
    assert "PYTHONDONTWRITEBYTECODE" not in os.environ
    child = subprocess.run([sys.executable, "-c", "import sys; print(sys.dont_write_bytecode)"],
                           capture_output=True, text=True, env=dict(os.environ), check=True)
    assert child.stdout.strip() == "False"


def test_this_module_was_rewritten_into_a_cached_pyc():
    cached = list((Path(__file__).parent / "__pycache__").glob(f"{Path(__file__).stem}.*-pytest-*.pyc"))
    assert cached, "pytest wrote no assertion-rewritten pyc for this module"


def test_generated_workspaces_still_get_no_bytecode():
    from harness.verification.verifier import verification_env

    assert verification_env("run-x")["PYTHONDONTWRITEBYTECODE"] == "1"
