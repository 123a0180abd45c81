"""The runtime check's one restart: the black-box leg's persistence check (harness/acceptance/
checks_stored.py) asks for it after its other checks passed; the app is stopped and started again
with the same command and database file, on a new port."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from harness.sandbox.local import LocalSandbox
from harness.sandbox.runner import SandboxProcess, SpawnError
from harness.verification.http_probe import request


class Held:
    """The server process the check runs now (a restart replaces it; `finally` stops this one), and
    the spare that takes over at the restart: a server_preload.py process (imports done, nothing of
    the workspace read) spawned when the acceptance leg starts, so the restart costs the app's own
    start-up, not the framework's imports again."""

    def __init__(self, proc: SandboxProcess | None) -> None:
        self.proc = proc
        self.again: Any = None
        self.restarts = 0
        self.spare: Any = None

    def preload(self, workspace: Path, tmp: Path, entry: tuple[str, str]) -> None:
        """Spawn the spare (best effort; none when prestarting is off or could not serve the workspace)."""
        from harness.speed import server_prestart
        from harness.speed.validity import prestart_shadowed

        if entry[0] != "python" or not server_prestart.enabled() or prestart_shadowed(workspace):
            return
        read_fd, write_fd = os.pipe()
        try:
            with open(tmp / "stdout.log", "ab") as out, open(tmp / "stderr.log", "ab") as err:
                proc = LocalSandbox(workspace).spawn([sys.executable, str(server_prestart.SCRIPT), str(read_fd)],
                                                     cwd=tmp, env=server_prestart.server_env(tmp), network=True,
                                                     writable=[tmp], stdout=out, stderr=err, pass_fds=[read_fd])
        except (SpawnError, OSError):
            os.close(write_fd)
            return
        finally:
            os.close(read_fd)
        self.spare = server_prestart.PreparedServer(proc, tmp, write_fd)

    def drop_spare(self) -> None:
        if self.spare is not None:
            self.spare._close_pipe()
            self.spare.proc.stop(0.5)
            self.spare = None

    def restart(self) -> str | None:
        """Stop the app and start it again on the same database (once per check): its new base URL."""
        if self.restarts or self.again is None:
            return None
        self.restarts += 1
        return self.again()


def restart_server(held: Held, entry: tuple[str, str], workspace: Path, tmp: Path, timeout_s: float,
                   evidence: list[str], on_launch) -> str | None:
    """The acceptance leg's restart: the same command and database file, a new port; None when the
    app does not answer its health check again."""
    from harness.verification import runtime as rt   # the check that owns the server

    began = time.monotonic()
    if held.proc is not None:
        held.proc.stop(rt.STOP_GRACE_S)
    stopped_ms = int((time.monotonic() - began) * 1000)
    port = rt.free_port()
    command = rt._command(entry, port, workspace)
    spare, held.spare = held.spare, None
    runner = "warm" if spare is not None and spare.start(command[3:]) else "cold"
    if runner == "warm":
        held.proc = spare.proc
    else:
        if spare is not None:
            spare.proc.stop(0.5)
        held.proc = rt._launch(command, workspace, tmp, rt._Record(), mode="ab")
    if held.proc is None:
        return None
    if on_launch is not None:
        on_launch(held.proc)
    stage, waited_ms = rt._wait_for_port(held.proc, port, timeout_s)
    base = f"http://{rt.HOST}:{port}"
    up = stage == "up" and 0 < request("GET", base + "/health").status < 500
    evidence.append(f"restarted on the same database (pid {held.proc.pid}, runner: {runner}): "
                    + (f"stopped in {stopped_ms} ms, {rt.HOST}:{port} after {waited_ms} ms" if up
                       else f"not answering ({stage})"))
    return base if up else None
