"""The generated application package: Simple Todo App.

install_error_handlers(app) renders request-validation errors as a plain 422 body that never echoes
the raw input: FastAPI's default handler fails with a 500 when the input holds NaN or a lone
surrogate. src.main and the test apps both install it.
"""

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


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


def install_error_handlers(app: FastAPI) -> FastAPI:
    """Register the safe 422 handler on `app` and return it."""
    app.add_exception_handler(RequestValidationError, _validation_error)
    return app
