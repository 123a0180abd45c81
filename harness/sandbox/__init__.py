"""The sandbox: the path jail for the harness's writes and the one runner of workspace code."""

from harness.sandbox.isolation import isolation_label
from harness.sandbox.local import ExecResult, LocalSandbox
from harness.sandbox.runner import SandboxProcess, SpawnError

__all__ = ["ExecResult", "LocalSandbox", "SandboxProcess", "SpawnError", "isolation_label"]
