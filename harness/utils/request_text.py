"""A request's plain text: HTML written into it (a README's <h2>, <li>, <b>, </br>) is markup, not
words. Block tags end a line, inline tags go, entities are decoded. Only known tag names with
name=value attributes are markup, so "a <b and c> d" or "x<5" in prose stays as written. Shared by
the clause splitter (offline spec) and the clause check (validation), which must agree."""

from __future__ import annotations

import html
import re

_BLOCK_TAGS = "h1|h2|h3|h4|h5|h6|p|li|ul|ol|br|div|tr|td|th|table|thead|tbody|section|hr|blockquote|pre"
_INLINE_TAGS = "b|i|em|strong|u|s|span|a|code|small|mark|sub|sup|font|img"
_ATTRS = r"""(?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'<>]+))*\s*/?>"""
_BLOCK_TAG = re.compile(rf"</?(?:{_BLOCK_TAGS}){_ATTRS}", re.I)
_INLINE_TAG = re.compile(rf"</?(?:{_INLINE_TAGS}){_ATTRS}", re.I)


def plain_text(text: str) -> str:
    """`text` without its HTML markup (unchanged when it has none)."""
    if "<" not in text:
        return text
    return html.unescape(_INLINE_TAG.sub("", _BLOCK_TAG.sub("\n", text)))


# A line's bullet or list mark: "- ", "* ", "1. ", "(a) ", "## ".
BULLET = re.compile(r"^\s*(?:[-*•·+>]+|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)](?=\s)|#+)\s*")


def unbulleted(text: str) -> str:
    """The request's lines without their bullet marks, one space apart: what a clause that joins a
    header and its bullets ("Events have: Title, Deadline") quotes, commas aside."""
    lines = plain_text(text or "").replace("\r", "\n").split("\n")
    return " ".join(BULLET.sub("", raw, count=1).strip() for raw in lines)


# "(e.g. 9.99)", "(ex. hours of sleep)", "(e.g., "Tiki Night", "Speakeasy")", "(for example ...)"
_EXAMPLE_GROUP = re.compile(r"\(\s*(?P<opener>e\.?g|ex|for example|for instance)\b\.?,?(?P<body>[^()]*)\)", re.I)
_QUOTED = re.compile(r"[\"“”‘’]([^\"“”‘’]+)[\"“”‘’]|(?<!\w)'([^']+)'(?!\w)")


def example_value_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of a request text that give example values and ask for nothing: the opener
    of a bracketed example ("e.g", "ex", "for example") and the quoted values inside it
    ("Halloween Party 2025"). An unquoted example ("(e.g., CSV)") may name what is asked, so it
    is not one of them."""
    out: list[tuple[int, int]] = []
    for group in _EXAMPLE_GROUP.finditer(text):
        out.append(group.span("opener"))
        body_start = group.start("body")
        for quoted in _QUOTED.finditer(group.group("body")):
            out.append((body_start + quoted.start(), body_start + quoted.end()))
    return out


def example_value_words(text: str) -> set[str]:
    """The lower-case words of `example_value_spans`."""
    return {w.lower() for a, b in example_value_spans(text) for w in re.findall(r"\w+(?:[.'’-]\w+)*", text[a:b])}
