"""Re-create the captured pytest outputs in this directory: `python tests/data/pytest_outputs/capture.py [name ...]`.

Each case is a tiny workspace run with real pytest; workspace and interpreter paths are rewritten
to /tmp/ws and /usr/lib/python3.11 and long output keeps its tail, so the files are host-neutral.
Not collected by pytest (the name does not start with test_).
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
INI = "[pytest]\npythonpath = .\nmarkers =\n    req(id): requirement this test proves\n"
BASE = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:harness"]
TAIL_CHARS = 1300

CASES: dict[str, tuple[dict[str, str], list[str]]] = {
    "syntax_error_import": ({
        "src/main.py": "def add(a, b):\n    return a + b\n\ndef broken(:\n    pass\n",
        "tests/test_main.py": "from src.main import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"}, []),
    "name_error": ({
        "src/main.py": "def total(items):\n    return sum(item.price for item in itmes)\n",
        "tests/test_main.py": "from src.main import total\n\ndef test_total():\n    assert total([]) == 0\n"}, []),
    "module_not_found": ({
        "src/models.py": "import sqlalchemy\n\nBase = sqlalchemy.orm.declarative_base()\n",
        "tests/test_models.py": "from src.models import Base\n\ndef test_base():\n    assert Base is not None\n"}, []),
    "local_module_missing": ({
        "src/main.py": "from src.api_task import router\n",
        "tests/test_main.py": "from src.main import router\n\ndef test_router():\n    assert router\n"}, []),
    "assertion_failure": ({
        "src/main.py": "def add(a, b):\n    return a - b\n",
        "tests/test_main.py": "import pytest\nfrom src.main import add\n\n@pytest.mark.req('REQ-001')\n"
                              "def test_add():\n    assert add(2, 3) == 5\n\n"
                              "def test_zero():\n    assert add(0, 0) == 0\n"}, []),
    "timeout": ({
        "src/main.py": "import time\n\ndef slow():\n    time.sleep(30)\n",
        "tests/test_main.py": "from src.main import slow\n\ndef test_slow():\n    slow()\n"}, ["--timeout=1"]),
    "no_tests": ({"src/main.py": "X = 1\n", "tests/test_main.py": "X = 2\n"}, []),
    "file_not_found": ({"tests/test_main.py": "def test_a():\n    assert True\n"}, ["tests/test_missing.py"]),
    "passing": ({
        "src/main.py": "def add(a, b):\n    return a + b\n",
        "tests/test_main.py": "from src.main import add\n\ndef test_add():\n    assert add(1, 2) == 3\n"}, []),
}


def sanitize(text: str, workspace: Path) -> str:
    text = text.replace(str(workspace), "/tmp/ws")
    paths = sysconfig.get_paths()
    for key, neutral in [("purelib", "/usr/lib/python3.11/site-packages"),
                         ("platlib", "/usr/lib/python3.11/site-packages"),
                         ("stdlib", "/usr/lib/python3.11"), ("platstdlib", "/usr/lib/python3.11")]:
        text = text.replace(paths[key], neutral)
    if len(text) > TAIL_CHARS:
        text = text[-TAIL_CHARS:].split("\n", 1)[-1]
    return text


def capture(name: str) -> str:
    files, extra = CASES[name]
    with tempfile.TemporaryDirectory(prefix="ws_") as tmp:
        workspace = Path(tmp)
        for rel, content in {"pytest.ini": INI, "src/__init__.py": "", **files}.items():
            (workspace / rel).parent.mkdir(parents=True, exist_ok=True)
            (workspace / rel).write_text(content)
        env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        proc = subprocess.run([sys.executable, *BASE, *extra], cwd=workspace, env=env,
                              capture_output=True, text=True, timeout=120)
        command = " ".join(["python", *BASE, *extra])
        return (f"# command: {command}\n# exit_code: {proc.returncode}\n"
                f"--- stdout ---\n{sanitize(proc.stdout, workspace)}\n"
                f"--- stderr ---\n{sanitize(proc.stderr, workspace)}\n")


if __name__ == "__main__":
    for case in sys.argv[1:] or list(CASES):
        (HERE / f"{case}.txt").write_text(capture(case))
        print(case)
