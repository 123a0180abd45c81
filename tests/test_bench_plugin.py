"""Issue 18: `builder bench --plugin-overhead DIR` measures (never asserts) the recording cost."""

from __future__ import annotations

import re

import pytest

from harness.cli import main

PROJECT = {
    "pytest.ini": "[pytest]\naddopts = --strict-markers\nharness_fail_under = 100\n",
    # A-1's test makes a real check: a test that only asserts True proves nothing (#15), and the
    # project's fail-under 100 would then fail the evidence run.
    "test_a.py": "import pytest\n\n@pytest.mark.req('A-1')\ndef test_a():\n    assert sorted([2, 1]) == [1, 2]\n\n"
                 "def test_b():\n    assert True\n",
}


@pytest.mark.slow
def test_plugin_overhead_line_on_a_strict_markers_project(tmp_path, capsys, monkeypatch):
    for name, text in PROJECT.items():
        (tmp_path / name).write_text(text)
    monkeypatch.setenv("HARNESS_FAIL_UNDER", "100")  # the baseline must not record either
    # --pytest-arg: without the hypothesis plugin, which imports hypothesis at the end of each run (~1-2 s)
    assert main(["bench", "--plugin-overhead", str(tmp_path), "--rounds", "1", "--pytest-arg=-pno:hypothesispytest"]) == 0
    line = capsys.readouterr().out.strip()
    assert re.fullmatch(rf"plugin overhead  {tmp_path.name}: 2 tests \(1 marked\), plugin inert \d+\.\d\ds, with evidence "
                        r"\d+\.\d\ds \([+-]\d+\.\d%\), CPU \d+\.\d\ds -> \d+\.\d\ds \(\d+\.\d\dx\), median of 1 rounds, exit codes baseline=0, evidence=0", line), line


@pytest.mark.slow
def test_bench_plugin_overhead_failed_rounds_are_an_error_not_a_ratio(tmp_path, capsys):
    (tmp_path / "test_a.py").write_text("def test_a():\n    assert sorted([2, 1]) == [1, 2]\n")
    # an unknown option: pytest exits 4 in every round (the bug printed a ratio of "None tests")
    code = main(["bench", "--plugin-overhead", str(tmp_path), "--rounds", "1", "--pytest-arg=--no-such-option"])
    out, err = capsys.readouterr()
    assert code != 0 and "ratio" not in out and "x)" not in out
    assert "the plugin-inert 1 round exited 4, nothing measured" in err and "--no-such-option" in err


@pytest.mark.slow
def test_bench_plugin_overhead_marks_tests_in_both_modes(tmp_path, capsys):
    (tmp_path / "test_a.py").write_text("".join(f"def test_{n}():\n    assert abs(-{n}) == {n}\n" for n in range(9)))
    assert main(["bench", "--plugin-overhead", str(tmp_path), "--rounds", "1", "--mark-tests", "3",
                 "--pytest-arg=-pno:hypothesispytest"]) == 0
    assert f"{tmp_path.name}: 9 tests (3 marked)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--plugin-overhead", "/no/such/dir"], "is not a directory"),
    (["--plugin-overhead", ".", "--rounds", "0"], "--rounds must be at least 1"),
    (["--plugin-overhead", ".", "--mark-tests", "0"], "--mark-tests must be at least 1"),
])
def test_plugin_overhead_bad_input_is_one_line_exit_2(argv, message, capsys):
    assert main(["bench", *argv]) == 2
    assert message in capsys.readouterr().err
