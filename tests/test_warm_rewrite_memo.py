"""#19: the warm worker's memo of assertion-rewritten plugin code (harness/speed/warm/rewrite_memo.py):
byte-identical to what pytest compiles, filled by a forked helper before the first child."""

import json
import sys

import pytest

from harness.speed.warm import workers as warm
from harness.verification.plugins import disable_args
from test_warm_worker import small_workspace  # noqa: E402 - tests/ is on pythonpath


MEMO_CHECK = r'''
import importlib.util, json, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("warm_worker", sys.argv[1])
ww = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ww)
sys.path.insert(0, sys.argv[2])
import anyio, pkgx  # the worker preloads anyio's package (fastapi needs it) and never the memoized modules
from _pytest.assertion import rewrite
real = rewrite._rewrite_test
done = ww.memoize_rewrites(sys.argv[3:])

class Cfg:
    def __init__(self, hook):
        self.hook = hook
    def getini(self, name):
        return self.hook if name == "enable_assertion_pass_hook" else None

def code(fn, fun, hook=False):
    return fun(Path(fn), Cfg(hook))[1]

out = {"done": [Path(p).name for p in done],
       "identical": all(code(p, rewrite._rewrite_test) == code(p, real) for p in done),
       "hook_on_rewritten_anew": all(code(p, rewrite._rewrite_test, True) == code(p, real, True) for p in done)}
mod = Path(sys.argv[2]) / "pkgx" / "mod.py"
out["equality_discriminates"] = code(mod, real, True) != code(mod, real)  # the pass hook changes the code
mod.write_text(mod.read_text() + "assert 2 > 1\n")
out["changed_file_rewritten_anew"] = code(mod, rewrite._rewrite_test) == code(mod, real)
out["sys_modules_untouched"] = not any(m in sys.modules for m in sys.argv[3:])
print(json.dumps(out))
'''


def test_the_worker_memo_of_rewritten_plugin_code_is_what_pytest_would_compile(tmp_path):
    """memoize_rewrites hands pytest byte-identical code: same source, same path, hook option off;
    with the option on, or once the file changed, pytest rewrites the file itself."""
    import subprocess

    pkg = tmp_path / "pkgx"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text("def f(x):\n    assert x == 1, 'one'\n    return x\n")
    script = tmp_path / "check.py"
    script.write_text(MEMO_CHECK)
    proc = subprocess.run([sys.executable, str(script), str(warm.WORKER_SCRIPT), str(tmp_path),
                           "anyio.pytest_plugin", "anyio._backends._asyncio", "pkgx.mod", "pkgx.missing"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert sorted(out["done"]) == ["_asyncio.py", "mod.py", "pytest_plugin.py"]
    assert out["identical"] and out["hook_on_rewritten_anew"] and out["changed_file_rewritten_anew"]
    assert out["sys_modules_untouched"] and out["equality_discriminates"]


@pytest.mark.slow
def test_the_worker_builds_the_rewrite_memo_before_its_first_child_and_every_child_gets_it(tmp_path):
    import tempfile

    ws = small_workspace(tmp_path, "def test_a():\n    assert True\n", requirements="fastapi\npytest\n")
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    replies = []
    try:
        for _ in range(2):
            with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
                argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        *disable_args("fastapi\npytest\n"), "tests"]  # as the verifier: anyio's plugin stays
                replies.append(worker.run(argv, ws, {}, 60, out.fileno(), err.fileno(), ()))
    finally:
        worker.stop()
    assert [r["exit_code"] for r in replies] == [0, 0]
    # A forked helper rewrote them while the worker imported: the first child gets the memo too.
    assert replies[0]["memoized_rewrites"] >= 2          # anyio's plugin and its asyncio backend at least
    assert replies[1]["memoized_rewrites"] == replies[0]["memoized_rewrites"]


HELPER_CHECK = r'''
import importlib.util, json, os, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("warm_worker", sys.argv[1])
ww = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ww)
from _pytest.assertion import rewrite
real = rewrite._rewrite_test
memo = ww.RewriteMemo(sys.argv[2:])
helper = memo.start_helper()          # before anyio is imported here, as in the worker
import anyio  # noqa: F401 - the worker preloads the package meanwhile
ok = memo.absorb(helper)
memo.install()
same = all(rewrite._rewrite_test(Path(p), None)[1] == real(Path(p), None)[1] for p in memo.memo)
failing = ww.RewriteMemo(sys.argv[2:])
r, w = os.pipe()
pid = os.fork()
if pid == 0:
    os._exit(3)                       # a helper that died: nothing absorbed, step() fills it later
os.close(w)
print(json.dumps({"absorbed": ok, "names": sorted(Path(p).name for p in memo.memo), "same": same,
                  "pending": memo.pending, "failed_absorb": failing.absorb((pid, r)),
                  "failed_pending": failing.pending}))
'''


def test_the_rewrite_helper_hands_the_worker_what_pytest_would_compile_and_a_dead_helper_changes_nothing(tmp_path):
    import subprocess

    script = tmp_path / "check.py"
    script.write_text(HELPER_CHECK)
    modules = ["anyio.pytest_plugin", "anyio._backends._asyncio"]
    proc = subprocess.run([sys.executable, str(script), str(warm.WORKER_SCRIPT), *modules],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["absorbed"] and out["same"] and out["pending"] == []
    assert out["names"] == ["_asyncio.py", "pytest_plugin.py"]
    assert out["failed_absorb"] is False and out["failed_pending"] == modules
