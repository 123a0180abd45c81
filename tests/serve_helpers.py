"""`builder serve` run as its user runs it (a real CLI process, real bwrap, real uvicorn), and an app
that reports everything its process can observe about where it runs (tests/test_serve.py)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path

BUILDER = [sys.executable, "-m", "harness.cli"]

# What a process can see about the place it runs in. Taken at import (the modules loaded before the
# app) and per request (the rest); pipe/socket inode numbers and mount ids are per instance, dropped.
FINGERPRINT_APP = '''\
import os
import re
import resource
import socket
import sys

from fastapi import FastAPI

MODULES_BEFORE_APP = sorted(sys.modules)
app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok"}


def _ls(path):
    try:
        return sorted(os.listdir(path))
    except OSError as exc:
        return type(exc).__name__


def _read(path):
    try:
        with open(path, "rb") as fh:
            return fh.read().decode("utf-8", "replace")
    except OSError as exc:
        return type(exc).__name__


def _fds():
    out = {}
    for name in _ls("/proc/self/fd"):
        try:
            out[name] = re.sub(r"\\[\\d+\\]", "[]", os.readlink(f"/proc/self/fd/{name}"))
        except OSError:
            continue
    return out


def _mounts():
    rows = []
    for line in _read("/proc/self/mountinfo").splitlines():
        left, _, right = line.partition(" - ")
        fields = left.split()
        rows.append([fields[3], fields[4], fields[5], right.split()[0]])   # root, mount point, options, type
    return rows


@app.get("/fingerprint")
def fingerprint():
    mask = os.umask(0)
    os.umask(mask)
    status = dict(line.split(":", 1) for line in _read("/proc/self/status").splitlines() if ":" in line)
    return {
        "environ": dict(os.environ), "uid": os.getuid(), "gid": os.getgid(), "euid": os.geteuid(),
        "egid": os.getegid(), "groups": os.getgroups(), "cwd": os.getcwd(), "argv": sys.argv,
        "sys.path": sys.path, "db": os.environ.get("APP_DB_PATH"), "root": _ls("/"), "tmp": _ls("/tmp"),
        "home": _ls(os.path.expanduser("~")), "cwd listing": _ls("."), "etc": _ls("/etc"),
        "cmdline": _read("/proc/self/cmdline").split("\\0"), "fds": _fds(), "mounts": _mounts(),
        "status": {k: status.get(k, "").strip() for k in ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff",
                                                          "CapBnd", "CapAmb", "NoNewPrivs", "Seccomp")},
        "cgroup": _read("/proc/self/cgroup"), "hostname": socket.gethostname(), "pid": os.getpid(),
        "ppid": os.getppid(), "processes": len([p for p in _ls("/proc") if p.isdigit()]), "umask": mask,
        "rlimits": {n: resource.getrlimit(getattr(resource, n)) for n in dir(resource) if n.startswith("RLIMIT_")},
        "executable": sys.executable, "flags": repr(sys.flags), "modules before the app": MODULES_BEFORE_APP,
        "stdio ttys": [os.isatty(fd) for fd in (0, 1, 2)],
    }
'''


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get_json(url: str, method: str = "GET", body: dict | None = None):
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url, data=data, method=method, headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as answer:
        return answer.status, json.loads(answer.read())


@contextmanager
def builder_serve(target: Path, data: Path, env: dict | None = None):
    """`builder serve TARGET --port P --data DATA` as a real process; yields (base URL, port), then
    Ctrl+C (SIGINT) and asserts it stopped with exit 0."""
    port = free_port()
    proc = subprocess.Popen([*BUILDER, "serve", str(target), "--port", str(port), "--data", str(data)],
                            env=env or dict(os.environ), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 60
    try:
        while True:
            try:
                if get_json(base + "/health")[0] == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"builder serve did not come up: {proc.stdout.read().decode()[-3000:]}")
            time.sleep(0.05)
        yield base, port
    finally:
        proc.send_signal(signal.SIGINT)
        output = proc.communicate(timeout=30)[0].decode()
    assert proc.returncode == 0, output[-3000:]


def without_port(fingerprint: dict, port: int) -> dict:
    """The fingerprint with the port (the one thing that differs by design) and the random part of
    per-instance temp directory names (`app-XXXX`: a fresh one every start, judged or not) masked."""
    text = json.dumps(fingerprint, sort_keys=True)
    text = re.sub(rf"\b{port}\b", "<port>", text)
    return json.loads(re.sub(r"/app-[a-z0-9_]{8}\b", "/app-<random>", text))   # tempfile.mkdtemp's 8 characters
