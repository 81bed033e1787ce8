"""Deliberate bugs against the tests: does each one make a test fail?

    .venv/bin/python tools/mutants.py              # every mutant in tools/mutants.yaml
    .venv/bin/python tools/mutants.py ID [ID ...]  # only these
    .venv/bin/python tools/mutants.py --check      # only that each mutant's text is still there

Each mutant in tools/mutants.yaml names a file, an exact text in it (found exactly once), the
text that replaces it, and the tests that cover that code (pytest arguments: files, `-k`). The
working tree (tracked and new files, as they are now) is copied once to a folder in /tmp; each
mutant is applied there, its tests run (`nice`, `-x -q -n 1`: one test process, the machine is
shared), and the file put back. The checkout is never changed. A mutant is caught when a test
fails; it survives when its tests all pass, and then a test is missing.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
MUTANTS = REPO / "tools" / "mutants.yaml"


@dataclass(frozen=True)
class Mutant:
    id: str
    file: str
    old: str
    new: str
    tests: str       # pytest arguments, e.g. "tests/test_tts.py -k deck"
    why: str = ""    # the bug in words
    timeout: float = 900.0


def load(path: Path = MUTANTS) -> list[Mutant]:
    mutants = [Mutant(**entry) for entry in yaml.safe_load(path.read_text(encoding="utf-8"))]
    seen: set[str] = set()
    for mutant in mutants:
        if mutant.id in seen:
            raise SystemExit(f"{path.name}: mutant id '{mutant.id}' is used twice")
        seen.add(mutant.id)
    return mutants


def problem(mutant: Mutant, root: Path) -> str | None:
    """Why `mutant` cannot be applied in `root` (its text is gone or not unique); None if it can."""
    path = root / mutant.file
    if not path.is_file():
        return f"{mutant.file} does not exist"
    found = path.read_text(encoding="utf-8").count(mutant.old)
    if found != 1:
        return f"its text is found {found} times in {mutant.file}, not once"
    if mutant.old == mutant.new:
        return "its new text is its old text"
    return None


def copy_tree(into: Path) -> None:
    """The working tree as it is now (committed or not), without ignored files (.venv, output/)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source, target = REPO / name, into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_symlink():   # fonts/ -> pnp/bundled/fonts: a link in the copy too
            target.symlink_to(os.readlink(source))
        elif source.is_file():   # a tracked file deleted in the working tree is left out
            shutil.copy2(source, target)


def run_tests(mutant: Mutant, root: Path) -> tuple[str, float, str]:
    """'caught', 'survived' or 'timed out', the seconds the tests took and the test that failed."""
    env = dict(os.environ, PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")   # no stale .pyc of a same-size edit
    command = ["nice", sys.executable, "-m", "pytest", "-x", "-q", "-n", "1", "-p", "no:cacheprovider",
               *shlex.split(mutant.tests)]
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=mutant.timeout)
    except subprocess.TimeoutExpired:
        return "timed out", time.monotonic() - started, ""
    spent = time.monotonic() - started
    if done.returncode == 0:
        return "survived", spent, ""
    if done.returncode in (1, 2):   # tests failed, or collecting them did
        failed = next((line for line in done.stdout.splitlines() if line.startswith(("FAILED ", "ERROR "))), "")
        return "caught", spent, failed
    raise SystemExit(f"{mutant.id}: pytest exited {done.returncode} (wrong test arguments?):\n{done.stdout[-2000:]}")


def imports_the_copy(root: Path) -> None:
    """The tests in the copy must import pnp from the copy, not the editable install."""
    env = dict(os.environ, PYTHONPATH=str(root))
    found = subprocess.run([sys.executable, "-c", "import pnp; print(pnp.__file__)"], cwd=root, env=env,
                           check=True, capture_output=True, text=True).stdout.strip()
    assert Path(found).resolve().is_relative_to(root.resolve()), f"pnp imported from {found}, not {root}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", help="run only these mutants")
    parser.add_argument("--check", action="store_true", help="only check that every mutant still applies")
    parser.add_argument("--list", type=Path, default=MUTANTS, help="the mutants' file (default: tools/mutants.yaml)")
    arguments = parser.parse_args()
    mutants = load(arguments.list)
    unknown = set(arguments.ids) - {m.id for m in mutants}
    if unknown:
        raise SystemExit(f"no mutant named {', '.join(sorted(unknown))}")
    chosen = [m for m in mutants if not arguments.ids or m.id in arguments.ids]
    stale = [(m, why) for m in chosen if (why := problem(m, REPO))]
    for mutant, why in stale:
        print(f"{mutant.id}: cannot apply: {why}")
    if stale:
        return 2
    if arguments.check:
        print(f"{len(chosen)} mutants apply")
        return 0
    results: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="pnp-mutants-") as folder:
        root = Path(folder)
        copy_tree(root)
        imports_the_copy(root)
        for mutant in chosen:
            path = root / mutant.file
            original = path.read_text(encoding="utf-8")
            path.write_text(original.replace(mutant.old, mutant.new, 1), encoding="utf-8")
            try:
                outcome, spent, failed = run_tests(mutant, root)
            finally:
                path.write_text(original, encoding="utf-8")
            results.setdefault(outcome, []).append(mutant.id)
            print(f"{outcome:>9}  {mutant.id:<28} {spent:6.0f} s  {mutant.file}: {mutant.why}", flush=True)
            if failed:   # which test caught it, to check it was this bug and not a flaky test
                print(f"{'':>11}{failed[:160]}", flush=True)
    print(", ".join(f"{len(ids)} {outcome}" for outcome, ids in sorted(results.items())))
    for outcome in ("survived", "timed out"):
        if results.get(outcome):
            print(f"{outcome}: {' '.join(results[outcome])}")
    return 1 if results.get("survived") or results.get("timed out") else 0


if __name__ == "__main__":
    sys.exit(main())
