"""Black-box checks of the record tools (docs/spec-language.md): the calendar of dated records,
CSV import and attachments. Written from the spec and the documented routes only."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

import httpx

from harness.constructs.parent_key import parent_key_of
from harness.acceptance.checks_soft_delete import deleted_then_restored
from harness.acceptance.client import Account, Answer, Api, CheckFailed
from harness.acceptance.samples import TEXT_KINDS, kind_of, wrong_values
from harness.models.spec import AppSpec, DataEntity

# Days no other check uses (their records fall in 2031 + a few years).
_CAL_DAYS = ("2047-05-03", "2047-05-03", "2047-05-09", "2047-06-02", "2047-04-30")
_CAL_FROM, _CAL_TO = "2047-05-01", "2047-05-31"


def _on_day(api: Api, entity: DataEntity, who: Any, day: str) -> dict[str, Any]:
    """A valid body whose calendar field falls on `day`: every date of the record moved by the
    same number of days (an end stays after its start)."""
    body = api.body_for(entity, who)
    base = date.fromisoformat(str(body[entity.calendar])[:10])
    shift = date.fromisoformat(day) - base
    for f in entity.fields:
        if kind_of(f) in ("date", "datetime") and isinstance(body.get(f.ident), str):
            value = body[f.ident]
            body[f.ident] = (date.fromisoformat(value[:10]) + shift).isoformat() + value[10:]
    return body


def calendar_by_day(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    who = api.account("first")
    made: dict[str, set[int]] = {}
    for day in _CAL_DAYS:
        got = api.expect(api.call("POST", api.collection(entity), who, _on_day(api, entity, who, day)), 201, 200,
                         what=f"create a {entity.name} on {day}")
        made.setdefault(day, set()).add(got.body.get("id") if isinstance(got.body, dict) else None)
    url = api.collection(entity) + "/calendar"
    got = api.expect(api.call("GET", url, who, params={"from": _CAL_FROM, "to": _CAL_TO}), 200, what="the calendar")
    days = got.body.get("days") if isinstance(got.body, dict) else None
    if not isinstance(days, list):
        raise CheckFailed(f"the calendar has no list of days: {got.line}")
    seen = {d.get("date"): {i.get("id") for i in d.get("items", []) if isinstance(i, dict)}
            for d in days if isinstance(d, dict)}
    wanted = {day: ids for day, ids in made.items() if _CAL_FROM <= day <= _CAL_TO}
    if seen != wanted or [d.get("date") for d in days] != sorted(wanted):
        raise CheckFailed(f"the calendar from {_CAL_FROM} to {_CAL_TO} shows {seen}, not {wanted} in day order")
    api.expect(api.call("GET", url, who, params={"from": _CAL_TO, "to": _CAL_FROM}), 422, what="to before from")
    page = api.call("GET", "/" + url.removeprefix("/api/"), who, params={"from": _CAL_FROM, "to": _CAL_TO},
                    accept="text/html")
    listed = f"{sum(map(len, wanted.values()))} {entity.plural} on {len(wanted)} days listed exactly"
    if not spec.html:   # a JSON API only (html = false): no agenda page may be served
        if page.status == 200 and "<" in page.text:
            raise CheckFailed(f"an API-only app serves the agenda page: {page.line}")
        return listed + "; no agenda page (JSON API only)"
    if page.status != 200 or "<" not in page.text or "2047" not in page.text:
        raise CheckFailed(f"the agenda page: {page.line}")
    return listed + "; the agenda page answers"


def send_raw(api: Api, method: str, path: str, who: Account | None, content: bytes, content_type: str,
             params: dict | None = None) -> Answer:
    """A request with a raw body (CSV text, a file), recorded like Api.call's."""
    headers = {"Content-Type": content_type, **api.headers("application/json", who)}
    return api.send(method, path, headers, f"{path} ({len(content)} bytes {content_type})", content=content, params=params)


def _csv(rows: list[dict[str, Any]]) -> bytes:
    names = list(dict.fromkeys(k for r in rows for k in r))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=names)
    writer.writeheader()
    for r in rows:
        writer.writerow({k: ("true" if v is True else "false" if v is False else "" if v is None else v)
                         for k, v in r.items()})
    return out.getvalue().encode()


def _spoiled(spec: AppSpec, entity: DataEntity, row: dict[str, Any]) -> dict[str, Any] | None:
    """The row made invalid: a wrong value of a typed field, else a required field left empty
    (unless that leaves every cell empty: a blank line, which a CSV reader may skip), else its
    parent or a reference pointing at no record; None when nothing can be wrong."""
    for f in entity.fields:
        wrong = [v for _, v in wrong_values(f) if isinstance(v, (str, int, float))]
        if wrong and kind_of(f) not in TEXT_KINDS and not f.ref:
            return {**row, f.ident: wrong[0]}
    required = next((f for f in entity.fields if f.required and not f.ref), None)
    if required is not None:
        blank = {**row, required.ident: ""}
        if any(v not in ("", None) for v in blank.values()):
            return blank
    key = parent_key_of(spec, entity) if entity.parent else next((f.ident for f in entity.fields if f.ref), None)
    return {**row, key: 2**40} if key else None


def csv_import_all_or_none(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    who = api.account("first")
    url = api.collection(entity)
    before = {i.get("id") for i in api.listed(url, who)}
    rows = [api.body_for(entity, who) for _ in range(3)]
    got = api.expect(send_raw(api, "POST", url + "/import", who, _csv(rows), "text/csv"), 201, 200,
                     what=f"import 3 {entity.plural} from CSV")
    ids = got.body.get("ids") if isinstance(got.body, dict) else None
    listed = {i.get("id"): i for i in api.listed(url, who)}
    if not isinstance(ids, list) or len(ids) != 3 or set(listed) - before != set(ids):
        raise CheckFailed(f"3 rows imported, but the list gained {sorted(set(listed) - before)} ({got.line})")
    text = next((f for f in entity.fields if kind_of(f) in TEXT_KINDS and f.required), None)
    if text is not None and sorted(listed[i].get(text.ident) for i in ids) != sorted(r[text.ident] for r in rows):
        raise CheckFailed(f"the imported {entity.plural}' {text.ident} differ from the CSV's")
    detail = f"3 rows → 201, listed with their values"
    bad = _spoiled(spec, entity, api.body_for(entity, who))
    if bad is not None:
        trio = [api.body_for(entity, who), bad, api.body_for(entity, who)]
        refused = api.expect(send_raw(api, "POST", url + "/import", who, _csv(trio), "text/csv"), 422,
                             what="import with a bad second row")
        if "3" not in refused.text:
            raise CheckFailed(f"the 422 does not name row 3 (the bad one; row 1 is the header): {refused.line}")
        if {i.get("id") for i in api.listed(url, who)} != set(listed):
            raise CheckFailed("a refused import added records (not all or nothing)")
        detail += "; a bad row → 422 naming row 3, nothing imported"
    key = parent_key_of(spec, entity) if entity.parent else next((f.ident for f in entity.fields if f.ref), None)
    if key:   # the first row is stored before the second fails on a missing record: taken back
        pair = [api.body_for(entity, who), {**api.body_for(entity, who), key: 2**40}]
        api.expect(send_raw(api, "POST", url + "/import", who, _csv(pair), "text/csv"), 422, 404,
                   what=f"import whose second row names a missing {key}")
        if {i.get("id") for i in api.listed(url, who)} != set(listed):
            raise CheckFailed("an import refused at its second row kept its first (not all or nothing)")
        detail += f"; a second row naming a missing {key} → refused, the first not kept"
    if spec.auth and not entity.shared and not (spec.roles and entity.manage):
        other = api.sign_up(api.new_name())
        if set(ids) & {i.get("id") for i in api.listed(url, other)}:
            raise CheckFailed("another account lists the imported records: they are not the importer's")
        detail += "; they are the importer's own"
    return detail


# First bytes of a file of each type (a file must start with its type's signature).
_FILES = {"application/pdf": b"%PDF-1.4\n% ", "image/png": b"\x89PNG\r\n\x1a\n",
          "image/jpeg": b"\xff\xd8\xff\xe0", "image/gif": b"GIF89a",
          "image/webp": b"RIFF\x00\x00\x00\x00WEBP", "application/zip": b"PK\x03\x04"}


def attachments_kept_and_guarded(api: Api, spec: AppSpec, entity: DataEntity) -> str:
    who = api.account("first")
    rec = api.create(entity, who)
    files = f"{api.collection(entity)}/{rec['id']}/attachments"
    kind = entity.attachment_types[0]
    content = _FILES.get(kind, b"") + api.phrases.text().encode()
    sent = api.expect(send_raw(api, "POST", files, who, content, kind, {"filename": f"../../{api.phrases.word()}/{api.phrases.text()}"}),
                      201, 200, what=f"upload a {kind} file")
    made = sent.body if isinstance(sent.body, dict) else {}
    if "/" in str(made.get("filename", "/")) or made.get("size") != len(content):
        raise CheckFailed(f"the upload's name or size is wrong (a path kept in its name?): {sent.line}")
    if made.get("id") not in [i.get("id") for i in api.listed(files, who)]:
        raise CheckFailed(f"the uploaded file is not listed at {files}")
    try:
        got = api.http.get(f"{files}/{made['id']}", headers=api.headers("*/*", who))
    except httpx.HTTPError as exc:
        raise CheckFailed(f"download: no response ({type(exc).__name__})") from None
    api.seen.append(f"GET {files}/{made['id']} → {got.status_code} ({len(got.content)} bytes)")
    if got.status_code != 200 or got.content != content:
        raise CheckFailed(f"the download is not the uploaded bytes ({got.status_code}, {len(got.content)} bytes)")
    big = content + b"0" * (entity.attachment_max_kb * 1024)
    api.expect(send_raw(api, "POST", files, who, big, kind), 413, what=f"a file over {entity.attachment_max_kb} KB")
    odd = "application/x-msdownload" if "application/x-msdownload" not in entity.attachment_types else "text/x-unlisted"
    api.expect(send_raw(api, "POST", files, who, b"MZ\x90\x00", odd), 415, what=f"a {odd} file")
    detail = "upload → list → download equal bytes; too large → 413; another type → 415"
    if spec.auth:
        other = api.sign_up(api.new_name())
        denied = api.call("GET", f"{files}/{made['id']}", other, accept="*/*")
        if denied.status not in (403, 404):
            raise CheckFailed(f"another account downloads the file: {denied.line}")
        detail += f"; another account → {denied.status}"
    return detail


# capability -> the (check name, check) pairs of an entity
TOOL_CHECKS = {
    "calendar": lambda e: [(f"the calendar lists exactly the {e.plural} of each day in range", calendar_by_day)]
    if e.calendar else [],
    "import": lambda e: [(f"import {e.plural} from CSV: all rows or none", csv_import_all_or_none)]
    if e.csv_import else [],
    "attachment": lambda e: [(f"files of a {e.name}: upload, list, download, size and type limits, owner only",
                              attachments_kept_and_guarded)] if e.attachment_types else [],
    "soft_delete": lambda e: [(f"a deleted {e.name} leaves the list, is listed deleted and restored equal",
                               deleted_then_restored)] if e.soft_delete else [],
}
