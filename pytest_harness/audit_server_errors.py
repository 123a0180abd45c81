"""In an audit session, an HTTP app's unhandled exception is answered as a 500, not raised into the
test (#47: a kill is a test's check failing, pytest_harness/mutation_child.py).

Starlette's ServerErrorMiddleware (the outermost layer of every FastAPI/Starlette app) sends a 500
response for an exception the app did not handle and then raises it again, so that a test client
(Starlette's TestClient, the generated tests' InThreadClient) can raise it inside the test. A
mutant that makes the app raise then ends the test with a crash wherever it happens — inside an
honest `assert r.status_code == 201` and inside a hollow `assert x or not x` alike — and a crash
is not a kill. With the raise left out, the test gets the 500 a real server would answer: the
honest check fails on it (a kill), the hollow one passes (a survivor).

Applied by the audit session's runner before its first fork, so every fork — each mutant's and
the original code's — runs with it: it tells the code under test "an audit", never which run.
Only when the session already imported Starlette (an app's tests import it at collection), so a
project without one pays nothing.
"""

from __future__ import annotations

import sys

MARK = "_harness_answers_server_errors"


def answer_server_errors() -> bool:
    """Make ServerErrorMiddleware end with its 500 response instead of raising again; whether the
    session has Starlette (imported) to patch."""
    errors = sys.modules.get("starlette.middleware.errors")
    middleware = getattr(errors, "ServerErrorMiddleware", None)
    if middleware is None:
        return False
    original = middleware.__call__
    if getattr(original, MARK, False):
        return True

    async def answer(self, scope, receive, send):
        try:
            await original(self, scope, receive, send)
        except Exception:  # noqa: BLE001 - answered above as a 500, as a server does
            if scope.get("type") != "http":
                raise

    setattr(answer, MARK, True)
    middleware.__call__ = answer
    return True
