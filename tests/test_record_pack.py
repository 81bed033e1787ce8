"""The build record keeps the files a build read (for `pnp diff` and `--reprint`), packed one
file at a time: the same text as packing them all at once, every file given back whole."""

from __future__ import annotations

import base64

import pytest

from pnp.playtest.record import pack, packed_sources, source_text, unpacked


def test_files_are_packed_one_at_a_time_as_all_at_once(tmp_path):
    files = {"card_data/g/cards.yaml": "cards:\n  - {name: \"שחקן\", text: \"Gain 5 yards.\"}\n".encode(),
             "card_data/g/deck.xlsx": b"PK\x03\x04\xff\xfe not text",
             "layouts/g/card.yaml": b"elements: []\n"}
    sources = {}
    for name, data in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        sources[name] = path
    packed = packed_sources(sources)
    assert packed == pack({name: source_text(data) for name, data in sorted(files.items())})
    kept = unpacked(packed)
    assert kept["card_data/g/cards.yaml"] == files["card_data/g/cards.yaml"].decode()
    assert list(kept) == sorted(files)
    assert unpacked(packed_sources({})) == {}


def test_a_part_that_unpacks_too_long_or_is_cut_short_is_refused(monkeypatch):
    """Unpacked with a bound: a record's part that unpacks to gigabytes (a few MB packed) is
    refused once past it, not held whole; one cut short or not packed at all is refused too."""
    from pnp.playtest import record
    monkeypatch.setattr(record, "MAX_UNPACKED_BYTES", 1000)
    assert unpacked(pack(list(range(100)))) == list(range(100))
    with pytest.raises(ValueError, match="more than"):
        unpacked(pack(list(range(1000))))
    whole = base64.b64decode(pack(list(range(100))))
    for damaged in (whole[:-10], b"not zlib", whole + b"more"):
        with pytest.raises(ValueError):
            unpacked(base64.b64encode(damaged).decode("ascii"))
