"""The offline (rule-based) path: request understanding and the deterministic generator."""
