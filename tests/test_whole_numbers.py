"""The one reading of a whole number every layer is given (referee/engine/numbers.py, ``whole_number``): a form's
field, an address's query, a JSON entry or record, a command-line argument, a setting.  What it refuses, and the
refusal it gives: the field, the value as given (cut short) and the limits."""
import argparse
import json

import pytest

from referee import cli
from referee.engine import LARGEST, MalformedEntry, NotWhole, json_whole, parse_entry, whole_field, whole_number


def test_a_whole_number_is_ascii_digits_with_a_minus_sign_first_at_most_and_spaces_around_ignored():
    assert whole_number("amount", "5") == 5
    assert whole_number("amount", " 5 ") == 5  # a form's field as typed
    assert whole_number("amount", "-5", -10, 10) == -5
    assert whole_number("amount", "007") == 7
    assert whole_number("amount", 5) == 5  # a value JSON has read already
    assert whole_number("amount", str(LARGEST)) == LARGEST


def test_minus_zero_is_zero():
    """The same number: ``int`` and JSON read it so, and a refusal of "-0" as below 0 would be wrong."""
    assert whole_number("amount", "-0") == 0
    assert json.loads("-0", parse_int=json_whole) == 0


@pytest.mark.parametrize("typed", ["+5", "5.0", "5e2", "0x10", "1_000", "five", "", " ", "-", "--5", "5-"])
def test_a_plus_sign_a_point_an_exponent_or_anything_but_digits_is_refused(typed):
    with pytest.raises(NotWhole) as refused:
        whole_number("amount", typed)
    assert (refused.value.field, refused.value.minimum, refused.value.maximum) == ("amount", 0, LARGEST)
    assert not refused.value.too_large


@pytest.mark.parametrize("typed", ["１２", "٣", "१२", "²"])
def test_full_width_and_other_scripts_digits_are_refused(typed):
    """Python's int() reads "１２" as 12 and "٣" as 3; the record and the database hold ASCII digits, and a digit that
    only looks like one must not slip into a record (a tablet's number pad sends ASCII)."""
    assert int(typed) if typed != "²" else True  # what a bare int() would have let through
    with pytest.raises(NotWhole):
        whole_number("amount", typed)


def test_a_megabyte_of_digits_is_refused_as_too_large_without_being_converted():
    digits = "9" * 1_000_000  # int() of it raises ValueError (more than 4,300 digits) after scanning it all
    with pytest.raises(NotWhole) as refused:
        whole_number("amount", digits)
    assert refused.value.too_large and refused.value.maximum == LARGEST
    assert len(refused.value.value) < 200 and "1,000,000 characters" in refused.value.value  # the value cut short
    with pytest.raises(NotWhole) as refused:
        whole_number("amount", "-" + digits)
    assert refused.value.too_small and not refused.value.too_large


def test_a_number_beyond_its_limits_is_refused_naming_them():
    with pytest.raises(NotWhole, match="players must be a whole number from 2 to 8, got 9") as refused:
        whole_number("players", "9", 2, 8)
    assert refused.value.too_large
    with pytest.raises(NotWhole) as refused:
        whole_number("players", 1, 2, 8)
    assert refused.value.too_small


@pytest.mark.parametrize("value", [True, False, 5.0, 5.5, None, [5], {"n": 5}])
def test_booleans_and_floats_in_json_are_no_whole_numbers(value):
    """JSON's true is no number though Python's True == 1; 5.0 is no whole number as a record writes one."""
    with pytest.raises(NotWhole):
        whole_number("amount", value)


def test_digits_in_a_json_string_are_refused_where_json_holds_a_number():
    with pytest.raises(NotWhole):
        whole_number("amount", "5", text=False)
    with pytest.raises(MalformedEntry, match='amount must be a whole number of at least 1, got "5"'):
        parse_entry({"type": "bid", "player": "Aki", "amount": "5"})
    with pytest.raises(MalformedEntry, match="amount must be a whole number of at least 1, got true"):
        parse_entry({"type": "bid", "player": "Aki", "amount": True})


def test_every_layer_puts_the_one_refusal_in_its_own_words():
    """The entry's form field, the command line's argument: the same reading, each caller's message."""
    with pytest.raises(MalformedEntry, match="amount is more than 2147483647"):
        whole_field("amount", "2147483648")
    with pytest.raises(MalformedEntry, match='amount must be a whole number of at least 0, got "１２"'):
        whole_field("amount", "１２")
    with pytest.raises(argparse.ArgumentTypeError, match="must be a whole number 2 to 8, got 9"):
        cli._players("9")
    with pytest.raises(argparse.ArgumentTypeError, match="must be a whole number at least 1, got x"):
        cli._positive("x")
