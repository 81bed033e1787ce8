"""Warnings gathered during a load or build, told once each at the end."""

from __future__ import annotations


class Diagnostics:
    def __init__(self):
        self.warnings: list[str] = []
        self._seen: set[str] = set()

    def warn(self, message: str) -> None:
        if message not in self._seen:
            self._seen.add(message)
            self.warnings.append(message)
