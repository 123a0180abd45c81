"""Tiny helpers for building generated source text: placeholder filling and Python literals."""

from __future__ import annotations

import re
import textwrap
from typing import Any

_MARK = re.compile(r"@@(\w+)@@")


def fill(template: str, **values: Any) -> str:
    """Dedent `template` and replace each @@name@@ with str(values[name]); unknown names raise.

    A line holding only a placeholder whose value is empty disappears; a multi-line value placed
    alone on an indented line gets that indentation on every line.
    """
    out = []
    for line in textwrap.dedent(template).lstrip("\n").split("\n"):
        only = _MARK.fullmatch(line.strip())
        if only:
            value = str(values[only.group(1)])
            if value:
                pad = line[: len(line) - len(line.lstrip())]
                out.append("\n".join(pad + v if v else v for v in value.split("\n")))
            continue
        out.append(_MARK.sub(lambda m: str(values[m.group(1)]), line))
    return "\n".join(out)


def lit(value: Any) -> str:
    """A Python literal for a str/int/float/bool/None/tuple/list/dict value."""
    return repr(value)


def block(lines: list[str], indent: int = 0) -> str:
    """Join lines, each indented by `indent` spaces (blank lines stay blank)."""
    pad = " " * indent
    return "\n".join(pad + line if line else "" for line in lines)


def marks(req_ids: tuple[str, ...] | list[str]) -> str:
    """Decorator lines marking a generated test with every requirement it proves."""
    return "".join(f"@pytest.mark.req({lit(r)})\n" for r in req_ids)


def sql_lines(sql: str, indent: int) -> str:
    """A long SQL string as one literal per clause, wrapped in parentheses for readability."""
    parts = re.split(r"(?= (?:FROM|WHERE|ORDER BY|GROUP BY|LIMIT|VALUES|SET) )", sql)
    if len(parts) == 1:
        return lit(sql)
    pad = " " * (indent + 4)
    inner = "\n".join(pad + lit(p) for p in parts)
    return "(\n" + inner + "\n" + " " * indent + ")"


def module(*chunks: str) -> str:
    """Top-level chunks separated by two blank lines, ending with one newline."""
    return "\n\n\n".join(c.strip("\n") for c in chunks if c.strip()) + "\n"


def doc(text: str) -> str:
    """Display text safe inside a generated triple-quoted docstring (one line, no quotes/escapes)."""
    return " ".join(text.replace("\\", "/").replace('"', "'").split())
