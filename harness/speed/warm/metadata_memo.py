"""The warm worker's memo of installed-distribution metadata (stdlib only; loaded by worker.py
by path, never as a package module inside the sandbox).

Every pytest session reads the same metadata of every installed distribution: pytest marks the
files of each pytest11 distribution for assertion rewriting (their RECORD, parsed into `files`),
pluggy loads the pytest11 entry points (every distribution's entry_points.txt), and the evidence
plugin names the plugin distributions (METADATA). Measured at ~20 ms of a ~200 ms session, the
same answer every time.

`MetadataMemo.install()` runs in the worker before any child is forked. It reads, once, the
distributions found on the worker's sys.path (the installed ones: the workspace is never on it),
and from then on `importlib.metadata.PathDistribution.read_text`, `.entry_points` and `.files`
answer from the memo for those dist-info paths only. Discovery is untouched: a distribution
installed or removed during the run is seen as before, and any other path (a workspace's own
.dist-info) is read from disk as before. `entry_points` is immutable and shared; `files` is a new
list each time, as a cold read gives. The memo trusts that an installed dist-info directory is not
rewritten in place while a run lasts (pip replaces a version's directory as a whole).

`memoize_install_paths()` does the same for `sysconfig.get_paths()` with its default `vars`:
coverage.py asks it for every install scheme when it starts (27 calls, ~8 ms a session), and the
answer is a function of the scheme and of the interpreter's config vars, which sysconfig itself
computes once per process. Each call gets its own copy of the dict.
"""

import importlib.metadata as _metadata
import pathlib
import sysconfig

# What a session reads of an installed distribution (the rest is read from disk as before).
_TEXTS = ("entry_points.txt", "METADATA", "RECORD", "installed-files.txt", "SOURCES.txt")
_GROUP = "pytest11"


def _key(dist):
    path = getattr(dist, "_path", None)
    return str(path) if isinstance(path, pathlib.PurePath) else None


class MetadataMemo:
    """{dist-info path: texts, parsed entry points, parsed files} of the installed distributions."""

    def __init__(self):
        self.texts = {}    # (path, filename) -> text or None
        self.entry = {}    # path -> EntryPoints
        self.files = {}    # path -> list of PackagePath, or None

    def prime(self):
        """Read every installed distribution's entry points, and the files and METADATA of the
        pytest11 ones (what a session asks for); the number of distributions memoized."""
        real_read = _metadata.PathDistribution.read_text
        for dist in _metadata.distributions():
            key = _key(dist)
            if key is None or key in self.entry:
                continue
            try:
                text = real_read(dist, "entry_points.txt")
                self.texts[(key, "entry_points.txt")] = text
                eps = _metadata.EntryPoints._from_text_for(text, dist)
                if any(ep.group == _GROUP for ep in eps):
                    for name in _TEXTS[1:]:
                        self.texts[(key, name)] = real_read(dist, name)
                    self.files[key] = dist.files
            except Exception:  # noqa: BLE001 - a distribution the memo cannot read is read live
                for name in _TEXTS:
                    self.texts.pop((key, name), None)
                self.files.pop(key, None)
                continue
            self.entry[key] = eps
        return len(self.entry)

    def install(self):
        """Prime, then answer the memoized reads in this process and every child forked after."""
        self.prime()
        texts, entry, files = self.texts, self.entry, self.files
        real_read = _metadata.PathDistribution.read_text
        real_entry = _metadata.Distribution.entry_points
        real_files = _metadata.Distribution.files

        def read_text(dist, filename):
            hit = texts.get((_key(dist), filename), texts)
            return real_read(dist, filename) if hit is texts else hit

        def entry_points(dist):
            hit = entry.get(_key(dist))
            return real_entry.fget(dist) if hit is None else hit

        def files_of(dist):
            key = _key(dist)
            if key not in files:
                return real_files.fget(dist)
            hit = files[key]
            return None if hit is None else list(hit)

        _metadata.PathDistribution.read_text = read_text
        _metadata.Distribution.entry_points = property(entry_points, doc=real_entry.__doc__)
        _metadata.Distribution.files = property(files_of, doc=real_files.__doc__)
        return self


def memoize_install_paths():
    """Answer `sysconfig.get_paths(...)` without `vars` from a memo in this process and its children
    (a call with `vars`, or with arguments that cannot be a key, is computed as before)."""
    real = sysconfig.get_paths
    memo = {}

    def get_paths(*args, **kwargs):
        if (len(args) > 1 and args[1] is not None) or kwargs.get("vars") is not None:
            return real(*args, **kwargs)
        key = (args, tuple(sorted(kwargs.items())))
        try:
            hit = memo.get(key)
        except TypeError:
            return real(*args, **kwargs)
        if hit is None:
            hit = memo[key] = real(*args, **kwargs)
        return dict(hit)

    get_paths.__doc__ = real.__doc__
    sysconfig.get_paths = get_paths
    return get_paths
