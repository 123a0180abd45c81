"""Traceability: REQ -> TASK -> FILE -> TEST -> RESULT, built only from persisted evidence."""
