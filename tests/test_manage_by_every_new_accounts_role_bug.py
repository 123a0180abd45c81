"""Bug: roles ["admin", "manager", "employee"] with `manage = "employee"` on customers was accepted,
then the app's own test `test_only_the_employee_role_manages_customer_records` failed
("assert 201 == 403": a newly registered account, who should be refused, already has the role
every new account gets) and the build passed 0 of 19 requirements. `manage` names the one role
(with the admin role) that writes the records; naming every new account's role refuses nobody.

Now the spec file is refused at load in one line naming the key and what to write instead
(docs/spec-language.md, "Managing role"), as `view` naming that role already was."""

from __future__ import annotations

import pytest

from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import run_builder

SHOP = '''title = "Repair shop"

[auth]
roles = ["admin", "manager", "employee"]

[[entities]]
name = "customer"
shared = true
manage = "{role}"
fields = [{{ name = "name", required = true }}, {{ name = "phone", kind = "phone" }}]
'''


def test_manage_naming_every_new_accounts_role_refuses_the_file_in_one_line_bug(tmp_path):
    path = tmp_path / "shop.toml"
    path.write_text(SHOP.format(role="employee"), encoding="utf-8")
    with pytest.raises(SpecFileError) as refused:
        load_spec_file(path)
    message = str(refused.value)
    assert f"{path.name}:9: entities[1].manage: 'employee' is every new account's role" in message, message
    assert message.startswith(str(path)), message
    assert "\n" not in message and "shared = true" in message, message
    done = run_builder("new", "--no-audit", "--spec", path, "--runs-dir", tmp_path / "runs")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "every new account's role" in done.stderr and not (tmp_path / "runs").exists()


@pytest.mark.parametrize("role", ["admin", "manager"])
def test_manage_naming_another_role_is_still_accepted_bug(role, tmp_path):
    path = tmp_path / "shop.toml"
    path.write_text(SHOP.format(role=role), encoding="utf-8")
    assert load_spec_file(path).entity("customer").manage == role
