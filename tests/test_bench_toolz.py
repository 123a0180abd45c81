"""The toolz suite for the overhead bench: cached sdist unpacked; offline is one skip line."""

import io
import tarfile

import pytest

from harness import bench_toolz


def _sdist(cache, version="9.9.9"):
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        for name, text in {"toolz/__init__.py": "", "toolz/tests/test_x.py": "def test_x():\n    assert 1 + 1 == 2\n"}.items():
            info = tarfile.TarInfo(f"toolz-{version}/{name}")
            info.size = len(text)
            tar.addfile(info, io.BytesIO(text.encode()))
    (cache / f"toolz-{version}.tar.gz").write_bytes(data.getvalue())


def test_a_cached_sdist_is_unpacked_without_pip(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_BENCH_CACHE", str(tmp_path))
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip could not download anything: the cache must serve
    _sdist(tmp_path)
    suite, why = bench_toolz.toolz_suite()
    assert why == "" and suite == tmp_path / "toolz-9.9.9" and (suite / "toolz" / "tests" / "test_x.py").is_file()


@pytest.mark.slow
def test_offline_is_one_skip_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HARNESS_BENCH_CACHE", str(tmp_path / "empty"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "nowhere"))
    line = bench_toolz.toolz_overhead_line()
    assert line.startswith("plugin overhead  skipped: pip download toolz failed") and "\n" not in line
