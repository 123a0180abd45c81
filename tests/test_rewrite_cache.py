"""#19: the warm worker's rewrite memo kept across workers (harness/sandbox/rewrite_cache.py): the
first worker's helper memo is kept, later workers start from it, and anything that is not exactly
a memo of these files' current bytes is never used."""

import importlib.util
import marshal
import sys
import tempfile

import pytest

from harness.sandbox import rewrite_cache, warm
from test_warm_worker import small_workspace  # noqa: E402 - tests/ is on pythonpath


def worker_rewrite_module():
    spec = importlib.util.spec_from_file_location("warm_rewrite_under_test", warm.WORKER_SCRIPT.with_name("warm_rewrite.py"))
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


def test_keep_stores_only_a_real_memo_and_always_clears_the_scratch_copy(tmp_path, monkeypatch):
    monkeypatch.setenv(rewrite_cache.ENV_DIR, str(tmp_path / "cache"))
    modules = ["pkg.plugin"]
    outroot = tmp_path / "outroot"
    outroot.mkdir()
    produced = outroot / rewrite_cache.OUT_NAME
    for bad in (b"garbage", marshal.dumps([1, 2]), marshal.dumps({"x.py": (1, b"s", "code")}), marshal.dumps({})):
        produced.write_bytes(bad)
        assert rewrite_cache.keep(outroot, modules) is False
        assert not produced.exists() and not rewrite_cache.cache_file(modules).exists()
    _wr, memo, _source = a_memo(tmp_path)
    memo.write_cache(str(produced))
    assert rewrite_cache.keep(outroot, modules) is True
    kept = rewrite_cache.cache_file(modules)
    assert kept.read_bytes() == marshal.dumps(memo.whole) and not produced.exists()
    # a later worker gets a copy in its own scratch directory, never the kept file itself
    assert rewrite_cache.worker_options(outroot, modules) == [
        "--rewrite-from", str(outroot / rewrite_cache.IN_NAME), "--rewrite-to", str(outroot / rewrite_cache.OUT_NAME)]
    assert (outroot / rewrite_cache.IN_NAME).read_bytes() == kept.read_bytes()
    assert rewrite_cache.cache_file(modules + ["other"]) != kept      # keyed by the module list too
    monkeypatch.setenv(rewrite_cache.ENV_OFF, "0")
    assert rewrite_cache.worker_options(outroot, modules) == []


def test_a_cache_directory_that_cannot_be_made_keeps_nothing_and_breaks_nothing(tmp_path, monkeypatch):
    blocker = tmp_path / "a_file"
    blocker.write_text("")
    monkeypatch.setenv(rewrite_cache.ENV_DIR, str(blocker / "cache"))
    outroot = tmp_path / "outroot"
    outroot.mkdir()
    _wr, memo, _source = a_memo(tmp_path)
    memo.write_cache(str(outroot / rewrite_cache.OUT_NAME))
    assert rewrite_cache.keep(outroot, ["pkg.plugin"]) is False
    assert rewrite_cache.worker_options(outroot, ["pkg.plugin"]) == ["--rewrite-to", str(outroot / rewrite_cache.OUT_NAME)]


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
def test_the_first_worker_fills_the_cache_later_ones_start_from_it_and_a_corrupt_one_is_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv(rewrite_cache.ENV_DIR, str(tmp_path / "cache"))
    ws = small_workspace(tmp_path, "import anyio\n\n\ndef test_a():\n    assert anyio is not None\n",
                         requirements="fastapi\npytest\n")
    kept = rewrite_cache.cache_file(warm.REWRITE_ONCE)
    first, first_reply = serve_twice(ws)
    assert first == "miss" and kept.is_file()
    second, second_reply = serve_twice(ws)
    assert second == "hit"
    assert first_reply["exit_code"] == second_reply["exit_code"] == 0
    assert second_reply["memoized_rewrites"] == first_reply["memoized_rewrites"] >= 2
    kept.write_bytes(b"corrupt")
    third, third_reply = serve_twice(ws)
    assert third == "miss" and third_reply["exit_code"] == 0
    assert rewrite_cache.is_memo(marshal.loads(kept.read_bytes()))   # the helper's memo replaced it
    monkeypatch.setenv(rewrite_cache.ENV_OFF, "0")
    assert serve_twice(ws)[0] == "off"
