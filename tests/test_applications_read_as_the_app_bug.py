"""Bug (stranger trial 2026-12-07i O2; over-claims i8 C-006, c20 C-001; m4 stopped at the spec stage):
"applications" was request framing (the app), so "Every job seeker has their own job applications …"
and "Adopters submit adoption applications" were reported built with no application record, and "Job
applications have an applicant name …" stopped with "no data entity recognized … name what the app
manages" although it names them.

A plural "applications" after a noun that is no app kind is one record ("job application": tokens.py
`_applied_for`, `[nouns] plural_records` of words/records.toml), and the accounting never reads a
plural "applications", or an "application" after a record word, as framing (words/framing_en.txt,
accounting/account.py). "Build a web application for tasks" is still the app."""

from __future__ import annotations

import json
import urllib.request

import pytest

from harness.offline.accounting.account import account_text
from harness.offline.spec import parse_request
from served_app import spec_from_toml

JOBS = "Job applications have an applicant name and a company."


def test_job_applications_are_a_record_bug():
    spec = parse_request(JOBS)
    assert [e.name for e in spec.data_model] == ["job application"]
    assert [f.ident for f in spec.data_model[0].fields] == ["applicant_name", "company"]
    assert [c.status for c in spec.clauses] == ["mapped"]


@pytest.mark.parametrize("text", [
    "Every job seeker has their own job applications whose statuses they can check.",
    "Adopters submit adoption applications.",
    "Each job has its own job application.",
])
def test_applications_over_a_spec_without_them_are_not_framing_bug(tmp_path, text):
    spec = spec_from_toml(tmp_path, '''title = "Job Board"
[[entities]]
name = "job"
fields = [{ name = "title", required = true }]
[[entities]]
name = "seeker"
fields = [{ name = "name", required = true }]
[[entities]]
name = "adopter"
fields = [{ name = "name", required = true }]
''')
    words = account_text(text, spec)
    assert words.words.get("applications", words.words.get("application")) is None, words.words
    assert any("application" in w for w in words.unaccounted), words.unaccounted


@pytest.mark.parametrize("text", ["Build a web application for tasks with a title.",
                                  "I want a simple application to track tasks with a title."])
def test_the_app_is_still_the_app(text):
    spec = parse_request(text)
    assert [e.name for e in spec.data_model] == ["task"] and [c.status for c in spec.clauses] == ["mapped"]


@pytest.mark.slow
def test_a_job_application_is_stored_over_http(tmp_path):
    from helpers import write_files
    from served_app import served

    from harness.agents.spec_agent import postprocess
    from harness.offline.generator import generate_files

    spec = postprocess(parse_request(JOBS))
    path = "/api/" + spec.data_model[0].plural.replace(" ", "-")
    ws = write_files(generate_files(spec), tmp_path / "ws")
    with served(ws, tmp_path / "app.db") as base:
        req = urllib.request.Request(base + path, method="POST", headers={"content-type": "application/json"},
                                     data=json.dumps({"applicant_name": "Ann", "company": "Acme"}).encode())
        with urllib.request.urlopen(req, timeout=10) as answer:
            assert answer.status == 201 and json.loads(answer.read())["company"] == "Acme"
        with urllib.request.urlopen(base + path, timeout=10) as answer:
            assert [a["applicant_name"] for a in json.loads(answer.read())] == ["Ann"]
