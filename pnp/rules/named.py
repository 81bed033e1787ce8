"""Game-specific checks that no generic rule kind can say. Each takes (deck, options, cited,
all decks by component id) and returns one sentence per problem."""

from __future__ import annotations

NAMED_CHECKS: dict = {}


def named_check(name: str):
    def register(function):
        NAMED_CHECKS[name] = function
        return function
    return register
