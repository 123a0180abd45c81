"""The generated application package: Simple Todo App.

install_error_handlers(app) renders request-validation errors as a plain 422 body that never echoes
the raw input: FastAPI's default handler fails with a 500 when the input holds NaN or a lone
surrogate. It also installs RequestGuards: a request body over MAX_BODY_BYTES answers 413 before
it is buffered, and a POST/PUT/PATCH/DELETE whose Origin (or, without one, Referer) names another
site answers 403 — a cross-site form post never reaches a route (requests without either header,
as API clients send them, pass). Every JSON route (under /api/) takes only the query parameters
it declares: another one (a misspelt filter, a field the list cannot filter by) is a 422 naming it,
never silently ignored — an unfiltered list must not pass for a filtered one. src.main and the test
apps both install it.
"""

import json
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

MAX_BODY_BYTES = 1024 * 1024
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def body_limit(scope) -> int:
    """The largest request body a route takes."""
    return MAX_BODY_BYTES


class _TooLarge(HTTPException):
    """Raised from the body stream past the limit: an HTTPException, so the route's own error
    handling answers 413 (FastAPI turns any other error while reading a body into a 400)."""

    def __init__(self, limit: int = MAX_BODY_BYTES) -> None:
        super().__init__(413, f"request body larger than {limit} bytes")


def cross_site(headers: dict[str, str]) -> bool:
    """True when the request's Origin (else Referer) is another site than its Host."""
    source = headers.get("origin") or headers.get("referer")
    if not source:
        return False
    if source == "null":
        return True
    return urlsplit(source).netloc.lower() != headers.get("host", "").lower()


async def _answer(send, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class RequestGuards:
    """ASGI middleware: the body size limit (413) and the cross-site check (403)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if scope["method"] in UNSAFE_METHODS and cross_site(headers):
            return await _answer(send, 403, "cross-site request refused")
        declared = headers.get("content-length", "")
        limit = body_limit(scope)
        if declared.isdigit() and int(declared) > limit:
            return await _answer(send, 413, f"request body larger than {limit} bytes")
        received, started = 0, False

        async def limited_receive():
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _TooLarge(limit)
            return message

        async def tracked_send(message):
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited_receive, tracked_send)
        except _TooLarge:
            if not started:
                await _answer(send, 413, f"request body larger than {limit} bytes")


def _text(value: object) -> str:
    return str(value).encode("utf-8", "backslashreplace").decode("utf-8")


async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
    detail = [
        {
            "loc": [_text(part) for part in error.get("loc", ())],
            "msg": _text(error.get("msg", "")),
            "type": _text(error.get("type", "")),
        }
        for error in exc.errors()
    ]
    return JSONResponse(status_code=422, content={"detail": detail})


def _declared_query(dependant) -> frozenset[str]:
    """The query parameter names a route (and its dependencies) declares, by their aliases."""
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _declared_query(sub)
    return frozenset(names)


def known_query_only(request: Request) -> None:
    """A JSON route's query holds only the parameters it declares; any other is a 422 naming it."""
    route = request.scope.get("route")
    if route is None or not hasattr(route, "dependant") or not request.url.path.startswith("/api/"):
        return
    declared = _declared_query(route.dependant)   # a few names: no cache (a route is unhashable)
    unknown = sorted(set(request.query_params) - declared)
    if unknown:
        takes = ", ".join(sorted(declared)) or "no query parameters"
        raise RequestValidationError([
            {"loc": ("query", name), "type": "extra_forbidden",
             "msg": f"unknown query parameter {name!r} (this route takes: {takes})"} for name in unknown])


def install_error_handlers(app: FastAPI) -> FastAPI:
    """Register the safe 422 handler, the request guards and the unknown-query check on `app` (before
    its routers are included: included routes take the app's dependencies) and return it."""
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.router.dependencies.append(Depends(known_query_only))
    app.add_middleware(RequestGuards)
    return app
