"""What the harness hands the evidence plugin and takes back: the requirement → files map, the digest pipe.

The plugin measures which implementation files each test's call phase ran; it can only judge
"executed the requirement's code" when told each requirement's implementation files, which the
plan knows. At session end the plugin writes the evidence document's sha256 to an inherited pipe;
a document whose bytes no longer match that digest was changed after the session (e.g. by an
atexit handler in the code under test) and is rejected.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from harness.utils.workspace_layout import implementation_files

NO_DIGEST = "missing"  # recorded when the plugin sent nothing: the document cannot be trusted


def requirement_files(spec, tasks) -> dict[str, list[str]]:
    """{REQ id: the Python implementation files of the tasks covering it}, sorted."""
    out: dict[str, list[str]] = {}
    for req in spec.requirements if spec else []:
        files = {f for t in tasks if req.id in t.requirements for f in implementation_files(list(t.files_touched))}
        out[req.id] = sorted(f for f in files if f.endswith(".py"))
    return out


def req_files_arg(req_files: dict[str, list[str]] | None) -> list[str]:
    """The plugin flag carrying the map (empty when there is none)."""
    return [f"--harness-req-files={json.dumps(req_files, sort_keys=True)}"] if req_files else []


class DigestPipe:
    """A pipe whose write end the pytest child inherits; read once after the child exited."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        os.set_inheritable(self.write_fd, True)

    def discard(self) -> None:
        """Close both ends unread (an attempt whose answer is not used)."""
        for fd in (self.write_fd, self.read_fd):
            try:
                os.close(fd)
            except OSError:
                pass

    def received(self) -> str:
        """Close our write end and return what the plugin sent (NO_DIGEST when nothing usable); a
        second call (an audit lane given up after its result was rejected) answers the same."""
        if getattr(self, "_received", None) is not None:
            return self._received
        self._received = self._read()
        return self._received

    def _read(self) -> str:
        os.close(self.write_fd)
        os.set_blocking(self.read_fd, False)  # a straggler holding the write end never blocks us
        chunks = []
        try:
            while chunk := os.read(self.read_fd, 4096):
                chunks.append(chunk)
        except BlockingIOError:
            pass
        finally:
            os.close(self.read_fd)
        lines = b"".join(chunks).decode("ascii", "replace").split()
        return lines[0] if len(lines) == 1 and lines[0].startswith("sha256:") else NO_DIGEST


def document_digest(path: Path) -> str | None:
    """sha256 of an evidence document's bytes, None when it cannot be read."""
    try:
        return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None
