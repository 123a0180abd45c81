"""#19: the installed plugins' metadata is read beside the run's start, and the answers stay the same."""

from harness.verification import plugins


def _clear():
    for cached in (plugins.foreign_plugins, plugins._pytest11, plugins._requires):
        cached.cache_clear()


def test_prefetch_reads_the_metadata_in_a_thread_and_later_answers_come_from_it():
    _clear()
    thread = plugins.prefetch()
    assert thread.daemon and thread.name == "plugin-metadata"
    thread.join(timeout=60)
    assert plugins._pytest11.cache_info().currsize == 1 and plugins._requires.cache_info().currsize > 3
    ahead = plugins.foreign_plugins(plugins.DEFAULT_STACK)
    assert plugins.foreign_plugins.cache_info().hits >= 1          # the thread's answer
    hits = plugins._pytest11.cache_info().hits
    other = plugins.foreign_plugins(plugins.DEFAULT_STACK + "hypothesis>=6\n")
    assert plugins._pytest11.cache_info().hits == hits + 1        # another text: the same entry points
    _clear()
    assert plugins.foreign_plugins(plugins.DEFAULT_STACK) == ahead  # what a fresh read gives
    assert "hypothesispytest" in ahead and "hypothesispytest" not in other and "anyio" not in ahead
