"""What an evidence session read from its workspace: the inputs a later session compares to carry a test.

While a session records (from `pytest_load_initial_conftests`, before any conftest is imported, to
the start of `pytest_sessionfinish`), a `sys.addaudithook` hook and a finder first on
`sys.meta_path` note:

- `files`: workspace files opened (the "open" event; imports read source through io.open_code,
  which raises it too), each with the hash it had when the session started ("absent" when the open
  found nothing), plus the files of workspace modules imported and every pytest/config file;
- `dirs`: workspace directories listed by code with a workspace frame on its stack (os.listdir,
  os.scandir; not the import system's own listings, not pytest's collection), with a listing hash;
  `globs`: glob.glob patterns inside the workspace, with the hash of what they matched;
- `modules`: every module name the import system looked up (the finder), imported (the "import"
  event) or held (sys.modules at start and end: a cold `python -m pytest` imports stdlib modules
  with the workspace first on sys.path), and `import_dirs`: the listing of every workspace
  directory the import system searches (the sys.path roots, the workspace packages' paths);
- `sys_path` at the end of collection (workspace entries relative to it);
- `unsafe`: why nothing of the session may be carried: it spawned a process (subprocess.Popen,
  os.exec*, os.posix_spawn, os.system, os.fork...), wrote, renamed or removed a workspace file,
  opened a file the snapshot does not hash (a database), or changed sys.path during the tests.

Audit hooks cannot be removed: the hook is installed once per process, and outside a recording
window it returns at its first test. Python does not audit os.stat, so a test that only checks
whether a workspace path exists is not seen; carry.py refuses to carry across added or removed
files that are not Python modules for that reason.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
import threading
from pathlib import Path

from pytest_harness.snapshot import SKIP_DIRS, hash_file, is_skipped_file

VERSION = 1
ABSENT = "absent"
CONFIG_FILES = ("pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg", "requirements.txt", ".pytest.ini")
SPAWN_EVENTS = frozenset({"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
                          "os.forkpty", "pty.spawn"})
MUTATE_EVENTS = frozenset({"os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.truncate", "os.chmod", "os.chown",
                           "os.link", "os.symlink", "os.utime", "shutil.rmtree", "shutil.move", "os.chflags"})
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_IMPORT_FRAMES = ("<frozen importlib._bootstrap", "<frozen zipimport")
_METADATA_FRAME = os.path.join("importlib", "metadata", "__init__.py")
_METADATA_SUFFIXES = (".dist-info", ".egg-info", ".egg", ".egg-link")

_INSTALL_PREFIXES = tuple(sorted({p.rstrip(os.sep) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}))

_active: Recorder | None = None
_installed = False


def listing_hash(names) -> str:
    return "sha256:" + hashlib.sha256("\0".join(sorted(names)).encode("utf-8", "surrogateescape")).hexdigest()


def metadata_entries(names) -> list[str]:
    """The entries importlib.metadata reads in a sys.path directory (distribution metadata only)."""
    return sorted(n for n in names if n.lower().endswith(_METADATA_SUFFIXES) or n.lower() == "egg-info")


def list_dir(path: Path) -> list[str] | None:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return None


class _Finder:
    """First on sys.meta_path while recording: notes each module name looked up, finds nothing."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        rec = _active
        if rec is not None:
            rec.modules.add(fullname)
        return None


class Recorder:
    """The read set of one session's recording window (see the module docstring)."""

    def __init__(self, root: Path) -> None:
        self.root = os.path.realpath(root)
        self.prefix = self.root + os.sep
        self.reads: set[str] = set()
        self.pre_hashes: dict[str, str] = {}
        self.dirs: dict[str, str] = {}
        self.metadata_dirs: dict[str, str] = {}
        self.globs: dict[str, str] = {}
        self.modules: set[str] = set(sys.modules)
        self.unsafe: list[str] = []
        self.sys_path: list[str] | None = None
        self._busy: set[int] = set()
        self._finder = _Finder()

    # -- window -------------------------------------------------------------------------------
    def start(self) -> None:
        global _active, _installed
        if not _installed:
            sys.addaudithook(_hook)
            _installed = True
        sys.meta_path.insert(0, self._finder)
        _active = self

    def stop(self) -> None:
        global _active
        if _active is self:
            _active = None
        try:
            sys.meta_path.remove(self._finder)
        except ValueError:
            self._unsafe("the recording finder was removed from sys.meta_path")
        self.modules |= set(sys.modules)
        if self.sys_path is not None and sys_path_view(self.root) != self.sys_path:
            self._unsafe("sys.path changed while the tests ran")

    def mark_collected(self) -> None:
        """Collection finished: the sys.path the tests run with (pytest inserted the test roots)."""
        self.sys_path = sys_path_view(self.root)

    # -- events -------------------------------------------------------------------------------
    def _rel(self, path) -> str | None:
        """The workspace-relative POSIX path of a path argument, None outside the workspace/for fds."""
        if isinstance(path, int) or path is None:
            return None
        if (isinstance(path, str) and path.startswith(_INSTALL_PREFIXES) and not path.startswith(self.prefix)
                and path != self.root and "/./" not in path and "/../" not in path and "//" not in path
                and not path.endswith(("/.", "/.."))):
            return None  # already normal (what normpath would give), under the interpreter's own files
        try:
            text = os.fsdecode(os.fspath(path))
        except TypeError:
            return None
        full = os.path.normpath(os.path.join(os.getcwd(), text))
        if full == self.root:
            return "."
        if not full.startswith(self.prefix):
            if full.startswith(_INSTALL_PREFIXES):
                return None  # the interpreter's own files (most opens): no symlink into the workspace
            real = os.path.realpath(full)
            if real != self.root and not real.startswith(self.prefix):
                return None
            full = real
        return Path(full[len(self.prefix):]).as_posix() if full != self.root else "."

    @staticmethod
    def _skipped(rel: str) -> bool:
        return any(part in SKIP_DIRS for part in rel.split("/"))

    def _unsafe(self, why: str) -> None:
        if why not in self.unsafe and len(self.unsafe) < 20:
            self.unsafe.append(why)

    def on_open(self, args) -> None:
        path, mode, flags = (tuple(args) + (None, None, None))[:3]
        rel = self._rel(path)
        if rel is None or self._skipped(rel):
            return
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            mode is None and isinstance(flags, int) and flags & _WRITE_FLAGS)
        if writes:
            self._unsafe(f"wrote {rel}")
        elif is_skipped_file(rel.rsplit("/", 1)[-1]):
            self._unsafe(f"read {rel}, which the snapshot does not hash")
        elif rel not in self.reads:
            self.reads.add(rel)
            if rel not in self.pre_hashes:  # its state now, for files the start snapshot may not hold
                self.pre_hashes[rel] = hash_file(Path(self.root, rel)) or ABSENT

    def on_list(self, args) -> None:
        path = args[0] if args else None
        frame = sys._getframe(2)
        if frame.f_code.co_filename.startswith(_IMPORT_FRAMES):
            return  # the import system's FileFinder: covered by import_dirs
        if not self._workspace_on_stack(frame):
            return
        rel = self._rel("." if path is None else path)
        if rel is None or self._skipped(rel) or rel in self.dirs or rel in self.metadata_dirs:
            return
        names = list_dir(Path(self.root, rel))
        if frame.f_code.co_filename.endswith(_METADATA_FRAME):
            # importlib.metadata (entry points, distributions) only looks for distribution metadata
            self.metadata_dirs[rel] = ABSENT if names is None else listing_hash(metadata_entries(names))
        else:
            self.dirs[rel] = ABSENT if names is None else listing_hash(names)

    def on_glob(self, args) -> None:
        import glob

        pattern, recursive = (tuple(args) + (None, False))[:2]
        if not isinstance(pattern, (str, bytes)) or not self._workspace_on_stack(sys._getframe(2)):
            return
        rel = self._rel(pattern)
        if rel is None or rel in self.globs:
            return
        self.globs[rel] = glob_hash(self.root, rel, bool(recursive))

    def on_mutate(self, event: str, args) -> None:
        for arg in args:
            if isinstance(arg, (str, bytes, os.PathLike)):
                rel = self._rel(arg)
                if rel is not None and not self._skipped(rel):
                    self._unsafe(f"{event} {rel}")

    def on_sqlite(self, args) -> None:
        database = args[0] if args else None
        if isinstance(database, (str, bytes, os.PathLike)) and os.fsdecode(os.fspath(database)) not in ("", ":memory:"):
            rel = self._rel(database)
            if rel is not None:
                self._unsafe(f"opened the database {rel}")

    def _workspace_on_stack(self, frame) -> bool:
        while frame is not None:
            name = frame.f_code.co_filename
            # a relative name: imported through a relative sys.path entry, i.e. from the cwd (the workspace)
            if name.startswith(self.prefix) or not (name.startswith("<") or os.path.isabs(name)):
                return True
            frame = frame.f_back
        return False

    # -- result -------------------------------------------------------------------------------
    def workspace_modules(self) -> tuple[set[str], set[str]]:
        """(files of workspace modules imported, directories workspace packages import from)."""
        files, dirs = set(), set()
        for module in list(sys.modules.values()):
            file = getattr(module, "__file__", None)
            rel = self._rel(file) if isinstance(file, str) else None
            if rel is not None and not self._skipped(rel):
                files.add(rel)
            paths = getattr(module, "__path__", None)
            for entry in [] if paths is None or isinstance(paths, str) else list(paths):
                drel = self._rel(entry) if isinstance(entry, str) else None
                if drel is not None:
                    dirs.add(drel)
        return files, dirs

    def result(self, snapshot: dict) -> dict:
        """The read set document (JSON-ready, sorted) for a session whose start snapshot is `snapshot`."""
        hashes = snapshot.get("files") or {}
        files_read, package_dirs = self.workspace_modules()
        wanted = self.reads | files_read | {rel for rel in hashes if rel.rsplit("/", 1)[-1] == "conftest.py"}
        wanted |= set(CONFIG_FILES)
        files = {}
        for rel in sorted(wanted - {"."}):
            first = self.pre_hashes.get(rel)
            if first is not None and rel in hashes and first != hashes[rel]:
                self._unsafe(f"{rel} changed while the session ran")
            files[rel] = first or hashes.get(rel) or hash_file(Path(self.root, rel)) or ABSENT
        roots = [p[3:] for p in (self.sys_path or sys_path_view(self.root)) if p.startswith("ws:")]
        import_dirs = {}
        for rel in sorted(set(roots) | package_dirs):
            names = list_dir(Path(self.root, rel))
            import_dirs[rel] = None if names is None else names
        return {"version": VERSION, "files": dict(sorted(files.items())), "dirs": dict(sorted(self.dirs.items())),
                "metadata_dirs": dict(sorted(self.metadata_dirs.items())),
                "globs": dict(sorted(self.globs.items())), "modules": sorted(self.modules),
                "import_dirs": import_dirs, "sys_path": self.sys_path or sys_path_view(self.root),
                "unsafe": list(self.unsafe)}


def sys_path_view(root) -> list[str]:
    """sys.path with workspace entries as "ws:<relpath>" ("ws:." for the root itself)."""
    root = os.path.realpath(root)
    prefix = root + os.sep
    out = []
    for entry in sys.path:
        full = os.path.realpath(entry or os.getcwd()) if isinstance(entry, str) else ""
        if not os.path.isdir(full):
            out.append(str(entry))
        elif full == root:
            out.append("ws:.")
        elif full.startswith(prefix):
            out.append("ws:" + Path(full[len(prefix):]).as_posix())
        else:
            out.append(entry)
    return out


@contextlib.contextmanager
def paused():
    """The plugin's own reads (snapshot, forgery scan, carry checks) are not the session's."""
    rec = _active
    me = threading.get_ident()
    if rec is None or me in rec._busy:
        yield
        return
    rec._busy.add(me)
    try:
        yield
    finally:
        rec._busy.discard(me)


def glob_hash(root: str, rel: str, recursive: bool) -> str:
    import glob

    return listing_hash(glob.glob(os.path.join(root, rel), recursive=recursive))


def _hook(event: str, args) -> None:
    rec = _active
    if rec is None:
        return
    if event == "open":
        handler = rec.on_open
    elif event in ("os.listdir", "os.scandir"):
        handler = rec.on_list
    elif event in SPAWN_EVENTS:
        rec._unsafe(f"spawned a process ({event})")
        return
    elif event in MUTATE_EVENTS:
        rec.on_mutate(event, args)
        return
    elif event == "import":
        if args and isinstance(args[0], str):
            rec.modules.add(args[0])
        return
    elif event == "glob.glob":
        handler = rec.on_glob
    elif event == "sqlite3.connect":
        handler = rec.on_sqlite
    else:
        return
    me = threading.get_ident()
    if me in rec._busy:
        return  # our own listing/hashing raised this event
    rec._busy.add(me)
    try:
        handler(args)
    except Exception as err:  # never break the session under test; the read set is then unsafe
        rec._unsafe(f"read-set recorder error on {event}: {type(err).__name__}")
    finally:
        rec._busy.discard(me)
