"""The small fixture game every bad-input case starts from builds cleanly."""

from conftest import build, pdf


def test_the_mini_fixture_builds(mini, tmp_path):
    build(mini, "mini", tmp_path)
    reader = pdf(tmp_path / "mini/cards-a4.pdf")
    assert len(reader.pages) == 2
    assert "Knight" in reader.pages[0].extract_text()
