"""What the warm verification worker imports (harness side; the worker gets these names on its
command line from harness/speed/warm/workers.py): the packages per requirement name, the plugin modules
whose assertion-rewritten code it memoizes, and the harness's own plugin and its imports."""

from __future__ import annotations

# Requirement name -> modules the worker imports for it; a requirement missing here runs cold.
PRELOAD: dict[str, tuple[str, ...]] = {
    "pytest": ("pytest", "_pytest.python", "_pytest.terminal", "_pytest.fixtures", "_pytest.runner",
               "_pytest.junitxml", "_pytest.logging", "_pytest.capture", "_pytest.assertion.rewrite",
               "_pytest.pytester", "_pytest.tmpdir", "_pytest.monkeypatch", "_pytest.skipping",
               "_pytest.doctest", "_pytest.unittest", "_pytest.faulthandler", "_pytest.debugging"),
    "pytest-timeout": ("pytest_timeout",),
    # Not fastapi.testclient: importing it warns (httpx deprecation), and the warning belongs in the
    # child's pytest session, as in a cold run.
    "fastapi": ("fastapi", "fastapi.responses", "fastapi.staticfiles"),
    "starlette": ("starlette",),
    "pydantic": ("pydantic",),
    "httpx": ("httpx",),
    "uvicorn": ("uvicorn",),
    "anyio": ("anyio",),
}
# Modules a kept pytest plugin imports during every session, which pytest assertion-rewrites
# (they belong to a pytest11 distribution): the worker computes their rewritten code once
# (RewriteMemo in rewrite_memo.py, while the first child runs) instead of importing them. A missing or renamed one only costs time.
REWRITE_ONCE: tuple[str, ...] = (
    "anyio.pytest_plugin", "anyio._backends", "anyio._backends._asyncio", "anyio._backends._trio", "anyio._core._sockets",
    "anyio._core._streams", "anyio._core._resources", "anyio.abc._sockets", "anyio.abc._eventloop",
    "anyio.abc._subprocesses", "anyio.abc._testing", "anyio.streams", "anyio.streams.memory",
    "anyio.streams.stapled", "anyio.streams.tls",
    "anyio.from_thread")  # imported by starlette.testclient: every session of a suite using TestClient
# Kept plugins' entry modules the worker imports with that rewritten code once the memo is built
# (RewriteMemo.import_rewritten), so a child finds them imported, rewritten as in a cold session.
IMPORT_REWRITTEN: tuple[str, ...] = ("anyio.pytest_plugin",)
# Modules a preloaded package imports lazily in every session: FastAPI imports pydantic.v1 when it
# builds the first route (~75-190 ms a session). Best effort: one that fails or warns is left to
# the child, as before, and never makes a command run cold.
LAZY_IMPORTS: tuple[str, ...] = ("pydantic.v1",)
# Our plugin and what it imports. Preloaded plugins must hold no `assert` (they are not rewritten;
# test_warm_worker checks it) and no module-level state (each child gets them as imported) except
# pure caches the worker fills itself: pytest_harness.forgery's parse cache (`prime`, called before
# each evidence session is forked; a tree is used only for the exact source it was parsed from)
# and pytest_harness.measure's check sites of those trees.
HARNESS_DEPS = ("pytest_harness.plugin", "coverage", "coverage.control", "sqlite3", "tomllib", "json", "ast", "hashlib")
