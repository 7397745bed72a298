"""What a viewer may do on a map tile, and how a tile reads in a list of choices.

A rule system offers its actions on a tile through the shell hook
``tile_actions(access, tile) -> list[TileAction]`` (see ``RuleSystem``): each names the system's
own POST endpoint (the one its play page posts to) and the fields that form posts, and says
whether it is legal now and, if not, why. The map's tile panel shows them and posts them through
``campaign.views.maps.tile_act``, which calls that same endpoint: the rules, the services and the
refusals are the system's, and there is no second code path for them.

``TileChoice`` and ``choice_text`` describe a tile in a drop-down of tiles ("0204 · Forest ·
village · Aldmark army #1"), so a list of tiles is an accessible alternative to tapping the map.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

SEPARATOR = " · "


@dataclass(frozen=True)
class TileAction:
    """One thing a viewer may do on one tile.

    - ``key``: unique among the tile's actions and stable while the campaign does not change
      (the panel posts it back; the action is looked up again under the campaign's rules).
    - ``label``: the button's text, a plain sentence ("Found Aldmark's capital here").
    - ``url``: the system's existing POST endpoint for it (the play page's form action).
    - ``fields``: the form fields that endpoint reads (e.g. ``{"kingdom": "3", "tile": "0204"}``).
    - ``legal``: whether the endpoint would accept it now; ``reason``: why not, in the words its
      refusal uses (with the rule ID).
    - ``highlight``: for an action that picks a token rather than posting (``url`` empty), the
      tiles the map marks for it, e.g. an army's legal destinations.
    - ``subject``: what a highlighting action picks ("army #1"), for the map's note.
    - ``confirm``: a question asked before posting, for what cannot easily be taken back.
    """

    key: str
    label: str
    url: str = ""
    fields: Mapping[str, str] = field(default_factory=dict)
    legal: bool = True
    reason: str = ""
    highlight: tuple[str, ...] = ()
    confirm: str = ""
    subject: str = ""

    @property
    def posts(self) -> bool:
        return bool(self.url)

    @property
    def highlight_text(self) -> str:
        return " ".join(self.highlight)


def actions_for(access: Any, tile: Any) -> list[TileAction]:
    """The actions the campaign's rule system offers this viewer on ``tile`` (none when the
    system provides no ``tile_actions`` hook, or the campaign is read-only)."""
    system = access.campaign.system
    if system.read_only:
        return []
    hook = system.hook("tile_actions")
    return list(hook(access, tile)) if hook is not None else []


class TileChoice(str):
    """A tile label as a form's choice: it is the label (what the form posts, and compares equal
    to it), and ``text`` is what the list shows."""

    text: str

    def __new__(cls, label: str, text: str = "") -> TileChoice:
        choice = super().__new__(cls, label)
        choice.text = text or label
        return choice


def choice_text(label: str, *, terrain: str = "", settlement: str = "",
                occupants: Sequence[str] = ()) -> str:
    """"0204 · Forest · village · Aldmark army #1": the label, the terrain, the settlement and
    who is there, each part left out when empty."""
    parts = [label, terrain, settlement, ", ".join(o for o in occupants if o)]
    return SEPARATOR.join(p for p in parts if p)


def tile_choices(system: Any, labels: Iterable[str], tiles: Mapping[str, Any],
                 occupants: Mapping[str, Sequence[str]] | None = None,
                 capitals: Mapping[str, str] | None = None) -> list[TileChoice]:
    """``labels`` as choices described by ``choice_text``. ``tiles`` maps a label to anything
    with ``terrain`` and ``settlement`` slugs (a ``Tile`` or a system's plain tile state), named
    with the system's labels; ``capitals`` names the kingdom whose capital a tile is;
    ``occupants`` lists who is there."""
    terrains = {t.slug: t.label for t in system.terrains}
    settlements = {c.slug: c.label.lower() for c in system.settlements if c.slug}
    occupants = occupants or {}
    capitals = capitals or {}
    found = []
    for label in labels:
        tile = tiles.get(label)
        terrain = terrains.get(tile.terrain, tile.terrain) if tile is not None else ""
        settlement = ""
        if label in capitals:
            settlement = f"capital of {capitals[label]}"
        elif tile is not None and tile.settlement:
            settlement = settlements.get(tile.settlement, tile.settlement)
        found.append(TileChoice(label, choice_text(label, terrain=terrain, settlement=settlement,
                                                   occupants=occupants.get(label, ()))))
    return found
