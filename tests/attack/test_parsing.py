"""The shared parser (campaign/parsing.py): ASCII digits only, bounded length and range, and a
message that names the field."""

from __future__ import annotations

import pytest
from django.core.exceptions import BadRequest

from campaign.parsing import (
    MAX_ID,
    ParseError,
    WholeNumberField,
    is_ascii_number,
    parse_decimal,
    parse_dice,
    parse_filter,
    parse_id,
    parse_ids,
    parse_int,
    parse_moment,
    parse_optional_int,
    require_id,
)

NOT_NUMBERS = ["", " ", "abc", "²", "٣", "３", "1.5", "-1", "+1", "1e3", "0x1", "1_000", "١٢",
               "7" * 100_000, "1\x00", None, 12]


@pytest.mark.parametrize(("raw", "expected"), [
    ("1", 1), ("42", 42), (" 7 ", 7), ("007", 7), (str(MAX_ID), MAX_ID),
    ("0", None), (str(MAX_ID + 1), None), ("9" * 30, None), *[(r, None) for r in NOT_NUMBERS],
])
def test_parse_id(raw: object, expected: int | None) -> None:
    assert parse_id(raw) == expected


def test_non_ascii_digits_that_python_would_read_are_refused() -> None:
    """int() reads Arabic-Indic and full-width digits as numbers and refuses "²" although
    isdigit() accepts it; the parser refuses all three."""
    assert int("٣") == 3 and int("３") == 3 and "²".isdigit()
    assert [parse_id(v) for v in ("٣", "３", "²")] == [None, None, None]
    assert not is_ascii_number("٣") and is_ascii_number("3")


def test_parse_ids_and_require_id_name_the_field() -> None:
    assert parse_ids(["3", "1", "2"], "order") == [3, 1, 2]
    assert parse_ids([], "order") == []
    with pytest.raises(ParseError, match="“order” must list whole numbers, one per choice."):
        parse_ids(["3", "²"], "order")
    assert require_id("5", "hero") == 5
    with pytest.raises(ParseError, match=r"“hero” must be a whole number \(an id from the form\)"):
        require_id("٣", "hero")


@pytest.mark.parametrize(("raw", "lo", "hi", "expected"), [
    ("0", 0, 1, 0), ("1", 0, 1, 1), (" 6 ", 1, 6, 6), ("-3", -5, 5, -3), ("-0", -1, 1, 0),
    ("99", 1, 99, 99),
])
def test_parse_int_in_range(raw: str, lo: int, hi: int, expected: int) -> None:
    assert parse_int(raw, lo, hi, "gold") == expected


@pytest.mark.parametrize("raw", ["2", "-1", "", "²", "٣", "1.0", "--1", "1" * 100_000])
def test_parse_int_refusals_say_what_the_field_takes(raw: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_int(raw, 0, 1, "gold")
    assert str(refused.value) == "“gold” must be a whole number from 0 to 1."


def test_parse_int_minus_only_where_the_range_goes_below_zero() -> None:
    with pytest.raises(ParseError):
        parse_int("-1", 0, 10, "food")
    assert parse_int("-10", -10, 10, "food") == -10


def test_parse_int_default_and_optional() -> None:
    assert parse_int("", 0, 5, "food", default=0) == 0
    assert parse_int("  ", 0, 5, "food", default=2) == 2
    assert parse_optional_int("", 1, 6, "die") is None
    assert parse_optional_int(None, 1, 6, "die") is None
    assert parse_optional_int("4", 1, 6, "die") == 4
    with pytest.raises(ParseError, match="“die” must be a whole number from 1 to 6."):
        parse_optional_int("7", 1, 6, "die")


@pytest.mark.parametrize(("raw", "count", "expected"), [
    ("6 5 3", None, [6, 5, 3]), ("6,5,3", None, [6, 5, 3]), ("653", None, [6, 5, 3]),
    (" 1 ", 1, [1]), ("", 2, []), ("4, 2", 2, [4, 2]), ("12", None, [1, 2]),
])
def test_parse_dice(raw: str, count: int | None, expected: list[int]) -> None:
    assert parse_dice(raw, count) == expected


@pytest.mark.parametrize(("raw", "count", "message"), [
    ("7", None, "Type in the dice as numbers from 1 to 6, e.g. 6 5 3."),
    ("0", None, "Type in the dice as numbers from 1 to 6, e.g. 6 5 3."),
    ("٣", None, "Type in the dice as numbers from 1 to 6, e.g. 6 5 3."),
    ("6 x", None, "Type in the dice as numbers from 1 to 6, e.g. 6 5 3."),
    ("18", None, "Type in the dice as numbers from 1 to 6, e.g. 6 5 3."),
    ("6 5", 3, "Type in 3 dice, each from 1 to 6."),
    ("6" * 100_000, None, "Type in the dice as numbers from 1 to 6, e.g. 6 5 3."),
    ("6" * 61, None, "Type in at most 60 dice."),
])
def test_parse_dice_refusals(raw: str, count: int | None, message: str) -> None:
    with pytest.raises(ParseError) as refused:
        parse_dice(raw, count)
    assert str(refused.value) == message


def test_parse_dice_of_more_sides_needs_spaces() -> None:
    assert parse_dice("10 12", sides=12) == [10, 12]
    with pytest.raises(ParseError):
        parse_dice("13", sides=12)


@pytest.mark.parametrize(("raw", "expected"), [
    ("12", 12.0), ("-3.25", -3.25), ("1e-05", 1e-05), ("157.49999999999997", 157.49999999999997),
])
def test_parse_decimal(raw: str, expected: float) -> None:
    assert parse_decimal(raw, -1e6, 1e6, "x") == expected


@pytest.mark.parametrize("raw", ["", "nan", "inf", "-inf", "1e400", "²", "١.٥", "9" * 40,
                                 "2000000"])
def test_parse_decimal_refusals(raw: str) -> None:
    with pytest.raises(ParseError, match="“x” must be a number from -1e\\+06 to 1e\\+06."):
        parse_decimal(raw, -1e6, 1e6, "x")


@pytest.mark.parametrize(("raw", "expected"), [
    ("3", 3), ("", None), (None, None), ("abc", None), ("²", None), ("99999", None), ("-1", None),
])
def test_parse_filter_ignores_what_is_no_number_in_range(raw: str | None,
                                                         expected: int | None) -> None:
    assert parse_filter(raw, 0, 32767) == expected


def test_an_uncaught_parse_error_is_a_bad_request() -> None:
    """A view that lets a ParseError through still answers 400 (Django's BadRequest)."""
    assert issubclass(ParseError, BadRequest) and issubclass(ParseError, ValueError)


@pytest.mark.parametrize(("raw", "expected"), [("12", 12), (" 7 ", 7), ("-3", -3), ("", None)])
def test_whole_number_field_reads_ascii_digits(raw: str, expected: int | None) -> None:
    field = WholeNumberField(required=False, min_value=-5, max_value=100)
    assert field.clean(raw) == expected


@pytest.mark.parametrize("raw", ["٣", "３", "²", "1.0", "1e2", "--1", "9" * 30, "7" * 100_000])
def test_whole_number_field_refuses_what_django_would_read(raw: str) -> None:
    """Django's IntegerField reads "٣" and "３" as 3 and "1.0" as 1; the site's forms refuse."""
    from django import forms
    from django.core.exceptions import ValidationError

    if raw in ("٣", "３", "1.0"):
        assert forms.IntegerField().clean(raw) in (1, 3)
    with pytest.raises(ValidationError) as refused:
        WholeNumberField(max_value=10**40).clean(raw)
    assert refused.value.messages == ["Enter a whole number."]


@pytest.mark.parametrize("field", ["width", "height", "seed"])
def test_map_form_refuses_non_ascii_digits(field: str) -> None:
    from campaign.forms import GenerateMapForm

    data = {"width": "6", "height": "5", "orientation": "flat", "seed": "4", field: "٣"}
    form = GenerateMapForm(data)
    assert not form.is_valid()
    assert form.errors[field] == ["Enter a whole number."]


@pytest.mark.parametrize(("raw", "expected"), [
    ("2026-11-25T21:30:00+00:00", "2026-11-25T21:30:00+00:00"),
    ("2026-11-25T21:30:00", "2026-11-25T21:30:00+00:00"),  # no zone: UTC
    ("", None), (None, None), ("2026-13-45T99:99:99", None), ("2026-02-30T10:00:00", None),
    ("yesterday", None), ("２０２６-11-25T21:30:00", None),
    ("2026-11-25T21:30:00" + "0" * 40, None),
])
def test_parse_moment(raw: str | None, expected: str | None) -> None:
    moment = parse_moment(raw)
    assert (moment.isoformat() if moment else None) == expected
