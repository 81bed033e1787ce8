"""Icon art kept in the build record (pnp.layout.icon_art): a rebuild draws unchanged SVG
icons from it to the very bytes svglib's drawing gives, an icon changed since is drawn
afresh, and a record from someone else cannot put anything but paths and colours on a page."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from conftest import build
from pnp.layout import icon_art

RECORD = ".pnp-build.json"
FILES = ("defense-letter.pdf", "offense-letter.pdf", "big-ten-print-all-letter.pdf")


def change_a_card(root: Path, new: str = "Safety Blitz") -> None:
    data = root / "card_data/big-ten/defense.yaml"
    data.write_text(data.read_text(encoding="utf-8").replace('name: "Run Blitz"', f'name: "{new}"'), encoding="utf-8")


def same_as_a_fresh_build(root: Path, out: Path, fresh: Path) -> None:
    build(root, "big-ten", fresh)
    for name in FILES:
        assert (out / "big-ten" / name).read_bytes() == (fresh / "big-ten" / name).read_bytes(), name


def kept_art(out: Path) -> dict:
    return json.loads((out / "big-ten" / RECORD).read_text())["icons"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_record_keeps_each_icon_as_drawn_and_a_rebuild_draws_it_to_the_same_bytes(root, tmp_path):
    out = tmp_path / "out"
    build(root, "big-ten", out)
    art = kept_art(out)["art"]
    assert len(art) == 4   # Big Ten's four play icons, each in the colour it is drawn in
    assert all(entry["forms"] for entry in art.values())
    change_a_card(root)
    build(root, "big-ten", out)   # the defense deck drawn again, its icons from the record
    same_as_a_fresh_build(root, out, tmp_path / "fresh")


def test_an_icon_changed_since_is_drawn_afresh(root, tmp_path):
    out = tmp_path / "out"
    build(root, "big-ten", out)
    icon = root / "card_data/big-ten/icons/run.svg"
    icon.write_text(icon.read_text().replace("M2 19 H9 L13 8 H18", "M2 21 H9 L13 6 H18"))
    build(root, "big-ten", out)
    same_as_a_fresh_build(root, out, tmp_path / "fresh")
    assert len(kept_art(out)["art"]) == 4   # the old drawing of run.svg is not kept


def test_a_record_from_someone_else_puts_nothing_but_paths_and_colours_on_a_page(root, tmp_path):
    out = tmp_path / "out"
    build(root, "big-ten", out)
    record = json.loads((out / "big-ten" / RECORD).read_text())
    for entry in record["icons"]["art"].values():
        for colour in entry["forms"]:
            entry["forms"][colour] = ["q", "BT /F1 40 Tf (pwned) Tj ET", "/GS0 gs", "Q"]
    (out / "big-ten" / RECORD).write_text(json.dumps(record))
    change_a_card(root)
    build(root, "big-ten", out)
    same_as_a_fresh_build(root, out, tmp_path / "fresh")


def test_art_is_kept_only_for_the_code_that_drew_it_and_an_svg_alone(tmp_path):
    """Another salt (pnp's code, the drawing libraries) takes nothing from a record; an SVG
    that names another SVG, or a drawing with more than paths and colours, is not kept."""
    alone, using = tmp_path / "icons/alone.svg", tmp_path / "icons/using.svg"
    alone.parent.mkdir()
    alone.write_text('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="20"><path d="M0 0 L10 20"/></svg>')
    using.write_text('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
                     'width="10" height="10"><use xlink:href="alone.svg#p"/></svg>')
    import io
    from reportlab.pdfgen.canvas import Canvas
    from pnp.layout.icon_draw import draw_icon
    from pnp.layout.icons import load_icon
    read = {bytes.fromhex(digest(alone)), bytes.fromhex(digest(using))}
    try:
        icon_art.keep_from("salt", None)
        icons = load_icon(alone, "000000", "t"), load_icon(using, "000000", "t")
        assert icons[0].aspect == 0.5 and icons[1].aspect == 1.0
        canvas = Canvas(io.BytesIO())
        for icon in icons:   # drawn as a card draws them: only the one alone is kept
            draw_icon(canvas, icon, 0, 0, 10, 10)
        drawn = icon_art.form_of(alone, "000000")
        assert drawn and "m" in " ".join(drawn).split()
        icon_art.remember_form(alone, 0.5, "ff0000", ["q", "BT (x) Tj ET", "Q"])   # text: not paths and colours
        kept = icon_art.recorded(read)
        assert kept is not None and list(kept["art"]) == [digest(alone)]
        assert list(kept["art"][digest(alone)]["forms"]) == ["000000"]
        icon_art.keep_from("another salt", kept)
        assert icon_art.aspect_of(alone) is None
        icon_art.keep_from("salt", kept)
        assert icon_art.form_of(alone, "000000") == drawn
    finally:
        icon_art.stop()
