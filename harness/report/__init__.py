"""`builder report <run_id>`: one self-contained HTML page of a run (no network, no scripts)."""
