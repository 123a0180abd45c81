"""LocalSandbox: the path jail and the subprocess runner."""

from harness.sandbox.local import ExecResult, LocalSandbox

__all__ = ["ExecResult", "LocalSandbox"]
