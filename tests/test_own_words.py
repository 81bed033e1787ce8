"""The bundled games' printed words are our own: no run of 8 or more consecutive words from a
source document (../shared/seeds/*.txt) appears in a rule sheet, a layout or the card data.
Facts carry over (numbers, order of play, scoring); sentences do not. So a game's facts.yaml
(the documents' facts transcribed, not printed prose), `source:`/`section:` citations of the
documents, and a card value equal to one of the game's facts (a special move's effect as the
roster prints it) are not prose of ours and are not compared."""
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
RUN = 8  # the shortest copied run that fails

WORD = re.compile(r"[a-z0-9]+")


def words(text):
    """Case, punctuation and whitespace normalised away: only the words are compared."""
    return WORD.findall(text.lower())


def document_runs():
    runs = set()
    for doc in sorted(SEEDS.glob("*.txt")):
        ws = words(doc.read_text(encoding="utf-8", errors="replace"))
        runs.update(tuple(ws[i:i + RUN]) for i in range(len(ws) - RUN + 1))
    return runs


def markdown_words(path):
    """(word, line) for a whole rule sheet, so a run across a line break is still found."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for w in words(line):
            yield w, number


CITATIONS = {"source", "section"}  # keys whose value quotes a document on purpose


def yaml_strings(path):
    """Each string value of a YAML file (keys and comments are not printed) with its line."""
    stack = [yaml.compose(path.read_text(encoding="utf-8"))]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            if node.tag.endswith(":str"):
                yield node.start_mark.line + 1, node.value
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        elif isinstance(node, yaml.MappingNode):
            stack.extend(value for key, value in node.value
                         if getattr(key, "value", None) not in CITATIONS)


def fact_values(game):
    """The string values the game's facts.yaml records: these carry over word for word."""
    facts = game / "facts.yaml"
    return {value for _line, value in yaml_strings(facts)} if facts.is_file() else set()


def copied_runs(tagged, runs):
    """Maximal runs of >= RUN words in `tagged` ((word, line) pairs) found in `runs`:
    yields (first line, the run as text)."""
    ws = [w for w, _ in tagged]
    hits = [tuple(ws[i:i + RUN]) in runs for i in range(len(ws) - RUN + 1)]
    i = 0
    while i < len(hits):
        if not hits[i]:
            i += 1
            continue
        start = i
        while i < len(hits) and hits[i]:
            i += 1
        yield tagged[start][1], " ".join(ws[start:i - 1 + RUN])


def printed_texts():
    """(file, [(word, line)]) for every rule sheet, layout string and card data string."""
    for path in sorted(ROOT.glob("card_data/*/rules.md")):
        yield path, list(markdown_words(path))
    for path in sorted(ROOT.glob("layouts/**/*.yaml")):
        for line, value in yaml_strings(path):
            yield path, [(w, line) for w in words(value)]
    for game in sorted(p for p in (ROOT / "card_data").iterdir() if p.is_dir()):
        facts = fact_values(game)
        for path in sorted(game.glob("*.yaml")) + sorted(game.glob("lang/*.yaml")):   # translations too
            if path.name == "facts.yaml":
                continue
            for line, value in yaml_strings(path):
                if value not in facts:
                    yield path, [(w, line) for w in words(value)]


def find_copies(runs):
    return [f"{path.relative_to(ROOT)}:{line}: {run!r}"
            for path, tagged in printed_texts()
            for line, run in copied_runs(tagged, runs)]


needs_seeds = pytest.mark.skipif(not SEEDS.is_dir(), reason="../shared/seeds is absent")


@needs_seeds
def test_no_sentence_is_copied_from_a_document():
    copies = find_copies(document_runs())
    assert not copies, f"{len(copies)} runs of {RUN}+ words copied from ../shared/seeds:\n" + \
        "\n".join(copies)


def test_a_copied_run_is_found_with_its_line():
    """The check itself: an 8-word run is caught across a line break, a 7-word one is not."""
    runs = {tuple(words("one two three four five six seven eight"))}
    tagged = [("zero", 1)] + [(w, 2) for w in words("One, two THREE four")] + \
        [(w, 3) for w in words("five six seven eight nine")]
    assert list(copied_runs(tagged, runs)) == [(2, "one two three four five six seven eight")]
    assert list(copied_runs(tagged[:8], runs)) == []
