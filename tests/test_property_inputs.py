"""Property tests: whatever card data or layout a person writes, pnp either builds it or says
what is wrong in one line. It never ends in an unhandled exception."""

from __future__ import annotations

import shutil

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import REPO
from pnp.cli import cli

FIELD_NAMES = ["name", "power", "colour", "text", "nmae", "count", "copy", "x", "__class__"]
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**7, 10**7),
                    st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=60))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)
cards = st.lists(st.dictionaries(st.sampled_from(FIELD_NAMES), values, max_size=5), max_size=6)

LENGTHS = st.one_of(st.sampled_from(["0", "3mm", "50%", "1in", "12pt", "-2mm", "5", "5 mm", "mm", "1e3mm",
                                     "100000mm", "%"]), st.integers(-5, 5), st.text(max_size=6))
ELEMENT_KEYS = {
    "kind": st.sampled_from(["box", "text", "line", "ellipse", "image", "table", "repeat", "field", "blob"]),
    "x": LENGTHS, "y": LENGTHS, "w": LENGTHS, "h": LENGTHS, "inset": LENGTHS,
    "fill": st.sampled_from(["red", "#123", "#12345", "{colour}", "{nope}", "none", "{", ""]),
    "text": st.sampled_from(["{name}", "{power} pts", "{{literal}}", "{a.b}", "**bold", "x" * 300,
                             "שלום", "🏈 touchdown", "{0}"]),
    "size": st.one_of(st.floats(-5, 500), st.text(max_size=3)),
    "font": st.sampled_from(["text", "display", "comic"]),
    "rotate": st.sampled_from([0, 90, 45, "90"]),
    "count": st.integers(-2, 5), "items": st.lists(st.text(max_size=3), max_size=3),
    "rows": st.lists(st.lists(st.text(max_size=5), max_size=3), max_size=3),
    "elements": st.lists(st.fixed_dictionaries({"kind": st.sampled_from(["box", "text"])}), max_size=2),
    "when": st.sampled_from(["name", "power", "missing"]),
    "src": st.sampled_from(["art.png", "../x.png", "/etc/passwd"]),
    "name": st.sampled_from(["f{copy}", "f"]),
    "bogus": st.integers(),
}
elements = st.lists(st.fixed_dictionaries({"kind": ELEMENT_KEYS["kind"]},
                                          optional={k: v for k, v in ELEMENT_KEYS.items() if k != "kind"}),
                    min_size=1, max_size=4)


@pytest.fixture(scope="module")
def mini_root(tmp_path_factory):
    target = tmp_path_factory.mktemp("prop") / "root"
    shutil.copytree(REPO / "tests/fixtures/mini", target)
    shutil.copytree(REPO / "fonts", target / "fonts")
    return target


def build_once(root, out) -> None:
    result = CliRunner().invoke(cli, ["build", "--game", "mini", "--out", str(out), "--root", str(root)],
                                catch_exceptions=False)
    assert result.exit_code in (0, 1), result.output + result.stderr
    assert "Traceback" not in result.output + result.stderr
    if result.exit_code == 1:
        first_error = next(line for line in result.stderr.splitlines() if line.startswith("error:"))
        assert len(first_error) > len("error: ") + 10


SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@SETTINGS
@given(cards=cards)
def test_any_card_data_builds_or_explains(mini_root, tmp_path, cards):
    original = (mini_root / "card_data/mini/cards.yaml").read_text()
    document = yaml.safe_load(original)
    document["cards"] = cards
    (mini_root / "card_data/mini/cards.yaml").write_text(yaml.safe_dump(document, allow_unicode=True))
    try:
        build_once(mini_root, tmp_path / "out")
    finally:
        (mini_root / "card_data/mini/cards.yaml").write_text(original)


@SETTINGS
@given(elements=elements)
def test_any_layout_builds_or_explains(mini_root, tmp_path, elements):
    path = mini_root / "layouts/mini/card.yaml"
    original = path.read_text()
    path.write_text(yaml.safe_dump({"size": "mini", "elements": elements}, allow_unicode=True))
    try:
        build_once(mini_root, tmp_path / "out")
    finally:
        path.write_text(original)


@SETTINGS
@given(text=st.text(max_size=400))
def test_any_yaml_text_as_a_manifest_builds_or_explains(mini_root, tmp_path, text):
    path = mini_root / "card_data/mini/game.yaml"
    original = path.read_text()
    path.write_text(text)
    try:
        build_once(mini_root, tmp_path / "out")
    finally:
        path.write_text(original)
