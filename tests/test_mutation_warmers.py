"""What the mutation runner does once before its forks instead of in every mutant child
(pytest_harness.mutation_runner.warm_source_lookups): stdlib caches only."""

from __future__ import annotations

import linecache
import tokenize


def test_sources_under_the_root_are_in_linecache_and_tokenize_is_compiled_before_the_forks(tmp_path, monkeypatch):
    from pytest_harness.mutation_runner import warm_source_lookups

    source = tmp_path / "warmers_app_module.py"
    source.write_text("def endpoint():\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import warmers_app_module  # noqa: F401 - imported as collection imports the workspace's modules
    import json  # a module outside the root: never read

    linecache.clearcache()
    tokenize._compile.cache_clear()
    warm_source_lookups(tmp_path)
    assert linecache.cache.get(str(source), (None, None, None))[2] == ["def endpoint():\n", "    return 1\n"]
    assert json.__file__ not in linecache.cache
    assert tokenize._compile.cache_info().currsize >= 1


def test_a_sibling_directory_whose_name_extends_the_roots_is_not_under_it(tmp_path, monkeypatch):
    """The root test is by path components (as Path.is_relative_to was), not a bare string prefix."""
    from pytest_harness.mutation_runner import warm_source_lookups

    root, sibling = tmp_path / "lane", tmp_path / "lane-other"
    root.mkdir()
    sibling.mkdir()
    inside, outside = root / "warmers_inside_module.py", sibling / "warmers_sibling_module.py"
    inside.write_text("X = 1\n")
    outside.write_text("Y = 2\n")
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.syspath_prepend(str(sibling))
    import warmers_inside_module  # noqa: F401
    import warmers_sibling_module  # noqa: F401

    linecache.clearcache()
    warm_source_lookups(root)
    assert str(inside) in linecache.cache
    assert str(outside) not in linecache.cache
