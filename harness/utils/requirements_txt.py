"""The distribution names a workspace's requirements.txt lists (read by the plugin selection and
by the warm worker's coverage check alike)."""

from __future__ import annotations

import re

_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def requirement_names(text: str) -> set[str]:
    """Normalised distribution names a requirements.txt lists (options and comments ignored)."""
    names = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        match = _NAME.match(line)
        if match:
            names.add(re.sub(r"[-_.]+", "-", match.group(1)).lower())
    return names
