"""The warm worker's rewrite memo (harness/speed/warm/rewrite_cache.py): the first worker's helper memo
is kept in the harness process's memory, later workers of that process start from it, anything
that is not exactly a memo of these files' current bytes is never used — and (#46) nothing is kept
on disk, so no memo crosses runs."""

import importlib.util
import marshal
import sys
import tempfile

import pytest

from harness.speed.warm import rewrite_cache, workers as warm
from test_warm_worker import small_workspace  # noqa: E402 - tests/ is on pythonpath


def worker_rewrite_module():
    spec = importlib.util.spec_from_file_location("warm_rewrite_under_test", warm.WORKER_SCRIPT.with_name("rewrite_memo.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def a_memo(tmp_path):
    """A real memo (RewriteMemo.memoize_source) of one file, written as the worker writes it."""
    wr = worker_rewrite_module()
    source = tmp_path / "plugin_mod.py"
    source.write_text("def f(x):\n    assert x == 1\n    return x\n")
    memo = wr.RewriteMemo([])
    memo.memoize_source(str(source), source.read_bytes(), test=False)
    memo.take(dict(memo.memo))
    return wr, memo, source


def test_the_memo_a_worker_wrote_is_read_back_only_while_its_files_keep_their_bytes(tmp_path):
    wr, memo, source = a_memo(tmp_path)
    out = tmp_path / "memo.out"
    assert memo.write_cache(str(out))
    back = wr.RewriteMemo.read_cache(str(out))
    assert back is not None and set(back) == {str(source)} and back[str(source)][1] == source.read_bytes()
    source.write_text(source.read_text() + "assert 2 > 1\n")     # the plugin file changed since
    assert wr.RewriteMemo.read_cache(str(out)) is None
    out.write_bytes(b"\x00not marshal")
    assert wr.RewriteMemo.read_cache(str(out)) is None
    out.write_bytes(marshal.dumps({str(source): ("not", "a", "memo")}))
    assert wr.RewriteMemo.read_cache(str(out)) is None


@pytest.fixture(autouse=True)
def _no_kept_memo():
    """Each test starts as a new harness process does: no memo kept."""
    rewrite_cache.forget()
    yield
    rewrite_cache.forget()


def test_keep_stores_only_a_real_memo_in_memory_and_always_clears_the_scratch_copy(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    modules = ["pkg.plugin"]
    outroot = tmp_path / "outroot"
    outroot.mkdir()
    produced = outroot / rewrite_cache.OUT_NAME
    for bad in (b"garbage", marshal.dumps([1, 2]), marshal.dumps({"x.py": (1, b"s", "code")}), marshal.dumps({})):
        produced.write_bytes(bad)
        assert rewrite_cache.keep(outroot, modules) is False
        assert not produced.exists() and rewrite_cache._KEPT == {}
    _wr, memo, _source = a_memo(tmp_path)
    memo.write_cache(str(produced))
    assert rewrite_cache.keep(outroot, modules) is True
    assert list(rewrite_cache._KEPT.values()) == [marshal.dumps(memo.whole)] and not produced.exists()
    # a later worker gets a copy in its own scratch directory
    assert rewrite_cache.worker_options(outroot, modules) == [
        "--rewrite-from", str(outroot / rewrite_cache.IN_NAME), "--rewrite-to", str(outroot / rewrite_cache.OUT_NAME)]
    assert (outroot / rewrite_cache.IN_NAME).read_bytes() == marshal.dumps(memo.whole)
    assert rewrite_cache.memo_key(modules + ["other"]) != rewrite_cache.memo_key(modules)  # keyed by the list too
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()   # nothing on disk
    monkeypatch.setenv(rewrite_cache.ENV_OFF, "0")
    assert rewrite_cache.worker_options(outroot, modules) == []
    monkeypatch.setenv(rewrite_cache.ENV_OFF, "1")
    monkeypatch.setenv("HARNESS_SPEED", "0")
    assert rewrite_cache.worker_options(outroot, modules) == []


def test_cache_options_come_off_the_front_of_the_worker_args():
    wr = worker_rewrite_module()
    assert wr.cache_options(["--rewrite-to", "/o", "pytest", "--rewrite", "anyio.x"]) == (
        ["pytest", "--rewrite", "anyio.x"], None, "/o")
    assert wr.cache_options(["--rewrite-from", "/i", "fastapi"]) == (["fastapi"], "/i", None)
    assert wr.cache_options(["--rewrite-from", "/i", "--rewrite-to", "/o", "x"]) == (["x"], "/i", "/o")
    assert wr.cache_options(["pytest", "--rewrite-to", "/o"]) == (["pytest", "--rewrite-to", "/o"], None, None)


def serve_twice(ws):
    """(the worker's memo source, the reply) of one worker serving one pytest command."""
    worker = warm.WarmWorker(ws, {"PYTHONDONTWRITEBYTECODE": "1"})
    try:
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            reply = worker.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], ws, {}, 60,
                               out.fileno(), err.fileno(), ())
    finally:
        worker.stop()
    return worker.memo_source, reply


@pytest.mark.slow
def test_the_first_worker_fills_the_memo_later_ones_start_from_it_and_a_new_process_starts_without(tmp_path, monkeypatch):
    ws = small_workspace(tmp_path, "import anyio\n\n\ndef test_a():\n    assert anyio is not None\n",
                         requirements="fastapi\npytest\n")
    first, first_reply = serve_twice(ws)
    assert first == "miss" and rewrite_cache._KEPT
    second, second_reply = serve_twice(ws)
    assert second == "hit"
    assert first_reply["exit_code"] == second_reply["exit_code"] == 0
    assert second_reply["memoized_rewrites"] == first_reply["memoized_rewrites"] >= 2
    rewrite_cache.forget()                     # another run: another harness process
    third, third_reply = serve_twice(ws)
    assert third == "miss" and third_reply["exit_code"] == 0
    monkeypatch.setenv(rewrite_cache.ENV_OFF, "0")
    assert serve_twice(ws)[0] == "off"


def _poisoned_memo(marker):
    """A well-formed memo of anyio's pytest plugin, its real bytes, whose code writes `marker`."""
    import anyio.pytest_plugin

    wr = worker_rewrite_module()
    path = anyio.pytest_plugin.__file__
    data = open(path, "rb").read()
    memo = wr.RewriteMemo([])
    memo.memoize_source(path, data, test=False)
    source_hash, source, _code = memo.memo[path]
    poison = compile(data.decode() + f"\nopen({str(marker)!r}, 'w').write('poisoned')\n", path, "exec")
    return {path: (source_hash, source, poison)}


@pytest.mark.slow
def test_a_poisoned_rewrite_cache_from_one_run_does_not_reach_another(tmp_path, monkeypatch):
    """#46: one run (without bubblewrap) rewrote the kept memo under ~/.cache/app-builder-harness; a
    later run of another workspace executed the planted code. The memo is now never read from disk:
    a poisoned file where it used to be kept (HARNESS_CACHE_DIR, XDG_CACHE_HOME, ~/.cache) is not used."""
    import json
    import hashlib

    from _pytest._version import version as pytest_version

    import harness

    marker = tmp_path / "poison-ran"
    poisoned = marshal.dumps(_poisoned_memo(marker))
    rewriting = warm.WORKER_SCRIPT.with_name("rewrite_memo.py").read_bytes()
    key = json.dumps([sys.version, sys.implementation.cache_tag, pytest_version, harness.__version__,
                      hashlib.sha256(rewriting).hexdigest(), list(warm.REWRITE_ONCE)])
    name = f"rewrite-{hashlib.sha256(key.encode()).hexdigest()[:32]}.marshal"   # where it was kept until #46
    for base, env in ((tmp_path / "cache", "HARNESS_CACHE_DIR"), (tmp_path / "xdg", "XDG_CACHE_HOME")):
        target = base / name if env == "HARNESS_CACHE_DIR" else base / "app-builder-harness" / name
        target.parent.mkdir(parents=True)
        target.write_bytes(poisoned)
        monkeypatch.setenv(env, str(base))
    ws = small_workspace(tmp_path, "import anyio\n\n\ndef test_a():\n    assert anyio is not None\n",
                         requirements="fastapi\npytest\n")
    source, reply = serve_twice(ws)
    assert source == "miss" and reply["exit_code"] == 0
    assert not marker.exists()
