"""The preset Map of Avalon: our own layout of the 18 map types on a square grid (the book's
picture is not in its text, SNS-AMB-2). A GM loads it from the map page of a campaign, or draws
another one in the map editor (SNS-GC-11)."""

from __future__ import annotations

PRESET_WIDTH = 14
PRESET_HEIGHT = 10

# One letter per map type, "." for the sea (no Territory).
_ROWS = (
    "..............",
    ".aa.bbb.cc.dd.",
    ".aa.bbeecc.dd.",
    "..ffggeehhii..",
    ".jffgg.khhii..",
    ".jjlllkkmmnn..",
    "..olll.kmmnn..",
    "..oopp.qqrr...",
    "...ppp.qqrr...",
    "..............",
)
_LETTERS = {
    "a": "norwest_isles", "b": "sword_coast", "c": "ice_lands", "d": "riverrun",
    "e": "mountain_pass", "f": "lonely_mountain", "g": "rabbit_isles", "h": "gold_coast",
    "i": "the_gaps", "j": "passage", "k": "black_forest", "l": "isle_of_gold",
    "m": "great_plains", "n": "river_styx", "o": "crater_lake", "p": "great_sandy",
    "q": "highlands", "r": "kings_cape", ".": "sea",
}


def layout() -> dict[tuple[int, int], str]:
    """The terrain (map type or sea) of every square, by 0-based ``(x, y)``."""
    return {(x, y): _LETTERS[ch] for y, row in enumerate(_ROWS) for x, ch in enumerate(row)}
