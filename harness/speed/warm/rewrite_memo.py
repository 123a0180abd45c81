"""The warm worker's side of pytest's assertion rewriting (stdlib only; loaded by worker.py
by path, never as a package module inside the sandbox).

`RewriteMemo` computes, once, the assertion-rewritten code of third-party plugin modules pytest
would rewrite in every session, and of the workspace's test modules (again only when their bytes
changed), and answers the children's `_rewrite_test` from it;
`quiet_preloaded_rewrite_warning` keeps pytest from warning about the modules the worker preloaded.
"""

import os
import sys

_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "venv", "evidence"})


class RewriteMemo:
    """Assertion-rewritten code of third-party plugin modules, computed here exactly as pytest would.

    pytest marks every module of a pytest11 plugin's distribution for assertion rewriting, so each
    session re-parses, rewrites and compiles the same third-party files (anyio's plugin pulls in its
    asyncio backend: ~0.3-1 s a session). The worker cannot import them (a preloaded module is not
    rewritten), but it can compute the rewritten code: `rewrite_asserts` + `compile`, as pytest's
    `_rewrite_test` does, whose output depends only on the source bytes, the path and the
    `enable_assertion_pass_hook` ini option. After `install()`, the children's `_rewrite_test`
    answers from the memo when the file still has the same bytes and the option is off; anything
    else is rewritten as usual. Modules already imported here, or whose package is not, are skipped.
    The worker fills it in a forked helper while it imports the packages (`start_helper`, `absorb`:
    the second core does the rewriting, so the first child gets the memo too); if the helper fails,
    it fills the memo one module at a time while it waits for a child (`step`), so building it never
    delays a command: the children forked after that get it.
    """

    def __init__(self, modules):
        self.pending = list(modules)
        self.memo = {}
        self.tests = set()  # paths of the workspace test modules in the memo
        self.whole = None   # the helper's or the cache's memo as taken (`take`), for `write_cache`

    def plugin_count(self):
        """How many third-party plugin modules are memoized (test modules not counted)."""
        return len(self.memo) - len(self.tests)

    def install(self):
        from _pytest.assertion import rewrite

        memo, real = self.memo, rewrite._rewrite_test

        def _rewrite_test(fn, config):
            hit = memo.get(str(fn))
            if hit is not None and not (config is not None and config.getini("enable_assertion_pass_hook")) \
                    and has_bytes(fn, hit[1]):
                return hit[0], hit[2]
            return real(fn, config)

        rewrite._rewrite_test = _rewrite_test
        return self

    def step(self):
        """Memoize the next pending module; False when none is left."""
        if not self.pending:
            return False
        name = self.pending.pop(0)
        top, _, rest = name.partition(".")
        pkg = sys.modules.get(top)
        if not rest or name in sys.modules or pkg is None or not getattr(pkg, "__path__", None):
            return True
        base = os.path.join(list(pkg.__path__)[0], *rest.split("."))
        self._memoize(base + ".py" if os.path.isfile(base + ".py") else os.path.join(base, "__init__.py"), test=False)
        return True

    def start_helper(self):
        """Fork a helper that imports the pending modules' packages and memoizes them (`step`), then
        writes the memo (marshal) to a pipe and exits; (pid, read fd), or None when fork fails. Call
        before the worker's own imports, so both run at once; the helper runs no workspace code."""
        import marshal

        try:
            r, w = os.pipe()
            pid = os.fork()
        except OSError:
            return None
        if pid:
            os.close(w)
            return pid, r
        code = 1
        try:
            os.close(r)
            for top in dict.fromkeys(name.partition(".")[0] for name in self.pending):
                try:
                    __import__(top)
                except Exception:  # noqa: BLE001 - a package that does not import is not memoized
                    pass
            while self.step():
                pass
            with os.fdopen(w, "wb") as out:
                out.write(marshal.dumps(self.memo))
            code = 0
        finally:
            os._exit(code)

    def absorb(self, helper):
        """Take the helper's memo (after the worker's imports; `take`). True when it worked;
        otherwise `pending` is left for `step`, as without a helper."""
        import marshal

        if helper is None:
            return False
        pid, fd = helper
        try:
            with os.fdopen(fd, "rb") as pipe:
                data = pipe.read()
            _pid, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) != 0:
                return False
            memo = marshal.loads(data)
        except (OSError, EOFError, ValueError, TypeError):
            return False
        return self.take(memo)

    def take(self, memo):
        """Take a whole memo of the pending modules (the helper's, or a cached one): the entries
        whose module the worker did not import itself (an imported one is never rewritten in a
        child). `whole` keeps all of it for `write_cache`."""
        imported = {os.path.abspath(f) for m in list(sys.modules.values())  # vars(): never a module __getattr__
                    if isinstance(f := vars(m).get("__file__"), str)}
        self.memo.update({path: hit for path, hit in memo.items() if path not in imported})
        self.whole = memo
        self.pending = []
        return True

    @staticmethod
    def read_cache(path):
        """The whole memo an earlier worker wrote (`write_cache`), when every file it holds still
        has exactly those bytes; None otherwise (the helper then rewrites them, as without one)."""
        import marshal

        try:
            with open(path, "rb") as f:
                memo = marshal.loads(f.read())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if not is_memo(memo) or not all(has_bytes(file, hit[1]) for file, hit in memo.items()):
            return None
        return memo

    def write_cache(self, path):
        """Write the whole memo taken from the helper to `path` (atomically), for later workers."""
        import marshal

        if not self.whole:
            return False
        try:
            with open(path + ".part", "wb") as f:
                f.write(marshal.dumps(self.whole))
            os.replace(path + ".part", path)
        except (OSError, ValueError):
            return False
        return True

    def prime_tests(self, root, args):
        """Before a session is forked: memoize the test modules it may collect whose bytes are new
        (the .py files its arguments name and every conftest.py; all test files when it names none).
        Verification runs with PYTHONDONTWRITEBYTECODE=1, so every session re-rewrote every test
        file it collected (at 20 entities ~0.35 s a test_api file, several seconds for the whole
        suite). Parsing, rewriting and compiling run no workspace code; a `--assert=plain` session
        rewrites nothing. The number rewritten."""
        if "--assert=plain" in args or any(a == "--assert" and b == "plain" for a, b in zip(args, args[1:])):
            return 0
        named = [os.path.join(root, a.split("::")[0]) for a in args
                 if not a.startswith("-") and a.split("::")[0].endswith(".py")]
        done = sum(self._memoize(path) for path in named if os.path.isfile(path))
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")]
            for name in filenames:
                if name == "conftest.py" or (not named and name.endswith(".py") and (
                        name.startswith("test_") or name.endswith("_test.py"))):
                    done += self._memoize(os.path.join(dirpath, name))
        return done

    def _memoize(self, path, test=True):
        """Memoize one file unless its bytes are already; 1 when it was rewritten now."""
        try:
            with open(path, "rb") as f:
                source = f.read()
        except OSError:
            if self.memo.pop(path, None) is not None:
                self.tests.discard(path)
            return 0
        return self.memoize_source(path, source, test)

    def memoize_source(self, path, source, test=True):
        """Memoize `source` as the file at `path` (also for a file not written yet: the harness's
        expected files) unless those bytes are already; 1 when it was rewritten now."""
        import ast
        import importlib.util

        from _pytest.assertion import rewrite

        try:
            hit = self.memo.get(path)
            if hit is not None and hit[1] == source:
                return 0
            tree = ast.parse(source, filename=path)
            rewrite.rewrite_asserts(tree, source, path, None)
            self.memo[path] = (importlib.util.source_hash(source), source,
                               compile(tree, path, "exec", dont_inherit=True))
        except (SyntaxError, ValueError):
            if self.memo.pop(path, None) is not None:
                self.tests.discard(path)
            return 0
        if test:
            self.tests.add(path)
        return 1

    def import_rewritten(self, name):
        """Import plugin module `name` here as a cold session's pytest imports it: every module it
        pulls in that the memo holds runs the memo's rewritten code (`_MemoFinder`). The children
        then find it imported instead of re-running ~15 modules a session (anyio's plugin and its
        asyncio backend: ~40-80 ms each). The names it imported; none (and nothing kept) when the
        import failed, warned (a cold session would show that warning) or imported a module of a
        memoized package without the memo's code (it would not be rewritten, unlike a cold run's)."""
        import warnings

        before = set(sys.modules)
        packages = {_package_of(path) for path in self.memo} - {""}
        # The memoized packages' modules imported before (anyio itself): a package that caches its
        # lazily imported attributes (anyio >= 4.x's __getattr__) must not keep, after a rollback,
        # classes of the modules rolled back (two EndOfStream classes: TestClient's lifespan failed).
        kept = {m: dict(vars(mod)) for m, mod in list(sys.modules.items())
                if _package_of(vars(mod).get("__file__") or "") in packages}
        finder = _MemoFinder(self.memo)
        sys.meta_path.insert(0, finder)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                __import__(name)
            ok = not caught
        except Exception:  # noqa: BLE001 - a plugin that does not import is simply left to the children
            ok = False
        finally:
            sys.meta_path.remove(finder)
        new = [m for m in list(sys.modules) if m not in before]
        unrewritten = [m for m in new if m not in finder.served
                       and _package_of(getattr(sys.modules[m], "__file__", None) or "") in packages]
        if ok and not unrewritten and name in finder.served:
            return new
        for m in new:
            sys.modules.pop(m, None)
        for m, namespace in kept.items():
            vars(sys.modules[m]).clear()
            vars(sys.modules[m]).update(namespace)
        return []


class _MemoFinder:
    """A meta-path finder that loads a module whose file the memo holds (same bytes) from the memo's
    rewritten code; `served` names the modules it loaded. Any other module: the usual finders."""

    def __init__(self, memo):
        self.memo = memo
        self.served = set()

    def find_spec(self, fullname, path=None, target=None):
        import importlib.machinery
        import importlib.util

        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        origin = getattr(spec, "origin", None)
        hit = self.memo.get(origin) if origin else None
        if hit is None or not has_bytes(origin, hit[1]):
            return None
        return importlib.util.spec_from_file_location(
            fullname, origin, loader=_MemoLoader(hit[2], self.served),
            submodule_search_locations=spec.submodule_search_locations)


class _MemoLoader:
    def __init__(self, code, served):
        self.code, self.served = code, served

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(self.code, module.__dict__)
        self.served.add(module.__name__)


def _package_of(path):
    """The top-level directory below site-packages a module file belongs to ('' when unknown)."""
    parts = os.path.abspath(path).split(os.sep) if path else []
    return next((parts[i + 1] for i in range(len(parts) - 1, -1, -1)
                 if parts[i] in ("site-packages", "dist-packages") and i + 1 < len(parts)), "")


def has_bytes(path, data):
    """True when the file at `path` holds exactly `data` (a memo entry is used only then)."""
    try:
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


def is_memo(memo):
    """{path: (source hash, source bytes, code)}, non-empty: what `write_cache` writes."""
    import types

    return isinstance(memo, dict) and bool(memo) and all(
        isinstance(path, str) and isinstance(hit, tuple) and len(hit) == 3 and isinstance(hit[1], bytes)
        and isinstance(hit[2], types.CodeType) for path, hit in memo.items())


def cache_options(args):
    """(args, --rewrite-from PATH, --rewrite-to PATH): the memo cache options the harness puts
    first on the worker's command line (harness/speed/warm/rewrite_cache.py), taken off the args."""
    found = {"--rewrite-from": None, "--rewrite-to": None}
    while len(args) > 1 and args[0] in found:
        found[args[0]], args = args[1], args[2:]
    return args, found["--rewrite-from"], found["--rewrite-to"]


def memoize_rewrites(modules):
    """Install a memo of `modules` and fill it now; the paths memoized."""
    memo = RewriteMemo(modules).install()
    while memo.step():
        pass
    return sorted(memo.memo)


def quiet_preloaded_rewrite_warning(preloaded):
    """A preloaded plugin or plugin dependency (pytest_harness, anyio) cannot be marked for assertion
    rewriting; a cold run would rewrite asserts inside it. Say nothing about those modules only."""
    from _pytest.assertion.rewrite import AssertionRewritingHook

    warn = AssertionRewritingHook._warn_already_imported

    def _warn_unless_preloaded(self, name):
        if name not in preloaded:
            warn(self, name)

    AssertionRewritingHook._warn_already_imported = _warn_unless_preloaded
