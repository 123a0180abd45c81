"""Read a project's list of requirements (ids with titles) from a TOML or CSV file.

TOML, either form:

    [requirements]              [[requirement]]
    AUTH-001 = "Users log in"   id = "AUTH-001"
                                title = "Users log in"

CSV: one `id,title` row per requirement; an optional header row whose first cell is `id`;
blank rows and rows starting with `#` are skipped.

A TOML file may also say which files implement each requirement (its tests must run them, and
`--harness-mutate` mutates the lines they ran there), paths relative to the rootdir:

    [files]                             [[requirement]]
    AUTH-001 = ["src/auth.py"]          id = "AUTH-001"
                                        title = "Users log in"
                                        files = ["src/auth.py"]
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path


def load_requirements_file(path: Path, pattern: re.Pattern) -> dict[str, str]:
    """{id: title} sorted by id; ValueError naming the file (and row) for any problem."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ValueError(f"cannot read requirements file {path}: {err}") from None
    if path.suffix.lower() == ".toml":
        pairs = _toml_pairs(text, path)
    elif path.suffix.lower() == ".csv":
        pairs = _csv_pairs(text)
    else:
        raise ValueError(f"requirements file {path} must end in .toml or .csv")
    titles: dict[str, str] = {}
    for where, rid, title in pairs:
        if not isinstance(rid, str) or pattern.fullmatch(rid) is None:
            raise ValueError(f"{path}: {where}: malformed requirement id {rid!r} (expected {pattern.pattern})")
        if rid in titles:
            raise ValueError(f"{path}: {where}: duplicate requirement id {rid!r}")
        titles[rid] = str(title or "").strip()
    if not titles:
        raise ValueError(f"{path}: no requirements listed")
    return dict(sorted(titles.items()))


def _toml_pairs(text: str, path: Path) -> list[tuple[str, object, object]]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ValueError(f"{path}: invalid TOML: {err}") from None
    pairs: list[tuple[str, object, object]] = []
    table = data.get("requirements", {})
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [requirements] must be a table of id = \"title\"")
    pairs += [(f"[requirements] {rid}", rid, title) for rid, title in table.items()]
    rows = data.get("requirement", [])
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise ValueError(f"{path}: [[requirement]] entries must be tables with id and title")
    pairs += [(f"[[requirement]] #{n}", row.get("id"), row.get("title")) for n, row in enumerate(rows, 1)]
    return pairs


def _csv_pairs(text: str) -> Iterable[tuple[str, object, object]]:
    pairs = []
    for line_no, row in enumerate(csv.reader(io.StringIO(text)), 1):
        cells = [cell.strip() for cell in row]
        if not cells or not any(cells) or cells[0].startswith("#"):
            continue
        if line_no == 1 and cells[0].lower() == "id":
            continue
        pairs.append((f"line {line_no}", cells[0], ",".join(row[1:])))
    return pairs


def load_requirement_files(path: Path, pattern: re.Pattern) -> dict[str, list[str]]:
    """{id: [implementation file, ...]} from a TOML file's `[files]` table and its `[[requirement]]`
    entries' `files` (none for CSV); ValueError naming the file for any problem."""
    if path.suffix.lower() != ".toml":
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ValueError(f"cannot read requirements file {path}: {err}") from None
    table = data.get("files", {})
    if not isinstance(table, dict):
        raise ValueError(f"{path}: [files] must be a table of id = [\"path\", ...]")
    pairs = [(f"[files] {rid}", rid, files) for rid, files in table.items()]
    rows = data.get("requirement", [])
    pairs += [(f"[[requirement]] #{n}", row.get("id"), row["files"])
              for n, row in enumerate(rows if isinstance(rows, list) else [], 1)
              if isinstance(row, dict) and "files" in row]
    out: dict[str, set[str]] = {}
    for where, rid, files in pairs:
        if not isinstance(rid, str) or pattern.fullmatch(rid) is None:
            raise ValueError(f"{path}: {where}: malformed requirement id {rid!r} (expected {pattern.pattern})")
        if not isinstance(files, list) or not all(isinstance(f, str) and f.strip() for f in files):
            raise ValueError(f"{path}: {where}: files must be a list of paths relative to the rootdir")
        out.setdefault(rid, set()).update(f.strip() for f in files)
    return {rid: sorted(files) for rid, files in sorted(out.items())}
