"""Plain English for counts and lists, one place for every page and message of every system.

``plural("city", 2)`` is "cities", ``counted(1, "die")`` is "1 die" and ``counted(3, "die")``
"3 dice"; ``and_list(["0506", "0507", "0603"])`` is "0506, 0507 and 0603". Django's
``pluralize`` only appends a suffix, which gives "citys" and "dices": English plurals need the
irregular table and the spelling rules below.
"""

from __future__ import annotations

from collections.abc import Iterable

# Plurals no spelling rule gives.
IRREGULAR = {
    "die": "dice",
    "man": "men",
    "woman": "women",
    "child": "children",
    "person": "people",
    "foot": "feet",
    "tooth": "teeth",
    "mouse": "mice",
    "goose": "geese",
    "ox": "oxen",
    "wolf": "wolves",
    "dwarf": "dwarfs",
    "elf": "elves",
    "half": "halves",
    "leaf": "leaves",
    "life": "lives",
    "knife": "knives",
    "staff": "staves",
    "thief": "thieves",
    "hero": "heroes",
    "potato": "potatoes",
    "cavalry": "cavalry",
    "infantry": "infantry",
}
# Words with no plural of their own (resources, mostly): "3 gold", "1 food".
UNCOUNTED = frozenset({
    "gold", "food", "wood", "stone", "iron", "favor", "favour", "goods", "sheep", "fish", "deer",
    "artillery", "unrest", "loot", "plunder", "provisions", "series", "news",
})
VOWELS = frozenset("aeiou")


def _plural_of(word: str) -> str:
    lower = word.lower()
    if lower in UNCOUNTED:
        return word
    if lower in IRREGULAR:
        plural = IRREGULAR[lower]
        return plural[0].upper() + plural[1:] if word[:1].isupper() else plural
    if len(lower) > 1 and lower.endswith("y") and lower[-2] not in VOWELS:
        return word[:-1] + "ies"
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return word + "es"
    return word + "s"


def plural(word: str, count: int | None = None) -> str:
    """``word`` in the plural, or as it is when ``count`` is 1 (or -1). In a phrase ("army
    list", "control marker") the last word takes the plural."""
    if count is not None and abs(count) == 1:
        return word
    head, space, last = word.rpartition(" ")
    return f"{head}{space}{_plural_of(last)}" if last else word


def counted(count: int, word: str) -> str:
    """"1 city", "2 cities", "0 dice"."""
    return f"{count} {plural(word, count)}"


def and_list(items: Iterable[object], conjunction: str = "and") -> str:
    """"a", "a and b", "a, b and c"."""
    words = [str(item) for item in items]
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def sentence(text: str) -> str:
    """``text`` ending in exactly one full stop (or its own ? or !): for text that ends a
    sentence of ours, such as a question around an event's summary."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def label(slug: str) -> str:
    """A machine name shown to people: "army_list" is "Army list"."""
    text = slug.replace("_", " ").replace("-", " ").strip()
    return text[:1].upper() + text[1:]
