"""The one place where numbers typed into a request become ints.

Every view reads ids, amounts and dice from a request through a Django form or through this
module, never with ``int()`` or ``str.isdigit()`` by hand: ``str.isdigit()`` and
``str.isdecimal()`` accept digits that are not ASCII ("²", Arabic-Indic "٣"), on which ``int()``
raises or which it quietly reads as another number, and a number of 100,000 digits costs time
before it is refused. Here only ASCII digits count, lengths and ranges are bounded, and every
refusal is a ``ParseError`` whose message says, in plain words, what the field should hold; a
view answers it with a 400 and changes nothing (uncaught, it is a 400 all the same).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timezone

from django import forms
from django.core.exceptions import BadRequest, ValidationError

# A database id fits a signed 64-bit integer: at most 19 digits, up to 2**63 - 1.
MAX_ID = 2**63 - 1
_MAX_ID_DIGITS = len(str(MAX_ID))


class ParseError(BadRequest, ValueError):
    """A request value that is not what its field needs; the message is for the user. A view
    that does not catch it still answers 400 with the message (``handler400``)."""


def is_ascii_number(raw: object, max_digits: int = _MAX_ID_DIGITS) -> bool:
    """True for a string of 1 to ``max_digits`` ASCII digits ("0".."9") and nothing else."""
    return (isinstance(raw, str) and 0 < len(raw) <= max_digits and raw.isascii()
            and raw.isdigit())


def parse_id(raw: object) -> int | None:
    """A database id typed in a form or a query string (surrounding spaces allowed), or None
    when it is not one: not ASCII digits, 0, or beyond what the database stores."""
    text = raw.strip() if isinstance(raw, str) else raw
    if not is_ascii_number(text):
        return None
    value = int(text)  # type: ignore[arg-type]
    return value if 1 <= value <= MAX_ID else None


def parse_ids(raws: Iterable[object], field: str) -> list[int]:
    """Every value of a repeated field as an id; ``ParseError`` names the field otherwise."""
    ids = []
    for raw in raws:
        value = parse_id(raw)
        if value is None:
            raise ParseError(f"“{field}” must list whole numbers, one per choice.")
        ids.append(value)
    return ids


def require_id(raw: object, field: str) -> int:
    """``parse_id`` for a field that must be there; ``ParseError`` names the field otherwise."""
    value = parse_id(raw)
    if value is None:
        raise ParseError(f"“{field}” must be a whole number (an id from the form).")
    return value


def parse_int(raw: object, lo: int, hi: int, field: str, *,
              default: int | None = None) -> int:
    """A whole number from ``lo`` to ``hi`` (ASCII digits, an optional leading minus when ``lo``
    is negative, surrounding spaces allowed). An empty value gives ``default`` when there is
    one; anything else out of shape or out of range is a ``ParseError`` naming ``field``."""
    text = raw.strip() if isinstance(raw, str) else ""
    if text == "" and default is not None:
        return default
    digits = text[1:] if lo < 0 and text.startswith("-") else text
    limit = max(len(str(abs(lo))), len(str(abs(hi))))
    if not is_ascii_number(digits, limit):
        raise ParseError(f"“{field}” must be a whole number from {lo} to {hi}.")
    value = int(text)
    if not lo <= value <= hi:
        raise ParseError(f"“{field}” must be a whole number from {lo} to {hi}.")
    return value


_DECIMAL = re.compile(r"-?[0-9]{1,9}(\.[0-9]{1,20})?([eE][-+]?[0-9]{1,3})?")


def parse_decimal(raw: object, lo: float, hi: float, field: str) -> float:
    """A number with an optional decimal point and exponent ("12", "-3.25", "1e-05", as a
    browser or Python writes a float), ASCII digits only, from ``lo`` to ``hi``: a position
    tapped on a picture, say. Never "inf", "nan" or 100 digits."""
    text = raw.strip() if isinstance(raw, str) else ""
    if not _DECIMAL.fullmatch(text) or not lo <= float(text) <= hi:
        raise ParseError(f"“{field}” must be a number from {lo:g} to {hi:g}.")
    return float(text)


def parse_optional_int(raw: object, lo: int, hi: int, field: str) -> int | None:
    """``parse_int`` for a field that may be left empty (None)."""
    if raw is None or (isinstance(raw, str) and raw.strip() == ""):
        return None
    return parse_int(raw, lo, hi, field)


def parse_dice(raw: object, count: int | None = None, sides: int = 6, *,
               most: int = 60, field: str = "dice") -> list[int]:
    """Dice typed in as "6 5 3", "6,5,3" or, for dice of up to 9 sides, "653": each from 1 to
    ``sides``; exactly ``count`` of them when given, else 1 to ``most``. An empty value is an
    empty list (the server rolls); anything unreadable is a ``ParseError``."""
    text = raw.replace(",", " ").strip() if isinstance(raw, str) else ""
    if not text:
        return []
    if len(text) > most * (len(str(sides)) + 1):
        raise ParseError(f"Type in the {field} as numbers from 1 to {sides}, e.g. 6 5 3.")
    parts = text.split() if " " in text or sides > 9 else list(text)
    if not all(is_ascii_number(p, len(str(sides))) and 1 <= int(p) <= sides for p in parts):
        raise ParseError(f"Type in the {field} as numbers from 1 to {sides}, e.g. 6 5 3.")
    if count is not None and len(parts) != count:
        raise ParseError(f"Type in {count} {field}, each from 1 to {sides}.")
    if len(parts) > most:
        raise ParseError(f"Type in at most {most} {field}.")
    return [int(p) for p in parts]


def parse_filter(raw: object, lo: int, hi: int) -> int | None:
    """A number that filters a read-only page (``?year=2``): None, so the page shows its
    default, when it is empty, not ASCII digits or out of range. Only for reading: a value that
    changes something is refused instead (``parse_int``)."""
    try:
        return parse_optional_int(raw, lo, hi, "filter")
    except ParseError:
        return None


class WholeNumberField(forms.IntegerField):
    """Django's ``IntegerField`` for the site's forms, ASCII digits only: Django's own reads any
    Unicode digits ("٣" as 3) and "1.0" as 1. An optional minus and at most 19 digits; anything
    else is "Enter a whole number." and the form is shown again with the error."""

    def to_python(self, value: object) -> int | None:
        if isinstance(value, str) and value.strip():
            text = value.strip()
            if not is_ascii_number(text[1:] if text.startswith("-") else text):
                raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


def parse_moment(raw: object) -> datetime | None:
    """A moment in ISO 8601 ("2026-11-25T21:30:00+00:00") as a page sends it back, or None when
    it is empty, longer than 40 characters, not one, or no real date ("2026-13-45"). A moment
    without a zone is taken as UTC, so it compares with the database's."""
    from django.utils.dateparse import parse_datetime

    text = raw.strip() if isinstance(raw, str) else ""
    if not text or len(text) > 40 or not text.isascii():
        return None
    try:
        moment = parse_datetime(text)
    except (ValueError, OverflowError):
        return None
    if moment is not None and moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment
