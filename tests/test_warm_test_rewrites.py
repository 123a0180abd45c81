"""The warm worker rewrites the workspace's test modules, and compiles its other modules, once per
version of their bytes (#19).

Verification runs with PYTHONDONTWRITEBYTECODE=1 (no pytest pyc whose mtime+size check could
hand a session stale code), so every session re-parsed, assertion-rewrote and compiled every test
file it collected: at 20 entities ~0.35 s a test_api file, several seconds for the whole suite.
`RewriteMemo.prime_tests` does it in the worker before a session is forked, and a child's pytest
uses the memo only for a file with the same bytes; `CompileMemo` does the same for the modules the
import system compiles (src/models.py alone ~80 ms a session at 20 entities).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest

from harness.speed.warm import workers as warm
from harness.verification.plugins import disable_args

PRIME_CHECK = r'''
import importlib.util, json, os, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("warm_worker", sys.argv[1])
ww = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ww)
from _pytest.assertion import rewrite
real = rewrite._rewrite_test
root = Path(sys.argv[2])
memo = ww.RewriteMemo([]).install()

class Cfg:
    def getini(self, name):
        return False if name == "enable_assertion_pass_hook" else None

def code(fn, fun):
    return fun(Path(fn), Cfg())[1]

out = {"named": memo.prime_tests(str(root), ["-q", "-p", "no:cacheprovider", "tests/test_a.py::test_a"]),
       "again": memo.prime_tests(str(root), ["-q", "tests/test_a.py"]),
       "plain": memo.prime_tests(str(root), ["-q", "--assert=plain"]),
       "whole_suite": memo.prime_tests(str(root), ["-q"])}
out["memoized"] = sorted(str(Path(p).relative_to(root)) for p in memo.tests)
out["plugin_count"] = memo.plugin_count()
out["identical"] = all(code(p, rewrite._rewrite_test) == code(p, real) for p in memo.tests)
a = root / "tests" / "test_a.py"
a.write_text(a.read_text().replace("== 2", "!= 2"))
out["changed_file_rewritten_anew"] = code(a, rewrite._rewrite_test) == code(a, real) != memo.memo[str(a)][2]
out["changed_again"] = memo.prime_tests(str(root), ["-q"])
print(json.dumps(out))
'''


def workspace(tmp_path):
    ws = tmp_path / "ws"
    (ws / "tests").mkdir(parents=True)
    (ws / "pytest.ini").write_text("[pytest]\ntestpaths = tests\n")
    (ws / "tests" / "conftest.py").write_text("import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n")
    (ws / "tests" / "test_a.py").write_text("def test_a(two):\n    assert 1 + 1 == 2\n")
    (ws / "tests" / "test_b.py").write_text("def test_b(two):\n    assert two * 1 == 2\n")
    (ws / "tests" / "helper.py").write_text("X = 1\n")  # not a test module: never rewritten
    return ws


def test_prime_tests_memoizes_what_the_session_may_collect_exactly_as_pytest_would(tmp_path):
    ws = workspace(tmp_path)
    proc = subprocess.run([sys.executable, "-c", PRIME_CHECK, str(warm.WORKER_SCRIPT), str(ws)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["named"], out["again"], out["plain"], out["whole_suite"]) == (2, 0, 0, 1)
    assert out["memoized"] == ["tests/conftest.py", "tests/test_a.py", "tests/test_b.py"]
    assert out["plugin_count"] == 0 and out["identical"] and out["changed_file_rewritten_anew"]
    assert out["changed_again"] == 1


def serve(worker, ws, *args):
    """`python -m pytest -q ARGS` forked by `worker`, the foreign plugins off as the verifier has them
    (hypothesis alone costs ~1 s a session here): (reply, stdout)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *disable_args(""), *args]
        reply = worker.run(argv, ws, {}, 60, out.fileno(), err.fileno(), ())
        out.seek(0)
        return reply, out.read().decode()



def edit_keeping_size_and_mtime(path, old: str, new: str) -> None:
    """Replace `old` by `new` (same length) and put the file's mtime back: what a pyc check cannot see."""
    assert len(old) == len(new)
    stat = path.stat()
    path.write_text(path.read_text().replace(old, new))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One worker over one workspace serving, in this order: tests/test_a.py three times (the third
    after test_a.py changed to the same size and mtime), then tests/test_calc.py twice (the second
    after src/calc.py did). {name: (reply, stdout)}; one worker start for both tests below."""
    ws = workspace(tmp_path_factory.mktemp("served"))
    (ws / "src").mkdir()
    (ws / "src" / "__init__.py").write_text("")
    (ws / "src" / "calc.py").write_text("def double(x):\n    return x * 2\n")
    (ws / "tests" / "test_calc.py").write_text(
        "from src.calc import double\n\n\ndef test_double():\n    assert double(2) == 4\n")
    (ws / "pytest.ini").write_text("[pytest]\ntestpaths = tests\npythonpath = .\n")
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    done = {}
    try:
        done["test_first"] = serve(worker, ws, "tests/test_a.py")
        done["test_second"] = serve(worker, ws, "tests/test_a.py")
        edit_keeping_size_and_mtime(ws / "tests" / "test_a.py", "== 2", "!= 2")
        done["test_third"] = serve(worker, ws, "tests/test_a.py")
        done["module_first"] = serve(worker, ws, "tests/test_calc.py")
        edit_keeping_size_and_mtime(ws / "src" / "calc.py", "x * 2", "x + 3")
        done["module_second"] = serve(worker, ws, "tests/test_calc.py")
    finally:
        worker.stop()
    return done


@pytest.mark.slow
def test_a_test_changed_to_the_same_size_and_mtime_between_warm_sessions_runs_its_new_code(served):
    """The memo is keyed by the file's bytes, not by mtime and size (what a pytest pyc checks)."""
    (first, first_out), (second, _), (third, third_out) = (served[n] for n in ("test_first", "test_second", "test_third"))
    assert (first["exit_code"], first["rewritten_tests"]) == (0, 2), first_out
    assert (second["exit_code"], second["rewritten_tests"]) == (0, 0)
    assert third["exit_code"] == 1 and third["rewritten_tests"] == 1
    assert "1 failed" in third_out and "!= 2" in third_out  # the new code ran, with its explanation


COMPILE_CHECK = r'''
import importlib, importlib.util, json, os, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("warm_worker", sys.argv[1])
ww = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ww)
root = Path(sys.argv[2])
memo = ww._COMPILED.install()
out = {"first": memo.prime(str(root)), "again": memo.prime(str(root))}
out["memoized"] = sorted(str(Path(p).relative_to(root)) for p in memo.memo)
sys.path.insert(0, str(root))
import pkgy.calc
calc = root / "pkgy" / "calc.py"
out["from_memo"] = pkgy.calc.__spec__.loader.get_code("pkgy.calc") is memo.memo[str(calc)][1]
out["value"] = pkgy.calc.VALUE
stat = calc.stat()
calc.write_text(calc.read_text().replace("1", "2"))  # same size, same mtime below
os.utime(calc, ns=(stat.st_atime_ns, stat.st_mtime_ns))
out["reloaded_value"] = importlib.reload(pkgy.calc).VALUE
print(json.dumps(out))
'''


def test_compiled_modules_come_from_the_memo_only_for_the_same_bytes(tmp_path):
    ws = tmp_path / "ws"
    (ws / "pkgy").mkdir(parents=True)
    (ws / "pkgy" / "__init__.py").write_text("")
    (ws / "pkgy" / "calc.py").write_text("VALUE = 1\n")
    (ws / "pkgy" / "test_calc.py").write_text("def test_v():\n    assert True\n")  # pytest's to compile
    (ws / "pkgy" / "broken.py").write_text("def (:\n")  # left to the importer
    proc = subprocess.run([sys.executable, "-c", COMPILE_CHECK, str(warm.WORKER_SCRIPT), str(ws)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert (out["first"], out["again"]) == (2, 0)
    assert out["memoized"] == ["pkgy/__init__.py", "pkgy/calc.py"]
    assert out["from_memo"] and out["value"] == 1
    assert out["reloaded_value"] == 2  # new bytes with the old size and mtime: compiled anew


@pytest.mark.slow
def test_a_module_changed_to_the_same_size_and_mtime_between_warm_sessions_runs_its_new_code(served):
    (first, first_out), (second, second_out) = served["module_first"], served["module_second"]
    assert first["exit_code"] == 0, first_out
    assert second["exit_code"] == 1 and "1 failed" in second_out  # double(2) is now 5
