"""The deterministic app generator used by the rule-based path (spec -> FastAPI + SQLite files)."""
