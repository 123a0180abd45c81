"""`builder report <run_id>`: write runs/<id>/report.html, one self-contained page."""

from __future__ import annotations

from harness.commands.base import Command, run_id_options, store_for
from harness.errors import EXIT_OK


def cmd_report(args) -> int:
    """Render the run's report page and print where it is."""
    from harness.report.page import write_report

    path = write_report(store_for(args), args.run_id)
    print(f"report: {path}")
    return EXIT_OK


REPORT = Command("report", "write runs/<id>/report.html: one self-contained page of the run", run_id_options,
                 cmd_report)
