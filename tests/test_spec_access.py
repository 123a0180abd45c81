"""Access constructs of the spec language — `[auth] roles`, `change_password`, and per entity
`shared`, `manage`, `assigned_to` (the Tool Lending Library brief, examples/tool_library.toml):
read exactly, bad values named in one line, and the generated app's own tests pass and catch an
app that ignores the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file
from helpers import write_files
from warm_suites import suites  # noqa: F401  (module-scoped fixture)

EXAMPLES = Path(__file__).parents[1] / "examples"
TOOLS = EXAMPLES / "tool_library.toml"


def test_the_tool_library_example_is_read_exactly():
    spec = load_spec_file(TOOLS)
    assert spec.auth and spec.roles == ["librarian", "member"] and spec.change_password
    tool, loan = spec.entity("tool"), spec.entity("loan")
    assert (tool.shared, tool.manage, tool.assigned) == (True, "librarian", False)
    assert (loan.shared, loan.manage, loan.assigned) == (False, "librarian", True)
    sources = {r.acceptance: r.capability for r in spec.requirements}
    assert sources["auth.roles"] == sources["auth.change_password"] == "account"
    assert sources["tool.shared"] == sources["tool.manage"] == sources["loan.assigned_to"] == "access"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return path


ENTITY = '[[entities]]\nname = "film"\n'


@pytest.mark.parametrize(("text", "expected"), [
    (ENTITY + "shared = true\n", "app.toml:3: entities[1].shared: needs accounts"),
    (ENTITY + 'assigned_to = "user"\n', "app.toml:3: entities[1].assigned_to: needs accounts"),
    ('[auth]\nroles = ["admin", "member"]\n' + ENTITY + 'manage = "boss"\n',
     "app.toml:5: entities[1].manage: no role 'boss' (roles: admin, member)"),
    ("auth = true\n" + ENTITY + 'manage = "admin"\n',
     "app.toml:4: entities[1].manage: no role 'admin' (roles: none"),
    ('[auth]\nroles = ["admin"]\n' + ENTITY, "app.toml:2: auth.roles: needs at least two different roles"),
    ('[auth]\nroles = ["admin", "admin"]\n' + ENTITY, "app.toml:2: auth.roles: needs at least two"),
    ('[auth]\nroles = ["Admin!", "member"]\n' + ENTITY, "app.toml:2: auth.roles: 'Admin!' is not a role name"),
    ('[auth]\ncolour = "red"\n' + ENTITY, "app.toml:2: auth.colour: unknown key"),
    ('login = "email"\n[auth]\nlogin = "email"\n' + ENTITY, "login: give login once"),
    ("auth = true\n" + ENTITY + 'assigned_to = "team"\n', "app.toml:4: entities[1].assigned_to: must be \"user\""),
    ("auth = true\n" + ENTITY + 'shared = "yes"\n', "app.toml:4: entities[1].shared: must be bool"),
])
def test_access_errors_name_the_line_and_key(tmp_path, text, expected):
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(_write(tmp_path, text))
    assert expected in str(raised.value) and "\n" not in str(raised.value)


def test_an_auth_table_without_roles_is_plain_accounts(tmp_path):
    spec = load_spec_file(_write(tmp_path, '[auth]\nlogin = "email"\n' + ENTITY))
    assert spec.auth and spec.login == "email" and spec.roles == [] and not spec.change_password


def test_apps_without_access_keys_get_no_access_code():
    files = generate_files(load_spec_file(EXAMPLES / "club_bookings.toml"))
    assert "src/people.py" not in files and "src/account.py" not in files
    assert "as_viewer" not in "".join(files.values()) and "policy=True" not in files["src/models.py"]


def test_the_access_app_has_its_account_unit_files():
    files = generate_files(load_spec_file(TOOLS))
    assert {"src/people.py", "src/account.py", "tests/test_people.py", "tests/test_account.py"} <= set(files)
    assert "policy=True" in files["src/models.py"] and "ADMIN_ROLE: str | None = 'librarian'" in files["src/models.py"]
    assert "app.include_router(people.router)" in files["src/main.py"]
    assert "app.include_router(account.router)" in files["src/main.py"]


# An app whose tables ignore the access rules: every user sees every row and may change it
# (the generated access tests must fail on it).
IGNORE_RULES = ("        if not self.owned or not self.policy:\n            return super()._scope(owner_id, action)\n",
                "        if True:\n            return (None,) * (3 if self.assigned else 2)\n")


@pytest.mark.slow
def test_the_generated_access_tests_pass_and_fail_when_the_rules_are_ignored(tmp_path, suites):  # noqa: F811
    files = generate_files(load_spec_file(TOOLS))
    ws = write_files(files, suites.base / "tools")
    args = ("-q", "-p", "no:cacheprovider")
    kept = suites.run(ws, *args)
    assert kept.exit_code == 0 and " passed" in kept.stdout and "failed" not in kept.stdout, kept.stdout[-3000:]
    models = files["src/models.py"]
    assert IGNORE_RULES[0] in models
    (ws / "src" / "models.py").write_text(models.replace(*IGNORE_RULES), encoding="utf-8")
    for path, name in (("tests/test_api_loan.py", "test_loan_assigned_to_a_user_is_seen_and_updated_by_them"),
                       ("tests/test_api_loan.py", "test_other_users_records_are_404"),
                       ("tests/test_api_tool.py", "test_every_user_sees_shared_tool_records")):
        broken = suites.run(ws, *args, f"{path}::{name}")
        assert broken.exit_code == 1 and "1 failed" in broken.stdout, (name, broken.stdout[-3000:])
    (ws / "src" / "models.py").write_text(models, encoding="utf-8")
    api = files["src/api_tool.py"]
    check = "require_role(as_viewer(db, user), 'librarian')"
    assert check in api
    (ws / "src" / "api_tool.py").write_text(api.replace(check, "as_viewer(db, user)"), encoding="utf-8")
    unguarded = suites.run(ws, *args, "tests/test_api_tool.py::test_only_the_librarian_role_manages_tool_records")
    assert unguarded.exit_code == 1 and "1 failed" in unguarded.stdout, unguarded.stdout[-3000:]


def test_every_access_link_and_summary_requirement_has_a_black_box_check():
    """Before these checks the black-box leg had none for them: every such build was FAIL."""
    from harness.acceptance.derive import derive

    for name in ("tool_library.toml", "volunteer_rota.toml", "notes_tags.toml", "reading_log.toml"):
        spec = load_spec_file(EXAMPLES / name)
        checked = {c.requirement for c in derive(spec)}
        wanted = {r.id for r in spec.requirements
                  if r.capability in ("access", "account", "link") or "period_summary" in r.acceptance}
        assert wanted and wanted <= checked, (name, wanted - checked)
