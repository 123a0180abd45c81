"""pytest's initial Config made once in the warm worker (stdlib and the preloaded pytest only).

Every session starts in `_pytest.config.get_config(args)`: a plugin manager with pytest's hookspecs
and its ~30 default plugins registered (~16 ms of each child's start, measured in a forked child
of a preloaded worker). What it builds depends only on the invocation directory, the `-p no:NAME`
exclusions among the args, the program name and PYTEST_DEBUG: never on the workspace's files or
the rest of the args. So the worker makes one for a request's directory and exclusions just before
it forks that request's child (`ConfigAhead.prepare`: the first request pays what its child would
have paid), and keeps it untouched: every child whose request has the same key gets it as fork
copied it, and pytest's own `get_config` call in that child returns it, with the child's real args
as its invocation params (`install`). Anything else — plugins passed in, a program name other than
`python -m pytest`, PYTEST_DEBUG set, a warning or error while it was made — and pytest makes its
own, exactly as before.
"""

import os
import sys
import warnings

PROG = "python -m pytest"  # what _pytest.config._get_prog_name gives a `python -m pytest` child


def exclusions(args):
    """The `-p no:NAME` values of `args`, in order: what get_config's `consider_preparse(args,
    exclude_only=True)` acts on (the same walk over the args)."""
    found, i, n = [], 0, len(args)
    while i < n:
        opt = args[i]
        i += 1
        if not isinstance(opt, str):
            continue
        if opt == "-p":
            if i >= n:
                break
            parg = args[i]
            i += 1
        elif opt.startswith("-p"):
            parg = opt[2:]
        else:
            continue
        parg = parg.strip()
        if parg.startswith("no:"):
            found.append(parg)
    return tuple(found)


class ConfigAhead:
    """The worker's one Config made ahead (None until made), and the key it was made for."""

    def __init__(self):
        self.key = None        # (directory, exclusions) of `config`
        self.config = None
        self.failed = set()    # keys whose making warned or raised: never tried again

    def prepare(self, cwd, args, env):
        """Before forking the child for (cwd, args) under `env`: make its Config unless the one
        kept has this key (or making it failed before). True when the child will start from it."""
        if env.get("PYTEST_DEBUG") or os.environ.get("PYTEST_DEBUG"):
            return False
        key = (cwd, exclusions(args))
        if key != self.key and key not in self.failed:
            made = _make(*key)
            if made is None:
                self.failed.add(key)
            else:
                self.key, self.config = key, made
        return self.ready_for(cwd, args)

    def ready_for(self, cwd, args):
        """True when a child serving (cwd, args) will start from the Config made ahead."""
        return self.config is not None and self.key == (cwd, exclusions(args))

    def install(self, cwd, args):
        """In the child, before pytest starts: let its get_config call return the Config made ahead
        when everything it depends on is the same. False when pytest will make its own."""
        if not self.ready_for(cwd, args) or os.environ.get("PYTEST_DEBUG"):
            return False
        from pathlib import Path

        from _pytest import config as pytest_config

        real, made, key = pytest_config.get_config, self.config, self.key

        def get_config(args=None, plugins=None, *, prog=None):
            pytest_config.get_config = real   # one session, one call: anything later is pytest's own
            here = Path.cwd()
            if (args is None or plugins is not None or prog != PROG or str(here) != key[0]
                    or made.invocation_params.dir != here or exclusions(list(args)) != key[1]):
                return real(args, plugins, prog=prog)
            made.invocation_params = pytest_config.Config.InvocationParams(args=args or (), plugins=None, dir=here)
            return made

        pytest_config.get_config = get_config
        return True


def _make(cwd, excluded):
    """get_config as a child in `cwd` with these exclusions would call it; None when it warned or
    failed (a cold session would show that warning or error itself)."""
    pytest_config = sys.modules.get("_pytest.config")
    if pytest_config is None:  # pytest was not preloaded: the worker imports nothing for it
        return None
    args = [part for parg in excluded for part in ("-p", parg)]
    before = os.getcwd()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            os.chdir(cwd)
            made = pytest_config.get_config(args, None, prog=PROG)
        except Exception:  # noqa: BLE001 - a usage error (`-p no:main`) is the child's to report
            return None
        finally:
            os.chdir(before)
    return None if caught else made
