"""Maps a workspace path to its generated text. Each builder module owns one concern; this module
only dispatches, so the unit layout (units.py) and the file contents stay independent."""

from __future__ import annotations

import ast
import functools

from harness.errors import HarnessError
from harness.offline.generator import email_login
from harness.offline.generator.acceptance_py import test_acceptance_py
from harness.offline.generator.account_files import test_account_py, test_people_py
from harness.offline.generator.api_py import api_py
from harness.offline.generator.api_tests import test_api_py
from harness.offline.generator.appmodel import AppModel
from harness.offline.generator.auth_py import auth_py, test_auth_py
from harness.offline.generator.dashboard_py import dashboard_py, test_dashboard_py
from harness.offline.generator.main_py import main_py, test_health_py
from harness.offline.generator.models_py import models_py, test_models_py
from harness.offline.generator.pages_py import pages_py
from harness.offline.generator.pages_tests import test_pages_py
from harness.offline.generator.record_tool_files import render_tool_file
from harness.offline.generator.setup_files import PYTEST_INI, REQUIREMENTS_TXT, conftest_py, init_py
from harness.offline.generator.skeleton_files import skeleton

_API, _API_TESTS = "src/api_", "tests/test_api_"


class GeneratorError(HarnessError):
    """The generator produced a file that is not valid Python (a bug in the generator)."""



def render_file(app: AppModel, path: str, req_ids: tuple[str, ...]) -> str:
    """The text of `path`; `req_ids` are the owning unit's requirements (used for test markers).
    Every Python file is parsed first: a generator bug is a GeneratorError naming file and line,
    never a broken file in the workspace."""
    text = _render(app, path, req_ids)
    if app.email_login:
        text = email_login.rewrite(path, text)
    if path.endswith(".py") and (error := _syntax_error(text)) is not None:
        raise GeneratorError(f"generated {path} does not parse ({error})")
    return text


@functools.lru_cache(maxsize=512)
def _syntax_error(text: str) -> str | None:
    """"line N: message" when `text` is not valid Python, else None. Memoized by the exact text: a
    build generates each file twice (the worker is handed the later tasks' files when BUILD starts,
    each task then generates its own), and the same bytes parse the same way (#46)."""
    try:
        ast.parse(text)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    return None


def _render(app: AppModel, path: str, req_ids: tuple[str, ...]) -> str:
    fixed = {
        "requirements.txt": lambda: REQUIREMENTS_TXT,
        "pytest.ini": lambda: PYTEST_INI,
        "src/__init__.py": lambda: init_py(app),
        "src/models.py": lambda: models_py(app),
        "tests/test_models.py": lambda: test_models_py(app, req_ids),
        "tests/conftest.py": lambda: conftest_py(app),
        "src/fieldtypes.py": lambda: skeleton("src/fieldtypes.py"),
        "src/ui.py": lambda: skeleton("src/ui.py"),
        "src/page_parts.py": lambda: skeleton("src/page_parts.py"),
        "src/auth.py": auth_py,
        "tests/test_auth.py": lambda: test_auth_py(req_ids),
        "src/dashboard.py": lambda: dashboard_py(app),
        "tests/test_dashboard.py": lambda: test_dashboard_py(app, req_ids),
        "src/pages.py": lambda: pages_py(app),
        "tests/test_pages.py": lambda: test_pages_py(app, req_ids),
        "src/main.py": lambda: main_py(app),
        "tests/test_health.py": lambda: test_health_py(app, req_ids),
        "tests/test_acceptance.py": lambda: test_acceptance_py(app),
        "src/people.py": lambda: skeleton("src/people.py"),
        "src/account.py": lambda: skeleton("src/account.py"),
        "tests/test_people.py": lambda: test_people_py(app, req_ids),
        "tests/test_account.py": lambda: test_account_py(req_ids),
    }
    if path in fixed:
        return fixed[path]()
    tool = render_tool_file(app, path, req_ids)
    if tool is not None:
        return tool
    if path.startswith(_API) and path.endswith(".py"):
        return api_py(app, app.entity(path[len(_API):-3]))
    if path.startswith(_API_TESTS) and path.endswith(".py"):
        return test_api_py(app, app.entity(path[len(_API_TESTS):-3]), req_ids)
    raise KeyError(f"the generator has no file {path!r}")


def api_module_path(ident: str) -> str:
    return f"{_API}{ident}.py"


def api_test_path(ident: str) -> str:
    return f"{_API_TESTS}{ident}.py"
