"""Orchestration: the DAG engine, the stages and the pipeline that owns control flow."""
