"""The warm worker's side of pytest's assertion rewriting (stdlib only; loaded by warm_worker.py
by path, never as a package module inside the sandbox).

`RewriteMemo` computes, once, the assertion-rewritten code of third-party plugin modules pytest
would rewrite in every session, and answers the children's `_rewrite_test` from it;
`quiet_preloaded_rewrite_warning` keeps pytest from warning about the modules the worker preloaded.
"""

import os
import sys


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
    The worker fills the memo one module at a time while it waits for a child (`step`), so building
    it never delays a command: the children forked after that get it.
    """

    def __init__(self, modules):
        self.pending = list(modules)
        self.memo = {}

    def install(self):
        from _pytest.assertion import rewrite

        memo, real = self.memo, rewrite._rewrite_test

        def _rewrite_test(fn, config):
            hit = memo.get(str(fn))
            if hit is not None and not (config is not None and config.getini("enable_assertion_pass_hook")):
                try:
                    with open(fn, "rb") as f:
                        same = f.read() == hit[1]
                except OSError:
                    same = False
                if same:
                    return hit[0], hit[2]
            return real(fn, config)

        rewrite._rewrite_test = _rewrite_test
        return self

    def step(self):
        """Memoize the next pending module; False when none is left."""
        import ast
        import importlib.util

        from _pytest.assertion import rewrite

        if not self.pending:
            return False
        name = self.pending.pop(0)
        top, _, rest = name.partition(".")
        pkg = sys.modules.get(top)
        if not rest or name in sys.modules or pkg is None or not getattr(pkg, "__path__", None):
            return True
        base = os.path.join(list(pkg.__path__)[0], *rest.split("."))
        path = base + ".py" if os.path.isfile(base + ".py") else os.path.join(base, "__init__.py")
        try:
            with open(path, "rb") as f:
                source = f.read()
            tree = ast.parse(source, filename=path)
            rewrite.rewrite_asserts(tree, source, path, None)
            self.memo[path] = (importlib.util.source_hash(source), source,
                               compile(tree, path, "exec", dont_inherit=True))
        except (OSError, SyntaxError, ValueError):
            pass
        return True


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
