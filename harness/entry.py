"""The `builder` console script: a signal while the harness's modules load exits quietly (130/143),
and a command that returned ends the process without the interpreter's teardown (`exit_now`)."""

from harness.interrupts import guard_startup

guard_startup()


def main() -> int:
    from harness.cli import main as cli_main

    exit_now(cli_main())


def exit_now(code: int) -> None:
    """End the process as a normal exit does — non-daemon threads waited for, the exit handlers
    run (warm workers, servers and sandboxes stopped, their directories removed), stdout and stderr
    flushed — then `os._exit(code)` instead of tearing the interpreter down: freeing a `builder new`
    process's ~1,500 modules and their objects took 0.4-0.6 s of CPU after the last exit handler,
    with nothing left to write or stop. Where the threading module has no shutdown hook to wait
    for the threads the way the interpreter does, the process exits the normal way."""
    import atexit
    import os
    import sys
    import threading

    shutdown = getattr(threading, "_shutdown", None)
    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if shutdown is None or run_exit_handlers is None:
        raise SystemExit(code)
    shutdown()               # what the interpreter does first at exit: wait for non-daemon threads
    run_exit_handlers()      # then the atexit handlers, in their order
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a closed pipe: nothing more can be written
            pass
    os._exit(code if isinstance(code, int) else 1)


if __name__ == "__main__":
    raise SystemExit(main())
