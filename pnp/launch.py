"""The first code the `pnp` command runs: loading pnp takes a moment, and a Ctrl-C in it ends
quietly (exit 130, nothing written yet) instead of with a traceback."""

from __future__ import annotations

import sys


def main() -> None:
    try:
        from pnp.cli import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted; nothing was written\n")
        sys.exit(130)
    run()
