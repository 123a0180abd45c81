"""The harness's exception hierarchy. Only the pipeline and the CLI catch these."""

from __future__ import annotations

# Exit codes shared by the CLI and the pytest plugin (documented in `builder --help`).
EXIT_OK = 0
EXIT_BUILD_FAILED = 1
EXIT_USAGE = 2
EXIT_RUN_DATA = 3
EXIT_UNKNOWN_RUN = 4
EXIT_TEMPFAIL = 75


class HarnessError(Exception):
    """Base error; `str(err)` is a one-line message telling the user what to do."""

    exit_code = EXIT_BUILD_FAILED


class InputError(HarnessError):
    """The user's request or arguments are unusable."""

    exit_code = EXIT_USAGE


class RunDataError(HarnessError):
    """A run's files are missing, corrupt or contradict each other."""

    exit_code = EXIT_RUN_DATA


class UnknownRunError(RunDataError):
    """No run with that id exists in the runs directory."""

    exit_code = EXIT_UNKNOWN_RUN


class RunLockedError(RunDataError):
    """Another process is writing this run."""


class SpecError(HarnessError):
    """The spec stage could not produce a valid spec."""


class PlanError(HarnessError):
    """The plan is invalid (cycle, unknown dependency, bad path ...)."""


class SandboxError(HarnessError):
    """A path escapes the sandbox root."""


class ProviderError(HarnessError):
    """An LLM provider call failed in a way the caller may fall back from."""


class ProviderConfigError(ProviderError):
    """The provider is misconfigured (bad key, base URL or model): fail fast."""


class ProviderUnavailableError(ProviderError):
    """The endpoint is unreachable or kept failing after retries (temporary)."""

    exit_code = EXIT_TEMPFAIL


class BudgetExceededError(HarnessError):
    """A run budget (LLM calls, tokens, minutes) was crossed; the run is resumable."""

    exit_code = EXIT_TEMPFAIL


def no_spec_error(run_id: str, failed: bool, error: str | None) -> HarnessError:
    """Why a run without a spec cannot be judged: it ended BUILD FAILED at the spec stage (exit 1),
    or it was interrupted before its spec was saved (exit 3: resume it)."""
    if failed:
        return HarnessError(f"run {run_id} ended BUILD FAILED at the spec stage: nothing was built to judge"
                            + (f" ({error})" if error else ""))
    return RunDataError(f"run {run_id} has no spec yet; `builder resume {run_id}` continues it")
