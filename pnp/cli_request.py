"""The command-line options that make a BuildRequest, as one group `pnp build` and `pnp watch`
share, so a watch rebuilds with every print option a build takes.

The command decorated with `@build_request_options()` is called with `request=` a checked
BuildRequest instead of the options one by one. To add an option: append a click option to
REQUEST_OPTIONS whose parameter name is a BuildRequest field (pnp.request says the rest)."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import click

from pnp.request import DUPLEX, MAX_BLEED_MM, PAPERS, BuildRequest, UsageProblem, parse_bleed, parse_offset

Command = Callable[..., Any]
Option = Callable[[Command], Command]   # what click.option gives: a command's decorator


def usage_error(exc: UsageProblem) -> click.UsageError:
    """A UsageProblem as click tells usage errors (exit status 2)."""
    if exc.field and exc.field.startswith("--"):
        return click.BadParameter(exc.message + (f" ({exc.hint})" if exc.hint else ""), param_hint=exc.field)
    return click.UsageError(str(exc))


def parsed_with(parse: Callable[[Any], Any]) -> Callable[[Any, Any, Any], Any]:
    """A click callback around a pnp.request parser: its UsageProblem is click's BadParameter."""
    def callback(_ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        try:
            return parse(value)
        except UsageProblem as exc:
            raise click.BadParameter(exc.message) from None
    return callback


def negative_bleed(args: list[str]) -> str | None:
    """The value of a `--bleed -3mm` (or `--bleed=-3mm`) among a command's arguments: click
    reads a value after `--bleed`, whose value may be left out, that starts with `-` as an
    option of its own and would say "No such option: -3"."""
    for before, arg in zip([""] + args, args):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--bleed=") else arg if before == "--bleed" else ""
        if re.match(r"-\.?\d", value):
            return value
    return None


class RequestCommand(click.Command):
    """A command taking the print options (build, watch): a negative `--bleed` is told as
    the usage error it is."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        negative = None if {"-h", "--help"} & set(args) else negative_bleed(args)
        if negative is not None:
            raise click.BadParameter(f"bleed is a length from 0 to {MAX_BLEED_MM} mm, not {negative}",
                                     ctx=ctx, param_hint="'--bleed'")
        return super().parse_args(ctx, args)


PAPER_HELP = "Paper size (default: the game's own, usually letter)."
LANG_HELP = ("Build in a language the game has a translation for (card_data/ID/lang/CODE.yaml); "
             "repeat for several, or 'all'. Files get the code in their names (cards-letter-de.pdf).")

REQUEST_OPTIONS: dict[str, Callable[[str], Option]] = {
    # each takes its help text (a command may word it for itself) and gives the click option
    "paper": lambda help: click.option("--paper", type=click.Choice(PAPERS, case_sensitive=False), help=help),
    "duplex": lambda help: click.option(
        "--duplex", type=click.Choice(DUPLEX), default="long-edge", show_default=True, help=help),
    "back_offset": lambda help: click.option(
        "--back-offset", callback=parsed_with(parse_offset), metavar="X,Y", help=help),
    "bleed": lambda help: click.option(
        "--bleed", callback=parsed_with(parse_bleed), is_flag=False, flag_value="3mm", default=None,
        metavar="[LENGTH]", help=help),
    "full_bleed": lambda help: click.option("--full-bleed", is_flag=True, help=help),
    "shops": lambda help: click.option("--shop", "shops", multiple=True, metavar="NAME", help=help),
    "ink_saver": lambda help: click.option("--ink-saver", is_flag=True, help=help),
    "draft": lambda help: click.option("--draft", is_flag=True, help=help),
    "langs": lambda help: click.option("--lang", "langs", multiple=True, metavar="CODE", help=help),
}

REQUEST_HELP = {
    "paper": PAPER_HELP,
    "duplex": "How your printer turns the sheet for the back side; backs are placed so they "
              "line up. 'none': backs on their own pages, to turn over like a book page and glue. "
              "'fold': fronts and backs on one side, to fold and glue (no duplex printer needed).",
    "back_offset": "Shift the backs by X mm right and Y mm down to make up for a printer's shift.",
    "bleed": "Extend backgrounds past the cut line by LENGTH, with its unit (3mm, 0.125in, 1/8in); 3mm if "
             "none is given.",
    "full_bleed": "With --bleed: the whole bleed on every side of every piece (gutters of twice the "
                  "bleed, none shared), at the cost of pieces a sheet (files get a -full-bleed suffix).",
    "shops": "Also write files for a print shop: tgc, mpc, drivethru, tts (Tabletop Simulator), "
             "ttp (Tabletop Playground), or a preset in shops/.",
    "ink_saver": "Print with little ink: no full-bleed backgrounds or dark fills (files get an "
                 "-ink-saver suffix).",
    "draft": "Build even when composition rules fail (while balancing): each rule problem is a "
             "warning and every page says DRAFT. Data and type errors still stop the build.",
    "langs": LANG_HELP,
}


def build_request_options(**helps: str) -> Option:
    """Decorate a command with every option of a BuildRequest; it is called with `request=`.
    Keyword arguments word an option's help for this command (e.g. langs="...")."""
    names = [f.name for f in fields(BuildRequest)]
    missing = set(names) ^ set(REQUEST_OPTIONS)
    assert not missing, f"BuildRequest fields and their options differ: {sorted(missing)}"

    def decorate(command: Command) -> Command:
        @functools.wraps(command)
        def with_request(**kwargs: Any) -> Any:
            asked = {name: kwargs.pop(name) for name in names}
            asked["shops"], asked["langs"] = tuple(asked["shops"]), tuple(asked["langs"])
            try:
                request = BuildRequest(**asked)
            except UsageProblem as exc:
                raise usage_error(exc) from None
            return command(request=request, **kwargs)

        optioned: Command = with_request
        for name in reversed(names):   # click lists options in the order they are applied, last first
            optioned = REQUEST_OPTIONS[name](helps.get(name, REQUEST_HELP[name]))(optioned)
        return optioned
    return decorate
