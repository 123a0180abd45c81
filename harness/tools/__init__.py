"""Sandbox-gated file tools with the per-task allowlist."""

from harness.tools.file_tools import FileTools

__all__ = ["FileTools"]
