"""A scripted 'model' that does not know the generator: it writes a markdown notes app with tags
and full-text search (an app the offline generator cannot build) from nothing but what each
prompt shows, the way a real model works.

Answers are hand-written (tests/notes_app_files.py). Every name the model uses from another
file, every convention of the workspace (APP_DB_PATH, GET /health, probes) and every schema
field must have appeared in the request it answers; what it cannot see it guesses, like a
blind model, and records the guess in `guessed`. It never imports the harness's generator.
"""

from __future__ import annotations

import json
import re

import notes_app_files as F
from fake_openai_server import RecordedRequest, Reply, answer, error

REQUEST = "Build a markdown notes app: notes have a title and a markdown body, can be tagged, and can be found by full-text search."
AGENTS = (("spec agent", "spec"), ("planner", "plan"), ("builder", "build"), ("repair agent", "repair"),
          ("review", "review"))
STORE_NAMES = ("connect", "create_note", "get_note", "list_notes")


class NotesModel:
    def __init__(self, prose: bool = False, reject_json_schema: bool = False, bug_in_store: bool = False,
                 hollow_tests: bool = False, comment_lines: int = 0, page_bug: bool = False):
        self.prose, self.reject_json_schema = prose, reject_json_schema
        self.page_bug = page_bug   # store.list_notes returns 2 notes at most: a wrong value, no exception
        self.comment_lines = comment_lines   # comment lines atop store.py and search.py (prompts too big for a small window)
        self.bug_in_store, self.hollow_tests = bug_in_store, hollow_tests
        self.calls: list[str] = []        # agent of every answered request
        self.guessed: list[str] = []      # what the model had to guess (not in its prompt)
        self.rejected = 0                 # json_schema requests refused

    def __call__(self, request: RecordedRequest) -> Reply:
        body = request.body if isinstance(request.body, dict) else {}
        fmt = body.get("response_format") or {}
        if self.reject_json_schema and fmt.get("type") == "json_schema":
            self.rejected += 1
            return error(400, "Invalid parameter: response_format of type 'json_schema' is not supported")
        messages = body.get("messages", [])
        system = next((m["content"] for m in messages if m.get("role") == "system"), "")
        prompt = "\n".join(m["content"] for m in messages if m.get("role") != "system")
        agent = next((name for phrase, name in AGENTS if phrase in system.lower()), "unknown")
        self.calls.append(agent)
        text = getattr(self, agent, self.unknown)(prompt, json.dumps(fmt))
        if self.prose:
            text = ("<think>They want JSON like {\"x\": 1}; I will write it.</think>\nSure! Here it is:\n"
                    f"```json\n{text}\n```\nLet me know if you want changes.")
        return answer(text, usage={"prompt_tokens": len(prompt) // 4, "completion_tokens": len(text) // 4,
                                   "total_tokens": (len(prompt) + len(text)) // 4})

    # ---- one method per agent ------------------------------------------------------------------

    def unknown(self, prompt: str, fmt: str) -> str:
        return "I can only answer the agents of an app-building harness."

    def review(self, prompt: str, fmt: str) -> str:
        return "Search ranks by word counts only.\nNo other concerns."

    def spec(self, prompt: str, fmt: str) -> str:
        if "explicit_non_goals" not in prompt + fmt:    # no schema seen anywhere: a guessed shape
            self.guessed.append("AppSpec schema")
            return json.dumps({"app": "Markdown notes", "features": ["notes", "tags", "search"]})
        feature = "feature" if "feature = " in prompt else "other"
        reqs = [("Notes have a title and a markdown body that is shown rendered as HTML.", "crud", "note"),
                ("Notes can be tagged and listed by tag.", feature, "note"),
                ("Notes can be found by full-text search over their title and body.", feature, "note")]
        return json.dumps({
            "app_type": "api", "title": "Markdown notes",
            "stack": {"frontend": "none", "backend": "FastAPI", "db": "SQLite"},
            "data_model": [{"name": "note", "plural": "notes", "ident": "note", "fields": [
                {"name": "title", "ident": "title", "type": "str", "required": True},
                {"name": "body", "ident": "body", "type": "text"},
                {"name": "tags", "ident": "tags", "type": "str"}]}],
            "requirements": [{"id": f"REQ-00{n}", "text": text, "capability": cap, "entity": ent}
                             for n, (text, cap, ent) in enumerate(reqs, start=1)],
            # as the prompt asks: the request's clauses, in its own words, with the REQs covering them
            "clauses": [{"id": "C-001", "text": self._request(prompt), "status": "mapped",
                         "reqs": ["REQ-001", "REQ-002", "REQ-003"]}],
            "notes": ["Markdown is rendered server-side; search is word-based."]})

    @staticmethod
    def _request(prompt: str) -> str:
        found = re.search(r"User request:\n(.*?)\n\n", prompt, re.S)
        return found.group(1).strip() if found else REQUEST

    def plan(self, prompt: str, fmt: str) -> str:
        ids = list(dict.fromkeys(re.findall(r'"id": "(REQ-\d{3})"', prompt)))
        r1, r2, r3 = (ids + ["REQ-001", "REQ-002", "REQ-003"])[:3]
        tasks = [
            {"id": "TASK-001", "description": "Note storage in SQLite: create, read and list notes with tags",
             "depends_on": [], "requirements": [r1, r2],
             "files_touched": ["requirements.txt", "src/__init__.py", "src/store.py", "tests/test_store.py"],
             "verification": ["python -m pytest -q tests/test_store.py"]},
            {"id": "TASK-002", "description": "Markdown rendering and full-text search over notes",
             "depends_on": ["TASK-001"], "requirements": [r1, r3],
             "files_touched": ["src/markdown.py", "src/search.py", "tests/test_search.py"],
             "verification": ["python -m pytest -q tests/test_search.py"]},
            {"id": "TASK-003", "description": "HTTP API: POST/GET /notes, GET /notes/{id}, GET /search",
             "depends_on": ["TASK-001", "TASK-002"], "requirements": [r1, r2, r3],
             "files_touched": ["src/main.py", "tests/test_api.py"],
             "verification": ["python -m pytest -q tests/test_api.py"]},
        ]
        plan: dict = {"tasks": tasks}
        if '"probes"' in prompt:
            plan["probes"] = [
                {"requirement": r1, "name": "create a note", "method": "POST", "path": "/notes",
                 "body": {"title": "Probe", "body": "# Probe\nfind the **needle**", "tags": ["Probe"]},
                 "expect_status": 201, "capture": {"note_id": "id"}},
                {"requirement": r1, "name": "read it back", "method": "GET", "path": "/notes/{note_id}",
                 "expect_status": 200},
                {"requirement": r2, "name": "list by tag", "method": "GET", "path": "/notes?tag=probe",
                 "expect_status": 200},
                {"requirement": r3, "name": "search", "method": "GET", "path": "/search?q=needle",
                 "expect_status": 200}]
        else:
            self.guessed.append("probes")
        return json.dumps(plan)

    def build(self, prompt: str, fmt: str) -> str:
        context, _ = json.JSONDecoder().raw_decode(prompt, prompt.index("{"))
        reqs = {self._which(r["text"]): r["id"] for r in context.get("requirements", [])}
        files = {}
        for path in context.get("allowed_files", []):
            text = self._file(path, prompt)
            if text is not None:
                for key in ("R1", "R2", "R3"):
                    text = text.replace("{" + key + "}", reqs.get(key, "REQ-001"))
                files[path] = text
        return json.dumps(files)

    def repair(self, prompt: str, fmt: str) -> str:
        context, _ = json.JSONDecoder().raw_decode(prompt, prompt.index("{"))
        editable = context.get("editable_files") or {}
        store = editable.get("src/store.py", "")
        if F.TAGS_BUGGY in store and "NoneType" in json.dumps(context.get("failing", {})):
            return json.dumps({"src/store.py": store.replace(F.TAGS_BUGGY, F.TAGS_GOOD)})
        if F.PAGE_BUGGY in store and "Trip plan" in json.dumps(context.get("failing", {})):
            return json.dumps({"src/store.py": store.replace(F.PAGE_BUGGY, F.PAGE_GOOD)})
        self.guessed.append("repair: cause not visible")
        path = next(iter(editable), "src/search.py")
        return json.dumps({path: editable.get(path, "")})

    # ---- the files ------------------------------------------------------------------------------

    def _which(self, text: str) -> str:
        low = text.lower()
        return "R3" if "search" in low else "R2" if "tag" in low else "R1"

    def _knows(self, prompt: str, names: tuple[str, ...], what: str) -> bool:
        missing = [n for n in names if f"def {n}(" not in prompt]
        if missing:
            self.guessed.append(f"{what}: {', '.join(missing)}")
        return not missing

    def _comments(self, what: str) -> str:
        return "".join(f"# {what} note {n}: rows are dicts; tags are kept lower-case, comma-joined.\n"
                       for n in range(self.comment_lines))

    def _file(self, path: str, prompt: str) -> str | None:
        db = 'os.environ.get("APP_DB_PATH", "app.db")' if "APP_DB_PATH" in prompt else '"notes.db"'
        if self.hollow_tests and path.startswith("tests/"):
            return F.hollow_tests(("R1", "R2", "R3"))
        if path == "requirements.txt":
            return F.REQUIREMENTS_TXT
        if path == "src/__init__.py":
            return F.INIT_PY
        if path == "src/store.py":
            if "APP_DB_PATH" not in prompt:
                self.guessed.append("database path")
            return self._comments("Storage") + F.STORE_PY.replace("{DB_PATH}", db).replace(
                "{TAGS_EXPR}", F.TAGS_BUGGY if self.bug_in_store else F.TAGS_GOOD).replace(
                F.PAGE_GOOD, F.PAGE_BUGGY if self.page_bug else F.PAGE_GOOD)
        if path == "tests/test_store.py":
            return F.TEST_STORE_PY.replace("{CHECK_READ}", F.CHECK_READ).replace("{CHECK_TAGS}", F.CHECK_TAGS)
        if path == "src/markdown.py":
            return F.MARKDOWN_PY
        if path == "src/search.py":
            known = self._knows(prompt, ("list_notes",), "search.py imports")
            return self._comments("Search") + F.SEARCH_PY.replace("{IMPORTS_STORE}", "from src.store import list_notes" if known
                                       else "from src.db import find_notes as list_notes")
        if path == "tests/test_search.py":
            return F.TEST_SEARCH_PY
        if path == "src/main.py":
            known = self._knows(prompt, STORE_NAMES + ("render", "search"), "main.py imports")
            imports = ("from src import store\nfrom src.markdown import render\nfrom src.search import search"
                       if known else "from src import db as store\nfrom src.render import to_html as render\n"
                                     "from src.search import search")
            health = "/health" if '"/health"' in prompt or "GET /health" in prompt else "/status"
            return F.MAIN_PY.replace("{IMPORTS_MAIN}", imports).replace("{HEALTH}", health)
        if path == "tests/test_api.py":
            return F.TEST_API_PY
        return None
