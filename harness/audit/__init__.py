"""Mutation audit: do a requirement's tests fail when its code is wrong? (mutator, plan, run, stage)."""
