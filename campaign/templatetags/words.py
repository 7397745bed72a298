"""Template filters over ``campaign.words``: ``{% load words %}``, then
``{{ n|counted:"city" }}`` ("2 cities"), ``{{ n|plural:"die" }}`` ("dice", the word alone),
``{{ labels|and_list }}`` ("0506, 0507 and 0603"), ``{{ slug|label }}`` ("Army list") and
``{{ text|unstop }}`` (a summary without its closing full stop, to end a question with "?")."""

from __future__ import annotations

from typing import Any

from django import template

from campaign import words

register = template.Library()


def _number(value: Any) -> int:
    if isinstance(value, (list, tuple, set, dict)) or hasattr(value, "__len__") and not (
            isinstance(value, str)):
        return len(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


@register.filter
def counted(value: Any, word: str) -> str:
    """The count (a number, or the length of a list) and the word: "1 die", "3 dice"."""
    return words.counted(_number(value), word)


@register.filter
def plural(value: Any, word: str) -> str:
    """The word alone, in the plural unless the count is 1."""
    return words.plural(word, _number(value))


@register.filter
def and_list(value: Any) -> str:
    return words.and_list(value or [])


@register.filter
def label(value: Any) -> str:
    return words.label(str(value))


@register.filter
def unstop(value: Any) -> str:
    """The text without the full stop it ends with."""
    return str(value).rstrip().removesuffix(".")
