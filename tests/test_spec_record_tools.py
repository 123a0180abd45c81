"""Record tools of the spec language — `calendar`, `csv_import`, `attachments` on an entity
(docs/spec-language.md): read exactly, bad values named in one line, each generated with its own
requirement-marked tests, routes placed before the entity's /{item_id} routes, and a black-box
check derived from the spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.acceptance.derive import derive
from harness.offline.generator import generate_files
from harness.offline.spec_file import SpecFileError, load_spec_file

ENTITY = ('[[entities]]\nname = "job"\nfields = [{ name = "title", required = true }, '
          '{ name = "start date", kind = "date" }, { name = "visit at", kind = "datetime" }]\n')


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "app.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_calendar_true_takes_the_first_date_field_and_a_table_names_one(tmp_path):
    assert load_spec_file(_write(tmp_path, ENTITY + "calendar = true\n")).entity("job").calendar == "start_date"
    named = load_spec_file(_write(tmp_path, ENTITY + 'calendar = { date = "visit at" }\n'))
    assert named.entity("job").calendar == "visit_at"
    req = next(r for r in named.requirements if r.capability == "calendar")
    assert req.entity == "job" and req.acceptance == "job.calendar"


@pytest.mark.parametrize(("text", "expected"), [
    (ENTITY + 'calendar = { date = "title" }\n',
     "app.toml:4: entities[1].calendar.date: 'title' is no date or date-time field (those: 'start date', 'visit at')"),
    ('[[entities]]\nname = "note"\nfields = ["text"]\ncalendar = true\n',
     "app.toml:4: entities[1].calendar: needs a date or date-time field"),
    (ENTITY + 'calendar = "yes"\n', "app.toml:4: entities[1].calendar: must be true or a table { date }"),
    (ENTITY + 'calendar = { day = "start date" }\n', "app.toml:4: entities[1].calendar.day: unknown key (known: date)"),
    (ENTITY + "csv_import = { max_rows = 0 }\n", "app.toml:4: entities[1].csv_import.max_rows: must be a whole number from 1 to 10000"),
    (ENTITY + "csv_import = { rows = 5 }\n", "app.toml:4: entities[1].csv_import.rows: unknown key (known: max_rows)"),
    (ENTITY + 'attachments = { types = ["pdf"] }\n',
     "app.toml:4: entities[1].attachments.types: 'pdf' is not a content type (like \"image/png\")"),
    (ENTITY + "attachments = { types = [] }\n", "app.toml:4: entities[1].attachments.types: must be a list of content types"),
    (ENTITY + "attachments = { max_kb = 999999 }\n",
     "app.toml:4: entities[1].attachments.max_kb: must be a whole number from 1 to 51200"),
])
def test_record_tool_errors_name_the_line_and_key(tmp_path, text, expected):
    with pytest.raises(SpecFileError) as raised:
        load_spec_file(_write(tmp_path, text))
    assert expected in str(raised.value) and "\n" not in str(raised.value)


def test_the_calendar_module_is_generated_before_the_entity_routes_with_marked_tests(tmp_path):
    spec = load_spec_file(_write(tmp_path, "auth = true\n" + ENTITY + "calendar = true\n"))
    files = generate_files(spec)
    req = next(r for r in spec.requirements if r.capability == "calendar")
    assert "@router.get('/api/jobs/calendar')" in files["src/calendar_view.py"]
    assert "@router.get('/jobs/calendar', response_class=HTMLResponse)" in files["src/calendar_view.py"]
    main = files["src/main.py"]
    assert main.index("include_router(calendar_view.router)") < main.index("include_router(api_job.router)")
    assert f"@pytest.mark.req({req.id!r})\ndef test_job_calendar_lists_each_day_s_records(" in files["tests/test_calendar_view.py"]
    assert f"@pytest.mark.req({req.id!r})\ndef test_{req.id.lower().replace('-', '_')}_calendar(" in files["tests/test_acceptance.py"]
    assert [c.name for c in derive(spec) if c.requirement == req.id] == [
        "the calendar lists exactly the jobs of each day in range"]


def test_csv_import_is_generated_with_its_row_cap_and_marked_tests(tmp_path):
    spec = load_spec_file(_write(tmp_path, "auth = true\n" + ENTITY + "csv_import = { max_rows = 40 }\n"))
    assert spec.entity("job").csv_import == 40
    assert load_spec_file(_write(tmp_path, ENTITY + "csv_import = true\n")).entity("job").csv_import == 1000
    files = generate_files(spec)
    req = next(r for r in spec.requirements if r.capability == "import")
    source = files["src/csv_import.py"]
    assert "@router.post('/api/jobs/import', status_code=201" in source and "create_item, 40," in source
    main = files["src/main.py"]
    assert main.index("include_router(csv_import.router)") < main.index("include_router(api_job.router)")
    assert f"@pytest.mark.req({req.id!r})\ndef test_job_csv_import_takes_every_row_or_none(" in files["tests/test_csv_import.py"]
    assert f"def test_{req.id.lower().replace('-', '_')}_import(" in files["tests/test_acceptance.py"]
    assert [c.name for c in derive(spec) if c.requirement == req.id] == ["import jobs from CSV: all rows or none"]


def test_attachments_are_generated_with_their_types_size_table_and_upload_limit(tmp_path):
    spec = load_spec_file(_write(tmp_path, "auth = true\n" + ENTITY +
                                 'attachments = { types = ["image/png", "application/pdf"], max_kb = 4096 }\n'))
    job = spec.entity("job")
    assert (job.attachment_types, job.attachment_max_kb) == (["image/png", "application/pdf"], 4096)
    plain = load_spec_file(_write(tmp_path, ENTITY + "attachments = true\n")).entity("job")
    assert (plain.attachment_types, plain.attachment_max_kb) == (["application/pdf", "image/jpeg", "image/png"], 5120)
    files = generate_files(spec)
    req = next(r for r in spec.requirements if r.capability == "attachment")
    source = files["src/attachments.py"]
    assert "{'job': (4194304, ('image/png', 'application/pdf'), 'jobs', 'Jobs')}" in source
    assert "@router.post('/api/jobs/{item_id}/attachments', status_code=201" in source
    assert "files=True," in files["src/pages.py"] and "/attachments\">" in files["src/page_parts.py"]   # a Files link per row
    assert 'CREATE TABLE IF NOT EXISTS "attachment_job"' in files["src/models.py"]
    assert "UPLOAD_BODY_BYTES = 4194304" in files["src/__init__.py"]   # the 1 MiB body cap, raised for uploads only
    assert "UPLOAD_BODY_BYTES" not in generate_files(load_spec_file(_write(tmp_path, ENTITY)))["src/__init__.py"]
    assert f"@pytest.mark.req({req.id!r})\ndef test_job_files_upload_list_download_and_refusals(" in files["tests/test_attachments.py"]
    assert f"def test_{req.id.lower().replace('-', '_')}_attachment(" in files["tests/test_acceptance.py"]
    assert [c.name for c in derive(spec) if c.requirement == req.id] == [
        "files of a job: upload, list, download, size and type limits, owner only"]


def test_an_app_without_record_tools_has_none_of_their_files():
    files = generate_files(load_spec_file(Path(__file__).parents[1] / "examples" / "tool_library.toml"))
    assert not {"src/calendar_view.py", "src/csv_import.py", "src/attachments.py"} & set(files)
