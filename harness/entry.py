"""The `builder` console script: a signal while the harness's modules load exits quietly (130/143)."""

from harness.interrupts import guard_startup

guard_startup()


def main() -> int:
    from harness.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    raise SystemExit(main())
