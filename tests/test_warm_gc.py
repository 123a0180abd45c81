"""#19: the warm worker collects its import-time garbage once, while its first child runs
(`_collect_once`), instead of before it says ready; every later child is forked from a collected,
frozen heap."""

import json
import subprocess
import sys

from harness.speed.warm import workers as warm

CHECK = r'''
import gc, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("warm_worker", sys.argv[1])
ww = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ww)
garbage = []
garbage.append(garbage)   # a cycle only a collection frees
del garbage
ww._COLLECT_PENDING = True
gc.freeze()                # what serve_one does before the first fork
frozen = gc.get_freeze_count()
ww._collect_once()         # after that fork: unfrozen and collected, once
after_first = gc.get_freeze_count()
gc.freeze()
ww._collect_once()         # later forks: nothing more
print(json.dumps({"frozen": frozen, "after_first": after_first, "later": gc.get_freeze_count(),
                  "pending": ww._COLLECT_PENDING}))
'''


def test_the_worker_collects_once_after_its_first_fork_and_keeps_later_heaps_frozen(tmp_path):
    script = tmp_path / "check.py"
    script.write_text(CHECK)
    done = subprocess.run([sys.executable, str(script), str(warm.WORKER_SCRIPT)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["frozen"] > 0 and out["after_first"] == 0
    assert out["later"] > 0 and out["pending"] is False
