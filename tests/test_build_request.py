"""One build request: build and watch take the same print options through one option group,
the preview's print buttons and the command line make the same BuildRequest, and every
check of which options go together is made once."""

from __future__ import annotations

import re

import pytest

from conftest import MM, run
from pnp.errors import PnpError
from pnp.request import BuildRequest, UsageProblem


def print_options_in_help(command: str) -> dict[str, str]:
    """The options a command's --help lists, each with its help text joined into one line."""
    text = run(command, "--help").output
    options: dict[str, str] = {}
    current = None
    for line in text.split("Options:")[1].splitlines():
        found = re.match(r"  (-\w, )?(--[\w-]+)", line)
        if found:
            current = found.group(2)
            options[current] = line[found.end():]
        elif current:
            options[current] += " " + line.strip()
    return {name: " ".join(words.split()) for name, words in options.items()}


def test_watch_takes_every_print_option_build_takes_with_the_same_help():
    build, watch = print_options_in_help("build"), print_options_in_help("watch")
    for option in ("--paper", "--duplex", "--back-offset", "--bleed", "--shop", "--ink-saver", "--draft"):
        assert option in build and build[option] == watch[option], option
    assert "Also rebuild these translations" in watch["--lang"]   # worded for watch
    assert "Build in a language" in build["--lang"]
    assert "--refresh" in build and "--quiet" in build   # build's own


def test_a_build_is_given_every_option_the_request_carries():
    request = BuildRequest(paper="a4", duplex="short-edge", back_offset=(MM, -MM), bleed=3 * MM,
                           ink_saver=True, draft=True)
    options = request.options_for("letter", lang="de")
    assert (options.paper, options.duplex, options.back_offset, options.bleed, options.ink_saver,
            options.draft, options.lang) == ("a4", "short-edge", (MM, -MM), 3 * MM, True, True, "de")
    assert BuildRequest().options_for("a4").paper == "a4"   # the game's own paper unless asked


def test_the_preview_page_makes_the_same_request_as_the_command_line():
    asked = {"paper": "a4", "duplex": "none", "bleed": 3, "ink_saver": True, "lang": "de"}
    assert BuildRequest.from_json(asked) == BuildRequest(paper="a4", duplex="none", bleed=3 * MM,
                                                         ink_saver=True, langs=("de",))


@pytest.mark.parametrize("asked", [dict(duplex="fold", back_offset=(MM, 0.0)), dict(full_bleed=True),
                                   dict(paper="legal"), dict(duplex="sideways"), dict(bleed=40 * MM)])
def test_options_that_do_not_go_together_are_refused_wherever_the_request_is_made(asked):
    with pytest.raises(UsageProblem):
        BuildRequest(**asked)


def test_an_unknown_shop_is_a_usage_problem_with_a_did_you_mean(tmp_path):
    (tmp_path / "card_data").mkdir()
    with pytest.raises(UsageProblem) as caught:
        BuildRequest(shops=("tcg",)).shop_presets(tmp_path)
    assert "did you mean 'tgc'?" in str(caught.value)
    assert isinstance(caught.value, PnpError)
