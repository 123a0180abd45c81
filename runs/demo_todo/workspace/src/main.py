"""Simple Todo App: the FastAPI application `app`.

Run it with `uvicorn src.main:app`. The SQLite file is APP_DB_PATH (default "app.db");
the tables are created at startup. GET /health and GET /api/health answer {"status": "ok"};
GET / is the HTML index page.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from src import api_todo, install_error_handlers, models, pages


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    models.init_db()
    yield


app = install_error_handlers(FastAPI(title='Simple Todo App', lifespan=lifespan))
app.include_router(api_todo.router)
app.include_router(pages.router)


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}


@app.get("/api/health")
def api_health() -> dict[str, str]:
    return {"status": "ok"}
