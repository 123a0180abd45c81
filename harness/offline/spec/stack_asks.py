"""Storage and stack requirements the generator cannot honour: data kept in the browser
("client-only localStorage", "use the local browser storage", "IndexedDB", "offline-first") and
front-end / back-end frameworks beyond the lexicon's main tables ("Vite", "Nuxt", "Electron").

The generated app keeps every record server-side in SQLite behind a FastAPI API and serves
server-rendered HTML. A request that requires its data to live in the browser, or names another
stack, asks for something else: the words get a `stack:<name>` role, so the clause is not_built
with the stack reason instead of passing as framing words ("client-only" read as an adverb,
"localStorage" as the storage the app already has). Where data is stored in general ("kept in a
database", "saved to a file") stays honoured.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.pass_helpers import word as _word
from harness.offline.spec.tokens import Tok

BROWSER_STORAGE = "client-only storage in the browser (localStorage)"
OFFLINE_FIRST = "an offline-first app that keeps its data in the browser"
_CLIENT = lx._words("client-only client-side clientside")
_STORAGE = lx._words("storage store stores stored data database")
_IN_BROWSER_VERBS = lx._words("store stores stored save saves saved keep keeps kept persist persists persisted "
                              "live lives data")


def find_stack_asks(toks: list[Tok]) -> None:
    """Give browser-storage and extra framework words their `stack:` role."""
    for i, t in enumerate(toks):
        if t.used:
            continue
        w, nxt = t.w, _word(toks, i + 1)
        if w in lx.BROWSER_STORES:
            name = lx.BROWSER_STORES[w]
            _use(t, f"stack:{BROWSER_STORAGE if name == 'browser localStorage' else name}")
        elif w in lx.STACK_NAMES:
            _use(t, f"stack:{lx.STACK_NAMES[w]}")
        elif w == "client-only" or w in _CLIENT and nxt in _STORAGE | {"only", "app", "application"}:
            _use(t, f"stack:{BROWSER_STORAGE}")
        elif (w, nxt) == ("local", "storage") or w == "browser" and nxt in ("storage", "store", "database", "db"):
            _use(t, f"stack:{BROWSER_STORAGE}")
            _use(toks[i + 1], f"stack:{BROWSER_STORAGE}")
        elif w == "browser" and _in_browser(toks, i):   # "data is saved in the browser"
            _use(t, f"stack:{BROWSER_STORAGE}")
        elif w == "offline-first" or (w == "offline" and nxt == "first"):
            _use(t, f"stack:{OFFLINE_FIRST}")
            if nxt == "first":
                _use(toks[i + 1], f"stack:{OFFLINE_FIRST}")


def _in_browser(toks: list[Tok], i: int) -> bool:
    """ "saved in the browser", "lưu dữ liệu trên trình duyệt" (save data on browser)."""
    k = i - 1 - (_word(toks, i - 1) in ("the", "a", "your", "user's", "user", "their", "each"))
    if _word(toks, k) not in ("in", "on", "inside", "within"):
        return False
    return any(toks[j].w in _IN_BROWSER_VERBS for j in range(max(0, k - 6), k) if toks[j].clause == toks[i].clause)
