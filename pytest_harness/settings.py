"""Plugin settings resolved in one place: ini < HARNESS_* environment < command line.

In a judged session (`--harness-judged`, the harness's own verification of a workspace) only the
invocation's own command line counts: the judged project's ini keys, environment and addopts are
ignored and listed (judged.py).

Every setting has an ini key, an environment variable and a `--harness-*` flag (all default to
"not given"). Paths from the command line or the environment are relative to the invocation
directory, paths from the ini file relative to the ini file's directory. An invalid value is a
`pytest.UsageError` naming where it came from (`--harness-fail-under`, `HARNESS_FAIL_UNDER`,
`ini harness_fail_under`), in the style of pytest-timeout's `get_env_settings`.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_harness import baseline, evidence, forgery_scope, judged
from pytest_harness.requirements_file import load_requirement_files, load_requirements_file


@dataclass(frozen=True)
class Option:
    """One setting's three names."""

    name: str   # ini key == argparse dest
    env: str
    flag: str
    metavar: str
    help: str
    is_path: bool = False
    switch: bool = False   # a flag without a value (`--harness-mutate`); env and ini take 1/0, true/false


OPTIONS = (
    Option("harness_evidence", "HARNESS_EVIDENCE_PATH", "--harness-evidence", "PATH",
           "write the requirement evidence JSON to PATH", is_path=True),
    Option("harness_reqs", "HARNESS_REQS", "--harness-reqs", "IDS",
           "expected requirement ids, comma-separated, e.g. AUTH-001,AUTH-002"),
    Option("harness_requirements_file", "HARNESS_REQUIREMENTS_FILE", "--harness-requirements-file", "PATH",
           "TOML or CSV file listing the expected requirement ids with titles", is_path=True),
    Option("harness_id_pattern", "HARNESS_ID_PATTERN", "--harness-id-pattern", "REGEX",
           f"regular expression a requirement id must match (default {evidence.DEFAULT_ID_PATTERN})"),
    Option("harness_fail_under", "HARNESS_FAIL_UNDER", "--harness-fail-under", "PCT",
           "exit non-zero when fewer than PCT % of the requirements are verified"),
    Option("harness_report", "HARNESS_REPORT", "--harness-report", "PATH",
           "write a self-contained requirement matrix report (PATH ending .html or .md)", is_path=True),
    Option("harness_run_id", "HARNESS_RUN_ID", "--harness-run-id", "RUN_ID",
           "run id recorded in the evidence"),
    Option("harness_req_files", "HARNESS_REQ_FILES", "--harness-req-files", "JSON",
           'each requirement\'s implementation files, {"REQ-001": ["src/a.py"]}: its tests must run them'),
    Option("harness_digest_fd", "HARNESS_DIGEST_FD", "--harness-digest-fd", "FD",
           "inherited file descriptor that receives the evidence document's sha256 at session end"),
    Option("harness_trusted_hooks", "HARNESS_TRUSTED_HOOKS", "--harness-trusted-hooks", "ENTRIES",
           "reviewed forgery findings to accept, FILE::HOOK@sha256:HEX (the file's hash; an edit re-raises it)"),
    Option("harness_trace", "HARNESS_TRACE", "--harness-trace", "WHEN",
           "line-trace the call phase of: 'marked' tests (those with a req marker), or 'off'; default 'auto': "
           "marked, except nothing when only a fail-under threshold is asked (no 'weak' judgement then)"),
    Option("harness_baseline", "HARNESS_BASELINE", "--harness-baseline", "PATH",
           "compare with an earlier evidence document: status changes, and verified requirements gone stale",
           is_path=True),
    Option("harness_annotations", "HARNESS_ANNOTATIONS", "--harness-annotations", "FORMAT",
           "'github': print a workflow annotation for each requirement not verified (and each stale one)"),
    Option("harness_cobertura", "HARNESS_COBERTURA", "--harness-cobertura", "PATH",
           "write requirement coverage as Cobertura XML (one line per requirement, hit when verified)", is_path=True),
    Option("harness_mutate", "HARNESS_MUTATE", "--harness-mutate", "",
           "mutation audit per requirement of the lines its tests ran in its files (files from the requirements "
           "file's [files] or --harness-req-files); a requirement whose tests kill under the bar is not verified",
           switch=True),
)
_BY_NAME = {opt.name: opt for opt in OPTIONS}


@dataclass(frozen=True)
class Raw:
    """A setting's winning value and where it came from."""

    value: str
    source: str
    base: Path


@dataclass(frozen=True)
class Settings:
    """The resolved plugin settings; `active` is False when the plugin should stay inert."""

    evidence_path: Path | None
    expected: list[str] | None
    titles: dict[str, str]
    id_pattern: re.Pattern
    fail_under: float | None
    report_path: Path | None
    run_id: str | None
    req_files: dict[str, list[str]] | None = None
    digest_fd: int | None = None
    trusted_hooks: tuple = ()
    trace: str = "auto"
    baseline_path: Path | None = None
    annotations: str | None = None
    cobertura_path: Path | None = None
    requirements_path: Path | None = None
    mutate: bool = False
    ignored: tuple = ()   # a judged session: the project's settings it did not take (judged.py)

    @property
    def traced(self) -> str | None:
        """Why nothing is traced (None when the marked tests are): the verdict needs no proof."""
        if self.trace == "off":
            return "tracing is off (harness_trace = off)"
        outputs = (self.evidence_path, self.report_path, self.req_files, self.baseline_path, self.annotations,
                   self.cobertura_path, self.mutate or None)
        if self.trace == "auto" and all(value is None for value in outputs):
            return "only a threshold was asked"
        return None

    @property
    def active(self) -> bool:
        return self.mutate or any(v is not None for v in (self.evidence_path, self.fail_under, self.report_path,
                                                          self.baseline_path, self.annotations, self.cobertura_path))


def add_options(parser: pytest.Parser) -> None:
    """Register every setting as an ini key and a `--harness-*` flag (flag default None)."""
    group = parser.getgroup("harness", "App-Builder Harness requirement evidence (use the --flag=VALUE form)")
    for opt in OPTIONS:
        kind = {"action": "store_true"} if opt.switch else {"metavar": opt.metavar}
        group.addoption(opt.flag, dest=opt.name, default=None, **kind,
                        help=f"{opt.help} (env {opt.env}, ini {opt.name})".replace("%", "%%"))  # argparse %-formats
        parser.addini(opt.name, f"{opt.help} (flag {opt.flag}, env {opt.env})", default="")
    judged.add_option(group)


def raw_value(config: pytest.Config, name: str, namespace: object | None = None) -> Raw | None:
    """The winning raw value of one setting (CLI > env > ini); None when not given anywhere. In a
    judged session only the invocation's own command line counts (judged.py)."""
    opt = _BY_NAME[name]
    invocation = Path(config.invocation_params.dir)
    strict = name not in judged.LABELS and judged.is_judged(config)
    cli = getattr(namespace if namespace is not None else config.option, name, None)
    if cli is not None and str(cli).strip() and (not strict or judged.on_command_line(config, opt.flag)):
        return Raw(str(cli), opt.flag, invocation)
    if strict:
        return None
    env = os.environ.get(opt.env, "")
    if env.strip():
        return Raw(env, opt.env, invocation)
    ini = config.getini(name)
    if isinstance(ini, str) and ini.strip():
        base = config.inipath.parent if config.inipath else Path(config.rootpath)
        return Raw(ini.strip(), f"ini {name}", base)
    return None


def _path(raw: Raw | None) -> Path | None:
    return None if raw is None else raw.base / raw.value.strip()


def validate_pattern(raw: Raw | None) -> re.Pattern:
    """Compile the id pattern (ASCII, full match); the default when not given."""
    if raw is None:
        return evidence.DEFAULT_ID_RE
    try:
        return re.compile(raw.value.strip(), re.ASCII)
    except re.error as err:
        raise pytest.UsageError(f"{raw.source}: invalid regular expression {raw.value!r}: {err}") from None


def validate_fail_under(raw: Raw | None) -> float | None:
    """A percentage between 0 and 100 (a trailing % is allowed)."""
    if raw is None:
        return None
    text = raw.value.strip().rstrip("%").strip()
    try:
        value = float(text)
    except ValueError:
        raise pytest.UsageError(f"{raw.source}: expected a percentage 0-100, got {raw.value!r}") from None
    if not 0.0 <= value <= 100.0:
        raise pytest.UsageError(f"{raw.source}: expected a percentage 0-100, got {raw.value!r}")
    return value


def validate_report(raw: Raw | None) -> Path | None:
    """The report path; its suffix chooses the format."""
    path = _path(raw)
    if path is not None and path.suffix.lower() not in (".html", ".htm", ".md"):
        raise pytest.UsageError(f"{raw.source}: report path must end in .html or .md, got {raw.value!r}")
    return path


def expected_ids(reqs: Raw | None, file: Raw | None, pattern: re.Pattern) -> tuple[list[str] | None, dict[str, str]]:
    """The expected set (ids given directly plus the file's) and the file's titles."""
    titles: dict[str, str] = {}
    ids: set[str] = set()
    given = False
    if reqs is not None:
        try:
            ids |= set(evidence.parse_expected(reqs.value, pattern) or [])
        except ValueError as err:
            raise pytest.UsageError(f"{reqs.source}: {err}") from None
        given = True
    if file is not None:
        try:
            titles = load_requirements_file(_path(file), pattern)
        except ValueError as err:
            raise pytest.UsageError(f"{file.source}: {err}") from None
        ids |= set(titles)
        given = True
    return (sorted(ids) if given else None), titles


def validate_req_files(raw: Raw | None, pattern: re.Pattern) -> dict[str, list[str]] | None:
    """JSON {"REQ-001": ["src/models.py", ...]} (relative to the rootdir)."""
    if raw is None:
        return None
    try:
        data = json.loads(raw.value)
    except json.JSONDecodeError as err:
        raise pytest.UsageError(f"{raw.source}: not valid JSON ({err.msg})") from None
    if not isinstance(data, dict) or not all(
            evidence.is_req_id(k, pattern) and isinstance(v, list) and all(isinstance(f, str) for f in v)
            for k, v in data.items()):
        raise pytest.UsageError(f'{raw.source}: expected {{"REQ-001": ["relative/file.py", ...]}}')
    return {k: sorted(set(v)) for k, v in sorted(data.items())}


def validate_digest_fd(raw: Raw | None) -> int | None:
    """An inherited file descriptor number (>= 3)."""
    if raw is None:
        return None
    text = raw.value.strip()
    if not text.isdigit() or int(text) < 3:
        raise pytest.UsageError(f"{raw.source}: expected an inherited file descriptor number >= 3, got {raw.value!r}")
    return int(text)


def validate_trusted(raw: Raw | None) -> tuple:
    """Reviewed forgery findings (forgery_scope.parse_trusted)."""
    if raw is None:
        return ()
    try:
        return tuple(forgery_scope.parse_trusted(raw.value))
    except ValueError as err:
        raise pytest.UsageError(f"{raw.source}: {err}") from None


def validate_trace(raw: Raw | None) -> str:
    """auto, marked or off."""
    if raw is None:
        return "auto"
    value = raw.value.strip().lower()
    if value not in ("auto", "marked", "off"):
        raise pytest.UsageError(f"{raw.source}: expected auto, marked or off, got {raw.value!r}")
    return value


def validate_baseline(raw: Raw | None) -> Path | None:
    """An earlier evidence document that can be read now (checked before the tests run)."""
    path = _path(raw)
    if path is not None:
        try:
            baseline.load(path)
        except ValueError as err:
            raise pytest.UsageError(f"{raw.source}: {err}") from None
    return path


def validate_annotations(raw: Raw | None) -> str | None:
    if raw is None:
        return None
    if raw.value.strip().lower() != "github":
        raise pytest.UsageError(f"{raw.source}: expected github, got {raw.value!r}")
    return "github"


def validate_switch(raw: Raw | None) -> bool:
    """A switch: the flag given, or 1/0, true/false, yes/no, on/off from the environment or ini."""
    if raw is None:
        return False
    value = raw.value.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise pytest.UsageError(f"{raw.source}: expected 1 or 0 (true/false), got {raw.value!r}")


def requirement_files(file: Raw | None, flag: Raw | None, pattern: re.Pattern) -> dict[str, list[str]] | None:
    """Each requirement's implementation files: the requirements file's `[files]`, then
    `--harness-req-files` (its entry wins for an id both name); None when neither names any."""
    from_file: dict[str, list[str]] = {}
    if file is not None:
        try:
            from_file = load_requirement_files(_path(file), pattern)
        except ValueError as err:
            raise pytest.UsageError(f"{file.source}: {err}") from None
    given = validate_req_files(flag, pattern)
    merged = {**from_file, **(given or {})}
    return dict(sorted(merged.items())) if merged or given is not None else None


def space_form_flags(args: list[str]) -> list[str]:
    """Path flags given as `--flag VALUE`, which pytest-dev/pytest#8846 turns into a rootdir trap."""
    path_flags = {opt.flag for opt in OPTIONS if opt.is_path}
    return sorted({arg for arg in args if arg in path_flags})


def resolve(config: pytest.Config) -> Settings:
    """Resolve every setting; raises pytest.UsageError naming the source of a bad value."""
    raw = {name: raw_value(config, name) for name in _BY_NAME}
    pattern = validate_pattern(raw["harness_id_pattern"])
    evidence_path = _path(raw["harness_evidence"])
    fail_under = validate_fail_under(raw["harness_fail_under"])
    report_path = validate_report(raw["harness_report"])
    mutate = validate_switch(raw["harness_mutate"])
    outputs = (raw["harness_baseline"], raw["harness_annotations"], raw["harness_cobertura"])
    if not mutate and evidence_path is None and fail_under is None and report_path is None and all(r is None for r in outputs):
        # Inert: ids and files are only read when something asks for evidence.
        return Settings(None, None, {}, pattern, None, None, None)
    expected, titles = expected_ids(raw["harness_reqs"], raw["harness_requirements_file"], pattern)
    run_id = raw["harness_run_id"].value.strip() if raw["harness_run_id"] else None
    req_files = requirement_files(raw["harness_requirements_file"], raw["harness_req_files"], pattern)
    trace = validate_trace(raw["harness_trace"])
    if mutate and (trace == "off" or not req_files):
        raise pytest.UsageError(f"{raw['harness_mutate'].source}: the mutation audit needs "
                                + ("the marked tests traced (not harness_trace = off)" if trace == "off" else
                                   "each requirement's files: a [files] table in the requirements file "
                                   "(or --harness-req-files)"))
    return Settings(evidence_path, expected, titles, pattern, fail_under, report_path, run_id,
                    req_files, validate_digest_fd(raw["harness_digest_fd"]),
                    validate_trusted(raw["harness_trusted_hooks"]), trace,
                    validate_baseline(raw["harness_baseline"]), validate_annotations(raw["harness_annotations"]),
                    _path(raw["harness_cobertura"]), _path(raw["harness_requirements_file"]), mutate,
                    tuple(judged.ignored(config, OPTIONS)) if judged.is_judged(config) else ())
