"""pnp.yaml_edit: a value changed, added or removed in a YAML file and every other byte kept
(the layout editor's saves must show in a diff as the changed values alone)."""

from __future__ import annotations

import difflib

import pytest
import yaml

from pnp.errors import PnpError
from pnp.yaml_edit import append_item, set_values

LAYOUT = """\
# The card front.   (a comment at the top)
extends: base/card
elements:
  - kind: box       # the background
    id: background
    fill: '{colour}'

  - {kind: text, id: title, text: "{title}", x: 13mm, y: 6mm}   # the title
  - kind: text
    text: >
      a sentence folded
      over two lines
    when:
      side: offense
    x: 5%
"""


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="")
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_a_changed_value_is_the_only_changed_line_and_keeps_its_quoting_and_comment():
    after = set_values(LAYOUT, ["elements", 0], {"fill": "{colour}-dark"}, "card.yaml")
    assert changed_lines(LAYOUT, after) == ["-    fill: '{colour}'", "+    fill: '{colour}-dark'"]
    after = set_values(LAYOUT, ["elements", 1], {"x": "18mm", "text": 'say "hi", then go'}, "card.yaml")
    assert changed_lines(LAYOUT, after) == [
        '-  - {kind: text, id: title, text: "{title}", x: 13mm, y: 6mm}   # the title',
        '+  - {kind: text, id: title, text: "say \\"hi\\", then go", x: 18mm, y: 6mm}   # the title']
    assert yaml.safe_load(after)["elements"][1]["text"] == 'say "hi", then go'


def test_keys_are_added_in_the_maps_own_style_and_removed_whole():
    flow = set_values(LAYOUT, ["elements", 1], {"colour": "red", "size": 12}, "card.yaml")
    assert "x: 13mm, y: 6mm, colour: red, size: 12}   # the title" in flow
    block = set_values(LAYOUT, ["elements", 0], {"stroke": "navy"}, "card.yaml")
    assert changed_lines(LAYOUT, block) == ["+    stroke: navy"]
    assert yaml.safe_load(block)["elements"][0] == {"kind": "box", "id": "background", "fill": "{colour}",
                                                     "stroke": "navy"}
    removed = set_values(LAYOUT, ["elements", 2], {"when": None}, "card.yaml")
    assert changed_lines(LAYOUT, removed) == ["-    when:", "-      side: offense"]
    removed = set_values(LAYOUT, ["elements", 1], {"y": None}, "card.yaml")
    assert yaml.safe_load(removed)["elements"][1] == {"kind": "text", "id": "title", "text": "{title}", "x": "13mm"}


def test_a_folded_block_becomes_one_quoted_line_and_values_round_trip():
    after = set_values(LAYOUT, ["elements", 2], {"text": "short now", "when": {"side": "defense"}, "x": "7%"},
                       "card.yaml")
    loaded = yaml.safe_load(after)["elements"][2]
    assert loaded == {"kind": "text", "text": "short now", "when": {"side": "defense"}, "x": "7%"}
    assert after.startswith(LAYOUT.split("  - kind: text\n    text:")[0])   # everything before it kept


def test_an_item_is_appended_at_the_lists_indentation():
    after, position = append_item(LAYOUT, ["elements"], "{kind: box, id: extra}", "card.yaml")
    assert position == 3
    assert changed_lines(LAYOUT, after) == ["+  - {kind: box, id: extra}"]


@pytest.mark.parametrize("value", ["yes", "12", "null", "- dash", "a: b", "# hash", "", " padded", "[1]"])
def test_text_that_yaml_would_read_as_something_else_is_quoted(value):
    after = set_values(LAYOUT, ["elements", 0], {"id": value}, "card.yaml")
    assert yaml.safe_load(after)["elements"][0]["id"] == value


def test_a_file_that_no_longer_has_the_element_is_one_clear_error():
    with pytest.raises(PnpError, match="no longer has item 7"):
        set_values(LAYOUT, ["elements", 7], {"x": "1mm"}, "card.yaml")


def test_a_number_is_written_as_precisely_as_it_was_set_and_no_more():
    after = set_values(LAYOUT, ["elements", 1], {"size": 12.25, "rotate": 7.5, "opacity": 0.333333}, "card.yaml")
    loaded = yaml.safe_load(after)["elements"][1]
    assert (loaded["size"], loaded["rotate"], loaded["opacity"]) == (12.25, 7.5, 0.3333)
    assert "size: 12.25" in after and "rotate: 7.5," in after and "opacity: 0.3333}" in after
