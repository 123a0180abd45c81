"""Regression: the suite's temporary files live outside pytest's shared /tmp/pytest-of-<user>.

Concurrent pytest runs of the same user prune each other's numbered directories there; the shared
Todo build once lost its workspace mid-build (`cannot import name 'models' from 'src'`).
"""

from __future__ import annotations

import getpass
import tempfile
from pathlib import Path

from conftest import OWN_BASETEMP, PRIVATE_BASETEMP_PREFIX


def test_the_session_basetemp_is_private_to_this_session(tmp_path_factory, tmp_path, request):
    base = tmp_path_factory.getbasetemp()
    shared_root = Path(tempfile.gettempdir()).resolve() / f"pytest-of-{getpass.getuser()}"
    assert shared_root not in base.parents and base != shared_root
    given = request.config.getoption("basetemp") != request.config.stash.get(OWN_BASETEMP, None)
    assert given or PRIVATE_BASETEMP_PREFIX in str(base)   # ours unless the caller passed --basetemp
    assert base in tmp_path.parents
