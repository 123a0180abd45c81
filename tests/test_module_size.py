"""The project's own modules stay focused: no Python file of the product is over 400 lines.

harness/providers/openai_http.py grew to 406 lines (the HTTP exchange and the message shaping in
one file); the message shaping now lives in harness/providers/chat_messages.py. This test keeps the
next file from growing past the limit unnoticed.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = 400


def long_modules(root: Path, limit: int = LIMIT) -> list[str]:
    found = []
    for package in ("harness", "pytest_harness"):
        for path in sorted((root / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").count("\n")
            if lines > limit:
                found.append(f"{path.relative_to(root)}: {lines} lines")
    return found


def test_no_product_module_is_over_400_lines():
    assert long_modules(ROOT) == []


def test_the_size_rule_sees_a_long_module(tmp_path):
    (tmp_path / "harness").mkdir()
    (tmp_path / "pytest_harness").mkdir()
    (tmp_path / "harness" / "long.py").write_text("x = 1\n" * 401)
    (tmp_path / "pytest_harness" / "short.py").write_text("x = 1\n" * 400)
    assert long_modules(tmp_path) == ["harness/long.py: 401 lines"]
