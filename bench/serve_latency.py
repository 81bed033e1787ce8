"""How long `pnp serve` takes from saving one card's data to serving its new picture.

    python bench/serve_latency.py            # 56- and 560-card decks, 9 edits each
    python bench/serve_latency.py --write    # and record the figures in docs/performance.md

A real `pnp serve` process on a synthetic game; this script listens to its event stream like
a page does. Each edit changes one card's text in the data file; the time runs from just
before the write to the moment the card's new PNG has been downloaded."""

from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from synthetic import REPO, make_game  # noqa: E402


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Client:
    def __init__(self, port: int):
        self.port = port
        self.events = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.events.request("GET", "/events", headers={"Host": f"127.0.0.1:{port}"})
        self.stream = self.events.getresponse()

    def get(self, path: str) -> bytes:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{self.port}"})
        data = connection.getresponse().read()
        connection.close()
        return data

    def next_event(self) -> None:
        while True:
            line = self.stream.fp.readline()
            if line.startswith(b"data:"):
                return

    def faces(self) -> list[str]:
        state = json.loads(self.get("/api/state"))
        return [card["face"] for card in state["snapshot"]["decks"][0]["cards"]] if state["snapshot"] else []


def measure(cards: int, edits: int, work: Path) -> list[float]:
    root = work / f"root-{cards}"
    game = make_game(root, cards)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "pnp", "serve", "--game", game, "--root", str(root),
                               "--out", str(work / "out"), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        server.stderr.readline()   # serving ... at http://...
        client = Client(port)
        client.next_event()
        data = root / "card_data" / game / "cards.yaml"
        times = []
        for edit in range(edits):
            index = (edit * 7) % cards
            before = client.faces()
            text = data.read_text()
            started = time.perf_counter()
            edited = re.sub(rf"\(card {index + 1}(, edit \d+)?\)", f"(card {index + 1}, edit {edit})", text, count=1)
            assert edited != text
            data.write_text(edited)
            while True:
                client.next_event()
                faces = client.faces()
                if faces and faces[index] != before[index]:
                    client.get(f"/img/{faces[index]}.png")
                    break
            times.append(time.perf_counter() - started)
            time.sleep(0.3)   # let the slower pages of this edit finish before the next
        return times
    finally:
        server.terminate()
        server.wait(timeout=30)


def report(results: dict[int, list[float]]) -> str:
    lines = ["| deck | median | slowest | target |", "|---|---|---|---|"]
    targets = {56: "under 0.5 s", 560: "under 1.5 s"}
    for cards, times in results.items():
        lines.append(f"| {cards} cards, one card's data saved | {statistics.median(times):.2f} s | "
                     f"{max(times):.2f} s | {targets.get(cards, '')} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=9)
    parser.add_argument("--write", action="store_true", help="record the figures in docs/performance.md")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        results = {cards: measure(cards, options.edits, Path(temp)) for cards in (56, 560)}
    table = report(results)
    print(table)
    if options.write:
        from run import machine
        path = REPO / "docs/performance.md"
        text = path.read_text()
        start, end = "<!-- serve figures start -->", "<!-- serve figures end -->"
        block = f"{start}\nMeasured {time.strftime('%Y-%m-%d')} on {machine()}.\n\n{table}\n{end}"
        if start in text:
            before, rest = text.split(start, 1)
            text = before + block + rest.split(end, 1)[1]
        else:
            text += f"\n## Live preview: from a save to the new picture\n\n`python bench/serve_latency.py`\n\n{block}\n"
        path.write_text(text)
        print(f"recorded in {path}")


if __name__ == "__main__":
    main()
