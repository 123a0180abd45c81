"""The expression language of computed values: tiny, typed, parsed here, never eval'd.

    next_watering = "last_watered + interval_days days"     # a date
    days_left     = "due_on - today"                         # a whole number of days
    overdue       = "due_on < today and status != 'returned'" # true / false

Grammar (lowest precedence first): `or`, `and`, `not`, a comparison (`< <= > >= = !=`), `+ -`,
`* /`, a term with an optional unit (`7 days`, `interval weeks`), and atoms: numbers, 'text',
`today`, `(…)`, field names (snake_case: the field's JSON name) and earlier computed names.

Types: date, number, bool, text. date ± days → date, date − date → number (days), numbers as
usual, comparisons of two values of one type → bool. A missing input makes a number or date
missing (null), and a comparison with a missing side false. `evaluate` is the reference meaning
(the acceptance checks and generated tests compare the app with it); `to_python` writes the same
expression as a call tree over the generated app's `calc_*` helpers (src/fieldtypes.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

MAX_LENGTH = 200
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|([a-z_][a-z0-9_]*)|'([^']*)'|(<=|>=|!=|[-+*/<>=()]))")
_UNITS = {"day": 1, "days": 1, "week": 7, "weeks": 7}
_WORDS = {"and", "or", "not", "today", *_UNITS}
_COMPARE = ("<", "<=", ">", ">=", "=", "!=")


class ExprError(ValueError):
    """The expression cannot be read or has a type error; the message says where, in one line."""


@dataclass(frozen=True)
class Node:
    op: str                 # "num", "text", "name", "today", "unit", "+", "<", "and", "not", …
    args: tuple = ()
    value: Any = None       # the number, text, name or unit factor
    type: str = ""          # date, number, bool, text


def _tokens(text: str) -> list[str]:
    if len(text) > MAX_LENGTH:
        raise ExprError(f"longer than {MAX_LENGTH} characters")
    out, pos, low = [], 0, text.lower()
    while pos < len(text):
        m = _TOKEN.match(low, pos)
        if not m or m.end() == pos:
            if not text[pos:].strip():
                break
            raise ExprError(f"cannot read {text[pos:].strip()[:20]!r}")
        num, name, quoted, sym = m.groups()
        if quoted is not None:
            quoted = text[m.start(3):m.end(3)]   # the text as written, not lower-cased
        out.append(("num", num) if num else ("name", name) if name else ("text", quoted) if quoted is not None
                   else ("sym", sym))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str, names: dict[str, str]):
        self.toks, self.i, self.names = _tokens(text), 0, names

    def peek(self, *wanted: str) -> bool:
        return self.i < len(self.toks) and self.toks[self.i][1] in wanted and self.toks[self.i][0] in ("sym", "name")

    def take(self) -> tuple[str, str]:
        if self.i >= len(self.toks):
            raise ExprError("ends too early")
        self.i += 1
        return self.toks[self.i - 1]

    def parse(self) -> Node:
        node = self.either()
        if self.i < len(self.toks):
            raise ExprError(f"unexpected {self.toks[self.i][1]!r}")
        return node

    def either(self) -> Node:
        node = self.both()
        while self.peek("or"):
            self.take()
            node = _logic("or", node, self.both())
        return node

    def both(self) -> Node:
        node = self.negated()
        while self.peek("and"):
            self.take()
            node = _logic("and", node, self.negated())
        return node

    def negated(self) -> Node:
        if self.peek("not"):
            self.take()
            inner = self.negated()
            return _logic("not", inner, inner)
        return self.compare()

    def compare(self) -> Node:
        left = self.sum()
        if self.peek(*_COMPARE):
            op, right = self.take()[1], self.sum()
            if left.type != right.type or op not in ("=", "!=") and left.type in ("bool", "text"):
                raise ExprError(f"cannot compare {left.type} {op} {right.type}")
            return Node(op, (left, right), type="bool")
        return left

    def sum(self) -> Node:
        node = self.product()
        while self.peek("+", "-"):
            op, right = self.take()[1], self.product()
            node = Node(op, (node, right), type=_sum_type(op, node, right))
        return node

    def product(self) -> Node:
        node = self.unit()
        while self.peek("*", "/"):
            op, right = self.take()[1], self.unit()
            if node.type != "number" or right.type != "number":
                raise ExprError(f"cannot {'multiply' if op == '*' else 'divide'} {node.type} by {right.type}")
            node = Node(op, (node, right), type="number")
        return node

    def unit(self) -> Node:
        node = self.atom()
        if self.peek(*_UNITS):
            word = self.take()[1]
            if node.type != "number":
                raise ExprError(f"'{word}' follows a {node.type}, not a number")
            return Node("unit", (node,), value=_UNITS[word], type="number")
        return node

    def atom(self) -> Node:
        kind, word = self.take()
        if kind == "num":
            return Node("num", value=float(word) if "." in word else int(word), type="number")
        if kind == "text":
            return Node("text", value=word, type="text")
        if word == "(":
            node = self.either()
            if self.take()[1] != ")":
                raise ExprError("a '(' is not closed")
            return node
        if word == "today":
            return Node("today", type="date")
        if kind == "name" and word not in _WORDS:
            if word not in self.names:
                raise ExprError(f"no field {word!r} (known: {', '.join(self.names) or 'none'})")
            return Node("name", value=word, type=self.names[word])
        raise ExprError(f"unexpected {word!r}")


def _sum_type(op: str, left: Node, right: Node) -> str:
    pair = (left.type, right.type)
    if pair == ("number", "number"):
        return "number"
    if pair == ("date", "number") or pair == ("number", "date") and op == "+":
        return "date"
    if pair == ("date", "date") and op == "-":
        return "number"
    word = "add" if op == "+" else "subtract"
    raise ExprError(f"cannot {word} {right.type} {'to' if op == '+' else 'from'} {left.type}"
                    + (" (a date moves by '<n> days')" if "date" in pair else ""))


def _logic(op: str, left: Node, right: Node) -> Node:
    if left.type != "bool" or right.type != "bool":
        raise ExprError(f"'{op}' needs true/false on both sides")
    return Node(op, (left,) if op == "not" else (left, right), type="bool")


def parse(text: str, names: dict[str, str]) -> Node:
    """The typed tree of `text`; `names` maps each usable name to its type. ExprError otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError("an expression is a non-empty string")
    return _Parser(text, names).parse()


def kind_type(kind: str) -> str | None:
    """The expression type of a field kind (None: the field cannot be used in an expression)."""
    if kind in ("date", "datetime"):
        return "date"
    if kind in ("integer", "money", "decimal", "rating"):
        return "number"
    if kind == "boolean":
        return "bool"
    if kind in ("short_text", "enum", "email", "phone", "url", "status"):
        return "text"
    return None


# ---- the reference meaning ----------------------------------------------------------------------

def evaluate(node: Node, env: dict[str, Any], today: date) -> Any:
    """The value of `node`: dates as datetime.date, None when an input is missing."""
    op, args = node.op, node.args
    if op in ("num", "text"):
        return node.value
    if op == "today":
        return today
    if op == "name":
        value = env.get(node.value)
        if node.type == "date" and isinstance(value, str):
            return date.fromisoformat(value[:10])
        return bool(value) if node.type == "bool" else value
    if op == "not":
        return not evaluate(args[0], env, today)
    if op in ("and", "or"):
        a, b = (evaluate(x, env, today) for x in args)
        return (a and b) if op == "and" else (a or b)
    values = [evaluate(x, env, today) for x in args]
    if op in _COMPARE:
        a, b = values
        return False if a is None or b is None else {
            "<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b, "!=": a != b}[op]
    if any(v is None for v in values):
        return None
    if op == "unit":
        return values[0] * node.value
    a, b = values
    if op == "/":
        return None if b == 0 else a / b
    if op == "*":
        return a * b
    if isinstance(a, date) and isinstance(b, date):
        return (a - b).days
    if isinstance(a, date) or isinstance(b, date):
        day, n = (a, b) if isinstance(a, date) else (b, a)
        return day + timedelta(days=n if op == "+" else -n)
    return a + b if op == "+" else a - b


def shown(value: Any) -> Any:
    """A computed value as JSON shows it (a date as ISO text)."""
    return value.isoformat() if isinstance(value, date) else value


# ---- as generated code --------------------------------------------------------------------------

def to_python(node: Node, read: dict[str, str]) -> str:
    """Python source computing `node` with the `calc_*` helpers of src/fieldtypes.py; `read[name]` is the code
    reading a name (a row value or an earlier computed value). Only literals and those reads appear."""
    op, args = node.op, node.args
    if op in ("num", "text"):
        return repr(node.value)
    if op == "today":
        return "calc_today()"
    if op == "name":
        code = read[node.value]
        return f"calc_day({code})" if node.type == "date" else f"bool({code})" if node.type == "bool" else code
    inner = [to_python(x, read) for x in args]
    if op == "not":
        return f"(not {inner[0]})"
    if op in ("and", "or"):
        return f"({inner[0]} {op} {inner[1]})"
    if op == "unit":
        return f"calc_times({inner[0]}, {node.value})"
    name = {"+": "calc_plus", "-": "calc_minus", "*": "calc_times", "/": "calc_divided"}.get(op)
    if name:
        return f"{name}({inner[0]}, {inner[1]})"
    return f"calc_compare({op!r}, {inner[0]}, {inner[1]})"
