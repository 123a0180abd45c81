"""The runtime check's one restart: the black-box leg's persistence check (harness/acceptance/
checks_stored.py) asks for it after its other checks passed; the app is stopped and started again
with the same command and database file, on a new port."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from harness.sandbox.runner import SandboxProcess
from harness.verification.http_probe import request


class Held:
    """The server process the check runs now (a restart replaces it; `finally` stops this one), and
    the spare that takes over at the restart: an app_start.py process (imports done, nothing of
    the workspace read), spawned with the prestarted server (`spare` here) or, without one, when
    the acceptance leg starts, so the restart costs the app's own start-up, not the framework's
    imports again. Either way it reads the app and the database only when `restart_server` hands
    it the new port: after the records were written and the first server stopped."""

    def __init__(self, proc: SandboxProcess | None, spare: Any = None) -> None:
        self.proc = proc
        self.again: Any = None
        self.restarts = 0
        self.spare: Any = spare

    def preload(self, workspace: Path, tmp: Path, data: Path, entry: tuple[str, str], factory: Any) -> None:
        """Without a spare yet: spawn one by `factory(workspace, tmp, data)` (harness/speed/
        server_prestart.py `spare`, handed down by the caller; None: prestarting is off or could not
        serve the workspace)."""
        if self.spare is None and entry[0] == "python" and factory is not None:
            self.spare = factory(workspace, tmp, data)

    def drop_spare(self) -> None:
        if self.spare is not None:
            self.spare.drop()
            self.spare = None

    def restart(self) -> str | None:
        """Stop the app and start it again on the same database (once per check): its new base URL."""
        if self.restarts or self.again is None:
            return None
        self.restarts += 1
        return self.again()


def restart_server(held: Held, launch: Any, wait: Any, grace_s: float, evidence: list[str],
                   on_launch) -> str | None:
    """The acceptance leg's restart: the same command and database file, a new socket the harness
    bound (or, for a Node app, a new port); None when the app does not answer again. `launch()` →
    (base URL, listener: app_socket.Reserved or a port, uvicorn args for the spare, a cold start);
    `wait(proc, listener)` → (stage, ms, what is foreign) — the runtime check's own
    (harness/verification/runtime.py): no request is made unless the listening socket is the app's."""
    began = time.monotonic()
    if held.proc is not None:
        held.proc.stop(grace_s)
    stopped_ms = int((time.monotonic() - began) * 1000)
    base, listener, args, cold = launch()
    port = getattr(listener, "port", listener)
    try:
        spare, held.spare = held.spare, None
        runner = "warm" if spare is not None and spare.start(args, listener) else "cold"
        if runner == "warm":
            held.proc = spare.proc
        else:
            if spare is not None:
                spare.proc.stop(0.5)
            held.proc = cold()
    finally:
        if hasattr(listener, "release"):
            listener.release()   # the app's process holds the socket now
    if held.proc is None:
        return None
    if on_launch is not None:
        on_launch(held.proc)
    stage, waited_ms, foreign = wait(held.proc, listener)
    up = stage == "up" and 0 < request("GET", base + "/health").status < 500
    evidence.append(f"restarted on the same database (pid {held.proc.pid}, runner: {runner}): "
                    + (f"stopped in {stopped_ms} ms, port {port} after {waited_ms} ms" if up
                       else f"not judged: {foreign}" if stage == "foreign" else f"not answering ({stage})"))
    return base if up else None
