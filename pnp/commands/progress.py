"""What a build tells on the terminal: a progress bar while it draws, then each file written."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

if TYPE_CHECKING:
    from pnp.commands.build import Written


class ProgressBar:
    """click's progress bar on a terminal, for builds long enough to want one."""

    def __init__(self, label: str, enabled: bool):
        self.label = label
        self.enabled = enabled and sys.stderr.isatty()
        self.bar: Any = None   # click's progress bar, once started

    def start(self, total: int, least: int = 200) -> Callable[..., None]:
        """The bar's update, shown for `total` steps when there are at least `least` (pieces:
        a build of fewer is done before a bar would help)."""
        if not self.enabled or total < least:
            return lambda steps=1: None
        self.bar = click.progressbar(length=total, label=self.label, file=sys.stderr)
        self.bar.__enter__()
        update: Callable[..., None] = self.bar.update
        return update

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc_info: Any) -> Literal[False]:
        if self.bar is not None:
            self.bar.__exit__(*exc_info)
        return False


def summarise(label: str, written: list[Written], folder: Path) -> None:
    """Every file a build wrote into `folder`, with its pages, size and the time it took;
    `label` names the game (and its language)."""
    if written and all(item.reused for item in written):
        click.echo(f"{label}: up to date, nothing changed since the last build "
                   f"({len(written)} files in {folder})")
        return
    click.echo(f"{label}:")
    for item in written:
        if item.removed:
            click.echo(f"  {item.path}  removed: {item.removed}")
            continue
        pages = f"{item.pages} page{'s' if item.pages != 1 else ''}, " if item.pages else ""
        spent = "unchanged, not drawn again" if item.reused else f"{item.seconds:.2f} s"
        click.echo(f"  {item.path}  {pages}{item.size / 1024:.0f} KiB, {spent}")
