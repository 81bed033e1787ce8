"""Component kinds: one module per kind (deck, sheet, board, rules, tuckbox), each holding its
spec (a `Component` subclass, registered on the family as it is defined), its checks, its
renderer, what a print shop takes of it and how its pages are printed and cut.

Importing this package registers every kind pnp ships; a kind of one's own is a module that
subclasses `pnp.config.game.Component` with `kind="name"`, imported before games load."""

from pnp.kinds import board, deck, rules, sheet, tuckbox  # noqa: F401 - each registers its kind
