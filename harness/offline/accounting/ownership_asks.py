"""Records owned by users (stranger trial 2026-12-07e F1): "Item can be owned by a user." was
reported built — BUILD COMPLETE — over a spec without accounts: "owned" met the function word
"own" by its stem ("my own recipes"), "user" is framing. Being owned by a user needs users: the
verb forms "owned", "owns", "owning" are realised only by accounts (with login on, every record
belongs to the account that created it); without them they are unaccounted."""

from __future__ import annotations

_OWNING = frozenset({"owned", "owns", "owning"})


def ownership_asks(toks: list[str], labels: list[str | None], sw) -> None:
    """Label the verb forms of "own" by the spec's accounts, or leave them unaccounted (in place)."""
    for i, tok in enumerate(toks):
        if tok.lower() in _OWNING:
            labels[i] = sw.present.get("auth")
