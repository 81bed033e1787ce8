"""Print-shop presets: one YAML file each, bundled in pnp/shops/ or in a root's shops/."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pnp.paths import file_error, gate
from pnp.config.typed import Loaded, Name, load_as, where_of
from pnp.yaml_source import load_yaml
from pnp.errors import PnpError, did_you_mean, known
from pnp.units import Length

BUNDLED = Path(__file__).resolve().parent.parent / "shops"


@dataclass
class ShopPreset(Loaded):
    name: str
    format: Name   # an export format by name (pnp.exporters: png, pdf, tts, ttp, or one registered)
    bleed: Length
    description: str = ""
    dpi: int = field(default=300, metadata={"min": 10, "max": 1200})
    safe: Length = Length.mm(3.175)
    order: Literal["back-front", "front-back"] = "back-front"
    boards: bool = False
    sizes: dict[str, list[int]] = field(default_factory=dict)  # the sizes it prints: pixels with bleed
    pdfx: bool = False     # PDF/X-1a: CMYK only, output intent (pnp.outputs.pdfx)
    custom: bool = False   # also prints pieces of a size of their own ([width, height])
    id: str = field(default="", init=False)   # the file's name, not a key in it: set by load_shop


def shop_ids(root: Path) -> list[str]:
    found = {p.stem for p in BUNDLED.glob("*.yaml")}
    found |= {p.stem for p in (root / "shops").glob("*.yaml")} if (root / "shops").is_dir() else set()
    return sorted(found)


def load_shop(root: Path, shop_id: str) -> ShopPreset:
    """A preset from the root's shops/ folder, else pnp's own."""
    for folder in (root / "shops", BUNDLED):
        path = folder / f"{shop_id}.yaml"
        if path.is_file():
            gate(path, [folder], file_error(path), "shop preset", where_to="the shops folder")
            node = load_yaml(path)
            preset = load_as(ShopPreset, node, where_of(node))
            preset.id = shop_id
            return preset
    ids = shop_ids(root)
    raise PnpError(f"unknown shop '{shop_id}'", hint=did_you_mean(shop_id, ids) or f"shops: {known(ids)}")
