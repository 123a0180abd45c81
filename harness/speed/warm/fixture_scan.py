"""Which names of the preloaded plugin modules pytest's fixture scan acts on, found once in the warm
worker (stdlib and the preloaded pytest only; loaded by worker.py by path).

Every session's FixtureManager scans each registered plugin (`parsefactories`): for every name in
`dir(module)` it checks the raw entry for a fixture hidden behind wrappers (a warning) and whether
the attribute is a fixture definition. Over pytest's ~40 plugin modules that is ~2,250 names and
~20 ms of each session's start, to find the same few dozen fixtures in modules the worker
preloaded. `FixtureScan.prepare` (in the worker) records, per module, its `__dict__` as it is
(the keys in order and the identity of each value) and the names the scan acts on; in the child,
`install` lets `parsefactories` scan, for a module whose `__dict__` still has exactly those keys
and values, a stand-in module holding only those names (the same objects, in the same sorted
order, so the same fixtures are registered in the same order and the same warnings are raised).
A module that changed in any way, a conftest, a class or anything else is scanned as before.
"""

import sys
import types

_PREFIXES = ("_pytest.", "pytest_harness.", "pytest_timeout", "anyio.pytest_plugin")


class FixtureScan:
    """{module name: (keys, value ids, names the scan acts on, values)} of the preloaded plugin modules."""

    def __init__(self):
        self.memo = {}

    def prepare(self):
        """Record every preloaded plugin module not recorded yet; False when pytest's fixture scan
        is not the one this was written against (nothing is recorded then)."""
        fixtures = sys.modules.get("_pytest.fixtures")
        manager = getattr(fixtures, "FixtureManager", None)
        if manager is None or not all(hasattr(manager, n) for n in (
                "parsefactories", "_find_wrapped_fixture_def", "_check_for_wrapped_fixture")):
            return False
        for name, module in list(sys.modules.items()):
            if name in self.memo or not isinstance(module, types.ModuleType) or not name.startswith(_PREFIXES):
                continue
            if "__getattr__" in vars(module) or "__dir__" in vars(module):
                continue
            try:
                self.memo[name] = _record(module, fixtures)
            except Exception:  # noqa: BLE001 - an unreadable module is scanned in full by pytest
                continue
        return True

    def install(self):
        """In the child: `parsefactories` scans a recorded, unchanged module's stand-in."""
        fixtures = sys.modules.get("_pytest.fixtures")
        if not self.memo or fixtures is None:
            return False
        memo, real = self.memo, fixtures.FixtureManager.parsefactories
        notset = fixtures.NOTSET

        def parsefactories(self, node_or_obj=notset, nodeid=notset, *, holder=notset, node=notset):
            if holder is not notset and type(holder) is types.ModuleType:
                holder = _stand_in(holder, memo.get(holder.__name__))
            return real(self, node_or_obj, nodeid, holder=holder, node=node)

        fixtures.FixtureManager.parsefactories = parsefactories
        return True


def _record(module, fixtures):
    """(keys, value ids, names the scan acts on, the values) of `module` now."""
    space = vars(module)
    acts = []
    for name in dir(module):
        raw = space.get(name)
        wrapped = fixtures.FixtureManager._find_wrapped_fixture_def(None, raw) if raw is not None else None
        if (wrapped is not None and wrapped is not raw) or \
                type(fixtures.safe_getattr(module, name, None)) is fixtures.FixtureFunctionDefinition:
            acts.append(name)
    # The values themselves are kept with their ids: an object replaced in a child stays alive, so
    # no new object can take its address and pass the identity check.
    return tuple(space), tuple(map(id, space.values())), tuple(acts), tuple(space.values())


def _stand_in(module, recorded):
    """A module holding only the recorded names of `module`, when its `__dict__` is unchanged
    since it was recorded; else `module` itself."""
    if recorded is None:
        return module
    keys, ids, acts, _values = recorded
    space = vars(module)
    if tuple(space) != keys or tuple(map(id, space.values())) != ids:
        return module
    stand_in = types.ModuleType(module.__name__)
    vars(stand_in).clear()
    vars(stand_in).update({name: space[name] for name in acts})
    return stand_in
