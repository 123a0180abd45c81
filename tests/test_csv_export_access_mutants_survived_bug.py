"""Bug: the mutation audit of a `csv_export` requirement left mutants in access-control code alive
(examples/contacts_import.toml with csv_export: a dropped `require_role` in the create route, an
inverted sort direction). The generated export test ran only the owner's happy path over one
record, so an app where a member may add contacts, where every owner's rows reach every export, or
whose export comes out in reverse order passed it.

The generated test (harness/offline/generator/csv_export_tests.py) now exports two records in id
order, asks without a token (401), and exports as a second account: its export holds exactly
what the access rules let it see, and a member of a managed entity adds nothing. Each broken app
below fails it; the app as generated passes it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import load_spec_file
from helpers import write_files

ROOT = Path(__file__).resolve().parents[1]
ROOMS = ('title = "Room bookings"\nauth = true\n[[entities]]\nname = "room"\n'
         'fields = [{ name = "name", required = true }]\n[[entities]]\nname = "booking"\nparent = "room"\n'
         'fields = [{ name = "starts at", kind = "datetime", required = true },\n'
         '  { name = "ends at", kind = "datetime", required = true }, { name = "purpose" }]\n'
         'features = ["no_double_booking", "csv_export"]\n')

# (spec maker, entity, [(what is broken, file, the generated text, the broken text)])
BROKEN = {
    "shared records only the admin adds": ("contacts", "contact", [
        ("a member may add contacts", "src/api_contact.py",
         "    require_role(as_viewer(db, user), 'admin')\n    return _stored(", "    return _stored("),
        ("the export comes out newest first", "src/models.py",
         'direction = "DESC" if order == "desc" else "ASC"', 'direction = "DESC" if order != "desc" else "ASC"'),
    ]),
    "records each owner keeps to themselves": ("rooms", "booking", [
        ("every owner's rows reach every export", "src/models.py",
         "[owner_id]) if self.owned else ([], [])", "[owner_id]) if not self.owned else ([], [])"),
    ]),
}


def _spec(kind: str, tmp_path: Path):
    if kind == "contacts":
        text = (ROOT / "examples" / "contacts_import.toml").read_text(encoding="utf-8")
        assert 'features = ["search"]\n' in text
        text = text.replace('features = ["search"]\n', 'features = ["search", "csv_export"]\n', 1)
    else:
        text = ROOMS
    path = tmp_path / f"{kind}.toml"
    path.write_text(text, encoding="utf-8")
    return load_spec_file(path)


def _export_test(ws: Path, entity: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                           f"tests/test_api_{entity}.py", "-k", "test_csv_export_lists_every_record"],
                          cwd=ws, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("case", BROKEN)
def test_csv_export_survivors_in_access_code_are_caught_by_the_generated_export_test_bug(tmp_path, case):
    kind, entity, breaks = BROKEN[case]
    files = generate_files(_spec(kind, tmp_path))
    kept = _export_test(write_files(files, tmp_path / "kept"), entity)
    assert kept.returncode == 0 and "1 passed" in kept.stdout, kept.stdout[-3000:]
    for n, (what, rel, good, bad) in enumerate(breaks):
        assert files[rel].count(good) == 1, (what, rel)
        broken = _export_test(write_files({**files, rel: files[rel].replace(good, bad)}, tmp_path / f"broken{n}"),
                              entity)
        assert broken.returncode == 1 and "1 failed" in broken.stdout, (what, broken.stdout[-3000:])
