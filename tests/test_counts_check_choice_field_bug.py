"""Bug (a stranger's guest-list trial, defect 6, a false FAIL): `status_counts` on a record with a
choice field not named `status` (`rsvp`: Pending/Confirmed/Declined/Maybe) counts by that field —
the app's /api/guests/counts answered {"Pending": 0, "Confirmed": 3, ...} correctly — but the
black-box check read the new record's `status`, found None, and failed the requirement ("after
adding a None guest the count of None did not grow by 1"). Renaming the field to `status` passed.
The check now counts by the status, else the first choice field, as docs/spec-language.md says."""

from __future__ import annotations

from pathlib import Path

from harness.offline.generator import generate_files
from served_app import acceptance_of, spec_from_toml

SPEC = '''title = "Guest list"
auth = true
pages = false

[[entities]]
name = "event"
fields = [{ name = "title", required = true }]

[[entities]]
name = "guest"
parent = "event"
fields = [
    { name = "name", required = true },
    { name = "rsvp", kind = "enum", values = ["Pending", "Confirmed", "Declined", "Maybe"], required = true },
]
features = ["status_counts"]
'''
CHECK = "status counts on guests"


def _check(tmp_path: Path, files: dict[str, str] | None = None, name: str = "app"):
    spec = spec_from_toml(tmp_path, SPEC)
    return acceptance_of(tmp_path, spec, files or generate_files(spec), name)[CHECK]


def test_counts_by_a_choice_field_not_named_status_pass_the_check_bug(tmp_path):
    check = _check(tmp_path)
    assert check.ok, check.detail
    assert "rsvp" in check.detail


def test_the_check_fails_an_app_whose_counts_do_not_follow_the_choice(tmp_path):
    files = generate_files(spec_from_toml(tmp_path, SPEC))
    api = files["src/api_guest.py"]
    assert api.count("'rsvp'") >= 1
    # the bug put in the app: the counts come from a fixed table, whatever is stored
    routes = [line for line in api.splitlines() if "def " in line and "count" in line]
    assert routes, "the counts route"
    broken_api = api.replace(routes[0], routes[0] + "\n    return {'Pending': 0, 'Confirmed': 0, 'Declined': 0, 'Maybe': 0}")
    check = _check(tmp_path, {**files, "src/api_guest.py": broken_api}, "broken")
    assert not check.ok and "did not grow by 1" in check.detail, check.detail
