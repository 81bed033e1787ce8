"""Every element kind a layout may use.

Each kind registers itself on `Element` (`class BoxSpec(ShapeSpec, kind="box")`, see
pnp.config.typed.Tagged); importing this module imports every module that defines one, so a
layout loaded after it knows them all."""

from __future__ import annotations

from pnp.layout import compound, image, shapes  # noqa: F401 - each registers its element kinds
from pnp.layout.elements import Element

__all__ = ["Element"]
