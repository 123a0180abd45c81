"""The report's sections, each a pure function of the collected run data returning HTML."""

from __future__ import annotations

from collections.abc import Mapping

from harness.report import timeline
from harness.report.failure import failure_box
from harness.report.html_parts import badge, code_list, duration, esc, figure, path_code, table

FIGURES = ("mutation", "coverage")


def header(data: Mapping) -> str:
    """Run id, status, request, times, model usage, error."""
    run = data["run"]
    total = duration(timeline.total_ms(data["events"]))
    llm = f"{run['llm_calls']} model calls, {run['llm_tokens']} tokens" if run["llm_calls"] else "offline (no model calls)"
    from harness.trace.authorship import authorship, authorship_lines

    who = authorship_lines(authorship(data["events"]))
    written = (f'<p id="written-by">{esc(who[-1])}</p>' + "<ul>" + "".join(f"<li>{esc(line[2:])}</li>" for line in who[1:-1])
               + "</ul>") if who else ""
    box = failure_box(data)   # a failed run's reasons, its error first, right under the title
    error = f'<p class="bad">error: {esc(run["error"])}</p>' if run["error"] and not box else ""
    why = run.get("status_reason")
    box += f'<p class="bad" id="status-reason">{esc(why)}</p>' if why else ""
    return (f'<h1>Run <code id="run-id">{esc(run["id"])}</code> {badge(run["status"])}</h1>{box}'
            f'<p id="request"><strong>Request:</strong> {esc(run["request"])}</p>'
            f'<p class="muted">created {esc(run["created"])} · updated {esc(run["updated"])} · '
            f"events span {total} · {esc(llm)}</p>{written}{error}")


_SPEC_FAILED = ("BUILD FAILED at the spec stage: nothing was built. The request's clauses and why none "
                "could be built are in the error above.")


def request_coverage(data: Mapping) -> str:
    """How each clause of the request is covered by requirements (spec.json `clauses`)."""
    clauses = data["clauses"]
    if not clauses:
        why = _SPEC_FAILED if data.get("spec_failed") else "the spec records no request clauses"
        return f'<h2 id="coverage">Request coverage</h2><p class="muted">{esc(why)}</p>'
    mapped = sum(1 for c in clauses if c["status"] == "mapped")
    stopped = (f'<p class="muted">BUILD FAILED at the spec stage: nothing was built. The clauses as read, and the '
               f'words nothing could realise, are below; the run\'s app.toml is the draft to edit.</p>'
               if data.get("spec_failed") else "")
    results = {r.get("id"): r.get("status") for r in (data.get("matrix") or {}).get("requirements") or []
               if isinstance(r, Mapping)}
    rows = [[esc(c["id"]), esc(c["text"]), badge(c["status"]), _clause_result(c.get("reqs", []), results),
             code_list(c.get("reqs", [])), esc(c.get("reason", "")),
             esc(", ".join(f'"{w}"' for w in c.get("unaccounted", []))), esc(_realised(c))]
            for c in clauses]
    return (f'<h2 id="coverage">Request coverage</h2>{stopped}<p>{mapped} of {len(clauses)} clauses mapped to '
            f'requirements</p>' + table(["clause", "text", "status", "result", "requirements", "reason",
                                         "not understood", "words realised by"], rows))


def _clause_result(reqs: list, results: Mapping) -> str:
    """What became of a mapped clause: its requirements' worst review result (mapping is a plan, not
    a result: a failed run's clauses are not green for being mapped)."""
    if not reqs:
        return esc(None)
    got = [results.get(r) for r in reqs]
    if any(g is None for g in got):
        return badge("not reviewed")
    return badge(next((g for g in got if g != "PASS"), "PASS"))


def _realised(c: Mapping) -> str:
    from harness.offline.accounting.show import realised
    from harness.models.spec import Clause

    return realised(Clause.model_validate(c))


def lines_run(tests: list[str], files: list[str], evidence: Mapping) -> dict | None:
    """Implementation lines the passing tests ran, per requirement: {"lines run": n, "files": k}.

    From the evidence's per-test `lines` (coverage of each test's call phase); None when the
    evidence carries no line data for these tests.
    """
    entries = [evidence.get("tests", {}).get(t, {}) for t in tests]
    entries = [e for e in entries if e.get("outcome") == "passed" and isinstance(e.get("lines"), dict)]
    if not entries:
        return None
    wanted = set(files)
    union: dict[str, set[int]] = {}
    for entry in entries:
        for rel, lines in entry["lines"].items():
            if not wanted or rel in wanted:
                union.setdefault(rel, set()).update(lines)
    return {"lines run": sum(len(v) for v in union.values()), "files": len(union)}


def _figures(row: Mapping, ev_req: Mapping, evidence: Mapping) -> dict[str, object]:
    figs = {name: row.get(name, ev_req.get(name)) for name in FIGURES}
    if figs["coverage"] is None:
        figs["coverage"] = lines_run(row.get("tests", []), row.get("files", []), evidence)
    return figs


def _test_cell(tests: list[str], evidence: Mapping) -> str:
    outcomes = evidence.get("tests", {}) if evidence else {}
    outcomes = outcomes if isinstance(outcomes, Mapping) else {}
    if not tests:
        return '<span class="muted">—</span>'
    items = [f"<li>{path_code(t)} {badge(_get(outcomes.get(t), 'outcome', 'not_run'))}</li>" for t in tests]
    return '<ul class="compact">' + "".join(items) + "</ul>"


def matrix(data: Mapping) -> str:
    """Requirement -> tasks -> files -> tests -> result, with mutation/coverage figures when recorded."""
    m = data["matrix"]
    if not m:
        why = "nothing was built, so nothing was traced" if data.get("spec_failed") else \
            "no matrix.json yet: run `builder review`"
        return f'<h2 id="matrix">Traceability matrix</h2><p class="muted">{esc(why)}</p>'
    evidence = data["evidence"] or {}
    ev_reqs = evidence.get("requirements", {})
    rows_in = m.get("requirements", [])
    figures = {r["id"]: _figures(r, ev_reqs.get(r["id"], {}), evidence) for r in rows_in}
    shown = [name for name in FIGURES if any(figures[r["id"]][name] is not None for r in rows_in)]
    rows, ids = [], []
    for r in rows_in:
        figs = figures[r["id"]]
        rows.append([f'<a href="#evidence-{esc(r["id"])}">{esc(r["id"])}</a>', esc(r.get("text", "")),
                     code_list(r.get("tasks", [])), code_list(r.get("files", [])),
                     _test_cell(r.get("tests", []), evidence), *[esc(figure(figs[n])) for n in shown],
                     badge(r["status"])])
        ids.append(f"req-{r['id']}")
    summary = (f"<p>{esc(m.get('passed'))} of {esc(m.get('total'))} requirements PASS ({esc(m.get('coverage_pct'))}%)</p>"
               + "".join(f'<p class="bad">problem: {esc(p)}</p>' for p in m.get("problems", []))
               + "".join(f'<p class="warn">stale: {esc(f)}</p>' for f in m.get("stale_files", [])))
    headers = ["requirement", "text", "tasks", "files", "tests", *shown, "result"]
    return f'<h2 id="matrix">Traceability matrix</h2>{summary}' + table(headers, rows, row_ids=ids, css="matrix")


def requirement_evidence(data: Mapping) -> str:
    """Each requirement's report: status, what is missing, its tests with outcome and checks."""
    parts = ['<h2 id="evidence">Evidence per requirement</h2>']
    for req in data["requirements"]:
        rep = data["requirement_reports"].get(req["id"])
        parts.append(f'<section id="evidence-{esc(req["id"])}"><h3>{esc(req["id"])} {esc(req["text"])} '
                     + (badge(rep.get("status", "?")) if rep else badge("no report")) + "</h3>")
        if not rep:
            parts.append('<p class="muted">no requirements/ report yet: run `builder review`</p></section>')
            continue
        parts += [f'<p class="bad">missing: {esc(line)}</p>' for line in rep.get("missing", [])]
        tests = rep.get("tests", {})
        tests = {str(n): t if isinstance(t, Mapping) else {} for n, t in tests.items()} if isinstance(tests, Mapping) else {}
        rows = [[path_code(n), badge(t.get("outcome")), esc(t.get("checks", t.get("assertions"))),
                 duration(_seconds(t.get("duration_s")) * 1000), esc(t.get("failure") or "")]
                for n, t in sorted(tests.items())]
        parts.append("<h4>White-box: its own tests</h4>")
        parts.append(table(["test", "outcome", "checks", "duration", "failure"], rows))
        parts.append(_black_box(rep) + _survivors(rep))
        parts.append(f"<p>commands: {code_list(_command(c) for c in rep.get('commands', []))}</p></section>")
    return "".join(parts)


def _get(value: object, key: str, default: object) -> object:
    return value.get(key, default) if isinstance(value, Mapping) else default


def _seconds(value: object) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _black_box(rep: Mapping) -> str:
    """The outside leg: the harness's HTTP checks of this requirement (harness/acceptance)."""
    leg = rep.get("black_box") if isinstance(rep.get("black_box"), Mapping) else {}
    checks = leg.get("checks") if isinstance(leg.get("checks"), list) else []
    rows = [[esc(c.get("name")), esc(c.get("source")), badge("ok" if c.get("ok") else "FAIL"),
             f"<code>{esc(c.get('detail', ''))}</code>"] for c in checks if isinstance(c, Mapping)]
    return (f"<h4>{esc(leg.get('line') or 'Black-box: not run')}</h4>"
            + (table(["check", "source", "result", "detail"], rows) if rows else ""))


def _survivors(rep: Mapping) -> str:
    """Mutants its tests let live (file, line, what changed, the mutant's kind, its diff) and the
    invalid ones (a fixture or import error, a crash: not kills), from the audit."""
    mutation = rep.get("mutation") if isinstance(rep.get("mutation"), Mapping) else {}
    details = [d for d in mutation.get("details") or [] if isinstance(d, Mapping)]
    kinds = {f"{d.get('file')}:{d.get('description')}": d.get("kind") for d in details}
    diffs = {f"{d.get('file')}:{d.get('description')}": d.get("diff") for d in details if isinstance(d.get("diff"), str)}
    survived = [str(s) for s in mutation.get("survived") or []]
    items = "".join(f"<li>{esc(kinds[s]) + ': ' if kinds.get(s) else ''}{path_code(s)}"
                    + (f"<pre>{esc(diffs[s])}</pre>" if diffs.get(s) else "") + "</li>" for s in survived)
    invalid = mutation.get("invalid") or 0
    out = f'<p>mutants that survived its tests:</p><ul class="compact">{items}</ul>' if items else ""
    if isinstance(invalid, int) and invalid:
        out += (f'<p class="warn">{invalid} mutant(s) invalid: a fixture, import or crash error ended the test '
                f"(not counted as killed)</p>")
    found = mutation.get("detectors") if isinstance(mutation.get("detectors"), Mapping) else {}
    if found:   # tests that failed on a decoy: no behaviour changed (pytest_harness/decoy_verdict.py)
        out += ('<p class="warn">failed on a decoy (a mutant that changes no behaviour: a mutant detector), '
                f"its kills void: {esc('; '.join(f'{t} on {w}' for t, w in sorted(found.items())))}</p>")
    return out


def _command(cmd: object) -> str:
    if not isinstance(cmd, Mapping):
        return str(cmd)
    return f"{cmd.get('task_id', '')}: {cmd.get('command', '')} → exit {cmd.get('exit_code')} {cmd.get('status', '')}"


def task_timeline(data: Mapping) -> str:
    """Tasks in order with wall, build, verify and repair time, then the run-level stages."""
    rows = [[esc(r["task"]), badge(r["status"]), esc(r["start"]), duration(r["wall_ms"]), duration(r["build_ms"]),
             duration(r["verify_ms"]), duration(r["repair_ms"]), esc(data["repairs"].get(r["task"], 0))]
            for r in timeline.task_timeline(data["events"], data["statuses"])]
    stages = [[esc(s["time"]), esc(s["stage"]), badge(s["status"]), duration(s["duration_ms"]), esc(s["error"])]
              for s in timeline.run_stages(data["events"])]
    return ('<h2 id="timeline">Task timeline</h2>'
            + table(["task", "status", "started", "wall", "build", "verify", "repair", "repair attempts"], rows)
            + "<h3>Run stages</h3>" + table(["time", "stage", "status", "duration", "error"], stages))


def runtime_checks(data: Mapping) -> str:
    """The app started and answered over HTTP: every runtime check."""
    rt = data["runtime"]
    if not rt:
        return '<h2 id="runtime">Runtime checks</h2><p class="muted">no runtime.json: the app was not started</p>'
    rows = [[esc(c.get("name")), badge("ok" if c.get("ok") else "FAIL"), f"<code>{esc(c.get('detail', ''))}</code>"]
            for c in rt.get("checks", [])]
    return f'<h2 id="runtime">Runtime checks {badge(rt.get("status"))}</h2>' + table(["check", "result", "detail"], rows)


def _attempts_text(rep: Mapping) -> str:
    """The task's repair attempts in the run (what the terminal's "attempt n/3" and `status` count), and
    how many of them this report records when fewer (an earlier inject's repair that succeeded is not in it)."""
    recorded = len(rep.get("attempts") or [])
    total = rep.get("repair_attempts_total")
    if not isinstance(total, int) or total <= recorded:
        return f"repair attempts: {recorded}"
    return f"repair attempts: {total} in this run ({recorded} recorded in this report)"


def escalations(data: Mapping) -> str:
    """Escalation reports of tasks that repair gave up on."""
    parts = ['<h2 id="escalations">Escalation reports</h2>']
    if not data["failures"]:
        return parts[0] + '<p class="muted">none: no task was escalated</p>'
    for item in data["failures"]:
        rep = item["report"]
        if rep is None:
            parts.append(f'<p class="bad">{esc(item["path"])}: unreadable</p>')
            continue
        last = rep.get("last_failure") or {}
        parts.append(f'<section id="escalation-{esc(rep.get("task_id"))}"><h3>{esc(rep.get("task_id"))} '
                     f'{badge(rep.get("decision", "ESCALATE"))}</h3><p>{esc(rep.get("reason"))}</p>'
                     f'<p>{esc(_attempts_text(rep))}; last failure: '
                     f'{esc(last.get("failure_type"))} in <code>{esc(last.get("command"))}</code></p>'
                     f'<p><strong>next step:</strong> {esc(rep.get("next_step"))}</p>'
                     f'<p class="muted">{esc(item["path"])}</p></section>')
    return "".join(parts)
