"""The generated conftest's InThreadClient answers as Starlette's TestClient does (#19, per-entity cost).

TestClient runs the app on an event loop in another thread and hands each request over and back
about eight times; the generated fixtures now use InThreadClient, which serves each request with
one `run_until_complete` in the test's own thread. These tests take the class from the generated
conftest text itself and put the two clients side by side on one small app: same status, headers,
body, cookies and redirects; a streamed response arrives whole (a client that reports a disconnect
too early makes Starlette cancel the stream); the app's exceptions reach the test, or a 500 with
raise_server_exceptions=False; `with` runs the lifespan; the loop is closed at the end.
"""

from __future__ import annotations

import ast
import asyncio
import threading
import warnings
from contextlib import asynccontextmanager

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.responses import RedirectResponse, StreamingResponse

with warnings.catch_warnings():  # Starlette's notice that its TestClient would rather have httpx2
    warnings.filterwarnings("ignore", message="Using .httpx. with .starlette.testclient. is deprecated")
    from fastapi.testclient import TestClient

from harness.offline.generator.setup_files import conftest_py


def inthread_client_class():
    """InThreadClient as the generated tests/conftest.py defines it (its classes and imports only)."""
    tree = ast.parse(conftest_py(NoAuth()))
    keep = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom, ast.ClassDef))
            and not (isinstance(node, ast.ImportFrom) and node.module == "src")]
    namespace: dict = {}
    exec(compile(ast.Module(body=keep, type_ignores=[]), "generated conftest", "exec"), namespace)  # noqa: S102
    return namespace["InThreadClient"]


class NoAuth:
    """The one thing conftest_py reads of the app: whether it has logins."""

    auth = False


EVENTS: list[str] = []


def small_app(fail_startup: bool = False) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app):
        EVENTS.append("startup")
        if fail_startup:
            raise RuntimeError("startup failed on purpose")
        yield
        EVENTS.append("shutdown")

    app = FastAPI(lifespan=lifespan)

    @app.get("/items/{name}")
    def item(name: str, n: int = 1):  # a sync endpoint: runs in the thread pool
        return {"name": name, "n": n}

    @app.post("/echo", status_code=201)
    async def echo(body: dict):
        return {"got": body}

    @app.get("/set-cookie")
    def set_cookie(response: Response):
        response.set_cookie("session", "abc")
        return {"ok": True}

    @app.get("/redirect")
    def redirect():
        return RedirectResponse("/items/there", status_code=303)

    @app.get("/stream")
    async def stream():
        async def chunks():
            for i in range(5):
                await asyncio.sleep(0)   # give a too-early disconnect its chance to cancel the stream
                yield f"row {i}\n"

        return StreamingResponse(chunks(), media_type="text/csv")

    @app.get("/where")
    def where(request: Request):
        return {"scheme": request.url.scheme, "server": list(request.scope["server"]), "client": list(request.client)}

    @app.get("/boom")
    def boom():
        raise ValueError("the app failed")

    @app.get("/thread")
    async def thread():
        return {"ident": threading.get_ident()}

    return app


def exchange(client) -> list[tuple]:
    """What each request gave: status, the headers that matter, body."""
    out = []
    for method, url, kwargs in (("GET", "/items/caf%C3%A9?n=3", {}), ("POST", "/echo", {"json": {"a": [1, 2]}}),
                                ("POST", "/echo", {"content": b'{"broken": '}), ("GET", "/redirect", {}),
                                ("GET", "/stream", {}), ("GET", "/nothing-here", {})):
        response = client.request(method, url, **kwargs)
        out.append((method, url, response.status_code, response.headers.get("content-type"),
                    response.headers.get("content-length"), response.content))
    secure = client.get("https://testserver/where")
    out.append(("https", secure.json()))
    first = client.get("/redirect", follow_redirects=False)
    out.append(("redirect not followed", first.status_code, first.headers["location"]))
    client.get("/set-cookie")
    out.append(("cookie", client.cookies.get("session")))
    return out


def test_inthread_client_answers_every_request_as_testclient_does():
    InThreadClient = inthread_client_class()
    app = small_app()
    with TestClient(app) as reference:
        expected = exchange(reference)
    with InThreadClient(app) as client:
        got = exchange(client)
    assert got == expected
    assert expected[4][-1] == b"".join(f"row {i}\n".encode() for i in range(5))  # the stream arrived whole


def test_inthread_client_runs_the_app_in_the_tests_thread_and_the_lifespan_around_it():
    InThreadClient = inthread_client_class()
    EVENTS.clear()
    client = InThreadClient(small_app())
    with client:
        assert EVENTS == ["startup"]
        assert client.get("/thread").json()["ident"] == threading.get_ident()
    assert EVENTS == ["startup", "shutdown"]
    assert client.is_closed and client.loop_closed()


def test_inthread_client_raises_the_apps_exception_or_gives_a_500():
    InThreadClient = inthread_client_class()
    with InThreadClient(small_app()) as client, pytest.raises(ValueError, match="the app failed"):
        client.get("/boom")
    with InThreadClient(small_app(), raise_server_exceptions=False) as client:
        assert client.get("/boom").status_code == 500
        assert client.get("/items/x").json() == {"name": "x", "n": 1}  # still serving


def test_inthread_client_reports_a_failed_startup_and_closes_its_loop():
    InThreadClient = inthread_client_class()
    client = InThreadClient(small_app(fail_startup=True))
    with pytest.raises(RuntimeError, match="startup failed on purpose"):
        with client:
            pass
    assert client.is_closed and client.loop_closed()
