"""#19: the worker imports the kept anyio plugin with pytest's rewritten code (RewriteMemo.
import_rewritten), so a session finds it imported; what a test sees of it is what a cold run shows."""

import json
import sys

from harness.speed.warm import workers as warm
from test_warm_worker import run, small_workspace  # noqa: E402 - tests/ is on pythonpath

PROBE = '''
import json, os, sys

def test_probe(request):
    mod = sys.modules["anyio.pytest_plugin"]
    backend = sys.modules["anyio._backends._asyncio"]
    seen = {"registered": request.config.pluginmanager.get_plugin("anyio") is mod,
            "plugin_rewritten": "@pytest_ar" in vars(mod),
            "backend_rewritten": "@pytest_ar" in vars(backend),
            "file": os.path.basename(mod.__file__)}
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump(seen, out)
'''


def _probe(ws, tmp_path, monkeypatch, warm_on, name):
    monkeypatch.setenv(warm.ENV_WARM, "1" if warm_on else "0")
    shared = tmp_path / "shared"  # the workspace is read-only to the probe
    shared.mkdir(exist_ok=True)
    monkeypatch.setenv("HARNESS_SHARED_DIR", str(shared))
    out = shared / f"{name}.json"
    (ws / "tests" / "conftest.py").write_text(f"import os\nos.environ['PROBE_OUT'] = {str(out)!r}\n")
    result, _ = run(ws, tmp_path, name)
    assert result.status == "PASS", result.stdout + result.stderr
    return result.runner, json.loads(out.read_text())


def test_a_warm_session_sees_the_anyio_plugin_registered_and_rewritten_as_a_cold_one_does(tmp_path, monkeypatch):
    ws = small_workspace(tmp_path, PROBE, requirements="fastapi\npytest\n")
    cold_runner, cold = _probe(ws, tmp_path, monkeypatch, False, "cold")
    warm_runner, warm_seen = _probe(ws, tmp_path, monkeypatch, True, "warm")
    assert (cold_runner, warm_runner) == ("cold", "warm")
    assert cold == warm_seen == {"registered": True, "plugin_rewritten": True, "backend_rewritten": True,
                                 "file": "pytest_plugin.py"}


def _memo_check(tmp_path, mode: str, modules) -> object:
    """Run MEMO_CHECK in a fresh interpreter: a RewriteMemo of `modules`, stepped to the end, then
    (`mode`) its memoized paths ("memo") or what import_rewritten("anyio.pytest_plugin") kept ("import";
    "import-bare": with only anyio imported before it, not the web stack)."""
    import subprocess

    script = tmp_path / "memo_check.py"
    script.write_text(MEMO_CHECK)
    proc = subprocess.run([sys.executable, str(script), str(warm.WORKER_SCRIPT), mode, *modules],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_worker_imports_the_plugin_once_and_only_with_the_memos_code(tmp_path):
    """import_rewritten keeps nothing when a module of the memoized package would load without the
    memo's code (here: its backend left out of the memo), and keeps the import when all of it has."""
    full = list(warm.REWRITE_ONCE)
    partial = [m for m in full if m != "anyio._backends._asyncio"]
    outs = [_memo_check(tmp_path, "import", modules) for modules in (partial, full)]
    assert outs[0] == {"imported": [], "in_sys_modules": False, "one_end_of_stream": True}
    assert "anyio.pytest_plugin" in outs[1]["imported"] and "anyio._backends._asyncio" in outs[1]["imported"]
    assert outs[1]["in_sys_modules"] is True and outs[1]["one_end_of_stream"] is True


def test_a_rolled_back_plugin_import_leaves_no_attribute_on_the_modules_it_removed_bug(tmp_path):
    """anyio caches what its __getattr__ imports lazily in its own namespace: a rolled-back import of
    its plugin (a module it needs not in the memo) left `anyio.EndOfStream` the class of a removed
    module, so whatever imported anyio next got a second anyio._core._exceptions (seen in #46 with
    the web stack imported after the plugin: TestClient's lifespan failed with EndOfStream in every
    warm session). Here only anyio itself is imported before the plugin, and the memo lacks a module."""
    partial = [m for m in warm.REWRITE_ONCE if m != "anyio._backends._asyncio"]
    out = _memo_check(tmp_path, "import-bare", partial)
    assert out["imported"] == [] and out["one_end_of_stream"] is True


def test_every_module_named_for_rewriting_once_is_memoized(tmp_path):
    """A misspelt or renamed entry of REWRITE_ONCE would silently be rewritten again in every
    session: each one must resolve to a file the memo holds (anyio.from_thread is imported by
    starlette.testclient in every session of a suite using TestClient)."""
    memoized = _memo_check(tmp_path, "memo", warm.REWRITE_ONCE)
    assert "anyio.from_thread" in warm.REWRITE_ONCE
    missing = [name for name in warm.REWRITE_ONCE if not any(
        path.endswith("/" + name.replace(".", "/") + ext) for path in memoized for ext in (".py", "/__init__.py"))]
    assert missing == []


MEMO_CHECK = r'''
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("warm_worker", sys.argv[1])
ww = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ww)
import anyio  # noqa: F401
if sys.argv[2] != "import-bare":
    import fastapi  # noqa: F401 - preloaded by the worker, and with it the anyio modules it needs
memo = ww.RewriteMemo(sys.argv[3:])
while memo.step():
    pass
if sys.argv[2] == "memo":
    print(json.dumps(sorted(memo.memo)))
else:
    got = memo.import_rewritten("anyio.pytest_plugin")
    import anyio._core._exceptions  # after a rollback: imported afresh, as a later import would
    print(json.dumps({"imported": sorted(got), "in_sys_modules": "anyio.pytest_plugin" in sys.modules,
                      "one_end_of_stream": anyio.EndOfStream is anyio._core._exceptions.EndOfStream}))
'''
