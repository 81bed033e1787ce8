"""Cards are compact (issue 31: a 20,000-card deck is 20,000 of them) and keep their behaviour."""

import pickle
from pathlib import Path

from pnp.config.deck import Card, Deck
from pnp.config.typed import Where


def test_a_card_has_no_attribute_dict_and_its_defaults_read_as_before():
    card = Card(name="Coach")
    assert not hasattr(card, "__dict__")
    assert (card.label, card.where, card.item_lines, card.written) == ("?", None, {}, {})


def test_a_copied_deck_has_its_own_written_texts_and_keeps_label_and_place():
    card = Card(name="Coach")
    card.label, card.where = "Coach", Where("cards.yaml", 3, "cards[1]")
    card.written = {"name": "{fact:x}"}
    copy = Deck(Path("cards.yaml"), {}, [card], [1]).copy().cards[0]
    copy.written["name"] = "changed"
    assert card.written == {"name": "{fact:x}"}
    assert (copy.label, copy.where) == ("Coach", card.where)


def test_a_card_crosses_to_a_worker_process_whole():
    card = Card(name="Coach")
    card.label = "Coach"
    back = pickle.loads(pickle.dumps(card))
    assert back == card and back.label == "Coach" and back.written == {}
