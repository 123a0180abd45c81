"""pytest_harness: the `req` marker and per-requirement evidence for the App-Builder Harness.

The plugin (`pytest_harness.plugin`) is registered through the `pytest11` entry point and stays
inert unless evidence is requested with `--harness-evidence` / `HARNESS_EVIDENCE_PATH`.
"""

from pytest_harness.identity import VERSION as __version__

__harness_evidence__ = True  # identity.shadowed(): this package is the plugin's own
