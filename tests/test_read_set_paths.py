"""#19: the read set's path test (`Recorder._rel`) answers the same through its fast path for the
interpreter's own files as through normpath/realpath: a workspace's files are always its own,
wherever it lies, and nothing outside it is."""

import importlib.metadata as md
import os
import sys
from pathlib import Path

import pytest
from pluggy._manager import DistFacade

from pytest_harness.carry import plugin_label
from pytest_harness.read_set import Recorder


def slow_rel(rec: Recorder, path: str) -> str | None:
    """What `_rel` answered before its fast path: normpath, then realpath outside the install prefixes."""
    full = os.path.normpath(os.path.join(os.getcwd(), path))
    if full == rec.root:
        return "."
    if not full.startswith(rec.prefix):
        real = os.path.realpath(full)
        if full.startswith(tuple(p.rstrip(os.sep) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix))):
            return None
        if real != rec.root and not real.startswith(rec.prefix):
            return None
        full = real
    return Path(full[len(rec.prefix):]).as_posix() if full != rec.root else "."


def paths_around(root: Path) -> list[str]:
    lib = os.path.dirname(os.__file__)
    return [os.__file__, lib, lib + "/", lib + "//json/__init__.py", lib + "/./json/decoder.py",
            lib + "/../" + os.path.basename(lib) + "/os.py", lib + "/..", sys.prefix, str(root),
            str(root) + "/", str(root / "src" / "app.py"), str(root / "src" / ".." / "main.py"), "/tmp/elsewhere.py"]


def test_fast_path_answers_what_normpath_and_realpath_answer_for_a_workspace_anywhere(tmp_path):
    root = tmp_path / "ws"
    (root / "src").mkdir(parents=True)
    rec = Recorder(root)
    for path in paths_around(root):
        assert rec._rel(path) == slow_rel(rec, path), path
    assert rec._rel(os.__file__) is None and rec._rel(str(root / "src" / "app.py")) == "src/app.py"


def test_a_workspace_inside_the_interpreter_prefix_keeps_its_files_bug():
    """A workspace under sys.prefix (a run directory inside the venv): its own paths must not be
    taken for the interpreter's files by the prefix shortcut."""
    base = Path(sys.prefix).resolve()
    if not os.access(base, os.W_OK):
        pytest.skip("sys.prefix is not writable here")
    import tempfile

    with tempfile.TemporaryDirectory(dir=base) as tmp:
        root = Path(tmp) / "ws"
        (root / "src").mkdir(parents=True)
        rec = Recorder(root)
        assert rec._rel(str(root)) == "."
        assert rec._rel(str(root / "src" / "app.py")) == "src/app.py"
        for path in paths_around(root):
            assert rec._rel(path) == slow_rel(rec, path), path


def test_plugin_labels_name_each_plugin_distribution_and_its_version():
    """carry_key's plugin names come from the dist-info directory's name, not its METADATA; they
    still say which distribution at which version."""
    seen = 0
    for dist in md.distributions():
        if not any(ep.group == "pytest11" for ep in dist.entry_points):
            continue
        facade = DistFacade(dist)
        name, _, version = plugin_label(facade).partition("==")
        assert version == facade.version
        assert name.replace("_", "-").lower() == facade.project_name.replace("_", "-").lower()
        seen += 1
    assert seen >= 2  # the harness and pytest-timeout at least
