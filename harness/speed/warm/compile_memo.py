"""The warm worker's memo of compiled workspace modules (stdlib only; loaded by worker.py by
path, never as a package module inside the sandbox).

Verification runs with PYTHONDONTWRITEBYTECODE=1 (a pyc is trusted on mtime + size), so every
session compiled every workspace module it imported from source: at 20 entities src/models.py
alone is ~80 ms, imported by every session. `CompileMemo.prime` compiles the workspace's modules
whose bytes are new in the worker (compiling runs no workspace code) before a session is forked;
after `install()` the children's `SourceLoader.source_to_code` answers from the memo only for the
same path and the same bytes, compiled exactly as the loader would (`compile(data, path, "exec",
dont_inherit=True)`). Test modules are left alone: pytest rewrites and compiles those itself
(RewriteMemo in rewrite_memo.py).
"""

import os

_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "venv", "evidence", "site-packages"})


def is_test_module(name):
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


class CompileMemo:
    """{path: (source bytes, code)} of the workspace's non-test modules."""

    def __init__(self):
        self.memo = {}

    def install(self):
        from importlib import _bootstrap_external

        memo, real = self.memo, _bootstrap_external.SourceLoader.source_to_code

        def source_to_code(loader, data, path, *, _optimize=-1):
            hit = memo.get(path)
            if hit is not None and _optimize == -1 and isinstance(data, bytes) and hit[0] == data:
                return hit[1]
            return real(loader, data, path, _optimize=_optimize)

        _bootstrap_external.SourceLoader.source_to_code = source_to_code
        return self

    def prime(self, root):
        """Compile every non-test .py file under `root` whose bytes are not memoized yet (a file
        that does not compile is left to the importer); the number compiled."""
        done = 0
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS and not d.startswith(".")]
            for name in filenames:
                if not name.endswith(".py") or is_test_module(name):
                    continue
                path = os.path.join(dirpath, name)
                try:
                    with open(path, "rb") as f:
                        data = f.read()
                except OSError:
                    self.memo.pop(path, None)
                    continue
                done += self.memoize_source(path, data)
        return done

    def memoize_source(self, path, data):
        """Compile `data` as the module at `path` unless those bytes are memoized already (also
        for a file not written yet: the harness's expected files); 1 when compiled now."""
        hit = self.memo.get(path)
        if hit is not None and hit[0] == data:
            return 0
        try:
            self.memo[path] = (data, compile(data, path, "exec", dont_inherit=True))
        except (SyntaxError, ValueError):
            self.memo.pop(path, None)
            return 0
        return 1


def warm_tokenize():
    """Compile tokenize's patterns in the worker, not in every child (~8 ms each):
    `inspect.getsourcelines` (FastAPI, on an endpoint's first request; pytest, on a traceback)
    tokenizes. A stdlib cache."""
    import io
    import tokenize

    list(tokenize.generate_tokens(io.StringIO("x = 1\n").readline))
