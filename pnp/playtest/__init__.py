"""The playtest loop: what changed since the deck on the table was printed, reprints, odds."""
