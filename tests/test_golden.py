"""The bundled games' pages, drawing for drawing: a change to how anything is drawn shows
here, page by page, so it is made on purpose. When it is, record the new pages with

    PNP_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

and look at the pages it names (`pnp proof`) before committing tests/golden/pages.json."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from conftest import REPO, build, pdf

GOLDEN = REPO / "tests/golden/pages.json"
GAMES = ("12th-player", "jukem", "big-ten", "monster-ball")


def drawing(page) -> str:
    """A digest of everything a page draws: its content stream and, recursively, the forms
    (stamped looks) it uses, by resource name; file-level things (ids, dates) left out."""
    contents = page.get_contents()   # an empty-looking dictionary, so tested against None
    digest = hashlib.sha256(contents.get_data() if contents is not None else b"")
    seen = set()

    def forms(resources):
        xobjects = (resources or {}).get("/XObject") or {}
        for name in sorted(xobjects):
            form = xobjects[name].get_object()
            # by name too: a joined file may give two names one form it holds once
            if form.get("/Subtype") != "/Form" or (name, id(form)) in seen:
                continue
            seen.add((name, id(form)))
            digest.update(name.encode() + b"\0" + form.get_data())
            if id(form) not in seen:
                seen.add(id(form))
                forms(form.get("/Resources"))

    forms(page.get("/Resources"))
    return digest.hexdigest()[:16]


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, list[str]]:
    out = tmp_path_factory.mktemp("golden")
    found = {}
    for game in GAMES:
        build(REPO, game, out)
        for path in sorted((out / game).glob("*.pdf")):
            found[f"{game}/{path.name}"] = [drawing(page) for page in pdf(path).pages]
    return found


def test_every_bundled_page_draws_as_recorded(pages):
    if os.environ.get("PNP_UPDATE_GOLDEN"):
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(pages, indent=1, sort_keys=True) + "\n")
    recorded = json.loads(GOLDEN.read_text())
    changed = [f"{name} page {number}" for name in sorted(set(pages) & set(recorded))
               for number, (now, then) in enumerate(zip(pages[name], recorded[name]), start=1) if now != then]
    changed += [f"{name}: {len(pages[name])} pages, was {len(recorded[name])}"
                for name in sorted(set(pages) & set(recorded)) if len(pages[name]) != len(recorded[name])]
    changed += [f"{name}: new" for name in sorted(set(pages) - set(recorded))]
    changed += [f"{name}: gone" for name in sorted(set(recorded) - set(pages))]
    assert not changed, ("these pages draw differently from tests/golden/pages.json; if that is "
                         "meant, run PNP_UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py:\n  "
                         + "\n  ".join(changed[:40]))
