"""The bounds of a `--spec` file, checked before (size) and right after (shape) parsing, so a huge
or hostile file ends in one line instead of minutes of work or a RecursionError."""

from __future__ import annotations

MAX_BYTES = 256 * 1024   # the largest example is ~2 KB; a real app spec stays far below
MAX_ENTITIES = 50        # the generator builds every entity's module, tests and pages
MAX_FIELDS = 60          # per entity
MAX_DEPTH = 8            # tables/arrays inside each other (a spec needs 5: entities, fields, values)
MAX_NOT_BUILT = 120      # asks a draft lists as not built: one per request clause at most (the parser reads 120)


def depth(value) -> int:
    """How deeply tables and arrays nest in `value` (a scalar is 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level + 1)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


def parent_cycle(parents: dict[str, str | None]) -> list[str] | None:
    """The first cycle of parent links (`[a, b, a]` for a -> b -> a), or None."""
    for start in parents:
        path, seen, node = [], set(), start
        while node is not None and node not in seen:
            seen.add(node)
            path.append(node)
            node = parents.get(node)
        if node is not None and node == start:
            return [*path, start]
    return None
