"""#46 "Import cycles: 0": the plugin had one module cycle, mutation_lane <-> mutation_runner (the
lane imported the runner's fork helpers lazily, the runner imported the lane). The lane now receives
a LaneRunner from the runner and imports nothing of it."""

from __future__ import annotations

from pathlib import Path

from tests.test_import_graph import _tree, module_cycles, module_graph

PLUGIN_ROOT = Path(__file__).resolve().parent.parent / "pytest_harness"


def test_the_plugin_has_no_import_cycle_between_modules():
    assert module_cycles(module_graph(PLUGIN_ROOT)) == []


def test_the_plugin_cycle_check_sees_a_lazy_cycle(tmp_path):
    root = _tree(tmp_path, {"__init__.py": "",
                            "lane.py": "def run():\n    from harness.runner import fork\n",
                            "runner.py": "from harness.lane import run\ndef fork():\n    pass\n"})
    assert module_cycles(module_graph(root)) == [["harness.lane", "harness.runner"]]
