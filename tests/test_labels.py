"""A label printed beside another field's value is an error at its line; a word drawn only
for the cards a flag marks (a badge) is no label of anything beside it."""

from __future__ import annotations

import pytest

from conftest import run

BADGE = ('  - {kind: text, text: LEGENDARY, %s size: 6, colour: white, align: center, '
         'y: 15.5mm, h: 4mm}\n')


@pytest.mark.parametrize("when, refused", [("when: legendary,", False), ("", True)])
def test_a_flags_badge_is_not_read_as_a_label_of_the_value_beside_it(mini, when, refused):
    cards = mini / "card_data/mini/cards.yaml"
    cards.write_text(cards.read_text().replace("  text: {type: text}\n", "  text: {type: text}\n  legendary: {type: flag}\n")
                     .replace("    power: 3\n", "    power: 3\n    legendary: true\n"))
    layout = mini / "layouts/mini/card.yaml"
    layout.write_text(layout.read_text() + BADGE % when)
    result = run("validate", "--game", "mini", root=mini)
    assert (result.exit_code == 1) == refused, result.stderr
    if refused:   # the same word with no `when`: it names the flag beside the name
        assert "the label 'LEGENDARY' names the field 'legendary'" in result.stderr and "card.yaml:" in result.stderr


def test_a_table_row_printing_another_fields_label_is_told_at_its_own_line_past_comments(root):
    """Rows written one a line after `rows:` were counted from it: a comment between rows, or a
    row written as a block list, moved the line told onto a comment."""
    layout = root / "layouts/big-ten/defense.yaml"
    text = layout.read_text(encoding="utf-8")
    row = '      - ["{title:pass}", "[#555555|:pass@1.3:] {pass}"]\n'
    assert row in text
    layout.write_text(text.replace(row, '      # a comment between rows\n      # and another\n'
                                        '      - - "{title:play_action}"\n        - "[#555555|:pass@1.3:] {pass}"\n'),
                      encoding="utf-8")
    line = layout.read_text(encoding="utf-8").splitlines().index('      - - "{title:play_action}"') + 1
    result = run("validate", "--game", "big-ten", root=root)
    assert result.exit_code == 1
    assert f"defense.yaml:{line}: row 3 prints the label '{{title:play_action}}'" in result.stderr
