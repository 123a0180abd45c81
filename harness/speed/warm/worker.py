"""The warm verification worker: run as a script inside the sandbox, stdlib only.

It imports pytest and the workspace's third-party packages once, never a workspace module, and
never runs a pytest session itself. Each request (a JSON message on the control socket, with the
command's stdout/stderr and optional digest pipe passed as file descriptors) is served by a forked
child that turns itself into a fresh `python -m pytest`: its own session and mount namespace
(child_isolation.py), the workspace as cwd and sys.path[0], the passed fds at the numbers the argv
names, `runpy` running pytest's `__main__`. Preloaded pytest11 plugins (ours, pytest-timeout) are
not assertion-rewritten as in a cold run; only plugins without an `assert` are preloaded, so that
changes nothing. The worker waits with the request's timeout, then ends the child the way the
sandbox ends a command (SIGTERM to everything it started, SIGKILL after a grace period, a sweep of
every descendant: the worker is their subreaper). Reply: {"exit_code", "timed_out"}. When the
harness hangs up the socket meanwhile (it stopped the worker), the child is killed and it ends.

Usage: python worker.py CONTROL_FD [--rewrite-from PATH] [--rewrite-to PATH] MODULE...
    [--rewrite MODULE...] [--import-rewritten MODULE...]

Modules after `--rewrite` are not imported: their assertion-rewritten code is computed once, by a
forked helper while the worker imports (or, if that fails, while the first child runs), and handed
to each child's pytest (RewriteMemo in rewrite_memo.py); an earlier worker's memo of them, kept by
the harness (`--rewrite-from`, harness/speed/warm/rewrite_cache.py), replaces the helper when its
files still have those bytes, and a helper's memo goes to `--rewrite-to` before the ready message.
Modules after `--import-rewritten` (a kept plugin's entry module) are then imported here with that
rewritten code, as a cold session would import them, so no child imports them again.
The workspace's test modules a session may collect are rewritten the same way before it is forked,
once per version of their bytes (verification runs with PYTHONDONTWRITEBYTECODE=1: no pyc), and its
other modules compiled (CompileMemo in compile_memo.py). Files the harness says it is about to
write (an {"expect": [[root, relpath, text], ...]} message, no reply) are memoized the same way,
and parsed for the forgery scan, while a child runs (`_idle`): a later session is then forked
without that work, and an entry is used only for a file with exactly those bytes. The installed
distributions' metadata and sysconfig's install paths, which every session reads alike, are
memoized (metadata_memo.py); so is pytest's initial Config (config_ahead.py).
"""

import ctypes
import fcntl
import gc
import json
import os
import shutil
import signal
import socket
import sys
import tempfile
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
TERM_GRACE_S = 1.0
MAX_MSG = 1 << 20
BASE_TMP = tempfile.gettempdir()


def preload(modules):
    """Import `modules` (best effort); the names that imported without a warning (a cold run would
    show that warning inside its pytest session, so the harness runs such a workspace cold)."""
    import warnings

    done = []
    for name in modules:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                __import__(name)
            except Exception:  # noqa: BLE001 - a package the worker cannot import is simply not warm
                continue
        if not caught:
            done.append(name)
    return done


def _sibling(name):
    """A stdlib-only module beside this script, loaded by its path under a private name: the
    script's directory is never on sys.path (nothing is imported from it on the workspace's behalf)."""
    import importlib.util

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name + ".py")
    spec = importlib.util.spec_from_file_location("_harness_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_rewrite = _sibling("rewrite_memo")   # the pytest assertion-rewriting side: RewriteMemo and friends
RewriteMemo = _rewrite.RewriteMemo
memoize_rewrites = _rewrite.memoize_rewrites
_MEMO = None  # the worker's RewriteMemo (None: no rewriting to memoize)
_compile = _sibling("compile_memo")
_COMPILED = _compile.CompileMemo()  # the workspace's compiled modules, by path and bytes
_COMPILED_IS_TEST = _compile.is_test_module  # rewritten by pytest, not compiled by the importer
_procs = _sibling("process_tree")      # the worker's process tree: descendants, sweeps
_CONFIG = _sibling("config_ahead").ConfigAhead()  # pytest's initial Config, made once per key
_FIXTURES = _sibling("fixture_scan").FixtureScan()  # what the fixture scan acts on, per plugin module
_fds = _sibling("child_fds")          # a child's inherited fds: placed at their numbers, the rest closed
_isolate = _sibling("child_isolation")  # a child's own /tmp, HOME and outbox (mount namespace)
_CLONES = set()                     # pids of the live clones forked from this worker (serve_clone)


def _clones():  # the live clones (an ended one is forgotten once reaped: pids are not reused this soon)
    _CLONES.intersection_update(pid for pid in list(_CLONES) if os.path.exists(f"/proc/{pid}"))
    return frozenset(_CLONES)


def descendants():  # live (non-zombie) pids below this worker, its clones' subtrees left out
    return _procs.descendants(_clones())


def sweep():  # SIGKILL every descendant (not a clone's) until none is left; reap them
    _procs.sweep(_clones())


_AFTER_REPLY = []  # the ended children's TMPDIRs: removed after their reply, before the next request


def serve_one(request, fds, control=None):
    """Fork, run the command in the child, end what it left; the reply ({"hung_up": True} when the
    harness hung up `control` meanwhile: it stopped this worker, the child was killed at once)."""
    ready_r, ready_w = os.pipe()
    # A cold command starts with an empty private /tmp; each child gets a fresh TMPDIR instead, so
    # pytest's basetemp numbering and cleanup never see what an earlier child left behind.
    tmpdir = tempfile.mkdtemp(prefix="harness-child-", dir=BASE_TMP)
    if any(a.startswith("--harness-evidence") for a in request["args"]):
        _prime_parse_cache(request["cwd"])
    tests = _prime_test_rewrites(request)
    try:
        compiled = _COMPILED.prime(request["cwd"])
    except Exception:  # noqa: BLE001 - a failure only costs the child the compiling
        compiled = 0
    # Everything the worker holds (preloaded modules, the rewrite memo) goes to the permanent
    # generation: a child's collections never traverse it (pytest's gc.collect() at unconfigure
    # took ~0.2 s a session over the preloaded heap) and its pages stay shared with the worker.
    ahead = _CONFIG.prepare(request["cwd"], request["args"], request["env"])
    _FIXTURES.prepare()
    gc.freeze()
    pid = os.fork()
    if pid == 0:
        os.close(ready_r)
        os.environ["TMPDIR"] = tmpdir
        tempfile.tempdir = None
        _child(request, fds, ready_w)  # never returns
    os.close(ready_w)
    for fd in fds:
        os.close(fd)
    _collect_once()
    memoized = _MEMO.plugin_count() if _MEMO is not None else 0  # what this child got at fork time
    status = _procs.wait_child(pid, request["timeout_s"], _idle, hangup=control)
    if status is None and control is not None and _procs.hung_up(control):
        sweep()  # SIGKILL to the child and all it started, reaped
        return {"hung_up": True}
    timed_out = status is None
    if timed_out:
        _procs.signal_all(descendants(), signal.SIGTERM)
        status = _procs.wait_child(pid, TERM_GRACE_S)
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if status is None:
            os.kill(pid, signal.SIGKILL)
            status = _procs.wait_child(pid, 60)
    sweep()
    _AFTER_REPLY.append(tmpdir)  # removed once the reply is sent (serve): 3-16 ms off every command
    set_up = _fds.read_all(ready_r)
    code = _procs.exit_code(status) if status is not None else None
    if not set_up.startswith(b"ok"):  # the child never became pytest: not the command's outcome
        return {"setup_failed": set_up.decode("utf-8", "replace") or "child died during setup"}
    return {"exit_code": None if timed_out else code, "timed_out": timed_out, "memoized_rewrites": memoized,
            "rewritten_tests": tests, "compiled_modules": compiled, "expected_left": len(_EXPECTED),
            "config_ahead": ahead}


_COLLECT_PENDING = False
_CACHE = "off"  # where the plugin rewrite memo came from: "hit" (the harness's cache), "miss", "off"


def _collect_once():
    """Collect the import-time garbage once, in the worker, while its first child runs (a
    collection over the preloaded heap took 60-80 ms before the worker said ready, on the first
    task's critical path). That child and every child after keep a frozen heap (serve_one): the
    first one's holds the garbage, uncollected, as its memory; the later ones' do not."""
    global _COLLECT_PENDING
    if _COLLECT_PENDING:
        _COLLECT_PENDING = False
        gc.unfreeze()
        gc.collect()


def _prime_parse_cache(cwd):
    """Let the forgery scan find the workspace's modules already parsed (pytest_harness.forgery.prime,
    when preloaded): reading and parsing runs no workspace code; a failure costs the child the parse."""
    prime = getattr(sys.modules.get("pytest_harness.forgery"), "prime", None)
    if prime is not None:
        try:
            prime(cwd)
        except Exception:  # noqa: BLE001
            pass


_EXPECTED = []  # [root, relpath, text] of files the harness expects to write: memoized when idle


def _idle():
    """Short work while a child runs (False when none is left): the plugin rewrites still to
    memoize, then the next expected file."""
    if _MEMO is not None and _MEMO.step():
        return True
    if not _EXPECTED:
        return False
    root, rel, text = _EXPECTED.pop(0)
    try:
        _expect(root, rel, text)
    except Exception:  # noqa: BLE001 - a failure only costs a later session the work
        pass
    return True


def _expect(root, rel, text):
    """Memoize a file before it is written, as the pre-fork priming would once it is: test modules
    rewritten, other modules compiled, every module parsed for the forgery scan. Nothing runs; a
    memo entry is used only for a file with exactly these bytes."""
    if not rel.endswith(".py"):
        return
    path, data = os.path.join(root, rel), text.encode("utf-8")
    if _COMPILED_IS_TEST(os.path.basename(rel)):
        if _MEMO is not None:
            _MEMO.memoize_source(path, data)
    else:
        _COMPILED.memoize_source(path, data)
    remember = getattr(sys.modules.get("pytest_harness.forgery"), "remember", None)
    if remember is not None:
        remember(root, rel, text)


def _prime_test_rewrites(request):
    """Memoize the rewritten code of the test modules this session may collect (RewriteMemo.
    prime_tests); how many were rewritten now. A failure only costs the child the rewriting."""
    if _MEMO is None:
        return 0
    try:
        return _MEMO.prime_tests(request["cwd"], list(request["args"]))
    except Exception:  # noqa: BLE001
        return 0


def _child(request, fds, ready_w):
    """Become `python -m pytest ARGS` in the workspace; exit with its code. `ready_w` gets "ok" once
    the child is set up (or the setup error): only then is its exit code the command's."""
    code = 1
    try:
        os.setsid()
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # like a cold command: it never outlives its parent
        try:  # its own /tmp, HOME and outbox under bubblewrap
            _isolate.enter(request)
        except OSError as exc:
            os.write(ready_w, f"cannot isolate the session: {exc}".encode())
            raise
        try:
            os.chdir(request["cwd"])
        except OSError as exc:
            os.write(ready_w, f"cannot enter the workspace: {exc}".encode())
            raise
        devnull = os.open(os.devnull, os.O_RDONLY)
        ready_hi = fcntl.fcntl(ready_w, fcntl.F_DUPFD_CLOEXEC, 256)
        os.close(ready_w)
        _fds.place([devnull, *fds], [0, 1, 2, *request["extra_fd_targets"]], keep=(ready_hi,))
        _fds.fresh_stdio()
        os.environ.update(request["env"])
        sys.path.insert(0, request["cwd"])
        _rewrite.quiet_preloaded_rewrite_warning(set(sys.modules))
        sys.argv = ["-m", *request["args"]]
        _CONFIG.install(request["cwd"], request["args"])
        _FIXTURES.install()
        os.write(ready_hi, b"ok")
        os.close(ready_hi)
        code = _run_pytest()
    except BaseException as exc:  # noqa: BLE001 - the child must never return into the worker's loop
        try:
            import traceback

            sys.stderr.write(f"warm worker child failed: {exc!r}\n{traceback.format_exc()}")
        except Exception:  # noqa: BLE001
            pass
    finally:
        _fds.exit_child(code)


def _run_pytest():
    import runpy

    try:
        runpy.run_module("pytest", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None:
            return 0
        if isinstance(exc.code, int):
            return exc.code
        sys.stderr.write(f"{exc.code}\n")
        return 1
    return 0


def _prctl(option, arg):
    try:
        ctypes.CDLL(None, use_errno=True).prctl(option, arg, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def main(argv):
    _prctl(PR_SET_DUMPABLE, 0)  # no child (same uid, no capability) reads its memory or takes its fds
    control = socket.socket(fileno=int(argv[1]))
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        del sys.path[0]  # the script's own directory: never import from it on the workspace's behalf
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    args, cache_from, cache_to = _rewrite.cache_options(argv[2:])
    late = args.index("--import-rewritten") if "--import-rewritten" in args else len(args)
    args, import_rewritten = args[:late], args[late + 1:]
    cut = args.index("--rewrite") if "--rewrite" in args else len(args)
    memo = RewriteMemo(args[cut + 1:])
    cached = memo.read_cache(cache_from) if cache_from and memo.pending else None
    helper = memo.start_helper() if memo.pending and cached is None else None  # the other core, meanwhile
    imported = preload(args[:cut])
    _COMPILED.install()
    try:
        metadata = _sibling("metadata_memo")
        metadata.MetadataMemo().install()
        metadata.memoize_install_paths()
    except Exception:  # noqa: BLE001 - without the memos, children read the metadata themselves
        pass
    global _MEMO, _CACHE
    _CACHE = "hit" if cached is not None else "miss" if cache_from or cache_to else "off"
    if "_pytest.assertion.rewrite" in imported and memo.pending:
        if memo.take(cached) if cached is not None else memo.absorb(helper):  # else filled later
            if cached is None and cache_to:
                memo.write_cache(cache_to)  # before any child exists: the harness keeps it (rewrite_cache)
            for name in import_rewritten:
                imported += memo.import_rewritten(name)
        _MEMO = memo.install()
    elif helper is not None:
        memo.absorb(helper)  # reap it; nothing rewrites here
    _compile.warm_tokenize()
    global _COLLECT_PENDING
    _COLLECT_PENDING = True  # the import-time garbage goes while the first child runs (_collect_once)
    return serve(control, imported)


def serve(control, imported):
    """Say ready, then serve the requests on `control` until the harness closes it."""
    control.sendall(json.dumps({"ready": True, "imported": imported, "rewrite_cache": _CACHE}).encode())
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(control, MAX_MSG, 8)
        except OSError:
            return 0
        if not data:
            return 0
        request = json.loads(data)
        if "expect" in request:  # files the harness will write (no reply): memoized while idle
            _EXPECTED.extend(request["expect"])
            continue
        if request.get("clone"):
            reply = serve_clone(control, list(fds), imported)
        else:
            reply = serve_one(request, list(fds), control)
            if reply.get("hung_up"):  # nobody reads a reply: end
                return 0
        control.sendall(json.dumps(reply).encode())
        while _AFTER_REPLY:  # before the next request is read: the next child never sees them
            shutil.rmtree(_AFTER_REPLY.pop(), ignore_errors=True)


def serve_clone(control, fds, imported):
    """Fork a clone: a second worker in this sandbox, with these imports and memos, serving the
    socket passed in `fds` (the harness holds its other end) — another directory this sandbox binds
    served at the same time as this one's, without a second start-up. The clone is its children's
    subreaper, dies with this worker (PDEATHSIG; under bwrap the whole PID namespace does) and
    ends when the harness closes its socket. Reply: {"clone": pid}."""
    if len(fds) != 1:
        for fd in fds:
            os.close(fd)
        return {"clone_failed": "expected one socket"}
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            control.close()
            _CLONES.clear()
            _prctl(PR_SET_CHILD_SUBREAPER, 1)
            _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
            code = serve(socket.socket(fileno=fds[0]), imported)
        finally:
            os._exit(code)
    os.close(fds[0])
    _CLONES.add(pid)
    return {"clone": pid}


if __name__ == "__main__":
    sys.exit(main(sys.argv))
