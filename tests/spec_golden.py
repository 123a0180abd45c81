"""The offline parser's golden specs: what `spec.json` holds for every request of the dev set.

The golden files (tests/data/spec_golden/<id>.json) pin the parser's output so that a change of
structure (rules moved into pattern tables, passes reordered in one table) is proven not to change
behaviour (tests/test_spec_golden.py). A change of behaviour on purpose regenerates them, and the
commit says why:

    .venv/bin/python -m tests.spec_golden --write      # rewrite every golden file
    .venv/bin/python -m tests.spec_golden              # list the requests whose spec differs

Canonical form: the document the spec stage writes as spec.json (`postprocess(parse_request(r))`,
`model_dump(mode="json")`), dumped with sorted object keys, indent 1, UTF-8. Object keys are the
only ordering normalised: every list keeps the parser's order, so a reordered list is a difference.
A key whose value is the model's default is left out (`exclude_defaults`), so a field added to the
spec model with a default does not change the golden files; a parser that sets a value, or stops
setting one, still does. A request the parser stops on is stored as
{"error": <message>, "clauses": <clauses.json>}.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from harness.errors import SpecError

REQUESTS = Path(__file__).parent / "data" / "requests"
GOLDEN = Path(__file__).parent / "data" / "spec_golden"


def request_ids() -> list[str]:
    """The dev set's request ids, in file order."""
    return [p.stem for p in sorted(REQUESTS.glob("*.json"))]


def spec_document(request: str) -> dict:
    """What the spec stage writes for `request` by the offline rules (spec.json or clauses.json)."""
    from harness.agents.spec_agent import postprocess
    from harness.offline.accounting.run_draft import failure_clauses
    from harness.offline.spec import parse_request

    try:
        return postprocess(parse_request(request)).model_dump(mode="json", exclude_defaults=True)
    except SpecError as exc:
        return {"error": str(exc), "clauses": [c.model_dump(mode="json", exclude_defaults=True)
                                                for c in failure_clauses(exc)]}


def canonical(doc: dict) -> str:
    """The stored text of one golden document (object keys sorted; list order kept)."""
    return json.dumps(doc, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def current_text(request_id: str) -> str:
    """The canonical document the parser gives today for one dev-set request."""
    item = json.loads((REQUESTS / f"{request_id}.json").read_text(encoding="utf-8"))
    return canonical(spec_document(item["request"]))


def main(argv: list[str]) -> int:
    if argv not in ([], ["--write"]):
        print("usage: python -m tests.spec_golden [--write]", file=sys.stderr)
        return 2
    differ = []
    for rid in request_ids():
        text, path = current_text(rid), GOLDEN / f"{rid}.json"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            differ.append(rid)
            if argv:
                path.write_text(text, encoding="utf-8")
    verb = "rewritten" if argv else "differ from the golden files"
    print(f"{len(differ)} of {len(request_ids())} specs {verb}" + (": " + ", ".join(differ) if differ else ""))
    return 1 if differ and not argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
