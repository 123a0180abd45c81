"""Bug: the generated CSV import answered 500 to a line the csv module cannot read — a bare
carriage return inside an unquoted field, or one cell past the reader's 131,072-character limit
(found by a hostile user of a built contacts app). It now answers 422 naming the row, imports
nothing, and a well-formed import still works. Served by real uvicorn, used over HTTP."""

from __future__ import annotations

import httpx
import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files
from served_app import served

SPEC = ('[[entities]]\nname = "contact"\ncsv_import = true\n'
        'fields = [{ name = "first name", required = true }, { name = "last name" }]\n')


@pytest.mark.slow
@pytest.mark.parametrize("body, row", [
    ("First name,Last name\nA,B\r\nC,D\rE,F\n", 3),          # a bare CR in an unquoted field
    ("First name,Last name\nA," + "x" * 200_000 + "\n", 2),  # a cell past the csv field size limit
])
def test_malformed_csv_line_is_422_naming_the_row_not_500_bug(tmp_path, body, row):
    spec_file = tmp_path / "contacts.toml"
    spec_file.write_text(SPEC, encoding="utf-8")
    ws = write_files(generate_files(load_spec_file(spec_file)), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        bad = httpx.post(base + "/api/contacts/import", content=body.encode(),
                         headers={"Content-Type": "text/csv"}, timeout=30)
        assert bad.status_code == 422, bad.text[:500]
        assert f"row {row}" in bad.json()["detail"] and bad.json()["errors"][0]["row"] == row
        assert httpx.get(base + "/api/contacts", timeout=30).json() == []          # nothing imported
        good = httpx.post(base + "/api/contacts/import", content=b"First name,Last name\nAda,Lovelace\n",
                          headers={"Content-Type": "text/csv"}, timeout=30)
        assert good.status_code == 201, good.text[:500]
        assert [c["first_name"] for c in httpx.get(base + "/api/contacts", timeout=30).json()] == ["Ada"]
