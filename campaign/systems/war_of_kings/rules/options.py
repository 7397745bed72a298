"""War of Kings: house rules and the v0.6 preview numbers.

:class:`Options` holds every switch with the digest's default (WOK-VAR-6 and the ``(config)``
items of §30). :func:`v06_options` gives the numbers of the Kickstarter preview v0.6 where they
differ from v1.01 (WOK-V06-*). ``OPTION_SPECS`` describes the same fields for a settings form and
:func:`options_from` reads them from stored JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from campaign.rules.options import OptionSpec, parse_options

V101 = "v1.01"
V06 = "v0.6"

END_OF_ROUND = "end_of_round"
STRICT = "strict"
VACATE = "vacate"
HOLDER_KEEPS = "holder_keeps"
TO_CULTURE = "culture"
TO_MALADOR = "malador"
UNCONTROLLED = "uncontrolled"


@dataclass(frozen=True)
class Options:
    """House rules. Every field has the digest's default.

    * ``ap_target``: AP needed to win at an end-of-round check (WOK-WIN-1, WOK-WIN-3, WOK-VAR-2).
    * ``merchant_ap`` / ``warlord_ap``: the value of each exclusive card, 1 or 2 (WOK-AMB-1).
    * ``exclusive_timing``: ``end_of_round`` or ``strict`` (WOK-AMB-3).
    * ``tied_challengers``: ``vacate`` (the holder loses the card) or ``holder_keeps``
      (WOK-AMB-4).
    * ``village_cap`` / ``town_cap`` / ``city_cap``: pieces per culture, ``None`` for no cap
      (WOK-COMP-2, WOK-AMB-17).
    * ``raise_in_new_settlement``: may an army be raised in a settlement that became a town or
      city this round (WOK-AMB-16).
    * ``prices``: the Table 4 edition (WOK-V06-6). ``militia``: the Table 5 edition
      (WOK-V06-7). ``raze_loot``: the Table 8 edition (WOK-V06-10). ``plague``: blue Battle Dice
      per army or purple dice spread freely (WOK-V06-3). ``exploration``: Table 9 or the v0.6
      Discovery results, which add an empty territory and a vein of gold (WOK-V06-2).
    * ``fort_dice_on_counterattack``: v0.6 rolls Fortification Dice on the counterattack too
      (WOK-V06-8).
    * ``foreign_upgrades``: v0.6 lets a player upgrade another culture's settlement
      (WOK-V06-12). ``malador_towns``: v0.6 lets the Malador build towns (WOK-V06-11).
    * ``event_card_trading``: v1.01 allows it (WOK-AMB-26, WOK-V06-14).
    * ``resupply_needs_controlled_chain``: v0.6 asks only for a road link (WOK-V06-16).
    * ``rebellion_to``: the settlement's culture (WOK-AMB-21) or the Malador (WOK-V06-19).
    * ``forced_march_withdraw``: v0.6's FAQ lets a defending army that has moved (unready)
      withdraw by playing Forced March (WOK-V06-20); v1.01 has no such ruling.
    * ``eliminated_territories``: ``malador`` or ``uncontrolled`` (WOK-AMB-19).
    * ``red_*`` / ``blue_*`` / ``purple_*`` / ``grey_shields``: how many faces of each battle
      die carry each symbol, the rest blank, for the app's simulated rolls (WOK-AMB-14; the
      rulebook gives no counts, so these are the group's to set: red and blue are 8-sided,
      purple and grey 6-sided; symbols beyond a die's faces are dropped in the order listed).
    * ``explore_row_*``: which Table 9 row each purple Bonus Battle Die symbol reads in
      exploration, 0 while unknown so the players pick the row (WOK-AMB-7).
    """

    ap_target: int = 13
    merchant_ap: int = 1
    warlord_ap: int = 1
    exclusive_timing: str = END_OF_ROUND
    tied_challengers: str = VACATE
    village_cap: int | None = 5
    town_cap: int | None = 4
    city_cap: int | None = 2
    raise_in_new_settlement: bool = True
    prices: str = V101
    militia: str = V101
    raze_loot: str = V101
    plague: str = V101
    exploration: str = V101
    fort_dice_on_counterattack: bool = False
    foreign_upgrades: bool = False
    malador_towns: bool = False
    event_card_trading: bool = True
    resupply_needs_controlled_chain: bool = True
    rebellion_to: str = TO_CULTURE
    forced_march_withdraw: bool = False
    eliminated_territories: str = TO_MALADOR
    red_warhammers: int = 3
    red_shields: int = 2
    red_flails: int = 1
    blue_flails: int = 3
    blue_shields: int = 2
    blue_warhammers: int = 1
    purple_warhammers: int = 1
    purple_flails: int = 1
    purple_shields: int = 2
    grey_shields: int = 3
    explore_row_warhammer: int = 0
    explore_row_flail: int = 0
    explore_row_shield: int = 0
    explore_row_blank: int = 0

    def __post_init__(self) -> None:
        if self.ap_target < 1:
            raise ValueError("The AP target must be at least 1 (WOK-WIN-3).")
        if self.merchant_ap not in (1, 2) or self.warlord_ap not in (1, 2):
            raise ValueError("Master Merchant and Warlord are worth 1 or 2 AP (WOK-AMB-1).")
        choices = {
            "exclusive_timing": (END_OF_ROUND, STRICT),
            "tied_challengers": (VACATE, HOLDER_KEEPS),
            "prices": (V101, V06), "militia": (V101, V06), "raze_loot": (V101, V06),
            "plague": (V101, V06), "exploration": (V101, V06),
            "rebellion_to": (TO_CULTURE, TO_MALADOR),
            "eliminated_territories": (TO_MALADOR, UNCONTROLLED),
        }
        for name, allowed in choices.items():
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}.")
        for face in ("warhammer", "flail", "shield", "blank"):
            if getattr(self, f"explore_row_{face}") not in (0, 1, 2, 3):
                raise ValueError("A bonus-die face reads row 1, 2 or 3 of Table 9, or 0 while "
                                 "unknown (WOK-AMB-7).")

    def face_table(self, die: str) -> tuple[str, ...]:
        """WOK-AMB-14: the faces of one die (``red``, ``blue``, ``purple``, ``grey``) as the
        group set them, blanks filling the rest."""
        sides = 8 if die in ("red", "blue") else 6
        counts = {
            "red": (("warhammer", self.red_warhammers), ("shield", self.red_shields),
                    ("flail", self.red_flails)),
            "blue": (("flail", self.blue_flails), ("shield", self.blue_shields),
                     ("warhammer", self.blue_warhammers)),
            "purple": (("warhammer", self.purple_warhammers), ("flail", self.purple_flails),
                       ("shield", self.purple_shields)),
            "grey": (("shield", self.grey_shields),),
        }[die]
        # Symbols beyond the die's faces are not used (the settings form checks each count
        # alone), so a table always has exactly ``sides`` faces.
        faces = tuple(symbol for symbol, n in counts for _ in range(max(0, n)))[:sides]
        return faces + ("blank",) * (sides - len(faces))

    def explore_row(self, face: str) -> int:
        """WOK-AMB-7: the Table 9 row a bonus-die symbol reads, 0 while the group has not set
        it."""
        return int(getattr(self, f"explore_row_{face}", 0) or 0)

    @property
    def explore_faces_known(self) -> bool:
        return any(self.explore_row(f) for f in ("warhammer", "flail", "shield", "blank"))


DEFAULTS = Options()


def v06_options(base: Options = DEFAULTS) -> Options:
    """The v0.6 preview wherever its numbers or permissions differ (WOK-V06-2, WOK-V06-3, WOK-V06-6,
    WOK-V06-7, WOK-V06-8, WOK-V06-10, WOK-V06-11, WOK-V06-12, WOK-V06-13, WOK-V06-14,
    WOK-V06-16, WOK-V06-19, WOK-V06-20). The piece caps stay as configured: v0.6's 28/28/14 pieces
    (WOK-V06-1) have no stated split per colour."""
    return replace(
        base, merchant_ap=2, warlord_ap=2, prices=V06, militia=V06, raze_loot=V06, plague=V06,
        exploration=V06,
        fort_dice_on_counterattack=True, foreign_upgrades=True, malador_towns=True,
        event_card_trading=False, resupply_needs_controlled_chain=False, rebellion_to=TO_MALADOR,
        forced_march_withdraw=True,
    )


#: WOK-V06-1: what the v0.6 preview lists where it names a count; no winter side.
V06_COMPONENTS = {
    "villages": 28, "towns": 28, "cities": 14, "armies": 46, "event_cards": 35,
    "discovery_cards": 20, "marauder_cards": 20, "damage_counters": 24, "territory_markers": 70,
    "resource_sheets": 200, "roads": 42, "moved_tokens": 18, "gold_coins": 125,
    "battle_dice": 14,
}

_EDITION = ((V101, "Rulebook v1.01"), (V06, "Kickstarter preview v0.6"))

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec("ap_target", "AP to win", "int", 13, rule_id="WOK-WIN-3",
               help="13 by default; 11 for a shorter game, 15 for a longer one.",
               minimum=5, maximum=30),
    OptionSpec("merchant_ap", "Master Merchant AP", "int", 1, rule_id="WOK-AMB-1",
               minimum=1, maximum=2),
    OptionSpec("warlord_ap", "Warlord of Arowyth AP", "int", 1, rule_id="WOK-AMB-1",
               minimum=1, maximum=2),
    OptionSpec("exclusive_timing", "Exclusive cards are lost", "choice", END_OF_ROUND,
               rule_id="WOK-AMB-3",
               choices=((END_OF_ROUND, "At the end-of-round check"),
                        (STRICT, "The moment the holder drops below the threshold"))),
    OptionSpec("tied_challengers", "Challengers tie above the holder", "choice", VACATE,
               rule_id="WOK-AMB-4",
               choices=((VACATE, "The card goes back until one is ahead"),
                        (HOLDER_KEEPS, "The holder keeps it"))),
    OptionSpec("village_cap", "Villages per culture", "int", 5, rule_id="WOK-AMB-17",
               minimum=0, maximum=30, nullable=True),
    OptionSpec("town_cap", "Towns per culture", "int", 4, rule_id="WOK-AMB-17",
               minimum=0, maximum=24, nullable=True),
    OptionSpec("city_cap", "Cities per culture", "int", 2, rule_id="WOK-AMB-17",
               minimum=0, maximum=12, nullable=True),
    OptionSpec("raise_in_new_settlement", "Raise armies in a town or city built this round",
               "bool", True, rule_id="WOK-AMB-16"),
    OptionSpec("prices", "Price table", "choice", V101, rule_id="WOK-V06-6", choices=_EDITION),
    OptionSpec("militia", "Militia table", "choice", V101, rule_id="WOK-V06-7",
               choices=_EDITION),
    OptionSpec("raze_loot", "Razing table", "choice", V101, rule_id="WOK-V06-10",
               choices=_EDITION),
    OptionSpec("plague", "Plague", "choice", V101, rule_id="WOK-V06-3", choices=_EDITION),
    OptionSpec("exploration", "Exploration results", "choice", V101, rule_id="WOK-V06-2",
               choices=_EDITION),
    OptionSpec("fort_dice_on_counterattack", "Fortification Dice on the counterattack", "bool",
               False, rule_id="WOK-V06-8"),
    OptionSpec("foreign_upgrades", "Upgrade other cultures' settlements", "bool", False,
               rule_id="WOK-V06-12"),
    OptionSpec("malador_towns", "The Malador may build towns", "bool", False,
               rule_id="WOK-V06-11"),
    OptionSpec("event_card_trading", "Event Cards may be traded", "bool", True,
               rule_id="WOK-AMB-26"),
    OptionSpec("resupply_needs_controlled_chain", "Resupply needs a chain of own territories",
               "bool", True, rule_id="WOK-V06-16"),
    OptionSpec("rebellion_to", "A rebelling settlement goes to", "choice", TO_CULTURE,
               rule_id="WOK-AMB-21",
               choices=((TO_CULTURE, "The kingdom of its culture"), (TO_MALADOR, "The Malador"))),
    OptionSpec("forced_march_withdraw", "An unready defender may withdraw by Forced March",
               "bool", False, rule_id="WOK-V06-20",
               help="A ruling of the v0.6 preview's FAQ: playing Forced March lets a defending "
                    "army that has moved withdraw all the same."),
    OptionSpec("eliminated_territories", "An eliminated player's territories", "choice",
               TO_MALADOR, rule_id="WOK-AMB-19",
               choices=((TO_MALADOR, "Pass to the Malador"),
                        (UNCONTROLLED, "Become uncontrolled"))),
    *(OptionSpec(name, label, "int", default, rule_id="WOK-AMB-14", minimum=0, maximum=sides,
                 help=help_)
      for name, label, default, sides, help_ in (
          ("red_warhammers", "Red battle die: warhammer faces", 3, 8,
           "The red and blue dice have 8 faces; faces not given a symbol are blank. Used only "
           "when the app rolls (marked simulated)."),
          ("red_shields", "Red battle die: shield faces", 2, 8, ""),
          ("red_flails", "Red battle die: flail faces", 1, 8, ""),
          ("blue_flails", "Blue battle die: flail faces", 3, 8, ""),
          ("blue_shields", "Blue battle die: shield faces", 2, 8, ""),
          ("blue_warhammers", "Blue battle die: warhammer faces", 1, 8, ""),
          ("purple_warhammers", "Purple bonus die: warhammer faces", 1, 6,
           "The purple and grey dice have 6 faces."),
          ("purple_flails", "Purple bonus die: flail faces", 1, 6, ""),
          ("purple_shields", "Purple bonus die: shield faces", 2, 6, ""),
          ("grey_shields", "Grey fortification die: shield faces", 3, 6, ""),
      )),
    *(OptionSpec(f"explore_row_{face}", f"Exploration: a {face} on the bonus die reads row",
                 "int", 0, rule_id="WOK-AMB-7", minimum=0, maximum=3,
                 help=("0 while unknown: the players pick the row of Table 9 themselves."
                       if face == "warhammer" else ""))
      for face in ("warhammer", "flail", "shield", "blank")),
)


def options_from(data: Mapping[str, Any] | None) -> Options:
    """Options from stored JSON, defaults filled in; a bad value raises ``OptionError``."""
    return Options(**parse_options(OPTION_SPECS, data))


def as_dict(options: Options) -> dict[str, Any]:
    """The options as plain JSON-ready values."""
    return {f.name: getattr(options, f.name) for f in fields(options)}
