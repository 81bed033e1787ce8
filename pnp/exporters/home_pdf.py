"""The home PDF: the format every build writes. Each component is drawn by its kind's renderer
on the build's paper, with its print options (`component`); the build takes each part as it
is drawn, or as the last build or another process drew it (`add`), and `finish` makes the
print-all file from those parts, the cover first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.exporters.base import Exporter
from pnp.exporters.print_all import Part, home_part, print_all

if TYPE_CHECKING:
    from pnp.config.game import Component
    from pnp.config.shop import ShopPreset
    from pnp.outputs.pdf import OutputFile
    from pnp.render import BuildContext


class HomePdf(Exporter, format="home"):
    for_shops = False   # every build makes it; no shop preset names it

    def __init__(self, ctx: BuildContext, preset: ShopPreset | None = None):
        super().__init__(ctx, preset)
        self.parts: list[Part] = []

    def component(self, component: Component) -> list[OutputFile]:
        files: list[OutputFile] = component.render(self.ctx)
        return files

    def add(self, component: Component, files: list[OutputFile]) -> None:
        """A component's files, wherever they were drawn: its home file is a part of the
        print-all file."""
        part = home_part(self.ctx.options, component, files)
        if part is not None:
            self.parts.append(part)

    def finish(self) -> list[OutputFile]:
        from pnp.impose import PAPER_SIZES
        ctx, options = self.ctx, self.ctx.options
        say = ctx.translation.label if ctx.translation is not None else str
        return [print_all(ctx.game.title, ctx.game.id, PAPER_SIZES[options.paper], f"{options.paper}{options.variant}",
                          self.parts, ctx.project.fonts, say, options.duplex)]
