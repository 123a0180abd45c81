"""The pytest side of read sets and carrying (read_set.py records, carry.py decides).

`start_recording` runs from the plugin's `pytest_load_initial_conftests`, before any conftest is
imported, when evidence is requested and `HARNESS_CARRY` is not "0"; the recorder lives in
`config.stash` until the evidence recorder takes it. `CarryHooks` (registered beside the evidence
recorder) deselects carried tests after every other plugin's `pytest_collection_modifyitems`,
counts them as collected (a session whose every test is carried exits 0, not 5) and prints what
it carried and what it refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_harness import carry, read_set, settings, xdist_support

READS_KEY = pytest.StashKey[read_set.Recorder]()


def add_option(parser: pytest.Parser) -> None:
    parser.getgroup("harness").addoption(
        "--harness-carry", dest="harness_carry", action="append", metavar="PATH::DIGEST[::LABEL]", default=None,
        help="an earlier evidence document of this run and the sha256 of its bytes: its passing tests are "
             "carried into this document instead of run again when nothing they read changed (repeatable; "
             f"env {carry.ENV_CARRY}=0 turns recording and carrying off)")


def start_recording(config: pytest.Config) -> None:
    """Begin the read-set window when this session will write evidence."""
    if not carry.enabled():
        return
    try:
        namespace = config.known_args_namespace
        if getattr(namespace, "harness_run", None) or settings.raw_value(config, "harness_evidence", namespace) is None:
            return
        root = config.rootpath
    except (AttributeError, ValueError, KeyError):
        return
    recorder = read_set.Recorder(Path(root))
    config.stash[READS_KEY] = recorder
    recorder.start()


def take_recorder(config: pytest.Config, keep: bool) -> read_set.Recorder | None:
    """The session's recorder for the evidence recorder (stopped and dropped when not `keep`)."""
    recorder = config.stash.get(READS_KEY, None)
    if recorder is not None and not keep:
        recorder.stop()
        return None
    return recorder


class CarryHooks:
    """Registered with the evidence recorder; `state` is the plugin's HarnessState."""

    def __init__(self, config: pytest.Config, state, link) -> None:
        self.config = config
        self.state = state
        self.link = link
        self.key = carry.carry_key(config, state.settings)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config, items: list) -> None:
        specs = config.getoption("harness_carry") or []
        if not specs or not carry.enabled() or xdist_support.is_controller(config):
            return
        base = Path(config.invocation_params.dir)
        sources = [carry.load_source(spec, base) for spec in specs]
        recorder = self.state.reads
        with read_set.paused():
            decided = carry.select(items, self.link, sources, key=self.key, root=Path(config.rootpath),
                                   now=(self.state.snapshot or {}).get("files") or {},
                                   sys_path=read_set.sys_path_view(recorder.root if recorder else config.rootpath))
        self.state.carry = decided
        if decided.carried:
            items[:] = [item for item in items if item.nodeid not in decided.carried]

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> None:
        if self.state.carry is not None:
            session.testscollected += len(self.state.carry.carried)

    def pytest_terminal_summary(self, terminalreporter) -> None:
        decided = self.state.carry
        if decided is None:
            return
        if decided.carried:
            terminalreporter.write_line(
                f"harness: {len(decided.carried)} test{'s' if len(decided.carried) != 1 else ''} carried from "
                f"{', '.join(decided.used)} "
                "(passed there on the same inputs; not run again)")
        for source in decided.sources:
            if source.refused:
                terminalreporter.write_line(f"harness: nothing carried from {source.label}: {source.refused}")

    def document_parts(self, snapshot: dict) -> dict:
        """The keys this session adds to its evidence document: carry_key, read_set, carried."""
        recorder = self.state.reads
        if recorder is None:
            return {}
        if xdist_support.is_controller(self.config):
            recorder._unsafe("ran under pytest-xdist: the workers' reads are not recorded here")
        own = recorder.result(snapshot)
        decided = self.state.carry
        parts = {"carry_key": self.key}
        if decided is not None:
            own = carry.joined_read_set(own, decided.sources, decided.used)
            parts["carried"] = carry.summary(decided)
        parts["read_set"] = own
        return parts
