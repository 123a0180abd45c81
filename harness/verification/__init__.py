"""Verification: run real commands, classify failures (pure), probe the running app."""
