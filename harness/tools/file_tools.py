"""FileTools: the only way agents touch workspace files, limited to a task's allowlist."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from harness.validation.plan_validator import path_error


class FileTools:
    """read/list anything inside the sandbox; write/delete only paths in `allowed`.

    A write outside the allowlist raises PermissionError after calling `on_violation(path)`
    (the pipeline logs it as an event).
    """

    def __init__(self, sandbox, allowed: Iterable[str], on_violation: Callable[[str], None] | None = None):
        self.sandbox = sandbox
        self.allowed = frozenset(allowed)
        self.on_violation = on_violation
        self.written: list[str] = []

    def _check(self, rel: str) -> None:
        why = path_error(rel)
        if why or rel not in self.allowed:
            if self.on_violation:
                self.on_violation(rel)
            reason = why or "not in this task's files_touched"
            raise PermissionError(f"write to {rel!r} refused: {reason}")

    def read_file(self, rel: str) -> str:
        return self.sandbox.read_file(rel)

    def list_files(self, rel: str = ".") -> list[str]:
        return self.sandbox.list_files(rel)

    def write_file(self, rel: str, content: str) -> None:
        self._check(rel)
        self.sandbox.write_file(rel, content)
        if rel not in self.written:
            self.written.append(rel)

    def delete_file(self, rel: str) -> None:
        self._check(rel)
        self.sandbox.delete_file(rel)
