"""Unit tests for `{field}` binding (pnp/layout/binding.py), a pure module."""

import pytest

from pnp.layout.binding import Binding, text_of


class _Where:
    """Stands in for a config Where: raising is all the binding asks of it."""

    def error(self, message, hint=None):
        return ValueError(message)


def test_whole_floats_print_without_a_decimal_point():
    assert Binding("cost {cost}", _Where()).render({"cost": 2.0}) == "cost 2"
    assert text_of(2.5) == "2.5"


def test_lists_booleans_and_missing_values():
    assert text_of([1, 2.0, "x"]) == "1, 2, x"
    assert text_of(True) == "yes" and text_of(None) == ""


def test_doubled_braces_are_literal_and_fields_are_collected():
    binding = Binding("{{a}} {name}", _Where())
    assert binding.fields == {"name"}
    assert binding.render({"name": "Ann"}) == "{a} Ann"


@pytest.mark.parametrize("text", ["{a.b}", "{x", "y}", "{1}"])
def test_anything_but_a_plain_name_is_an_error(text):
    with pytest.raises(ValueError):
        Binding(text, _Where())
