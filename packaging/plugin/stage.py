"""Stage the plugin distribution's source: this folder's pyproject and README, the repository's
LICENSE and the pytest_harness package (without caches), copied into DEST for `pip wheel DEST`.

    python packaging/plugin/stage.py build/plugin-src
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent


def stage(dest: Path) -> Path:
    """Copy the distribution's files into `dest` (emptied first); returns `dest`."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(HERE / name, dest / name)
    shutil.copy2(REPO / "LICENSE", dest / "LICENSE")
    shutil.copytree(REPO / "pytest_harness", dest / "pytest_harness",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dest


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        sys.stderr.write("usage: python packaging/plugin/stage.py DEST\n")
        return 2
    print(stage(Path(argv[0]).resolve()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
