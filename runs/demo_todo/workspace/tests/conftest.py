"""Shared fixtures: a throw-away SQLite file per test and small apps built from routers.

APP_PASSWORD_HASH_ITERATIONS is lowered here only to keep the tests fast; the app's default
password-hash cost is high. The clients are InThreadClient (below): Starlette's TestClient with
the app's event loop in the test's own thread.
"""

import asyncio
import contextlib
import shutil
from urllib.parse import unquote

import httpx
import pytest
from fastapi import FastAPI
from fastapi.datastructures import State

from src import install_error_handlers


@pytest.fixture(scope="session")
def schema_template(tmp_path_factory):
    """A database file with every table created by models.init_db(), made once per session."""
    from src import models

    path = tmp_path_factory.mktemp("schema") / "app.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("APP_DB_PATH", str(path))
        models.init_db()
    return path


@pytest.fixture
def db_path(schema_template, tmp_path, monkeypatch):
    """A fresh database file (APP_DB_PATH) with every table created: each test gets its own byte
    copy of the session's schema template (creating every table in every test made the setup
    of a build's tests grow with the square of its entities)."""
    path = tmp_path / "app.db"
    shutil.copyfile(schema_template, path)
    monkeypatch.setenv("APP_DB_PATH", str(path))
    monkeypatch.setenv("APP_PASSWORD_HASH_ITERATIONS", "1000")
    return path


@pytest.fixture(scope="module")
def module_apps():
    """The small apps of one test module, by their routers: FastAPI builds an included router's
    routes on an app's first request (~10 ms a route), so each app is built once per module."""
    return {}


@pytest.fixture
def make_client(db_path, module_apps):
    """make_client(*routers) -> a client for a small app made of only those routers, opened for
    the whole test (one event loop for all its requests, not a new one per request). The
    app's routes are shared within the module; its state (app.state: the login throttle) is new
    for every test, and its data lives in the test's own database."""
    with contextlib.ExitStack() as clients:

        def make(*routers):
            key = tuple(id(router) for router in routers)
            if key not in module_apps:
                app = install_error_handlers(FastAPI())
                for router in routers:
                    app.include_router(router)
                module_apps[key] = app
            app = module_apps[key]
            app.state = State()
            return clients.enter_context(InThreadClient(app))

        yield make


@pytest.fixture
def app_client(db_path):
    """The whole application (src.main.app), lifespan included, on the temporary database."""
    from src.main import app

    with InThreadClient(app) as client:
        yield client


class InThreadClient(httpx.Client):
    """What fastapi.testclient.TestClient does, with the app's event loop in the test's own thread.

    TestClient runs the app on an event loop in another thread and hands every request over and
    back about eight times (half of a request's time here); InThreadClient serves each request
    with one `run_until_complete` of the same ASGI call. As in TestClient: base URL
    http://testserver, redirects followed, the app's exceptions raised in the test (unless
    raise_server_exceptions=False: a 500 then), client address ("testclient", 50000), and
    `with` runs the app's lifespan (startup before the first request, shutdown at the end).
    """

    def __init__(self, app, base_url="http://testserver", raise_server_exceptions=True,
                 follow_redirects=True, **kwargs):
        self.app = app
        self.app_state = {}
        self.raise_server_exceptions = raise_server_exceptions
        self._loop = asyncio.new_event_loop()
        self._lifespan = None
        super().__init__(transport=_InThreadTransport(self), base_url=base_url,
                         follow_redirects=follow_redirects, **kwargs)

    def __enter__(self):
        super().__enter__()
        self._lifespan = _Lifespan(self.app, self.app_state)
        try:
            self._loop.run_until_complete(self._lifespan.startup())
        except BaseException:
            self._lifespan = None
            self.close()  # a failed startup leaves no open loop behind
            raise
        return self

    def __exit__(self, *exc_info):
        try:
            if self._lifespan is not None:
                lifespan, self._lifespan = self._lifespan, None
                self._loop.run_until_complete(lifespan.shutdown())
        finally:
            super().__exit__(*exc_info)

    def run(self, awaitable):
        return self._loop.run_until_complete(awaitable)

    def close_loop(self):
        if not self._loop.is_closed():
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()

    def loop_closed(self):
        return self._loop.is_closed()


class _InThreadTransport(httpx.BaseTransport):
    def __init__(self, client):
        self.client = client

    def handle_request(self, request):
        return self.client.run(self._serve(request))

    def close(self):  # httpx calls it from both close() and the end of `with`
        self.client.close_loop()

    async def _serve(self, request):
        body = request.read()
        url = request.url
        scope = {
            "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": request.method, "scheme": url.scheme, "path": unquote(url.path),
            "raw_path": url.raw_path.split(b"?", 1)[0], "query_string": url.query,
            "root_path": "", "headers": [(key.lower(), value) for key, value in request.headers.raw],
            "client": ("testclient", 50000), "server": (url.host, url.port or (443 if url.scheme == "https" else 80)),
            "state": dict(self.client.app_state),
        }
        sent_body = False
        response_done = asyncio.Event()
        start = {}
        chunks = []

        async def receive():
            nonlocal sent_body
            if not sent_body:
                sent_body = True
                return {"type": "http.request", "body": body, "more_body": False}
            await response_done.wait()  # like TestClient: no disconnect while the response streams
            return {"type": "http.disconnect"}

        async def send(message):
            if message["type"] == "http.response.start":
                start.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(bytes(message.get("body", b"")))
                if not message.get("more_body", False):
                    response_done.set()

        try:
            await self.client.app(scope, receive, send)
        except Exception:
            if self.client.raise_server_exceptions:
                raise
            if not start:  # the app failed before it answered: a bare 500, as TestClient gives
                start.update(status=500, headers=[])
                chunks.clear()
        finally:
            response_done.set()
        return httpx.Response(start["status"], headers=start.get("headers", []),  # as sent: no added length
                              stream=httpx.ByteStream(b"".join(chunks)), request=request)


class _Lifespan:
    """The ASGI lifespan protocol, driven from InThreadClient's event loop."""

    def __init__(self, app, state):
        self.app = app
        self.state = state
        self.to_app = asyncio.Queue()
        self.from_app = asyncio.Queue()
        self.task = None

    async def startup(self):
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": self.state}
        self.task = asyncio.ensure_future(self.app(scope, self.to_app.get, self.from_app.put))
        await self.to_app.put({"type": "lifespan.startup"})
        await self._expect("lifespan.startup.complete")

    async def shutdown(self):
        await self.to_app.put({"type": "lifespan.shutdown"})
        await self._expect("lifespan.shutdown.complete")
        await self.task

    async def _expect(self, kind):
        reply = asyncio.ensure_future(self.from_app.get())
        done, _ = await asyncio.wait({reply, self.task}, return_when=asyncio.FIRST_COMPLETED)
        if reply not in done:
            reply.cancel()
            self.task.result()  # the app's own error, if it raised one
            raise RuntimeError(f"the app's lifespan ended before {kind}")
        message = reply.result()
        if message["type"] != kind:
            raise RuntimeError(message.get("message") or message["type"])
