"""Bug: `{ name = "appointment", ref = "appointment", unique = true }` on a consultation was
accepted and ignored: a second consultation of the same appointment answered 201. The generator
honoured `unique` only for the kinds its tests can make distinct values of (text, e-mail, URL,
phone, integer) and dropped it silently on any other; the black-box check caught it.

Now a reference field's `unique` is enforced (a UNIQUE column, per account when the records are
private; 409 naming the field on create and update; a generated test), and `unique` on a kind the
generator cannot enforce (a date, a choice, ...) refuses the spec file in one line instead of
being dropped. Checked over HTTP for every kind that takes it, and at load for every other kind."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import get_args

import httpx
import pytest

from harness.acceptance import run_acceptance
from harness.models.spec import FieldKind
from harness.offline.field_kinds import UNIQUE_KINDS
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from served_app import served

CLINIC = '''title = "Pet clinic"
auth = {auth}

[[entities]]
name = "appointment"
fields = [{{ name = "date", kind = "date", required = true }}]

[[entities]]
name = "consultation"
fields = [
    {{ name = "appointment", ref = "appointment", required = true, unique = true }},
    {{ name = "results", kind = "long_text" }},
]
'''


def _load(tmp_path: Path, text: str, name: str = "app.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_spec_file(path)


def _headers(http: httpx.Client, auth: bool) -> dict[str, str]:
    if not auth:
        return {}
    credentials = {"username": "alice", "password": "correct-horse-battery"}
    assert http.post("/api/auth/register", json=credentials).status_code == 201
    return {"Authorization": f"Bearer {http.post('/api/auth/login', json=credentials).json()['token']}"}


@pytest.mark.slow
@pytest.mark.parametrize("auth", ["false", "true"])
def test_a_second_consultation_of_one_appointment_is_refused_over_http_bug(auth, tmp_path):
    spec = _load(tmp_path, CLINIC.format(auth=auth))
    ws = write_files(generate_files(spec), tmp_path / "app")
    with served(ws, tmp_path / "app.db") as base, httpx.Client(base_url=base, trust_env=False) as http:
        who = _headers(http, auth == "true")
        first, second = (http.post("/api/appointments", json={"date": day}, headers=who).json()["id"]
                         for day in ("2026-12-10", "2026-12-11"))
        made = http.post("/api/consultations", json={"appointment": first, "results": "ok"}, headers=who)
        assert made.status_code == 201, made.text
        again = http.post("/api/consultations", json={"appointment": first}, headers=who)
        assert again.status_code == 409 and "appointment" in again.text, again.text
        other = http.post("/api/consultations", json={"appointment": second}, headers=who)
        assert other.status_code == 201, other.text
        moved = http.put(f"/api/consultations/{other.json()['id']}", json={"appointment": first}, headers=who)
        assert moved.status_code == 409, moved.text
        checks = run_acceptance(base, spec, [], [])
    check = next(c for c in checks if c.name == "a duplicate consultation.appointment is refused")
    assert check.ok, check.detail
    assert not [(c.name, c.detail) for c in checks if not c.ok]


@pytest.mark.slow
def test_every_kind_that_takes_unique_is_enforced_by_the_app_and_its_tests_bug(tmp_path):
    extra = {"reference": ', ref = "place"'}
    fields = ", ".join(f'{{ name = "{kind} value", kind = "{kind}", unique = true{extra.get(kind, "")} }}'
                       for kind in UNIQUE_KINDS)
    spec = _load(tmp_path, f'''[[entities]]
name = "place"
fields = ["label"]

[[entities]]
name = "item"
fields = [{fields}]
''')
    item = spec.entity("item")
    assert [f.kind for f in item.fields if f.unique] == list(UNIQUE_KINDS)
    ws = write_files(generate_files(spec), tmp_path / "app")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"], cwd=ws,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:]
    with served(ws, tmp_path / "app.db") as base:
        checks = run_acceptance(base, spec, [], [])
    duplicates = {c.name: c for c in checks if c.name.startswith("a duplicate item.")}
    assert len(duplicates) == len(UNIQUE_KINDS) and all(c.ok for c in duplicates.values()), \
        [(c.name, c.detail) for c in duplicates.values() if not c.ok]


@pytest.mark.parametrize("kind", [k for k in get_args(FieldKind) if k not in UNIQUE_KINDS])
def test_unique_on_a_kind_the_app_cannot_enforce_refuses_the_file_in_one_line_bug(kind, tmp_path):
    values = ', values = ["low", "high"]' if kind == "enum" else ""
    with pytest.raises(SpecFileError) as refused:
        _load(tmp_path, f'''[[entities]]
name = "item"
fields = [{{ name = "label" }},
          {{ name = "value", kind = "{kind}", unique = true{values} }}]
''')
    message = str(refused.value)
    assert "\n" not in message and f"app.toml:4: entities[1].fields[2].unique: a {kind} field cannot be unique" \
        in message, message
