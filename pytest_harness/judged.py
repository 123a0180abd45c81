"""A judged session: the harness verifying a workspace it did not write (`--harness-judged`).

The party under judgement may not set how it is judged. In a judged session every plugin setting
comes from the invocation's own command line, which is the harness's: the workspace's ini keys
(`pytest.ini`, `pyproject.toml`, `setup.cfg`, `tox.ini`), `HARNESS_*` environment variables and a
flag that only `addopts` supplied are ignored, and named in the summary and in the document's
`ignored_settings` (hostile trial i, 2026-12-07: A7 waived its own forgery finding with
`harness_trusted_hooks` in its pytest.ini, A8 switched tracing, and with it the weak check and the
mutation audit, off with `harness_trace = off`). A label that weakens nothing (the run id, set by
the harness in the sandbox's environment) keeps its usual sources.

Outside a judged session (a project gating its own CI) ini < environment < flag applies as
documented in docs/plugin.md.
"""

from __future__ import annotations

import os

import pytest

FLAG = "--harness-judged"
LABELS = frozenset({"harness_run_id"})   # settings that only label the document


def add_option(group) -> None:
    group.addoption(FLAG, dest="harness_judged", action="store_true", default=False,
                    help="the harness judges this session: plugin settings come from this command line only "
                         "(the project's harness_* ini keys, HARNESS_* variables and addopts are ignored)")


def is_judged(config: pytest.Config) -> bool:
    """True when the invocation's own arguments (not addopts, not the environment) say so."""
    return FLAG in config.invocation_params.args


def on_command_line(config: pytest.Config, flag: str) -> bool:
    """Whether `flag` is among the invocation's own arguments (`--flag=VALUE`, `--flag VALUE`, a switch)."""
    return any(arg == flag or arg.startswith(flag + "=") for arg in config.invocation_params.args)


def ignored(config: pytest.Config, options, namespace: object | None = None) -> list[str]:
    """The sources of settings a judged session did not take: `ini harness_trace`, `HARNESS_TRACE`,
    `--harness-trace (addopts)`."""
    found = []
    for opt in options:
        if opt.name in LABELS:
            continue
        ini = config.getini(opt.name)
        if isinstance(ini, str) and ini.strip():
            found.append(f"ini {opt.name}")
        if os.environ.get(opt.env, "").strip():
            found.append(opt.env)
        cli = getattr(namespace if namespace is not None else config.option, opt.name, None)
        if cli not in (None, False, "") and not on_command_line(config, opt.flag):
            found.append(f"{opt.flag} (addopts)")
    return found
