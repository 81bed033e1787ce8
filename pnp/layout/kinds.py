"""The element kinds a layout may use, and parsing one element from YAML."""

from __future__ import annotations

from pnp.config.typed import Where, load_as
from pnp.yaml_source import YamlMap, type_name
from pnp.errors import did_you_mean, known
from pnp.layout.compound import FormFieldSpec, RepeatSpec, TableSpec
from pnp.layout.elements import BoxSpec, EllipseSpec, LineSpec, TextSpec
from pnp.layout.image import ImageSpec
from pnp.layout.shapes import HexGridSpec, PolygonSpec, StarSpec

ELEMENT_KINDS = {
    "box": BoxSpec,
    "ellipse": EllipseSpec,
    "line": LineSpec,
    "text": TextSpec,
    "image": ImageSpec,
    "table": TableSpec,
    "repeat": RepeatSpec,
    "field": FormFieldSpec,
    "polygon": PolygonSpec,
    "star": StarSpec,
    "hexgrid": HexGridSpec,
}


def parse_element(node, where: Where):
    if not isinstance(node, YamlMap):
        raise where.error(f"expected an element (a map with 'kind'), found {type_name(node)}")
    kind = node.get("kind")
    if not isinstance(kind, str) and kind is not None:
        raise where.key(node, "kind").error(f"an element's kind is a word, found {type_name(kind)}",
                                            hint=f"known kinds: {known(ELEMENT_KINDS)}")
    if kind not in ELEMENT_KINDS:
        if kind is None:
            raise where.error(f"an element needs a 'kind': one of {known(ELEMENT_KINDS)}")
        raise where.key(node, "kind").error(f"unknown element kind '{kind}'",
                                            hint=did_you_mean(kind, ELEMENT_KINDS)
                                            or f"known kinds: {known(ELEMENT_KINDS)}")
    return load_as(ELEMENT_KINDS[kind], node, where)
