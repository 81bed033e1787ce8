"""What a PDF has drawn once and stamps from then on: the forms (XObjects) of one canvas.

A form is named inside the PDF it was drawn into, so what has been drawn is known per canvas:
`forms_of(canvas)` gives the canvas's own `CanvasForms`, made when the canvas is first drawn
on and let go with it. The names are given in the order the forms are made, so the same
drawing gives the same bytes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from pnp.layout.template import CompiledLayout

# A run of a layout's elements in one look: (the layout's id, the run's place in it, the look).
RunKey = tuple[int, int, tuple[object, ...]]


@dataclass
class CanvasForms:
    """The forms drawn into one canvas: layouts' runs of elements (`pnp0`, `pnp1` ...) and
    inline icons (`pnpicon0` ...)."""

    runs: dict[RunKey, str] = field(default_factory=dict)
    # every layout whose runs are here, held so no layout compiled later (a tuck box's, deck
    # after deck) can be given one of their ids and take their forms
    layouts: dict[int, CompiledLayout] = field(default_factory=dict)
    icons: dict[str | tuple[str, str], str] = field(default_factory=dict)   # by file (and colour: vector art)


_BY_CANVAS: WeakKeyDictionary[Canvas, CanvasForms] = WeakKeyDictionary()


def forms_of(canvas: Canvas) -> CanvasForms:
    forms = _BY_CANVAS.get(canvas)
    if forms is None:
        forms = _BY_CANVAS[canvas] = CanvasForms()
    return forms
