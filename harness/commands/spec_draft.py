"""`builder spec "<request>" [-o FILE]`: the draft spec of a request (the spec stage only, by the
offline rules), in the `--spec` TOML language, to edit and then build with `builder new --spec`."""

from __future__ import annotations

import sys
from pathlib import Path

from harness.commands.base import Command
from harness.errors import EXIT_OK, InputError


def cmd_spec(args) -> int:
    from harness.offline.accounting.run_draft import request_draft
    from harness.state.store import validate_request

    request = validate_request(args.request)   # InputError (exit 2): empty, control characters, too long
    text, spec, clauses, error = request_draft(request)
    if error and not clauses:   # e.g. more clauses than the parser reads: a stated cap, nothing drafted
        raise InputError(error)
    if args.output:
        out = Path(args.output)
        try:
            out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise InputError(f"cannot write {out}: {exc.strerror or exc}") from None
    else:
        sys.stdout.write(text)
    unread = [c for c in clauses if c.unaccounted]
    summary = (f"{len(clauses)} clause{'' if len(clauses) == 1 else 's'}, {len(unread)} with words not understood"
               + (f"; {error}" if error else ""))
    target = args.output or "the draft"
    sys.stderr.write(f"builder spec: {summary}; edit {target}, then: builder new --spec {args.output or 'FILE'}\n")
    return EXIT_OK


def _spec_arguments(p) -> None:
    p.add_argument("request", help="what to build, in plain words")
    p.add_argument("-o", "--output", metavar="FILE", default=None, help="write the draft to FILE (default: stdout)")


SPEC = Command("spec", "write the draft spec (app.toml) of a request without building it", _spec_arguments, cmd_spec)
