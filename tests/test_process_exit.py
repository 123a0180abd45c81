"""#46: a `builder` command that returned ends its process without the interpreter's teardown
(harness/entry.py: exit_now) — after everything a normal exit does first: non-daemon threads
waited for, the exit handlers run (warm workers and servers stopped), stdout and stderr flushed."""

from __future__ import annotations

import subprocess
import sys

from harness.cli import main

SCRIPT = '''
import atexit
import sys
import threading


class Teardown:
    def __del__(self):
        sys.stderr.write("torn down\\n")


kept = Teardown()   # a module global: only the interpreter's teardown deletes it
atexit.register(lambda: sys.stderr.write("exit handlers ran\\n"))
release = threading.Event()
threading.Thread(target=lambda: (release.wait(), sys.stderr.write("thread ended\\n"))).start()
atexit.register(lambda: sys.stderr.write("thread still running\\n") if not release.is_set() else None)
threading._register_atexit(release.set)   # set as the interpreter's exit begins, before the wait for threads
from harness.entry import main

sys.argv = ["builder", "runs", "--runs-dir", sys.argv[1]]
raise SystemExit(main())
'''


def test_a_command_that_returned_exits_after_its_exit_handlers_without_the_teardown(tmp_path, capsys):
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "runs")], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == ["thread ended", "exit handlers ran"]   # in a normal exit's order
    assert main(["runs", "--runs-dir", str(tmp_path / "runs")]) == 0
    assert done.stdout == capsys.readouterr().out and done.stdout.strip()      # all of it, flushed


def test_the_exit_code_of_a_failed_command_is_kept(tmp_path):
    done = subprocess.run([sys.executable, "-m", "harness.entry", "status", "no_such_run", "--runs-dir",
                           str(tmp_path / "runs")], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 4 and "no run 'no_such_run'" in done.stderr
