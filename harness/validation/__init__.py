"""Validators: pure functions returning list[str] (empty = PASS)."""
