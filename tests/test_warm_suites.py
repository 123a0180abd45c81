"""tests/warm_suites.py, which runs the generated suites of other tests: a failing suite fails, warm and
cold, so no test that uses it can pass on a broken app."""

import pytest
from warm_suites import WarmSuites

from harness.speed.warm import workers as warm

INI = "[pytest]\nmarkers =\n    req(id): requirement\n"


def _suite(root, body):
    (root / "tests").mkdir(parents=True)
    (root / "pytest.ini").write_text(INI)
    (root / "tests" / "test_a.py").write_text(body)
    return root


@pytest.mark.slow
@pytest.mark.parametrize("warm_on", [True, False])
def test_suites_report_pytests_exit_code_and_output_warm_and_cold(tmp_path, monkeypatch, warm_on):
    monkeypatch.setenv(warm.ENV_WARM, "1" if warm_on else "0")
    good = _suite(tmp_path / "good", "def test_ok():\n    assert 1 + 1 == 2\n")
    bad = _suite(tmp_path / "bad", "def test_broken():\n    assert 1 + 1 == 3\n")
    pool = WarmSuites(tmp_path, lanes=2)
    try:
        results = pool.run_all({"good": (good, ("-q", "-p", "no:cacheprovider")),
                                "bad": (bad, ("-q", "-p", "no:cacheprovider"))})
    finally:
        pool.close()
    assert list(results) == ["good", "bad"]
    assert results["good"].exit_code == 0 and "1 passed" in results["good"].stdout
    assert results["bad"].exit_code == 1 and "1 failed" in results["bad"].stdout
    assert "test_broken - assert (1 + 1) == 3" in results["bad"].stdout
    assert pool.runners == ["warm" if warm_on else "cold"] * 2
