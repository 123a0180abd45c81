"""The warm verification worker: `workers.py` on the harness's side (spawn, registry, one command
per forked child), `worker.py` and its stdlib-only siblings inside the sandbox (loaded by path),
`rewrite_cache.py` the in-memory rewrite memo handed between workers. Only harness/speed/ reaches
it; the verifier receives a runner (harness/speed/runners.py)."""
