"""Regression (hostile trial i, attack P1): the runtime check chose a port with bind(0), released
it and started uvicorn on it; a process that took the port in between answered the check's
requests (a broken app passed, an honest one failed on a stranger's 404s). Now the harness binds
the socket itself and hands it to the app (harness/verification/app_socket.py): every request
the harness judges by reaches the process it started.

The squatter here never takes a port of another process on this shared machine: it binds only
the port the check under test chose for its own app, told to it by that app while the app is
still importing (the window the old code left open, before uvicorn binds). The app then waits
until the squatter has either answered a request or found the port held.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time

from harness.verification.app_socket import foreign_listener, listeners
from harness.verification.runtime import verify_runtime

APP = '''import os
import socket
import sys

from fastapi import FastAPI

app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok", "who": "the app"}


def _port():
    args = sys.argv
    if "--port" in args:                       # the old way: uvicorn binds this port later
        return int(args[args.index("--port") + 1])
    held = socket.socket(fileno=os.dup(int(args[args.index("--fd") + 1])))   # the harness's socket
    try:
        return held.getsockname()[1]
    finally:
        held.close()


with socket.create_connection(("127.0.0.1", CONTROL), timeout=30) as _control:
    _control.sendall(f"{_port()}\\n".encode())
    _control.recv(64)    # the squatter is done: it answered a request, or could not take the port
'''


class Squatter(threading.Thread):
    """Told the check's port by the app, binds it the moment it can and answers every HTTP request
    on it as a healthy app would (recording it); tells the app when it is done."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.control = socket.socket()
        self.control.bind(("127.0.0.1", 0))
        self.control.listen()
        self.control.settimeout(60)
        self.took: bool | None = None
        self.requests: list[str] = []

    def run(self) -> None:
        app, _ = self.control.accept()
        with app:
            port = int(app.makefile().readline())
            squat = socket.socket()
            squat.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                squat.bind(("127.0.0.1", port))
                squat.listen()
                self.took = True
                self._answer(squat)
            except OSError:
                self.took = False
            finally:
                squat.close()
                app.sendall(b"done\n")

    def _answer(self, squat: socket.socket) -> None:
        squat.settimeout(0.5)
        deadline = time.monotonic() + 20
        while not self.requests and time.monotonic() < deadline:
            try:
                conn, _ = squat.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(2)
                try:
                    head = conn.recv(65536).decode("latin-1")
                except OSError:
                    continue
                if not head:            # a bare connect: the check looking for an open port
                    continue
                self.requests.append(head.split("\r\n", 1)[0])
                body = b'{"status": "ok", "who": "the squatter"}'
                conn.sendall(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: "
                             + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body)


def test_a_process_that_binds_the_released_port_answers_no_check(tmp_path):
    squatter = Squatter()
    squatter.start()
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    (ws / "src" / "__init__.py").write_text("")
    (ws / "src" / "main.py").write_text(APP.replace("CONTROL", str(squatter.control.getsockname()[1])))
    try:
        result = verify_runtime(ws, startup_timeout_s=30)
    finally:
        squatter.join(30)
        squatter.control.close()
    assert squatter.took is False, f"the squatter bound the check's port; it was asked {squatter.requests}"
    assert squatter.requests == []
    assert result.status == "PASS", result.checks
    health = next(c for c in result.checks if c.name == "GET /health")
    assert "the app" in health.detail and "squatter" not in health.detail


def test_a_listener_outside_the_started_process_tree_is_named_foreign():
    """The check for a start command that cannot take a socket (a Node app's `--port N`): who
    listens on the port is looked up in /proc before any request is judged."""
    serve = ("import socket, sys\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\n"
             "print(s.getsockname()[1], flush=True)\nsys.stdin.read()\n")
    started = subprocess.Popen([sys.executable, "-c", serve], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    stranger = subprocess.Popen([sys.executable, "-c", serve], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(started.stdout.readline())
        foreign_port = int(stranger.stdout.readline())
        assert len(listeners(port)) == 1
        assert foreign_listener(port, started.pid) is None
        problem = foreign_listener(foreign_port, started.pid)
        assert problem and "did not start" in problem and str(foreign_port) in problem
    finally:
        for proc in (started, stranger):
            proc.stdin.close()
            proc.wait(10)
