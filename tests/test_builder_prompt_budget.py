"""The builder prompt stays within one whole-prompt budget (#19 "prompt/context size flat"): the
task's own parts are never cut, the data model of a task wiring every entity is one lossless line
an entity, and the dependency code takes what is left, ranked by what the task needs, whole, as
interfaces, as names or listed by path — never silently dropped."""

from __future__ import annotations

import json
import re

import pytest

from harness.agents.builder import PROMPT_BUDGET_CHARS, build_context, build_prompt
from harness.agents.builder_context import dependency_code
from harness.agents.data_model_text import entity_line
from harness.models import Task
from harness.models.spec import AppSpec, DataEntity, EntityField
from harness.models.tasks import Plan
from test_spec_validator import valid_todo


def context_of(prompt: str) -> dict:
    return json.loads(prompt.split("Context:\n", 1)[1].split("\n\nWorkspace contract", 1)[0])


def rich_spec() -> AppSpec:
    base = valid_todo().model_dump()
    base["data_model"] = [
        DataEntity(name="customer", plural="customers", ident="customer", fields=[
            EntityField(name="E-mail", ident="email", type="str", kind="email", required=True, unique=True)]),
        DataEntity(name="order item", plural="order items", ident="order_item", parent="customer",
                   on_parent_delete="cascade", workflow=["draft", "paid", "shipped"],
                   transitions={"draft": ["paid"], "paid": ["shipped", "draft"]}, stamps={"shipped_on": "shipped"},
                   fields=[
            EntityField(name="rating", ident="rating", type="int", kind="rating", min_value=1, max_value=5),
            EntityField(name="size", ident="size", kind="enum", enum_values=["s", "m", "l"]),
            EntityField(name="buyer", ident="buyer_id", type="int", kind="reference", ref="customer", required=True),
            EntityField(name="price", ident="price", type="float", kind="money", min_value=0.5),
            EntityField(name="shipped on", ident="shipped_on", type="date", kind="date")]),
        DataEntity(name="note", plural="notes", ident="note", has_status=True, view="auditor"),
        DataEntity(name="shift", plural="shifts", ident="shift", shared=True, manage="admin", assigned=True,
                   many=["note", "customer"]),
        DataEntity(name="visit", plural="visits", ident="visit", calendar="visit_on", csv_import=500,
                   shared=True, read="public",
                   attachment_types=["image/png", "application/pdf"], attachment_max_kb=2048,
                   computed={"days_left": "visit_on - today"}, fields=[
            EntityField(name="visit on", ident="visit_on", type="date", kind="date", required=True)]),
    ]
    return AppSpec.model_validate({k: (v if k != "data_model" else [e.model_dump() for e in v])
                                   for k, v in base.items()})


def parse_line(line: str) -> dict:
    """Read an entity line back (the format in data_model_text.FORMAT) into the entity's JSON."""
    head, rest = line.split(": fields: ", 1)
    ident, names = re.fullmatch(r"(\w+) \((.*)\)", head).groups()
    name = re.search(r"name (.*?), plural", names)
    entity = {"ident": ident, "name": name.group(1) if name else ident, "plural": names.split("plural ", 1)[1],
              "fields": [], "parent": None, "has_status": False, "workflow": [], "transitions": {},
              "on_parent_delete": "restrict", "shared": False, "manage": None, "assigned": False, "many": [],
              "calendar": None, "csv_import": 0, "attachment_types": [], "attachment_max_kb": 0, "computed": {},
              "view": None, "stamps": {}, "read": None, "soft_delete": False}
    fields, *extras = rest.split("; ")
    for text in ([] if fields == "none" else fields.split(", ")):
        m = re.fullmatch(r"(\w+)(?: \(name (.*?)\))? (\w+)/([\w-]+)(.*)", text)
        f_ident, f_name, f_type, kind, tail = m.groups()
        enum = re.search(r"enum (\S+)", tail)
        low, high, ref = re.search(r"min (\S+)", tail), re.search(r"max (\S+)", tail), re.search(r"-> (\w+)", tail)
        entity["fields"].append({
            "name": f_name or f_ident, "ident": f_ident, "type": f_type, "required": " required" in tail,
            "kind": None if kind == "-" else kind, "enum_values": enum.group(1).split("|") if enum else [],
            "min_value": float(low.group(1)) if low else None, "max_value": float(high.group(1)) if high else None,
            "ref": ref.group(1) if ref else None, "unique": " unique" in tail})
    for extra in extras:
        if extra.startswith("parent "):
            parent, rule = re.fullmatch(r"parent (\w+) \(on delete (\w+)\)", extra).groups()
            entity["parent"], entity["on_parent_delete"] = (None if parent == "none" else parent), rule
        elif extra.startswith("has_status"):
            entity["has_status"] = True
        elif extra == "shared":
            entity["shared"] = True
        elif extra == "read public":
            entity["shared"], entity["read"] = True, "public"
        elif extra.startswith("manage "):
            entity["manage"] = extra.split(" ", 1)[1]
        elif extra.startswith("view "):
            entity["view"] = extra.split(" ", 1)[1]
        elif extra.startswith("stamp "):
            entity["stamps"] = dict(part.split("=", 1) for part in extra.split(" ", 1)[1].split(", "))
        elif extra.startswith("many "):
            entity["many"] = extra.split(" ", 1)[1].split("|")
        elif extra == "delete soft":
            entity["soft_delete"] = True
        elif extra == "assigned_to user":
            entity["assigned"] = True
        elif extra.startswith("calendar "):
            entity["calendar"] = extra.split(" ", 1)[1]
        elif extra.startswith("computed "):
            entity["computed"] = dict(part.split(" = ", 1) for part in extra.split(" ", 1)[1].split(" | "))
        elif extra.startswith("csv_import "):
            entity["csv_import"] = int(extra.split(" ")[1])
        elif extra.startswith("attachments "):
            types, size, _ = extra.split(" ")[1:]
            entity["attachment_types"], entity["attachment_max_kb"] = types.split("|"), int(size)
        elif extra.startswith("workflow "):
            states, moves = re.fullmatch(r"workflow (.*) \(moves (.*)\)", extra).groups()
            entity["workflow"] = states.split(" > ")
            if moves != "each state to the next":
                entity["transitions"] = {a: b.split("|") for a, b in (m.split("->") for m in moves.split(", "))}
    return entity


def test_an_entity_line_carries_everything_the_entitys_json_did():
    for entity in rich_spec().data_model:
        assert parse_line(entity_line(entity)) == entity.model_dump(mode="json")


def test_a_task_wiring_every_entity_sees_every_entitys_name_and_fields_compactly():
    spec = rich_spec()
    pages = Task(id="TASK-009", description="pages", kind="pages", files_touched=["src/pages.py"],
                 requirements=["REQ-001"])
    shown = build_context(pages, spec, [])["spec"]
    assert [parse_line(line) for line in shown["data_model"]] == [e.model_dump(mode="json") for e in spec.data_model]
    assert "one entity a line" in shown["data_model_format"]
    entity = Task(id="TASK-002", description="notes", kind="entity:note", files_touched=["src/api_note.py"])
    assert build_context(entity, spec, [])["spec"]["data_model"] == [spec.data_model[2].model_dump(mode="json")]


def workspace_plan(tmp_path, sizes: dict[str, int], imports: dict[str, str] | None = None) -> Plan:
    """TASK-001 writes every file of `sizes` (padded to that size); TASK-002 depends on it."""
    for rel, size in sizes.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        head = f'"""{rel}."""\n' + (imports or {}).get(rel, "") + f"\n\ndef {path.stem}_api(x):\n    return x\n"
        path.write_text(head + "# padding\n" * max(0, (size - len(head)) // 10))
    return Plan(source="llm", tasks=[
        Task(id="TASK-001", description="base", files_touched=list(sizes), requirements=["REQ-001"]),
        Task(id="TASK-002", description="the api", depends_on=["TASK-001"], files_touched=["src/main.py"],
             requirements=["REQ-001"])])


def test_the_budget_never_cuts_the_tasks_own_requirements_files_or_commands(tmp_path):
    spec = valid_todo()
    plan = workspace_plan(tmp_path, {f"src/m{n}.py": 3000 for n in range(10)})
    mine = plan.tasks[1].model_copy(update={"requirements": [r.id for r in spec.requirements],
                                            "verification": ["python -m pytest -q tests/test_x.py"]})
    (tmp_path / "src/main.py").write_text("app = 'the previous build'\n")
    prompt = build_prompt(mine, spec, [], plan, tmp_path, budget=3000)   # smaller than the task itself
    context = context_of(prompt)
    assert [r["id"] for r in context["requirements"]] == [r.id for r in spec.requirements]
    assert all(r.acceptance in prompt for r in spec.requirements)
    assert context["allowed_files"] == ["src/main.py"] and context["verification"] == mine.verification
    assert context["own_files"] == {"src/main.py": "app = 'the previous build'\n"}   # a rebuild sees its files
    assert context["dependency_files"] == {} and context["dependency_interfaces"] == {}
    assert context["dependency_not_shown"] == [f"src/m{n}.py" for n in range(10)]
    assert "ask nothing about what was left out" in context["left_out"]


@pytest.mark.parametrize("budget", [6_000, 12_000, 20_000, 40_000])
def test_the_whole_prompt_stays_within_its_budget_and_every_file_is_accounted_for(tmp_path, budget):
    plan = workspace_plan(tmp_path, {**{f"src/m{n}.py": 1500 * (n + 1) for n in range(8)}, "tests/test_m.py": 2000})
    prompt = build_prompt(plan.tasks[1], valid_todo(), [], plan, tmp_path, budget=budget)
    assert len(prompt) <= budget
    context = context_of(prompt)
    parts = [*context["dependency_files"], *context["dependency_interfaces"], *context["dependency_names"],
             *context["dependency_not_shown"]]
    assert sorted(parts) == sorted(plan.tasks[0].files_touched)   # each once, none silently dropped
    if context["dependency_interfaces"] or context["dependency_names"] or context["dependency_not_shown"]:
        assert "dependency_not_shown lists the files not shown" in context["left_out"]
    else:
        assert context["left_out"].startswith("nothing")


def test_dependency_code_ranks_what_the_task_imports_then_what_most_files_import(tmp_path):
    """Regression: dependency files were taken nearest first while they fit, so a big shared module
    later in the order (src/models.py of the 20-entity request) was neither shown nor outlined."""
    plan = workspace_plan(tmp_path, {"src/a.py": 2500, "src/b.py": 2500, "src/shared.py": 2500, "src/c.py": 2500},
                          imports={"src/a.py": "from src.shared import x", "src/b.py": "from src import shared"})
    (tmp_path / "src/main.py").write_text("from src.c import c_api\n")   # a rebuild: what the task imports
    code = dependency_code(plan.tasks[1], plan, tmp_path, budget=6_000)
    assert list(code["dependency_files"]) == ["src/c.py", "src/shared.py"]
    assert set(code["dependency_names"]) | set(code["dependency_interfaces"]) == {"src/a.py", "src/b.py"}
    assert "def a_api(" in json.dumps(code)


def test_a_task_writing_tests_sees_its_conftest_and_a_test_of_its_latest_dependency_first(tmp_path):
    plan = workspace_plan(tmp_path, {"src/big.py": 9000, "tests/conftest.py": 1500, "tests/test_base.py": 3000})
    tests_task = plan.tasks[1].model_copy(update={"files_touched": ["tests/test_api.py"]})
    code = dependency_code(tests_task, plan, tmp_path, budget=5_500)
    assert list(code["dependency_files"]) == ["tests/conftest.py", "tests/test_base.py"]
    assert "src/big.py" in {**code["dependency_interfaces"], **code["dependency_names"]}


@pytest.fixture(scope="module")
def scale_prompts():
    from harness.benchmarks import assembled_prompts

    return {n: assembled_prompts(n) for n in (1, 20)}


@pytest.mark.slow
def test_the_scale_requests_largest_prompt_is_flat_from_1_to_20_entities(scale_prompts):
    """The measure `builder bench --scale` prints, on prompts assembled without a build: before the
    whole-prompt budget the largest was ~39 k characters at N=1 and ~67 k at N=20 (+71%)."""
    largest = {n: max(len(p) for _, p in prompts) for n, prompts in scale_prompts.items()}
    entity = {n: max(len(p) for t, p in prompts if t.kind.startswith("entity:")) for n, prompts in scale_prompts.items()}
    assert largest[20] <= PROMPT_BUDGET_CHARS and entity[20] <= PROMPT_BUDGET_CHARS
    assert largest[20] <= 1.15 * largest[1]


@pytest.mark.slow
def test_at_20_entities_the_wiring_tasks_see_every_entity_and_the_shared_modules(scale_prompts):
    from harness.agents.spec_agent import SpecAgent
    from harness.benchmarks import scale_request
    from harness.providers.mock import MockProvider

    spec = SpecAgent(MockProvider()).fallback(scale_request(20))
    for task, prompt in scale_prompts[20]:
        if task.kind in ("pages", "app", "acceptance"):
            context = context_of(prompt)
            assert [parse_line(line) for line in context["spec"]["data_model"]] == [
                e.model_dump(mode="json") for e in spec.data_model]
            assert [r["id"] for r in context["requirements"]] == task.requirements
            shown = {**context["dependency_files"], **context["dependency_interfaces"]}
            if task.kind == "acceptance":   # its prompt also carries every requirement's text (6.5 k
                # characters at 20 entities): the models' names, which the next test proves are all
                # the reference build takes from it, not the whole interface
                shown |= context["dependency_names"]
            assert "src/models.py" in shown and "tests/conftest.py" in context["dependency_files"]


def test_the_planners_spec_summary_carries_every_entity_as_a_line_and_every_requirement():
    from harness.agents.planner import Planner
    from harness.providers.mock import MockProvider

    spec = rich_spec()
    prompt = Planner(MockProvider()).prompt(spec)
    summary = json.loads(prompt.split("Spec:\n", 1)[1].split("\n\nWorkspace contract", 1)[0])
    assert [parse_line(line) for line in summary["data_model"]] == [e.model_dump(mode="json") for e in spec.data_model]
    assert [r["id"] for r in summary["requirements"]] == [r.id for r in spec.requirements]


def names_taken(source: str, modules: set[str]) -> set[tuple[str, str]]:
    """(module path, name) a file takes from the workspace modules of `modules`: `from src.m import
    x` gives (src/m.py, x); `from src import m` then `m.x` gives (src/m.py, x)."""
    import ast

    tree, taken, aliases = ast.parse(source), set(), {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "src":
            stem = node.module.replace(".", "/")
            for alias in node.names:
                if f"{stem}/{alias.name}.py" in modules:
                    aliases[alias.asname or alias.name] = f"{stem}/{alias.name}.py"
                else:
                    taken.add((f"{stem}.py" if stem != "src" else "src/__init__.py", alias.name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            taken.add((aliases[node.value.id], node.attr))
    return {(module, name) for module, name in taken if module in modules}


@pytest.mark.slow
def test_at_20_entities_every_name_the_reference_build_takes_from_a_dependency_is_in_its_prompt(scale_prompts):
    """What a model needs to write each task's files, measured on the generator's own files for the
    task: every name they import from a dependency's module is shown in that module's entry (whole,
    interface or names), so nothing a working build needs was cut."""
    from harness.agents.spec_agent import SpecAgent
    from harness.benchmarks import scale_request
    from harness.offline.generator import generate_unit
    from harness.providers.mock import MockProvider

    spec = SpecAgent(MockProvider()).fallback(scale_request(20))
    missing = []
    for task, prompt in scale_prompts[20]:
        context = context_of(prompt)
        shown = {**context["dependency_names"], **context["dependency_interfaces"], **context["dependency_files"]}
        modules = set(shown) | set(context["dependency_not_shown"])
        for path, text in generate_unit(spec, task.kind).items():
            if path.endswith(".py"):
                missing += [f"{task.id} {path}: {m} {n}" for m, n in names_taken(text, modules | set(task.files_touched))
                            if m in modules and not re.search(rf"\b{re.escape(n)}\b", shown.get(m, ""))]
    assert missing == []


def test_the_budget_comes_from_harness_prompt_budget_chars_for_a_small_context_model(tmp_path, monkeypatch):
    from harness.agents.builder import Builder, prompt_budget
    from harness.errors import ProviderConfigError
    from harness.providers.mock import MockProvider
    from harness.sandbox.local import LocalSandbox
    from harness.tools.file_tools import FileTools

    assert prompt_budget({}) == PROMPT_BUDGET_CHARS == 40_000
    for bad in ("lots", "0", "-5"):
        with pytest.raises(ProviderConfigError, match="HARNESS_PROMPT_BUDGET_CHARS"):
            prompt_budget({"HARNESS_PROMPT_BUDGET_CHARS": bad})
    plan = workspace_plan(tmp_path, {f"src/m{n}.py": 3000 for n in range(10)})
    monkeypatch.setenv("HARNESS_PROMPT_BUDGET_CHARS", "9000")
    llm = MockProvider(script=[json.dumps({"src/main.py": "app = None\n"})])
    Builder(llm).build(plan.tasks[1], valid_todo(), FileTools(LocalSandbox(tmp_path), ["src/main.py"]), plan=plan,
                       workspace=tmp_path)
    sent = llm.calls[0]
    assert len(sent) <= 9000 and "within 9000 characters" in sent and "dependency_not_shown" in sent


def test_the_scale_bench_compares_the_first_entity_task_and_the_others_like_for_like():
    from harness.benchmarks import entity_role_lines

    assert entity_role_lines({1: (19836, 0), 5: (19000, 39916), 20: (15483, 39593)}) == [
        "builder prompt size, first entity task (chars): 19836 at N=1, 19000 at N=5, 15483 at N=20; "
        "the other entity tasks' largest: 39916 at N=5, 39593 at N=20 (-1%)"]
    assert entity_role_lines({1: (19836, 0)}) == []
    assert entity_role_lines({1: (100, 0), 5: (90, 0)}) == ["builder prompt size, first entity task (chars): 100 at N=1, 90 at N=5"]


def test_the_data_model_format_explains_access_and_links_only_when_an_entity_has_them():
    from harness.agents.data_model_text import format_for

    assert "`; shared`" in format_for(rich_spec().data_model) and "`; many a|b`" in format_for(rich_spec().data_model)
    assert "shared" not in format_for(valid_todo().data_model)
