"""Start-up and rebuild figures for the four bundled games (issue 31, items 3, 4 and 6).

    python bench/rebuilds.py                    # this checkout
    python bench/rebuilds.py --against OTHER    # and another checkout of pnp, runs interleaved

Each figure is a whole process: `pnp --help`, `pnp list`, a build where nothing changed, a
build after one card changed (a Big Ten defense card's name, changed back and forth),
`pnp validate --all` and a build from scratch. Medians of wall and CPU time (user plus
system); with --against, the two checkouts are timed in turn (a, b, a, b, ...), each on its
own copy of the games, so a busy machine slows both alike."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CARD = ("card_data/big-ten/defense.yaml", 'name: "Run Blitz"', 'name: "Safety Blitz"')


def timed(command: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process."""
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"failed: {' '.join(command)}\n{process.stderr.read().decode()}")   # type: ignore[union-attr]
    return seconds, usage.ru_utime + usage.ru_stime


class Checkout:
    """One pnp checkout, with a copy of the bundled games of its own to build and change."""

    def __init__(self, source: Path, work: Path):
        self.source = source
        self.root = work / "root"
        for folder in ("card_data", "layouts", "fonts"):
            shutil.copytree(source / folder, self.root / folder, symlinks=False)   # its own games
        self.out = work / "out"
        # the checkout's own package comes before any installed pnp (run from its folder, which
        # `python -m` puts first); bytecode kept, as an installed pnp has it
        self.env = {**os.environ, "PYTHONPATH": str(source)}
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        self.flip = False

    def pnp(self, *args: str) -> list[str]:
        return [sys.executable, "-m", "pnp", *args]

    def workloads(self) -> dict:
        root = ["--root", str(self.root)]
        return {
            "pnp --help": lambda i: self.pnp("--help"),
            "pnp list": lambda i: self.pnp("list", *root),
            "build --all, nothing changed": lambda i: self.pnp("build", "--all", *root, "--out", str(self.out), "-q"),
            "build --all, one card changed": lambda i: self.changed() or
            self.pnp("build", "--all", *root, "--out", str(self.out), "-q"),
            "validate --all": lambda i: self.pnp("validate", "--all", *root),
            "build --all from scratch": lambda i: self.pnp("build", "--all", *root, "--out", str(self.out / f"fresh{i}"), "-q"),
        }

    def changed(self) -> None:
        """One card of one deck changed, back and forth."""
        path = self.root / CARD[0]
        old, new = CARD[1:] if not self.flip else CARD[:0:-1]
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        self.flip = not self.flip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another pnp checkout, timed in turn with this one")
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        sources = [REPO] + ([options.against.resolve()] if options.against else [])
        checkouts = [Checkout(source, Path(temp) / str(n)) for n, source in enumerate(sources)]
        for checkout in checkouts:   # a first build, and bytecode written
            timed(checkout.pnp("build", "--all", "--root", str(checkout.root), "--out", str(checkout.out), "-q"),
                  checkout.env, checkout.source)
        print("| workload | " + " | ".join(f"{c.source.name}: wall, CPU" for c in checkouts) + " |")
        print("|---|" + "---|" * len(checkouts))
        for name in checkouts[0].workloads():
            found: list[list[tuple[float, float]]] = [[] for _ in checkouts]
            for i in range(options.runs):
                for checkout, times in zip(checkouts, found):
                    times.append(timed(checkout.workloads()[name](i), checkout.env, checkout.source))
            cells = [f"{statistics.median(t[0] for t in times):.2f} s, {statistics.median(t[1] for t in times):.2f} s"
                     for times in found]
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
