"""Swords & Stones: the event tables (SNS-EVT-1..5, SNS-ECON-13/30/31).

Each table is data: 3d6 ranges with the result's name and its ledger effect as ``Effect`` values,
plus the re-roll marks, the optional results, the choices and the sub-tables. ``resolve_event``
turns a roll (and any sub-rolls and choice) into an ``EventOutcome``: the ledger lines, growth
changes, timers, units lost or gained, Site changes and cards. When a sub-roll or a choice is
still missing the outcome says so in ``pending`` and books nothing, so the table can be played
one step at a time or all at once.

Before turn 10 every event is Idle Villagers (SNS-ECON-13). Where the one-page summary and the
detailed tables disagree the detailed tables are used, unless the group picks the summary
(``EventOptions.prefer_summary``, SNS-EVT-5, SNS-AMB-32).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from campaign.rules.options import OptionSpec, parse_options
from campaign.systems.swords_and_stones.rules.econ_turn import GrowthLine, Timer, start_timer
from campaign.systems.swords_and_stones.rules.economy import (
    AVALONIAN,
    DAMNED,
    FAVOR,
    FIRST_EVENT_TURN,
    FOOD,
    GOLD,
    IRON,
    STONE,
    WOOD,
    LedgerLine,
    RuleViolation,
    Stockpile,
)

FOREST = "forest"
OUTCROP = "outcrop"
FARM = "farm"
FISHING = "fishing"
KINGDOM = "kingdom"
FAVOR_TABLE = "favor"
TABLES = (FOREST, OUTCROP, FARM, FISHING, KINGDOM, FAVOR_TABLE)
#: SNS-EVT-3: Kingdom Event results on the Farm and Fishing tables are re-rolled before this turn.
KINGDOM_EVENT_TURN = 25
IDLE = "Idle Villagers"

# --- effects as data ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One ledger effect of an event result.

    ``kind`` is one of: ``gain``/``lose`` (``amount`` plus ``dice`` d6, minus ``minus``, 1s
    re-rolled if ``reroll_ones``), ``lose_half`` (rounded down, or up with ``round_up``),
    ``lose_all``, ``growth`` (``amount``, with ``timer`` for how long), ``growth_set``,
    ``timer``, ``units_lost``, ``units_gained`` (``text`` = unit), ``scarcity``, ``card``,
    ``hostile``, ``site``, ``all_dice_fail``, ``success`` (the die counts as a successful
    harvest), ``rain``, ``insect_plague``, ``chain`` (roll another table, ``text``) and ``note``.
    """

    kind: str
    resource: str = ""
    amount: int = 0
    dice: int = 0
    minus: int = 0
    reroll_ones: bool = False
    round_up: bool = False
    timer: str = ""
    text: str = ""


def gain(resource: str, amount: int = 0, dice: int = 0, *, minus: int = 0,
         reroll_ones: bool = False) -> Effect:
    return Effect("gain", resource, amount, dice, minus, reroll_ones)


def lose(resource: str, amount: int = 0, dice: int = 0, *, reroll_ones: bool = False) -> Effect:
    return Effect("lose", resource, amount, dice, reroll_ones=reroll_ones)


def lose_half(resource: str, *, round_up: bool = False) -> Effect:
    return Effect("lose_half", resource, round_up=round_up)


def growth(amount: int, timer: str = "", text: str = "this turn") -> Effect:
    return Effect("growth", amount=amount, timer=timer, text=text)


def units_lost(amount: int, text: str) -> Effect:
    return Effect("units_lost", amount=amount, text=text)


def units_gained(amount: int, unit: str, dice: int = 0) -> Effect:
    return Effect("units_gained", amount=amount, dice=dice, text=unit)


def note(text: str) -> Effect:
    return Effect("note", text=text)


def card(text: str) -> Effect:
    return Effect("card", text=text)


def hostile(text: str) -> Effect:
    return Effect("hostile", text=text)


def timer(name: str) -> Effect:
    return Effect("timer", timer=name)


@dataclass(frozen=True)
class Entry:
    """A result on a table: ``low``-``high`` on the table's dice. ``choices`` map a choice's
    name to its effects; ``sub`` names a sub-table rolled next; ``special`` a result worked out
    by code (its effects depend on the kingdom)."""

    low: int
    high: int
    name: str
    effects: tuple[Effect, ...] = ()
    reroll_if_damned: bool = False
    kingdom_event: bool = False
    optional: bool = False
    choices: Mapping[str, tuple[Effect, ...]] = field(default_factory=dict)
    sub: str = ""
    special: str = ""


@dataclass(frozen=True)
class SubTable:
    """A sub-roll table: ``dice`` d6 summed (1 or 2)."""

    name: str
    dice: int
    entries: tuple[Entry, ...]


E = Entry
MYSTERY_CRATE = (card("Mystery Crate"),)
DRAGON_PASSOVER = (gain(FAVOR, 5),)

EVENT_TABLES: Mapping[str, tuple[Entry, ...]] = {
    FOREST: (
        E(3, 8, "Strange Disappearance", (units_lost(1, "at this Forest"),)),
        E(9, 9, "Bear Attack", (units_lost(1, "at this Forest"),)),
        E(10, 11, "Resource Scarcity", (Effect("scarcity", amount=1),)),
        E(12, 12, IDLE),
        E(13, 13, "High Quality Timber Patch", (gain(WOOD, 3),)),
        E(14, 14, "Bandits!", special="forest_bandits"),
        E(15, 15, "Strange Discovery", sub="strange_discovery"),
        E(16, 16, "Mystery Crate", MYSTERY_CRATE),
        E(17, 17, "Lair", sub="lair"),
        E(18, 18, "Ancient Sacred Grounds", optional=True, sub="ancient_sacred_grounds"),
    ),
    OUTCROP: (
        E(3, 4, "Troll Attack", (hostile("Troll (3 HP)"),)),
        E(5, 7, "Mine Shaft Collapse", (Effect("all_dice_fail"), timer("Mine Shaft Collapse"),
                                        note("units touching are trapped"))),
        E(8, 8, "Strange Disappearance", (units_lost(1, "at this Outcrop"),)),
        E(9, 9, "Bandits", special="outcrop_bandits"),
        E(10, 11, "Resource Scarcity", (Effect("scarcity", amount=1),)),
        E(12, 12, IDLE),
        E(13, 13, "Giant Amorphous Object", choices={
            "keep": (gain(IRON, 5),), "sell": (gain(GOLD, 0, 1),)}),
        E(14, 14, "Gemstone Patch", (gain(GOLD, 6),)),
        E(15, 15, "Chest Unearthed", (gain(GOLD, 0, 2),)),
        E(16, 16, "Mystery Crate", MYSTERY_CRATE),
        E(17, 17, "Precious Discovery", sub="precious_discovery"),
        E(18, 18, "Deep Underground Cavern", optional=True, sub="deep_underground_cavern"),
    ),
    FARM: (
        E(3, 5, "Kingdom Event", kingdom_event=True),
        E(6, 6, "Worms", (hostile("Worm (2 HP) near the closest Farm"),)),
        E(7, 8, "Sickness", (units_lost(1, "in the kingdom zone"), growth(-1)),
          reroll_if_damned=True),
        E(9, 9, "Major Food Spoilage", (lose(FOOD, 0, 1),), special="spoilage"),
        E(10, 10, IDLE),
        E(11, 11, "Minor Food Spoilage", (lose(FOOD, 1),), special="spoilage"),
        E(12, 12, "Crop Disease", (Effect("site", amount=-1, text="remove 1 Farm; its staff "
                                                                  "returns as a Villager"),)),
        E(13, 13, "Insect Plague", (Effect("insect_plague"),)),
        E(14, 15, "Rain", (Effect("rain"),)),
        E(16, 16, "Mystery Crate", MYSTERY_CRATE),
        E(17, 18, "Dragon Passover", DRAGON_PASSOVER),
    ),
    FISHING: (
        E(3, 5, "Kraken", (hostile("Kraken (3 HP); its killer gains 6 food"),)),
        E(6, 7, "Kingdom Event", kingdom_event=True),
        E(8, 8, "Sickness", (units_lost(1, "fishing"), growth(-2)), reroll_if_damned=True),
        E(9, 9, "Major Food Spoilage", (lose(FOOD, 0, 1, reroll_ones=True),),
          special="spoilage"),
        E(10, 10, IDLE),
        E(11, 11, "Minor Food Spoilage", (lose(FOOD, 2),), special="spoilage"),
        E(12, 13, "Big Lunker School", (gain(FOOD, 3),)),
        E(14, 14, "Strange Disappearance", (units_lost(1, "fishing"),)),
        E(15, 15, "Leviathan", choices={"finish": (gain(FOOD, 10),), "push back": ()},
          sub="leviathan"),
        E(16, 16, "Mystery Crate", MYSTERY_CRATE),
        E(17, 18, "Dragon Passover", DRAGON_PASSOVER),
    ),
    KINGDOM: (
        E(3, 5, "Dragon Passover?", (hostile("Dragon lands at the kingdom"),)),
        E(6, 7, "Assassin!", special="assassin"),
        E(8, 8, "Revolt", sub="revolt", reroll_if_damned=True),
        E(9, 9, "Production Line Breakdown",
          (note("lose 1 Mill upgrade; without one, no Site harvest next harvest phase"),)),
        E(10, 10, "Fire!", special="fire"),
        E(11, 11, "Crime Spree", special="crime_spree"),
        E(12, 12, "Corruption", special="corruption"),
        E(13, 13, "Plague", special="plague"),
        E(14, 14, IDLE),
        E(15, 15, "Refugees", special="refugees", choices={
            "turn away": (),
            "rob": (growth(-1), gain(FOOD, 0, 1, minus=2), gain(GOLD, 0, 1, minus=2)),
            "admit": (units_gained(3, "VILLAGER"), growth(2, "Refugees"),
                      note("the next Farm harvest forces a Kingdom event")),
        }),
        E(16, 16, "Carnival", choices={"refuse": (), "admit": (), "holiday": ()},
          special="carnival"),
        E(17, 17, "A Rare Sighting", sub="rare_sighting"),
        E(18, 18, "Divine Intervention", choices={"card": (card("Divine Intervention"),),
                                                  "gamble": ()}, sub="divine_gamble"),
    ),
    FAVOR_TABLE: (
        E(3, 7, "Shunned!", (timer("Shunned"), note("no favor and no spells")),
          special="shunned"),
        E(8, 9, "Spiritual Sabotage", (Effect("all_dice_fail"),)),
        E(10, 10, "Karma Count", (timer("Karma Count"),), reroll_if_damned=True),
        E(11, 14, IDLE),
        E(15, 15, "Blessed", (gain(FAVOR, 3), note("a unit at the Temple becomes a Monk "
                                                   "(or a Monk a Caster)"))),
        E(16, 16, "Mystery Crate", MYSTERY_CRATE),
        E(17, 17, "Immaculate Conception", (gain(FAVOR, 5), units_gained(1, "CASTER"))),
        E(18, 18, "Wish", (gain(FAVOR, 10), card("Wish")), reroll_if_damned=True),
    ),
}

S = SubTable
SUB_TABLES: Mapping[str, SubTable] = {
    "strange_discovery": S("Strange Discovery", 1, (
        E(1, 2, "Forest Village", sub="forest_village", optional=True),
        # SNS-AMB-31b: the rest has no printed numbers; the GM enters it (or uses the suggestion).
        E(3, 4, "Coven", sub="coven", optional=True),
        E(5, 5, "Strange old man", sub="strange_old_man", optional=True),
        E(6, 6, "Strange woman", sub="strange_woman", optional=True),
    )),
    "forest_village": S("Forest Village", 1, (
        E(1, 1, "The Pig farmer uprising", (hostile("4 Swords"),)),
        E(2, 2, "Angry 'Forest-Dwellers'", (hostile("5 Villagers and 1 Rider"),)),
        E(3, 4, "Amicable Forest Protectors", choices={
            "accept": (gain(WOOD, 12), Effect("scarcity", amount=2)),
            "refuse": (hostile("5 Villagers and 1 Rider"),)}),
        E(5, 6, "Brotherhood pact", (units_gained(2, "KNIGHTS"),)),
    )),
    "coven": S("Coven", 1, (
        E(1, 2, "Massacre", (note("each unit touching rolls 3+ or is removed"),)),
        E(3, 4, "Psychic Revelations", (note("possibly gain an upgrade"),)),
        E(5, 5, "Plentiful Blessing", (gain(FOOD, 0, 1), note("Farm successes doubled"))),
        E(6, 6, "Talisman of Protection", (card("Talisman of Protection"),)),
    )),
    "strange_old_man": S("Strange old man", 1, (
        E(1, 1, "Cursed", (note("bad luck"),)),
        E(2, 2, "Mind Tricks", (units_lost(2, "defect from the Site"),)),
        E(3, 3, "Derp", (note("skip this advance phase"),)),
        E(4, 5, "Sinterklaas", (gain(GOLD, 2, 1),)),
        E(6, 6, "Stone Secrets", (note("a free Attack Tower within 5 inches"),)),
    )),
    "strange_woman": S("Strange woman", 1, (
        E(1, 1, "Cursed", (Effect("lose_all", FOOD), note("no food gain this turn"))),
        E(2, 2, "Banshee Howl", (lose_half(IRON), lose_half(WOOD))),
        E(3, 3, "Blessing of the Trickster", (note("every other player discards 1 upgrade"),)),
        E(4, 4, "Kindness", (gain(FAVOR, 0, 1, reroll_ones=True), growth(3))),
        E(5, 5, "Alchemical secrets", (note("stone turns 1 for 1 into other resources"),)),
        E(6, 6, "Lady of the Lake", sub="lady_of_the_lake"),
    )),
    "lady_of_the_lake": S("Lady of the Lake", 1, (
        E(1, 1, "Lady of the Lake: wrath", (lose_half(GOLD, round_up=True),)),
        E(2, 2, "Lady of the Lake: silence"),
        E(3, 6, "Lady of the Lake: gift", (card("Swords of the Lady"),), special="lady_gift"),
    )),
    "lair": S("Lair", 2, (
        E(2, 4, "Dragon's Lair", (hostile("sleeping Dragon"),)),
        E(5, 6, "Giant's Moot", (hostile("Giant (allies on 5+)"),)),
        E(7, 7, "Trapped Great Eagle", choices={"feast": (gain(FOOD, 5),),
                                                "free": (units_gained(1, "GREAT EAGLE"),)}),
        E(8, 8, "Basilisk Nest", (hostile("Basilisk"),)),
        E(9, 9, "Mongo Den", (hostile("3 Mongos"),)),
        E(10, 11, "Forest Kernel", (Effect("site", amount=5, text="scarcity reset, level 5"),
                                    gain(WOOD, 0, 1, reroll_ones=True))),
        E(12, 12, "Secret Entrance", (hostile("2 Stone Guardians"),), sub="secret_entrance"),
    )),
    "secret_entrance": S("Secret Entrance", 1, (
        E(1, 1, "Dungeon of the Damned", (hostile("d6-2 zombies"),)),
        E(2, 2, "Portucullis", (note("a portal; moving it costs 2 favor"),)),
        E(3, 3, "Relic Stash", (note("3 Relics"),)),
        E(4, 5, "Ancient Prismatic Complex", (note("1 gold per unit per harvest here"),)),
        E(6, 6, "Ancient Weapon", (note("Bomb token"),)),
    )),
    "ancient_sacred_grounds": S("Ancient Sacred Grounds", 1, (
        E(1, 1, "A Dire Warning", (note("flood: Monument race; timer from the turn"),)),
        E(2, 2, "Black Rock Obelisk", (note("-2 growth the advance phase after each harvest "
                                            "here"),)),
        E(3, 3, "Wheel of Fortune", (note("every player rolls: 2+ gives 5 gold and 5 favor"),)),
        E(4, 4, "Duplicates", (note("copy every own unit touching the Site"),)),
        E(5, 5, "Goblin Secrets", (note("1 free upgrade of any faction in play"),)),
        E(6, 6, "Fountain of Youth", (note("King +1 HP for good"),)),
    )),
    "precious_discovery": S("Precious Discovery", 1, (
        E(1, 3, "Relic", (note("a Relic: 1 favor or gold per harvest in the own zone"),)),
        E(4, 6, "Heart of the Mountain", special="heart_of_the_mountain"),
    )),
    "deep_underground_cavern": S("Deep Underground Cavern", 2, (
        E(2, 5, "Sleeping Dragon", (hostile("sleeping Dragon"),)),
        E(6, 6, "Cursed Gold", (note("up to 5 d6 for gold; each 1 a turn of King "
                                     "unconsciousness"),)),
        E(7, 7, "Ancient Unholy Grave", (hostile("2d6 zombies"),)),
        E(8, 8, "Underground Kingdom", (note("while a unit stays: 1 gold each harvest, 1 "
                                             "growth"),)),
        E(9, 9, "Portucullis", (note("a portal"),)),
        E(10, 12, "Fey Friends", (note("take a nominated player's Strange Disappearance "
                                       "losses"),)),
    )),
    "leviathan": S("Leviathan pushed back", 1, (
        E(1, 1, "Leviathan: lost", (units_lost(1, "fishing"),)),
        E(2, 3, "Leviathan: blessing", (gain(FAVOR, 5),)),
        E(4, 6, "Leviathan joins you", (units_gained(1, "LEVIATHAN"),)),
    )),
    "revolt": S("Revolt demand", 1, tuple(
        E(n, n, f"Revolt demand {n}", (Effect("growth_set", amount=1, text="Revolt"),
                                        note(text)))
        for n, text in (
            (1, "a Bathhouse or Gong Farming"), (2, "a Smokehouse or Salt Safe"),
            (3, "drop the cruel upgrades; no Villager attacks for 5 turns"),
            (4, "4 operational Farms and 4 food"), (5, "a festival"),
            (6, "Heresy and Treason, a duel, or Town Watch and 3 gold"),
        )
    )),
    "rare_sighting": S("A Rare Sighting", 1, (
        E(1, 1, "Favor of the gods", (gain(FAVOR, 0, 2, reroll_ones=True),),
          reroll_if_damned=True),
        E(2, 2, "The Long Shadow", (Effect("growth_set", amount=0, text="The Long Shadow"),)),
        E(3, 3, "Dolafa Lucktrem!", (card("one event re-roll"),)),
        E(4, 4, "Red Wyvern Mating Season", (timer("Red Wyvern"),
                                             note("d6-2 gold in each of 3 harvests"))),
        E(5, 5, "Envoy from Afar", (note("a free staffed Merchant's Guild, +1 growth"),)),
        E(6, 6, "Far sight", (note("see all enemy information this turn"),)),
    )),
    "divine_gamble": S("Divine Intervention gamble", 1, (
        E(1, 1, "Wrath", (hostile("a female Dragon"),)),
        E(2, 5, "Nothing happens"),
        E(6, 6, "Blessing", (note("a Monk with a Bomb, or a Wish"),)),
    )),
}

#: SNS-AMB-32: the one-page summary's numbers where it differs from the detailed tables.
SUMMARY_VALUES: Mapping[tuple[str, str], tuple[Effect, ...]] = {
    (OUTCROP, "Gemstone Patch"): (gain(GOLD, 5),),
    (OUTCROP, "Chest Unearthed"): (gain(GOLD, 0, 2, reroll_ones=True),),
    (FISHING, "Minor Food Spoilage"): (lose(FOOD, 1),),
}
SUMMARY_CHOICES: Mapping[tuple[str, str], Mapping[str, tuple[Effect, ...]]] = {
    (OUTCROP, "Giant Amorphous Object"): {"keep": (gain(IRON, 6),), "sell": (gain(GOLD, 0, 1),)},
}

#: SNS-FAC-7: results that also give the Damned a Fantasm.
FANTASM_EVENTS = ("Deep Underground Cavern", "Ancient Sacred Grounds", "Precious Discovery: Relic")
#: SNS-FAC-9: results a Kingdom of Bone re-rolls.
BONE_REROLLS = ("Sickness", "Revolt", "Crime Spree", "Serial Killer", "Karma Count", "Wish",
                "Shunned!")

#: Upgrades, rituals, spells and Site flags that turn a result into something else
#: (SNS-UPG-*, SNS-FAC-4, SNS-STATE-7). (protection, table or "", result) -> replacement:
#: "idle" or "success" (the die harvests 1 food).
CONVERSIONS: Mapping[tuple[str, str, str], str] = {
    ("HERESY", "", "Strange Disappearance"): "idle",
    ("GONGFARMING", "", "Sickness"): "idle",
    ("BATHHOUSE", "", "Sickness"): "idle",
    ("CROPROTATION", FARM, "Crop Disease"): "success",
    ("STEAMHARVESTER", FARM, "Insect Plague"): "success",
    ("REGENFORESTRY", FOREST, "Resource Scarcity"): "idle",
    ("reforested", FOREST, ""): "idle",
    ("unlimited", OUTCROP, "Resource Scarcity"): "idle",
    ("Piya", FARM, "Crop Disease"): "idle",
    ("Piya", FARM, "Worms"): "idle",
    ("Piya", FARM, "Insect Plague"): "idle",
    ("Amanti", FOREST, "Bear Attack"): "idle",
    ("Amanti", FOREST, "Strange Disappearance"): "idle",
    ("Talos", KINGDOM, ""): "idle",
    ("Prayer of Gian", "", "Strange Disappearance"): "idle",
    ("Prayer of Gian", FOREST, "Bear Attack"): "idle",
    ("Prayer of Gian", OUTCROP, "Mine Shaft Collapse"): "idle",
    # SNS-UPG-WORMSPRAY: listed once its 1 resource for this use is paid.
    ("WORMSPRAY", FARM, "Worms"): "idle",
}


@dataclass(frozen=True)
class EventOptions:
    """House rules for events: ``prefer_summary`` uses the one-page summary's numbers
    (SNS-EVT-5, SNS-AMB-32); ``suggested_strange_discovery`` uses the suggested d6 split for the
    unnumbered Strange Discovery results instead of the GM's pick (SNS-AMB-31b);
    ``mine_shaft_timer`` is 4 or the glossary's 3 (SNS-AMB-38)."""

    prefer_summary: bool = False
    suggested_strange_discovery: bool = False
    mine_shaft_timer: int = 4

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> EventOptions:
        """Validate stored options and fill in the defaults."""
        return cls(**parse_options(EVENT_OPTIONS, data))


#: The event house rules as the campaign settings form shows them.
EVENT_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("prefer_summary", "Use the one-page event summary's numbers", "bool", False,
               rule_id="SNS-AMB-32"),
    OptionSpec("suggested_strange_discovery", "Number the Strange Discovery results", "bool",
               False, rule_id="SNS-AMB-31b",
               help="On: 3-4 Coven, 5 Strange old man, 6 Strange woman. Off: the GM picks."),
    OptionSpec("mine_shaft_timer", "Mine Shaft Collapse timer", "int", 4,
               rule_id="SNS-AMB-38", minimum=3, maximum=4,
               help="4: the event's own text; 3: the glossary's example."),
)


DEFAULT_EVENT_OPTIONS = EventOptions()


@dataclass(frozen=True)
class EventContext:
    """What a result's effect depends on: the Stockpile, the Farms, the protections in force
    (upgrade codes, Bathhouse, ritual or spell names, Site flags), the Site's level and scarcity,
    and a few facts of the kingdom."""

    stockpile: Stockpile = field(default_factory=Stockpile)
    faction: str = AVALONIAN
    kingdom_of_bone: bool = False
    farms: int = 0
    protections: frozenset[str] = frozenset()
    spoilage_guards: int = 0
    site_level: int = 0
    site_scarcity: int = 0
    queen: bool = False
    king_garrisoned: bool = False
    town_watch: bool = False
    town_center_operational: bool = False
    enemies_near: bool = False
    villagers_monks_archers: int = 0
    units_in_zone: int = 0
    bathhouses_and_vendors: int = 0
    relief_turns: int = 0
    ice_lands: bool = False


@dataclass(frozen=True)
class EventOutcome:
    """The result of one event, ready to book. ``pending`` names the inputs still missing
    ("d6", "2d6", "choice: a / b", "gm: ..."), in which case nothing else is filled;
    ``reroll`` says the roll must be made again (SNS-EVT-3); ``chain`` names a table to roll
    next (a Kingdom event from the Farm or Fishing table)."""

    table: str
    roll: int
    name: str
    lines: tuple[LedgerLine, ...] = ()
    growth: tuple[GrowthLine, ...] = ()
    growth_set: int | None = None
    timers: tuple[Timer, ...] = ()
    units_lost: int = 0
    units_gained: tuple[tuple[str, int], ...] = ()
    scarcity: int = 0
    cards: tuple[str, ...] = ()
    hostiles: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    sub_results: tuple[str, ...] = ()
    farm_outcome: str = "fail"
    all_dice_fail: bool = False
    reroll: bool = False
    chain: str = ""
    pending: str = ""


class _Dice:
    """The sub-rolls given, consumed in order."""

    def __init__(self, rolls: Sequence[int]) -> None:
        for die in rolls:
            if not 1 <= die <= 6:
                raise ValueError(f"A d6 shows 1 to 6, not {die}.")
        self.rolls = list(rolls)

    def take(self, n: int, *, reroll_ones: bool = False) -> list[int] | None:
        if len(self.rolls) < n:
            return None
        taken, self.rolls = self.rolls[:n], self.rolls[n:]
        if reroll_ones and 1 in taken:
            raise RuleViolation("This roll re-rolls 1s: enter the dice as they end up "
                                "(SNS-EVT-2).")
        return taken


class _Pending(Exception):
    def __init__(self, what: str) -> None:
        self.what = what


def _find(entries: Sequence[Entry], roll: int) -> Entry:
    for entry in entries:
        if entry.low <= roll <= entry.high:
            return entry
    raise RuleViolation(f"No result for a roll of {roll} (SNS-EVT-2).")


def _builder(table: str, roll: int, name: str) -> dict[str, object]:
    return {"table": table, "roll": roll, "name": name, "lines": [], "growth": [],
            "growth_set": None, "timers": [], "units_lost": 0, "units_gained": [],
            "scarcity": 0, "cards": [], "hostiles": [], "notes": [], "sub_results": [],
            "farm_outcome": "fail", "all_dice_fail": False, "chain": ""}


def _apply(out: dict, effect: Effect, dice: _Dice, ctx: EventContext, rule: str,
           options: EventOptions) -> None:
    name = str(out["name"])
    balance = _balance(out, ctx)
    if effect.kind in ("gain", "lose"):
        amount = effect.amount
        if effect.dice:
            rolled = dice.take(effect.dice, reroll_ones=effect.reroll_ones)
            if rolled is None:
                raise _Pending(f"{effect.dice}d6" if effect.dice > 1 else "d6")
            out["sub_results"].append(f"{'+'.join(map(str, rolled))}")
            amount += sum(rolled) - effect.minus
        amount = max(0, amount)
        if effect.kind == "lose":
            amount = min(amount, balance[effect.resource])
            if amount:
                out["lines"].append(LedgerLine(effect.resource, -amount, rule, name))
        elif amount:
            out["lines"].append(LedgerLine(effect.resource, amount, rule, name))
    elif effect.kind in ("lose_half", "lose_all"):
        held = balance[effect.resource]
        if effect.kind == "lose_all":
            amount = held
        else:
            amount = math.ceil(held / 2) if effect.round_up else held // 2
        if amount:
            out["lines"].append(LedgerLine(effect.resource, -amount, rule, name))
    elif effect.kind == "growth":
        out["growth"].append(GrowthLine(effect.amount, rule, f"{name} ({effect.text})"))
        if effect.timer:
            out["timers"].append(start_timer(effect.timer, subject=name))
    elif effect.kind == "growth_set":
        out["growth_set"] = effect.amount
    elif effect.kind == "timer":
        value = options.mine_shaft_timer if effect.timer == "Mine Shaft Collapse" else None
        out["timers"].append(start_timer(effect.timer, value, subject=name))
    elif effect.kind == "units_lost":
        out["units_lost"] += effect.amount
        out["notes"].append(f"lose {effect.amount} unit(s) {effect.text}")
    elif effect.kind == "units_gained":
        out["units_gained"].append((effect.text, effect.amount))
    elif effect.kind == "scarcity":
        out["scarcity"] += effect.amount
    elif effect.kind == "card":
        out["cards"].append(effect.text)
    elif effect.kind == "hostile":
        out["hostiles"].append(effect.text)
    elif effect.kind == "all_dice_fail":
        out["all_dice_fail"] = True
    elif effect.kind == "rain":
        out["farm_outcome"] = "rain"
    elif effect.kind == "insect_plague":
        out["farm_outcome"] = "insect_plague"
    elif effect.kind == "success":
        out["farm_outcome"] = "success"
    elif effect.kind in ("note", "site"):
        out["notes"].append(effect.text)
    else:  # pragma: no cover - data error
        raise ValueError(f"Unknown effect {effect.kind!r}.")


def _balance(out: dict, ctx: EventContext) -> dict[str, int]:
    balance = ctx.stockpile.as_dict()
    for line in out["lines"]:
        balance[line.resource] += line.amount
    return balance


class _Choices:
    """The choices given, consumed in order (a result's, then its sub-result's)."""

    def __init__(self, picks: Sequence[str]) -> None:
        self.picks = list(picks)

    def declines(self) -> bool:
        if self.picks and self.picks[0] == "decline":
            self.picks.pop(0)
            return True
        return False

    def take(self, entry: Entry, allowed: Sequence[str]) -> str:
        if not self.picks:
            raise _Pending("choice: " + " / ".join(allowed))
        pick = self.picks.pop(0)
        if pick not in allowed:
            raise RuleViolation(f"{entry.name}: choose one of {', '.join(allowed)} "
                                "(SNS-EVT-2).")
        return pick


def _choose(entry: Entry, choice: _Choices, choices: Sequence[str]) -> str:
    return choice.take(entry, tuple(choices))


def _special(out: dict, entry: Entry, dice: _Dice, ctx: EventContext, choice: _Choices,
             rule: str, options: EventOptions) -> None:
    """Results whose effect depends on the kingdom (SNS-EVT-2)."""
    key = entry.special
    apply = lambda effect: _apply(out, effect, dice, ctx, rule, options)  # noqa: E731
    if key in ("forest_bandits", "outcrop_bandits"):
        # SNS-AMB-40: the two Bandits results keep their own thresholds and pity gold.
        forest = key == "forest_bandits"
        poor = ctx.farms <= 3 if forest else ctx.stockpile.food <= 3
        if poor:
            apply(gain(FOOD, 1))
            return
        picked = _choose(entry, choice, {"pay": (), "refuse": ()})
        if picked == "pay":
            apply(lose_half(FOOD))
            return
        rolled = dice.take(1)
        if rolled is None:
            raise _Pending("d6")
        out["sub_results"].append(str(rolled[0]))
        if rolled[0] >= 5:
            apply(gain(GOLD, 1))
            apply(gain(IRON, 1))
        elif rolled[0] >= 3:
            out["notes"].append("lose all your units touching this Site")
        elif forest:
            apply(gain(GOLD, 1) if ctx.stockpile.gold <= 1 else lose_half(GOLD))
        else:
            apply(gain(GOLD, 3) if ctx.stockpile.gold <= 2 else lose_half(GOLD))
    elif key == "spoilage":
        # SNS-UPG-SALTSAFE, SNS-UPG-SMOKEHOUSE: each guard saves 1 food.
        effects = SUMMARY_VALUES.get((out["table"], entry.name)) if options.prefer_summary \
            else None
        effect = (effects or entry.effects)[0]
        before = len(out["lines"])
        apply(effect)
        if len(out["lines"]) > before and ctx.spoilage_guards:
            line = out["lines"].pop()
            left = min(0, line.amount + ctx.spoilage_guards)
            if left:
                out["lines"].append(replace(line, amount=left))
    elif key == "assassin":
        if ctx.town_watch:
            picked = _choose(entry, choice, {"discard Town Watch": (), "face it": ()})
            if picked == "discard Town Watch":
                out["notes"].append("Town Watch discarded")
                return
        rolled = dice.take(1)
        if rolled is None:
            raise _Pending("d6")
        out["sub_results"].append(str(rolled[0]))
        if rolled[0] <= (2 if ctx.king_garrisoned else 4):
            out["timers"].append(start_timer("Unconscious King", subject="Assassin!"))
            out["notes"].append("the King is knocked unconscious")
        else:
            apply(growth(1, text="assassin caught"))
    elif key == "fire":
        rolled = dice.take(2)
        if rolled is None:
            raise _Pending("2 d6 (building, then damage)")
        target = {1: "UNIVERSITY", 2: "UNIVERSITY", 3: "WORKSHOP", 4: "BARRACKS", 5: "TAVERN",
                  6: "TOWNCENTER"}[rolled[0]]
        out["sub_results"].extend(map(str, rolled))
        out["notes"].append(f"fire: {rolled[1]} damage to the {target.lower()} (the Stockpile "
                            "if there is none)")
    elif key == "crime_spree":
        options_ = {"lose": (), "pay": (), "purge": ()}
        picked = _choose(entry, choice, options_)
        if picked == "lose":
            rolled = dice.take(2)
            if rolled is None:
                raise _Pending("2 d6 (gold, then wood)")
            out["sub_results"].extend(map(str, rolled))
            short = 0
            for resource, amount in ((GOLD, rolled[0]), (WOOD, rolled[1])):
                held = _balance(out, ctx)[resource]
                taken = min(held, amount)
                short += amount - taken
                if taken:
                    out["lines"].append(LedgerLine(resource, -taken, rule, entry.name))
            if short:
                apply(lose(FOOD, short))
        elif picked == "pay":
            if not ctx.town_watch:
                raise RuleViolation("Paying off a Crime Spree needs Town Watch "
                                    "(SNS-UPG-TOWNWATCH).")
            if ctx.stockpile.food < 2 or ctx.stockpile.gold < 2:
                raise RuleViolation("Paying off a Crime Spree takes 2 food and 2 gold "
                                    "(SNS-ECON-3).")
            apply(lose(FOOD, 2))
            apply(lose(GOLD, 2))
        else:
            out["units_lost"] += 2
            out["notes"].append("remove 2 units other than the military unit at home")
    elif key == "corruption":
        rolled = dice.take(5)
        if rolled is None:
            raise _Pending("5 d6 (food, wood, stone, iron, gold)")
        out["sub_results"].extend(map(str, rolled))
        for resource, amount in zip((FOOD, WOOD, STONE, IRON, GOLD), rolled):
            apply(lose(resource, amount))
        picked = _choose(entry, choice, {"growth": (), "villager": (), "upgrade": (),
                                         "spread": ()})
        if picked == "growth":
            out["growth"].append(GrowthLine(1, rule, "Public Executions"))
            out["timers"].append(start_timer("Public Executions", subject=entry.name))
        elif picked == "villager":
            out["units_gained"].append(("VILLAGER", 1))
        elif picked == "upgrade":
            out["notes"].append("a free Town Watch, Crime and Punishment, Treason or Heresy")
        else:
            out["notes"].append("every player rolls a d6; a 1 means Corruption next harvest")
    elif key == "plague":
        turns = max(0, 4 - ctx.relief_turns)
        if turns:
            out["growth"].append(GrowthLine(-1, rule, f"Plague ({turns} turns)"))
            out["timers"].append(start_timer("Plague", turns + 1, subject=entry.name))
    elif key == "carnival":
        if ctx.enemies_near:
            out["name"] = "Carnival (re-rolled: enemies near)"
            raise _Reroll()
        picked = _choose(entry, choice, entry.choices)
        if picked == "refuse":
            return
        if picked == "holiday":
            out["notes"].append("no Site or Farm harvest next phase")
        rolled = dice.take(1)
        if rolled is None:
            raise _Pending("d6")
        out["sub_results"].append(str(rolled[0]))
        if rolled[0] == 1:
            out["chain"] = KINGDOM
        elif picked == "admit":
            apply(gain(GOLD, ctx.villagers_monks_archers))
        else:
            apply(gain(GOLD, ctx.units_in_zone + 2 * ctx.bathhouses_and_vendors))
    elif key == "refugees":
        picked = _choose(entry, choice, entry.choices)
        for effect in entry.choices[picked]:
            if picked == "rob" and effect.minus and "SPIES" in ctx.protections:
                # SNS-UPG-SPIES: robbing refugees with Spies loses nothing off the rolls.
                effect = replace(effect, minus=0)
            apply(effect)
    elif key == "shunned":
        for effect in entry.effects:
            apply(effect)
        if "FLAGELLATION" in ctx.protections:
            apply(gain(FAVOR, 1))
            out["notes"].append("Flagellation Parades discarded")
    elif key == "heart_of_the_mountain":
        spec = heart_of_the_mountain_dice(ctx.site_level, ctx.site_scarcity)
        if spec is None:
            out["notes"].append("no gem at this level and scarcity")
            return
        count, reroll = spec
        rolled = dice.take(count, reroll_ones=reroll)
        if rolled is None:
            raise _Pending(f"{count}d6" + (" re-rolling 1s" if reroll else ""))
        value = sum(rolled)
        out["sub_results"].append("+".join(map(str, rolled)))
        if value > 6:
            out["cards"].append(f"Relic token worth {value} gold")
        else:
            apply(gain(GOLD, value))
    elif key == "lady_gift":
        for effect in entry.effects:
            apply(effect)
        if ctx.queen:
            apply(gain(GOLD, 15))
        else:
            out["notes"].append("Marriage Celebrations upgrade: a Queen appears")
    else:  # pragma: no cover - data error
        raise ValueError(f"Unknown special {key!r}.")


class _Reroll(Exception):
    pass


def heart_of_the_mountain_dice(level: int, scarcity: int) -> tuple[int, bool] | None:
    """Outcrop event 17 (Heart of the Mountain): how many d6 of gold the gem is worth by the
    Outcrop's level and scarcity points, and whether 1s are re-rolled; ``None`` where the table
    says N/A."""
    column = 0 if scarcity <= 1 else 1 if scarcity <= 3 else 2 if scarcity == 4 else 3
    table = {
        3: ((1, False), (2, True), None, None),
        4: ((1, False), (2, False), (3, True), None),
        5: ((1, False), (1, False), (2, True), (3, True)),
        6: (None, (1, False), (2, False), (4, False)),
    }
    if level not in table:
        return None
    return table[level][column]


def _converted(table: str, name: str, ctx: EventContext) -> str:
    for protection in ctx.protections:
        for key in ((protection, table, name), (protection, "", name), (protection, table, "")):
            if key in CONVERSIONS:
                return CONVERSIONS[key]
    return ""


def resolve_event(
    table: str,
    roll: int,
    *,
    turn: int,
    context: EventContext | None = None,
    sub_rolls: Sequence[int] = (),
    choices: Sequence[str] = (),
    sub_pick: int | None = None,
    options: EventOptions = DEFAULT_EVENT_OPTIONS,
) -> EventOutcome:
    """SNS-EVT-1..3, SNS-ECON-13: the outcome of a 3d6 ``roll`` on ``table`` in ``turn``.

    Before turn 10 every event is Idle Villagers. A Farm or Fishing roll that points to the
    Kingdom table is rolled again until turn 25, and from then on leads to that table.
    Results marked "re-roll if Damned" are re-rolled by the Damned, and a Kingdom of Bone
    re-rolls its own list (SNS-FAC-9). Upgrades, rituals and spells turn some results into Idle
    Villagers or a harvest (``CONVERSIONS``). ``sub_rolls`` are the d6 results of the sub-rolls
    in order (a 2d6 sub-table takes two); ``choices`` answer the result's choices in order (the
    result's first, then its sub-result's; "decline" turns down an optional result);
    ``sub_pick`` is the GM's pick where no number is printed
    (SNS-AMB-31b)."""
    if table not in EVENT_TABLES:
        raise ValueError(f"Unknown event table {table!r}.")
    if not 3 <= roll <= 18:
        raise RuleViolation(f"Events are rolled on 3d6, 3 to 18, not {roll} (SNS-EVT-2).")
    rule = "SNS-EVT-2"
    ctx = context or EventContext()
    if turn < FIRST_EVENT_TURN:
        return EventOutcome(table, roll, IDLE, notes=("before turn 10 every event is Idle "
                                                      "Villagers",))
    entry = _find(EVENT_TABLES[table], roll)
    if entry.kingdom_event:
        if turn < KINGDOM_EVENT_TURN:
            return EventOutcome(table, roll, entry.name, reroll=True,
                                notes=("Kingdom events are re-rolled before turn 25",))
        return EventOutcome(table, roll, entry.name, chain=KINGDOM)
    damned = ctx.faction == DAMNED
    if (entry.reroll_if_damned and damned) or (ctx.kingdom_of_bone and entry.name in
                                               BONE_REROLLS):
        return EventOutcome(table, roll, entry.name, reroll=True,
                            notes=("re-rolled by the Damned",))
    if table == FARM and entry.name == "Rain" and ctx.ice_lands:
        return EventOutcome(table, roll, entry.name, reroll=True,
                            notes=("Rain is re-rolled on Ice lands (SNS-MAP-1)",))
    if entry.name == "Sickness" and {"GONGFARMING", "BATHHOUSE"} <= ctx.protections:
        # SNS-UPG-GONGFARMING with a Bathhouse: a Villager joins instead.
        return EventOutcome(table, roll, "Sickness (a Villager joins)",
                            units_gained=(("VILLAGER", 1),))
    if damned and entry.special.endswith("bandits"):
        # SNS-FAC-7: bandits meeting the Damned become a Zombie at a Temple or Catacomb.
        return EventOutcome(table, roll, f"{entry.name} (become a Zombie)",
                            units_gained=(("ZOMBIE", 1),))
    converted = _converted(table, entry.name, ctx)
    if converted or entry.name == IDLE:
        idle_harvest = (table in (FARM, FISHING, FOREST, OUTCROP)
                        and "CRIMEPUNISH" in ctx.protections and ctx.town_center_operational)
        outcome = "success" if converted == "success" or idle_harvest else "fail"
        name = entry.name if not converted else f"{entry.name} (turned to {IDLE})" \
            if converted == "idle" else f"{entry.name} (harvests 1 food)"
        return EventOutcome(table, roll, name, farm_outcome=outcome)
    out = _builder(table, roll, entry.name)
    dice = _Dice(sub_rolls)
    picks = _Choices(choices)
    try:
        _run(out, entry, dice, ctx, picks, sub_pick, rule, options)
    except _Pending as pending:
        return EventOutcome(table, roll, str(out["name"]), pending=pending.what)
    except _Reroll:
        return EventOutcome(table, roll, str(out["name"]), reroll=True)
    if (damned and "declined" not in str(out["name"])
            and any(name in str(out["name"]) for name in FANTASM_EVENTS)):
        # SNS-FAC-7: these discoveries also raise a Fantasm for the Damned.
        out["units_gained"].append(("FANTASM", 1))
    if dice.rolls or picks.picks:
        raise RuleViolation("More sub-rolls or choices were given than this event uses "
                            "(SNS-EVT-2).")
    return EventOutcome(
        table, roll, str(out["name"]), tuple(out["lines"]), tuple(out["growth"]),
        out["growth_set"], tuple(out["timers"]), int(out["units_lost"]),
        tuple(out["units_gained"]), int(out["scarcity"]), tuple(out["cards"]),
        tuple(out["hostiles"]), tuple(out["notes"]), tuple(out["sub_results"]),
        str(out["farm_outcome"]), bool(out["all_dice_fail"]), False, str(out["chain"]),
    )


def _run(out: dict, entry: Entry, dice: _Dice, ctx: EventContext, choice: _Choices,
         sub_pick: int | None, rule: str, options: EventOptions) -> None:
    table = str(out["table"])
    if entry.optional and choice.declines():
        out["name"] = f"{entry.name} (declined: {IDLE})"
        return
    if entry.special:
        _special(out, entry, dice, ctx, choice, rule, options)
        return
    effects = entry.effects
    if options.prefer_summary and (table, entry.name) in SUMMARY_VALUES:
        effects = SUMMARY_VALUES[(table, entry.name)]
    for effect in effects:
        _apply(out, effect, dice, ctx, rule, options)
    choices = entry.choices
    if options.prefer_summary and (table, entry.name) in SUMMARY_CHOICES:
        choices = SUMMARY_CHOICES[(table, entry.name)]
    picked = ""
    if choices:
        picked = _choose(entry, choice, choices)
        for effect in choices[picked]:
            _apply(out, effect, dice, ctx, rule, options)
    if entry.sub and not (choices and picked and entry.name in ("Leviathan",
                                                                 "Divine Intervention")
                          and picked in ("finish", "card")):
        _run_sub(out, entry.sub, dice, ctx, choice, sub_pick, rule, options)


def _run_sub(out: dict, sub_name: str, dice: _Dice, ctx: EventContext, choice: _Choices,
             pick: int | None, rule: str, options: EventOptions) -> None:
    sub = SUB_TABLES[sub_name]
    if sub_name == "strange_discovery" and not options.suggested_strange_discovery:
        # SNS-AMB-31b: a d6 of 1-2 is a Forest Village; otherwise the GM names the result.
        rolled = dice.take(1)
        if rolled is None:
            raise _Pending("d6")
        out["sub_results"].append(str(rolled[0]))
        if rolled[0] <= 2:
            entry = sub.entries[0]
        else:
            if pick is None:
                raise _Pending("gm: Coven, Strange old man or Strange woman (index 1-3)")
            if pick not in (1, 2, 3):
                raise RuleViolation("Pick 1 (Coven), 2 (Strange old man) or 3 (Strange woman) "
                                    "(SNS-AMB-31b).")
            entry = sub.entries[pick]
    else:
        rolled = dice.take(sub.dice)
        if rolled is None:
            raise _Pending(f"{sub.dice}d6" if sub.dice > 1 else "d6")
        out["sub_results"].append("+".join(map(str, rolled)))
        entry = _find(sub.entries, sum(rolled))
    if entry.reroll_if_damned and ctx.faction == DAMNED:
        raise _Reroll()
    out["name"] = f"{out['name']}: {entry.name}"
    _run(out, entry, dice, ctx, choice, pick, rule, options)


def avalonian_protection(outcome: EventOutcome, faction: str, used: bool) -> EventOutcome:
    """SNS-ECON-31, SNS-EVT-4: once a game an Avalonian may turn a just-determined event into
    Idle Villagers (announced aloud)."""
    if faction != AVALONIAN:
        raise RuleViolation("Only Avalonians have this protection (SNS-ECON-31).")
    if used:
        raise RuleViolation("This protection is used once a game (SNS-ECON-31).")
    return EventOutcome(outcome.table, outcome.roll, f"{outcome.name} (turned to {IDLE})",
                        notes=("by Ehyehs protection",))


def event_lines(outcomes: Sequence[EventOutcome]) -> tuple[LedgerLine, ...]:
    """SNS-ECON-30: the ledger lines of several events, resolved one after another."""
    for outcome in outcomes:
        if outcome.pending or outcome.reroll:
            raise RuleViolation(f"{outcome.name} is not resolved yet (SNS-ECON-30).")
    return tuple(line for outcome in outcomes for line in outcome.lines)


__all__ = ["EVENT_TABLES", "SUB_TABLES", "EventContext", "EventOptions", "EventOutcome",
           "avalonian_protection", "event_lines", "resolve_event"]
