"""Atomic writes and hashing shared by the store and the tools."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path


def atomic_write_text(path: Path, text: str) -> None:
    """Write `text` to `path` via temp file + fsync + os.replace (never a half-written file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def dump_json(data) -> str:
    """Stable JSON text: sorted keys are NOT used so models keep field order; indent 2."""
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def atomic_write_json(path: Path, data) -> None:
    """`data` is JSON-ready, or a pydantic model: pydantic's own encoder writes the text of
    `dump_json(model.model_dump(mode="json"))` at a quarter of the cost (state.json is rewritten
    at every step of a run); only a float below 1e-4 is spelled differently (0.000015 for 1.5e-05),
    the same JSON value."""
    if hasattr(data, "model_dump_json"):
        atomic_write_text(path, data.model_dump_json(indent=2) + "\n")
    else:
        atomic_write_text(path, dump_json(data))


def sha256_file(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def sha256_text(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
