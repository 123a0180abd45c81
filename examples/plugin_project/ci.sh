#!/usr/bin/env bash
# This project's CI gate with the harness's pytest plugin (pip install pytest-harness-evidence, or
# app-builder-harness): every requirement verified, or the job fails. The evidence of the last
# passing run is the baseline of the next: a requirement that changed status is listed, and one
# verified before whose code changed while its tests did not run reads "stale". --harness-mutate
# breaks the code its tests ran (mutants) and requires them to catch at least half of it.
# Outputs in evidence/: evidence.json, report.html, requirements.xml (Cobertura); GitHub
# annotations on stdout. PYTHON picks the interpreter (default python3).
set -euo pipefail
cd "$(dirname "$0")"
args=(--harness-requirements-file=requirements.toml --harness-fail-under=100 --harness-mutate
      --harness-evidence=evidence/evidence.json --harness-report=evidence/report.html
      --harness-cobertura=evidence/requirements.xml --harness-annotations=github)
if [ -f evidence/baseline.json ]; then
    args+=(--harness-baseline=evidence/baseline.json)
fi
"${PYTHON:-python3}" -m pytest -q "${args[@]}" "$@"
cp evidence/evidence.json evidence/baseline.json   # reached only when the gate passed
