"""Agents: spec, planner, builder, repair, reviewer — LLM first, rule-based fallback."""
