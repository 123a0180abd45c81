"""#19: the warm worker's memo of installed-distribution metadata and sysconfig's install paths
(harness/speed/warm/metadata_memo.py) answers exactly what a live read answers, for the installed
distributions only; anything else is read live."""

import json
import subprocess
import sys

from harness.speed.warm import workers as warm

MEMO_CHECK = r'''
import importlib.metadata as md, importlib.util, json, sys, sysconfig
from pathlib import Path
spec = importlib.util.spec_from_file_location("metadata_memo", sys.argv[1])
wm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wm)
extra = Path(sys.argv[2])

def answers():
    out = {}
    for dist in md.distributions():
        key = str(dist._path)
        files = dist.files
        out[key] = {"eps": sorted((ep.group, ep.name, ep.value) for ep in dist.entry_points),
                    "files": None if files is None else [str(f) for f in files],
                    "texts": {n: dist.read_text(n) for n in ("entry_points.txt", "METADATA", "RECORD")}}
    return out

schemes = sorted(sysconfig.get_scheme_names())
live = answers()
live_paths = {s: sysconfig.get_paths(s) for s in schemes}
live_default = sysconfig.get_paths()
memo = wm.MetadataMemo().install()
wm.memoize_install_paths()
sys.path.insert(0, str(extra))  # a distribution the memo never saw (like a workspace's own .dist-info)
info = extra / "late_pkg-1.0.dist-info"
info.mkdir()
(info / "METADATA").write_text("Metadata-Version: 2.1\nName: late-pkg\nVersion: 1.0\n")
(info / "entry_points.txt").write_text("[pytest11]\nlate = late_pkg.plugin\n")
(info / "RECORD").write_text("late_pkg/__init__.py,,\n")
memoized = answers()
late = memoized.pop(str(info), None)
copy = [d for d in md.distributions() if d.files and str(d._path) in memo.files][0]
first = copy.files
first.clear()
paths = sysconfig.get_paths(schemes[0])
paths["purelib"] = "changed"
print(json.dumps({
    "memoized": len(memo.entry), "pytest11": len(memo.files),
    "same": memoized == live,
    "late_read_live": late is not None and late["eps"] == [("pytest11", "late", "late_pkg.plugin")],
    "files_are_copies": bool(copy.files),
    "paths_same": {s: sysconfig.get_paths(s) for s in schemes} == live_paths and sysconfig.get_paths() == live_default,
    "paths_are_copies": sysconfig.get_paths(schemes[0])["purelib"] != "changed",
    "vars_computed_live": sysconfig.get_paths(schemes[0], {"base": "/elsewhere"}) != live_paths[schemes[0]],
}))
'''


BAD_ENTRY_POINTS = r'''
import importlib.metadata as md, importlib.util, json, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("metadata_memo", sys.argv[1])
wm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wm)
bad = Path(sys.argv[2]) / "bad_pkg-1.0.dist-info"
bad.mkdir()
(bad / "entry_points.txt").write_text("[pytest11]\nno_value_here\n")
(bad / "METADATA").write_text("Metadata-Version: 2.1\nName: bad-pkg\nVersion: 1.0\n")
sys.path.insert(0, sys.argv[2])

def read():
    dist = next(d for d in md.distributions() if str(d._path) == str(bad))
    try:
        return ["parsed", len(dist.entry_points)]
    except Exception as exc:
        return ["raised", type(exc).__name__]

cold = read()
memo = wm.MetadataMemo().install()
print(json.dumps({"memoized_bad": str(bad) in memo.entry, "others": len(memo.entry), "cold": cold, "warm": read()}))
'''


def run_check(tmp_path, source: str) -> dict:
    """Run `source` in a new interpreter with argv: metadata_memo.py's path, an empty directory; its JSON."""
    script = tmp_path / "check.py"
    script.write_text(source)
    extra = tmp_path / "extra"
    extra.mkdir()
    done = subprocess.run([sys.executable, str(script), str(warm.WORKER_SCRIPT.with_name("metadata_memo.py")),
                           str(extra)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_memoized_metadata_and_install_paths_answer_what_a_live_read_answers(tmp_path):
    out = run_check(tmp_path, MEMO_CHECK)
    assert out["memoized"] > 5 and out["pytest11"] >= 2  # pytest-timeout and the harness at least
    assert out == {**out, "same": True, "late_read_live": True, "files_are_copies": True, "paths_same": True,
                   "paths_are_copies": True, "vars_computed_live": True}


def test_a_distribution_the_memo_cannot_parse_fails_live_as_a_cold_read_does_bug(tmp_path):
    """A dist-info directory whose entry points do not parse is left out of the memo: a session's
    read raises what a cold session's read raises, not a memoized answer."""
    out = run_check(tmp_path, BAD_ENTRY_POINTS)
    assert out["others"] > 5 and not out["memoized_bad"]
    assert out["cold"] == out["warm"] == ["raised", "TypeError"]
