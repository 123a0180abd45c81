"""Small shared utilities: ids, event logging, atomic file writes."""
