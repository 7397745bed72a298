"""Swords & Stones: the catalogues as plain data (digest B.8-B.12, C, SNS-SCORE-1).

Buildings, upgrades, units, map types, die timers, spells, the armour and combat tables and the
score table. The printed amounts of every cost are exact, but the resource symbols beside them were
lost in the source (SNS-AMB-30): a ``Cost`` keeps the amounts in printed order and one resource
type per amount, ``None`` where the type is unknown, and says whether its types are uncertain.
A GM completes or corrects the types per campaign with ``Catalogue.with_cost_types``; nothing
here guesses a type silently (a probable type is marked ``guessed``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from campaign.systems.swords_and_stones.rules.economy import (
    FAVOR,
    FOOD,
    GOLD,
    RESOURCES,
    STONE,
    WOOD,
    RuleViolation,
)

# --- costs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """A printed cost: amounts in printed order and a resource type per amount (SNS-AMB-30).

    ``types[i]`` is ``None`` when the symbol was lost; ``guessed`` marks types that are only the
    digest's "very probably". ``types_uncertain`` is what a GM screen flags."""

    amounts: tuple[int, ...]
    types: tuple[str | None, ...] = ()
    guessed: bool = False

    def __post_init__(self) -> None:
        if not self.types:
            object.__setattr__(self, "types", (None,) * len(self.amounts))
        if len(self.types) != len(self.amounts):
            raise ValueError("A cost needs one type (or None) per amount (SNS-AMB-30).")
        for kind in self.types:
            if kind is not None and kind not in RESOURCES:
                raise ValueError(f"Unknown resource {kind!r}.")

    @property
    def types_uncertain(self) -> bool:
        """SNS-AMB-30: some type is unknown or only probable."""
        return self.guessed or any(kind is None for kind in self.types)

    @property
    def total(self) -> int:
        return sum(self.amounts)

    def resolve(self, declared: Sequence[str] = ()) -> dict[str, int]:
        """SNS-AMB-30: the cost per resource. ``declared`` fills the unknown types in order (the
        player reads them from the printed book); a cost with a type still unknown is refused."""
        declared = list(declared)
        result: dict[str, int] = {}
        for amount, kind in zip(self.amounts, self.types):
            if kind is None:
                if not declared:
                    raise RuleViolation(
                        "The resource type of part of this cost is not known (the symbols were "
                        "lost in the rulebook text); the GM must fill it in or the player must "
                        "name it (SNS-AMB-30)."
                    )
                kind = declared.pop(0)
                if kind not in RESOURCES:
                    raise RuleViolation(f"{kind!r} is not a resource (SNS-ECON-1).")
            result[kind] = result.get(kind, 0) + amount
        if declared:
            raise RuleViolation("More resource types were named than this cost has unknown "
                                "amounts (SNS-AMB-30).")
        return result

    def plus(self, amount: int, kind: str | None = None) -> Cost:
        """The cost with one more amount (a surcharge printed as "+ n per ...")."""
        if amount == 0:
            return self
        return Cost((*self.amounts, amount), (*self.types, kind), self.guessed)

    def scaled(self, factor: int) -> Cost:
        return Cost(tuple(a * factor for a in self.amounts), self.types, self.guessed)


def _c(*amounts: int, types: tuple[str | None, ...] = (), guessed: bool = False) -> Cost:
    return Cost(tuple(amounts), types, guessed)


FREE = Cost(())

# --- buildings (SNS-BLD-*) ---------------------------------------------------------------------

ECONOMIC, SOCIETAL, MILITARY, DEFENSIVE = "Economic", "Societal", "Military", "Defensive"


@dataclass(frozen=True)
class BuildingType:
    """A building profile (SNS-BLD-*). ``requires`` are buildings that must stand (all of them),
    ``requires_any`` buildings of which one must stand; ``faction`` is a catalogue letter or "".
    ``hp``/``bp`` are ``None`` where the profile prints none."""

    code: str
    name: str
    category: str
    hp: int | None
    bp: int | None
    staffed: bool
    cost: Cost
    upkeep_food: int = 0
    growth: int = 0
    requires: tuple[str, ...] = ()
    requires_any: tuple[str, ...] = ()
    requires_upgrades: tuple[str, ...] = ()
    faction: str = ""
    note: str = ""

    @property
    def rule_id(self) -> str:
        return f"SNS-BLD-{self.code}"


_B = BuildingType
_BUILDINGS: tuple[BuildingType, ...] = (
    _B("STOCKPILE", "Stockpile", ECONOMIC, 5, None, True, FREE, growth=1,
       note="starting building; never below 1 HP; cannot be demolished; trains Villagers"),
    _B("COMMUNE", "Commune", ECONOMIC, 4, 6, True, _c(6, 4),
       note="upkeep -1 each; kingdom zone +2 inches each; placement rule only (SNS-AMB-31)"),
    _B("FARM", "Farm", ECONOMIC, 1, 2, True, _c(3, types=(WOOD,)),
       note="1 food per successful Farm die; not on snow or ice; outside the kingdom zone"),
    _B("MILL", "Mill", ECONOMIC, 3, 3, True, _c(3, 3), note="farming upgrades; Stone Drill"),
    _B("MARKET", "Market", ECONOMIC, 4, 4, True, _c(6, 2), note="trade 4 for 1; player trade"),
    _B("MERCHANTSGUILD", "Merchant's Guild", ECONOMIC, 4, 4, True, _c(5, 5, 5),
       requires=("MARKET",), note="Goods and Services gold; one (+1 per 2 Communes and 2 "
                                   "Vendors)"),
    _B("TAVERN", "Tavern", SOCIETAL, 4, 3, True, _c(8), upkeep_food=1, growth=1,
       note="trade 5 for 1; Festag"),
    _B("TOWNCENTER", "Town Center", SOCIETAL, 6, 4, True, _c(5, 5), upkeep_food=1, growth=1,
       requires_any=("TEMPLE", "TAVERN", "MARKET", "BARRACKS", "DOCK", "WORKSHOP"),
       note="garrison 6"),
    _B("TEMPLE", "Temple", SOCIETAL, 6, 6, True, _c(2, 8, 2), upkeep_food=1, growth=1,
       note="favor dice; heals; trains Monk and Caster"),
    _B("SACREDGROUND", "Sacred Ground", SOCIETAL, 4, 8, True, _c(6), faction="P",
       note="Pagani rituals"),
    _B("CATACOMBS", "Catacombs", SOCIETAL, 4, 8, True, _c(6), requires_upgrades=("DARKRITUAL",),
       note="Mass Sacrifice; undead heal 1 HP for 1 favor"),
    _B("TOTEM", "Totem", SOCIETAL, 2, 6, False, _c(5, 2),
       note="1 favor each per harvest while all Totems are at full HP"),
    _B("MONUMENT", "Monument", SOCIETAL, 6, 25, True, _c(20, 20, 10, 10),
       requires=("UNIVERSITY", "WORKSHOP"), note="stands 25 turns to win (SNS-AMB-29)"),
    _B("UNIVERSITY", "University", SOCIETAL, 4, 4, True, _c(2, 6, 2),
       note="technology upgrades; no prerequisite (SNS-AMB-31)"),
    _B("VENDOR", "Vendor", SOCIETAL, 2, 2, True, _c(4), requires=("MARKET", "COMMUNE"),
       note="+1 gold per unused growth point with a Commune each and a working Market"),
    _B("BATHHOUSE", "Bathhouse", SOCIETAL, 4, 6, True, _c(8, 1), requires=("TOWNCENTER",),
       note="Sickness becomes Idle Villagers"),
    _B("ARENA", "Arena", SOCIETAL, 4, 4, True, _c(4, 10, 2), upkeep_food=1, growth=1,
       requires=("TOWNCENTER",), note="Veteran tokens; inside the kingdom zone"),
    _B("BARRACKS", "Barracks", MILITARY, 6, 4, True, _c(4, 4),
       note="trains Swords, Spears, Archers"),
    _B("STABLE", "Stable", MILITARY, 4, 4, True, _c(5, 2), requires=("BARRACKS",),
       note="trains Riders, Knights, Chariots"),
    _B("WORKSHOP", "Workshop", MILITARY, 4, 4, True, _c(5, 2),
       note="trains siege units; opens the Paganite wood-for-stone payment"),
    _B("FOUNDRY", "Foundry", MILITARY, 4, 4, True, _c(6, 6, 4), faction="A",
       note="trains Cannon"),
    _B("SIEGECAMP", "Siege Camp", MILITARY, 4, 6, True, _c(6, 3),
       note="retrains touching units into Workshop units"),
    _B("DOCK", "Dock", MILITARY, 4, 4, True, _c(6, 4),
       note="touching ocean or river; trains Cog and Galley; disabled on some maps"),
    _B("CASTLE", "Castle", DEFENSIVE, 16, 12, True, _c(6, 12, 2, 2), requires=("WORKSHOP",),
       note="6 ranged attacks; garrison 6"),
    _B("GUARDTOWER", "Guard Tower", DEFENSIVE, 4, 3, True, _c(2, 3, 1),
       note="2 ranged attacks; garrison 1"),
    _B("WOODBRIDGE", "Wood Bridge", DEFENSIVE, 3, 2, False, _c(2)),
    _B("PALISADEWALL", "Palisade Wall", DEFENSIVE, 4, 1, False, _c(2, types=(WOOD,)),
       note="instant refund in the own map section at full HP"),
    _B("PALISADEGATE", "Palisade Gate", DEFENSIVE, 4, 2, True, _c(3), note="1 archer attack"),
    _B("STONEBRIDGE", "Stone Bridge", DEFENSIVE, 6, 4, False, _c(3),
       note="double cost and BP over impassable terrain"),
    _B("STONEWALL", "Stone Wall", DEFENSIVE, 10, 3, False, _c(4, types=(STONE,))),
    _B("STONEGATE", "Stone Gate", DEFENSIVE, 10, 5, True, _c(4, 2),
       note="part of the cost is stone (which part is not known)"),
    _B("TRENCHES", "Trenches", DEFENSIVE, 3, 3, False, _c(1), note="cannot be demolished"),
    _B("MOATS", "Moats", DEFENSIVE, None, None, False, FREE,
       note="a Trench joined to water; cannot be destroyed"),
    _B("MOUNDS", "Mounds", DEFENSIVE, None, 4, False, FREE, note="per 1 by 1 inch square"),
)

#: SNS-AMB-29: the Monument cost as the summary table prints it.
MONUMENT_SUMMARY_COST = _c(20, 20, 10)
#: SNS-ECON-42/44: buildings that cost 1 food a turn and give +1 growth while operational.
UPKEEP_BUILDINGS = ("TAVERN", "TOWNCENTER", "TEMPLE", "ARENA")
#: SNS-FAC-3: buildings whose stone a Paganite may not pay in wood.
NO_WOOD_FOR_STONE = ("STONEWALL", "STONEGATE")

# --- upgrades (SNS-UPG-*) ----------------------------------------------------------------------


@dataclass(frozen=True)
class UpgradeType:
    """An upgrade or ability (SNS-UPG-*) bought at ``building``.

    ``requires`` names buildings (operational) or upgrades (owned) by code; ``factions`` the
    catalogue letters allowed (empty = everyone). ``per_item`` is a surcharge per counted thing
    (``per_what``), added as one more amount of unknown type. ``ability`` marks costs paid at
    each use; ``alternatives`` are other printed costs the buyer may pay instead."""

    code: str
    name: str
    building: str
    cost: Cost
    factions: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    effect: str = ""
    single_use: bool = False
    ability: bool = False
    per_item: int = 0
    per_what: str = ""
    alternatives: tuple[Cost, ...] = ()
    min_farms: int = 0

    @property
    def rule_id(self) -> str:
        return f"SNS-UPG-{self.code}"

    def cost_for(self, items: int = 0, alternative: int = 0) -> Cost:
        """The cost with its per-item surcharge for ``items`` counted things."""
        base = self.cost if alternative == 0 else self.alternatives[alternative - 1]
        return base.plus(self.per_item * items)


AP, AD, PD = ("A", "P"), ("A", "D"), ("P", "D")
_U = UpgradeType
_UPGRADES: tuple[UpgradeType, ...] = (
    _U("REGENFORESTRY", "Regenerative Forestry", "STOCKPILE", _c(5), ("P", "A"),
       effect="one Forest turns Resource Scarcity into Idle Villagers"),
    _U("HUNTINGCABINS", "Hunting Cabins", "STOCKPILE", _c(2, 2),
       effect="hunting succeeds on 4+ (3+ for Paganites)"),
    _U("MILITIA", "Militia", "STOCKPILE", _c(2), single_use=True, ability=True,
       alternatives=(_c(2), _c(5)), effect="2 Villagers become Spears once a game"),
    _U("SNOWGEAR", "Snow Gear", "STOCKPILE", _c(1), ability=True, per_what="6 units",
       effect="6 units per resource paid are safe from snow and ice this turn"),
    _U("WELLS", "Wells", "MILL", _c(3, 3), effect="fire damage -1; reforested Forests level 4"),
    _U("SALTSAFE", "Salt Safe", "MILL", _c(2, 2, 2), effect="food spoilage loses 1 less"),
    _U("CROPROTATION", "Crop Rotation", "MILL", _c(5, 5), min_farms=5,
       effect="Crop Disease harvests 1 food instead"),
    _U("HEAVYPLOUGH", "Heavy Plough", "MILL", _c(6, 6), requires=("WORKSHOP",),
       effect="+1 food per successful Farm die"),
    _U("WORMSPRAY", "Worm Spray", "MILL", _c(6), AP, ("UNIVERSITY",),
       effect="pay 1 to turn Worms into Idle Villagers"),
    _U("ESTATES", "Estates", "MILL", _c(6), requires=("UNIVERSITY", "MERCHANTSGUILD"),
       effect="2 successful Farm dice become 1 gold"),
    _U("STONEDRILL", "Stone Drill", "MILL", _c(5), requires=("SPRINGSTEEL", "WELLS"),
       effect="units at the Mill roll for stone"),
    _U("TRADEROUTES", "Trade Routes", "MARKET", _c(5), effect="trade 6 for 2"),
    _U("TAXATION", "Taxation", "MERCHANTSGUILD", _c(8),
       requires=("CASTLE", "MARKET", "CRIMEPUNISH"),
       effect="Goods and Services gold doubled; growth -1"),
    _U("CUSTOMTARIFFS", "Custom Tariffs", "MERCHANTSGUILD", FREE, requires=("DOCK", "MARKET"),
       ability=True, effect="+1 gold per Shipping Routes trade"),
    _U("FESTAG", "Festag", "TAVERN", _c(2), ability=True, effect="+1 growth this turn"),
    _U("SPIES", "Spies", "TAVERN", _c(4), single_use=True, effect="spy on a kingdom"),
    _U("EXPLORERS", "Explorers", "TAVERN", _c(10), effect="pay 1 per explorer to roll a Site's "
                                                          "event table directly"),
    _U("SMOKEHOUSE", "Smokehouse", "TAVERN", _c(2, 2), effect="food spoilage loses 1 less"),
    _U("SABOTEURS", "Saboteurs", "TAVERN", _c(6), single_use=True,
       effect="damage a building or gate, or cause havoc"),
    _U("JESTERSCOURT", "The Jesters Court", "TAVERN", _c(5), requires=("CASTLE",),
       effect="2 uses a game; a target may lose d6 food"),
    _U("REFORESTATION", "Reforestation Projects", "TOWNCENTER", _c(4),
       effect="pay 5 to plant a Forest (timer 10)"),
    _U("HERESY", "Heresy", "TOWNCENTER", _c(8), effect="Strange Disappearance is Idle"),
    _U("GONGFARMING", "Gong Farming", "TOWNCENTER", _c(3), AP, effect="Sickness is Idle"),
    _U("MARTIALTRADITION", "Martial Tradition", "TOWNCENTER", _c(5), ("P",), ("BARRACKS",),
       per_item=1, per_what="Villager and Barracks unit owned",
       effect="Villagers become Archers; Archers and Villagers cost 1, 1"),
    _U("CRIMEPUNISH", "Crime and Punishment", "TOWNCENTER", _c(5, 5),
       effect="Idle Villagers count as harvests; growth -1 for the rest of the game"),
    _U("TREASON", "Treason", "TOWNCENTER", _c(5), requires=("CASTLE",),
       effect="converted units die on 3+"),
    _U("MASSFUNERAL", "Mass Funeral Service", "TEMPLE", _c(1), ability=True,
       effect="+1 growth this turn"),
    _U("DARKRITUAL", "Dark Ritual", "TEMPLE", FREE, ability=True,
       effect="sacrifice a unit, lose all favor and Wishes, become Damned"),
    _U("MARRIAGE", "Marriage Celebrations", "TEMPLE", _c(6, 6), requires=("CASTLE",),
       effect="a Queen appears"),
    _U("FLAGELLATION", "Flagellation Parades", "TEMPLE", _c(5), PD, single_use=True,
       effect="next Shunned harvests 1 favor"),
    _U("COINAGE", "Coinage", "TEMPLE", _c(3), ("A",), effect="Temple favor may become gold"),
    _U("DEEPBURIAL", "Deep Burial Excavations", "TEMPLE", _c(5), ("D",), ("CASTLE",),
       single_use=True, effect="allows Of Beast and Bone and Dragon Reanimation"),
    _U("BLOODSACRIFICE", "Blood Sacrifice", "TEMPLE", _c(1), PD,
       effect="sacrifice to re-roll a failed close-combat roll"),
    _U("DEFARCH", "Defensive Architecture", "UNIVERSITY", _c(6, 6), ("A",), ("WORKSHOP",),
       effect="walls, gates, Castle +3 HP; towers +2 HP"),
    _U("SPRINGSTEEL", "Spring Steel", "UNIVERSITY", _c(5, 2), AP, ("METALLURGY",),
       effect="Chariots; prerequisite"),
    _U("PLATEMETAL", "Plate Metal", "UNIVERSITY", _c(6, 6), requires=("WORKSHOP",),
       effect="armour for siege towers, rams, chariots"),
    _U("FIREPOTS", "Fire Pots", "UNIVERSITY", _c(6), effect="fire pots, 1 per launch"),
    _U("PYROMANCY", "Pyromancy", "UNIVERSITY", FREE, ("P",), ("FIREPOTS",),
       effect="Monks throw fire pots"),
    _U("BLACKPOWDER", "Black Powder", "UNIVERSITY", _c(6), ("A",),
       effect="prerequisite for gunpowder"),
    _U("DEMOLITION", "Demolition Teams", "UNIVERSITY", _c(3, 6), requires=("BLACKPOWDER",),
       effect="5 per Bomb token"),
    _U("VETERANS", "Veterans", "ARENA", _c(1), requires=("ARENA",), ability=True, per_item=1,
       per_what="Veteran token", effect="Veteran tokens (+1 to wound)"),
    _U("DRAGONSTOCKADE", "Balgruufs Famous Dragon Stockade", "ARENA", _c(5, 5, 5),
       effect="lure passing dragons"),
    _U("BLOODSPORTS", "Blood Sports", "ARENA", _c(2, 2),
       effect="sacrifice for +1 growth once a turn"),
    _U("TOWNWATCH", "Town Watch", "BARRACKS", _c(5), effect="catch spies on 5+"),
    _U("MILITARYDRILLS", "Military Drills", "BARRACKS", _c(6), AP,
       effect="Barracks units +1 move"),
    _U("FORTIFIEDBARRACKS", "Fortified Barracks", "BARRACKS", _c(3, 3, 3),
       effect="garrison 6, archer shots"),
    _U("ARBALESTS", "Arbalests", "BARRACKS", _c(4), AP, ("SPRINGSTEEL",),
       effect="Archers become Crossbows"),
    _U("GAMBESONS", "Gambesons", "BARRACKS", _c(6), effect="armour (1) for infantry"),
    _U("MAILARMOUR", "Mail Armour", "BARRACKS", _c(10), requires=("GAMBESONS",),
       effect="armour (1) for Swords, Spears, Queen, cavalry"),
    _U("METALLURGY", "Metallurgy", "BARRACKS", _c(6, 4), requires=("UNIVERSITY",),
       effect="armour (1) for Knights and Queens"),
    _U("SELECTIVEBREEDING", "Selective Breeding", "STABLE", _c(6), AP,
       effect="cavalry +1 move"),
    _U("RECURVEBOW", "Recurve Bow", "STABLE", _c(6), ("P",), per_item=1,
       per_what="Horse Rider in play", effect="Riders become Horse Archers; Riders cost +1"),
    _U("WARPIGS", "War Pigs", "STABLE", _c(3), ("P",), single_use=True, effect="a stun"),
    _U("BALLISTICS", "Ballistics", "WORKSHOP", _c(5), effect="+1 range"),
    _U("TREBUCHETS", "Trebuchets", "WORKSHOP", _c(5), requires=("CASTLE",),
       effect="Catapults become Trebuchets"),
    _U("TREADMILL", "Treadmill Crane", "WORKSHOP", _c(3), AP,
       effect="foundations finish at 1 BP"),
    _U("MASONSGUILD", "Mason's Guild", "WORKSHOP", _c(4), ("A",),
       effect="-1 on each building's cost except Stone Walls"),
    _U("TUNNELERS", "Tunnelers", "WORKSHOP", _c(5), effect="undermine walls"),
    _U("BATTLEMENTS", "Battlements", "WORKSHOP", _c(5), effect="drop attacks from walls"),
    _U("MURDERHOLES", "Murder Holes", "WORKSHOP", _c(4, 4), effect="danger zone at gates"),
    _U("IRONHANDS", "Iron Hands", "FOUNDRY", _c(6, 6), ("A",),
       ("WORKSHOP", "BLACKPOWDER", "SPRINGSTEEL"), effect="Cannoneers"),
    _U("AVPLATE", "Avalonian Plate", "FOUNDRY", _c(3, 3), ("A",), ("GAMBESONS", "STEAMENGINE"),
       effect="armour (1) for Swords, Spears, Riders"),
    _U("STEAMENGINE", "Steam Engine", "FOUNDRY", _c(5, 5), ("A",),
       ("BLACKPOWDER", "SPRINGSTEEL", "PLATEMETAL", "WELLS"), per_item=3,
       per_what="Ram owned", effect="Rams become Steam Tanks; Rams cost 3 more"),
    _U("STEAMHARVESTER", "Steam Harvester", "FOUNDRY", _c(5, 5), ("A",),
       ("STEAMENGINE", "HEAVYPLOUGH", "CROPROTATION", "AGRICULTURAL_REVOLUTION", "WORMSPRAY",
        "WELLS"), effect="insect plagues harvest 1 food"),
    _U("SHIPPINGROUTES", "Shipping Routes", "DOCK", _c(5), requires=("TRADEROUTES",),
       effect="trade 10 for 6"),
    _U("FISHINGFLEETS", "Fishing Fleets", "DOCK", _c(5), effect="ships may fish"),
    _U("CULTUREDFISHERS", "Cultured Fishers", "DOCK", _c(5), ("P",), ("FISHINGFLEETS",),
       effect="fishing 2+ ships, 3+ land"),
    _U("MERCHANTNAVIES", "Merchant Navies", "DOCK", _c(5), AP, ("MERCHANTSGUILD",),
       effect="1 gold per 2 ships on the table edge"),
    _U("GALLEONS", "Galleons", "DOCK", _c(5), ("A",), ("BLACKPOWDER", "FOUNDRY"), per_item=2,
       per_what="Cog in play", effect="Cogs become Galleons; Cogs cost 2 more"),
    _U("MERCENARIES", "Mercenaries", "DOCK", _c(3), AP, ("CASTLE", "TAVERN"),
       effect="buy units outside the growth rate"),
    _U("KINGSGUARD", "King's Guard", "CASTLE", _c(4), single_use=True,
       effect="3 Swords when the Castle is at 3 HP or less"),
    _U("SURPRISEATTACK", "Surprise Attack", "CASTLE", _c(6), AP, single_use=True),
    _U("SECRETPASSAGE", "Secret Passage", "CASTLE", FREE, per_item=2, per_what="inch",
       effect="tunnel from the Castle to a building"),
    _U("HEROKING", "Hero King", "CASTLE", _c(3, 2), single_use=True, effect="King +1 HP"),
    _U("ATTACKTOWERS", "Attack Towers", "GUARDTOWER", _c(8), requires=("CASTLE",),
       effect="towers 3 attacks"),
    _U("FORTIFIEDTOWER", "Fortified Tower", "GUARDTOWER", FREE, requires=("WORKSHOP",),
       ability=True, per_item=2, per_what="mounting", effect="mount a siege unit"),
)

#: SNS-AMB-23: named in prerequisites but never defined; the GM decides when a kingdom has it.
UNDEFINED_PREREQUISITES = ("AGRICULTURAL_REVOLUTION",)
#: SNS-UPG-MERCENARIES: price per Mercenary by type (resource probably gold, SNS-AMB-30).
MERCENARY_PRICES: Mapping[str, int] = MappingProxyType(
    {"SWORDS": 4, "SPEARS": 4, "ARCHERS": 4, "CROSSBOWS": 5, "RIDERS": 6, "HORSEARCHERS": 7}
)

# --- units (SNS-UNIT-*) ------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitType:
    """A unit profile (SNS-UNIT-*). ``trained_at`` is a building code ("" if never trained);
    ``armour`` the armour value in brackets (0 = none)."""

    code: str
    name: str
    trained_at: str
    cost: Cost
    hp: int = 1
    armour: int = 0
    requires: tuple[str, ...] = ()
    faction: str = ""
    military: bool = True
    score_class: str = "barracks"
    note: str = ""

    @property
    def rule_id(self) -> str:
        return f"SNS-UNIT-{self.code}"


def _uc(*amounts: int) -> Cost:
    """SNS-AMB-30: a unit's first amount is very probably food; the rest is unknown."""
    return Cost(tuple(amounts), (FOOD,) + (None,) * (len(amounts) - 1), guessed=True)


_N = UnitType
_UNITS: tuple[UnitType, ...] = (
    _N("VILLAGER", "Villager", "STOCKPILE", _c(1, types=(FOOD,)), military=False,
       score_class="villager"),
    _N("MONK", "Monk", "TEMPLE", _uc(1, 2), military=False, score_class="monk"),
    _N("CASTER", "Caster", "TEMPLE", _uc(1, 1, 3), military=False, score_class="caster",
       note="one at a time"),
    _N("SWORDS", "Swords", "BARRACKS", _uc(1, 2), armour=1),
    _N("SPEARS", "Spears", "BARRACKS", _uc(1, 2), armour=1),
    _N("ARCHERS", "Archers", "BARRACKS", _uc(1, 1, 1)),
    _N("RIDERS", "Riders", "STABLE", _uc(2, 2), armour=1, score_class="rider"),
    _N("KNIGHTS", "Knights", "STABLE", _uc(2, 3, 1), armour=2, requires=("CASTLE",),
       score_class="knight"),
    _N("CHARIOT", "Chariot", "STABLE", _uc(3, 2, 2), armour=1,
       requires=("SPRINGSTEEL", "RECURVEBOW"), faction="P", score_class="chariot"),
    _N("CATAPULT", "Catapult", "WORKSHOP", _uc(1, 4), score_class="siege_wall"),
    _N("BALLISTA", "Ballista", "WORKSHOP", _uc(1, 3, 1), score_class="ballista"),
    _N("RAM", "Battering Ram", "WORKSHOP", _uc(1, 2, 1), armour=2, score_class="siege_wall"),
    _N("SIEGETOWER", "Siege Tower", "WORKSHOP", _uc(1, 3, 1), armour=2,
       score_class="siege_wall"),
    _N("CANNON", "Cannon", "FOUNDRY", _uc(1, 4, 1), requires=("BLACKPOWDER",), faction="A",
       score_class="siege_wall"),
    _N("COG", "Cog", "DOCK", _uc(2, 5, 2), hp=2, armour=3, score_class="ship",
       note="carries 6"),
    _N("GALLEY", "Galley", "DOCK", _uc(2, 4, 1), hp=2, armour=3, score_class="ship",
       note="one amount is gold, which Paganites do not pay"),
    _N("QUEEN", "Queen", "", FREE, armour=2, military=False, score_class="queen",
       note="comes with Marriage Celebrations"),
    _N("KING", "King", "", FREE, military=False, score_class="king"),
    _N("ZOMBIE", "Zombie", "", FREE, faction="D", military=False, score_class="villager"),
    _N("MERC", "Mercenaries", "DOCK", FREE, requires=("CASTLE", "TAVERN"),
       note="priced per type (MERCENARY_PRICES); outside the growth rate"),
)

#: SNS-ECON-28 (SNS-AMB-39): units that count at an Avalonian Temple.
NON_MILITARY = ("VILLAGER", "KING", "QUEEN", "MONK", "CASTER")
#: SNS-FAC-9: units whose food a Kingdom of Bone still pays in food.
BONE_KEEPS_FOOD = ("QUEEN", "CASTER", "MONK")

# --- map types (SNS-MAP-*) ---------------------------------------------------------------------


@dataclass(frozen=True)
class MapType:
    """A map type's economic effects (SNS-MAP-*; names are the probable reading, SNS-AMB-35)."""

    code: str
    rule_id: str
    name: str
    farm_bp_factor: int = 1
    farm_wood_factor: int = 1
    wells_lift_farm_factors: bool = False
    dock_disabled: bool = False
    rain_rerolled: bool = False
    forest_level: int | None = None
    forest_start_scarcity: int = 0
    unlimited_stone: bool = False
    no_earthworks: bool = False
    note: str = ""


MAP_TYPES: Mapping[str, MapType] = MappingProxyType({m.code: m for m in (
    MapType("ice_lands", "SNS-MAP-1", "Ice lands", farm_bp_factor=2, rain_rerolled=True,
            note="a central band of snow and ice"),
    MapType("lonely_mountain", "SNS-MAP-2", "Lonely Mountain", unlimited_stone=True,
            note="half the Outcrops at the Mountain; its Scarcity is Idle Villagers"),
    MapType("black_forest", "SNS-MAP-3", "Black Forest", forest_level=6,
            note="extra Forests allowed"),
    MapType("isle_of_gold", "SNS-MAP-4", "Isle of Gold",
            note="no Outcrop removed; half the Outcrops on the central island"),
    MapType("great_plains", "SNS-MAP-5", "Great Plains", dock_disabled=True, note="no coast"),
    MapType("gold_coast", "SNS-MAP-6", "The Gold Coast",
            note="middle-island Outcrops are level 3 with gold on 2+"),
    MapType("the_gaps", "SNS-MAP-7", "The Gaps / Rabbit Isles",
            note="own island with 1 Forest; may start with a Dock and a Galley"),
    MapType("great_sandy", "SNS-MAP-8", "Great Sandy", farm_bp_factor=2, farm_wood_factor=2,
            wells_lift_farm_factors=True, forest_start_scarcity=1, no_earthworks=True,
            note="each player removes a Forest instead of an Outcrop"),
    MapType("mountains", "SNS-MAP-9", "Mountains (if agreed)", unlimited_stone=True,
            note="units touching a Mountain take unlimited stone"),
)})
#: SNS-MAP-8: building codes a Great Sandy map forbids.
EARTHWORKS = ("MOATS", "TRENCHES", "MOUNDS")

# --- timers, spells (SNS-STATE-*) --------------------------------------------------------------

#: SNS-STATE-3: the die timers a ledger keeps, with their starting value (SNS-AMB-38: Mine
#: Shaft Collapse 4). The Dire Warning flood is computed (``econ_turn.flood_timer``).
TIMERS: Mapping[str, int] = MappingProxyType({
    "Firewall": 3, "Of Earth and Stone": 4, "Dagobah": 5, "Call of the Cold": 4, "Shunned": 4,
    "Karma Count": 6, "Plague": 5, "Public Executions": 4, "Refugees": 6, "Red Wyvern": 4,
    "Human rights abuses": 6, "Mine Shaft Collapse": 4, "Saboteurs gate": 4,
    "Reforestation": 10, "Unconscious King": 3, "Monument victory": 25,
})


@dataclass(frozen=True)
class Spell:
    """A spell (SNS-STATE-7): base favor cost, extra favor per step, factions, phase."""

    name: str
    cost: int
    factions: tuple[str, ...]
    phase: str
    extra: int = 0
    timer: str = ""


SPELLS: Mapping[str, Spell] = MappingProxyType({s.name: s for s in (
    Spell("Berserkergang", 8, ("P",), "advance"),
    Spell("Esoteric Erotica", 4, ("P",), "advance"),
    Spell("House of Bubba", 7, ("P",), "advance"),
    Spell("Hippicus, Hopicus, Poppy, Cockeytus", 1, ("A", "P", "D"), "anytime"),
    Spell("Shillelagh Law", 4, ("P",), "anytime"),
    Spell("Windguardius Levitation", 3, ("A",), "move", extra=2),
    Spell("Guardian Ancestors", 4, ("A", "P"), "advance"),
    Spell("Warding Robes", 5, ("A", "P"), "advance"),
    Spell("Prayer of Gian", 2, ("P",), "advance"),
    Spell("Curse", 3, ("P", "D"), "advance"),
    Spell("Aura of Dread", 4, ("P", "D"), "anytime"),
    Spell("Voodoo Magic", 16, ("P", "D"), "move"),
    Spell("Bolt", 3, ("A", "P"), "combat", extra=1),
    Spell("Chain Lightning", 6, ("P", "D"), "combat"),
    Spell("Fireball", 8, ("A", "P", "D"), "combat"),
    Spell("Firewall", 5, ("A", "P"), "advance", extra=3, timer="Firewall"),
    Spell("Gnashing Rain", 1, ("P", "D"), "advance"),
    Spell("Of Earth and Stone", 4, ("A", "P"), "advance", timer="Of Earth and Stone"),
    Spell("Of Sword and Stone", 4, ("A", "P"), "advance"),
    Spell("Dagobah", 8, ("A", "P"), "advance", timer="Dagobah"),
    Spell("Call of the Cold", 8, ("A", "P", "D"), "advance", timer="Call of the Cold"),
    Spell("Sacred Flame", 1, ("A", "P"), "advance"),
    Spell("Heal", 0, ("A", "P"), "combat", extra=1),
    Spell("Vigor Mortis", 1, ("D",), "combat", extra=1),
    Spell("Of Beast and Bone", 8, ("D",), "advance"),
    Spell("Dragon Reanimation", 12, ("D",), "advance"),
    Spell("Divining", 2, ("A", "P", "D"), "advance"),
    Spell("Realm Banishment", 10, ("A", "P"), "combat"),
    Spell("Realm Gateway", 8, ("A", "P", "D"), "advance"),
)})
#: Gnashing Rain's printed steps (SNS-STATE-7).
GNASHING_RAIN_COSTS = (1, 4, 8, 12)

#: SNS-STATE-4: tokens and cards that persist on a ledger.
PERSISTENT_TOKENS = (
    "Veteran", "Bomb", "Berserker", "Guardian Ancestors", "Of Sword and Stone",
    "Shillelagh Law", "Realm Gateway", "Relic", "fire", "unstaffed", "Forest Village", "Coven",
    "Black Rock", "Divine Intervention", "Wish", "Talisman of Protection", "Swords of the Lady",
    "Kingdom of Bone", "Mystery Crate item",
)

# --- combat tables (SNS-CBT-3, SNS-CBT-15) -----------------------------------------------------

#: SNS-CBT-3: d6 needed to save by total armour value.
ARMOUR_SAVE: Mapping[int, int] = MappingProxyType({1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 1, 7: 0})

CRT_COLUMNS = (
    "Villager", "Spear", "Sword", "Archer", "Rider", "Knight", "Monk", "Queen", "King", "Caster",
    "Ballista", "Ram", "Catapult", "Cannon", "Chariot", "Siege Tower", "Monster", "Ship",
    "Building", "Stone Wall",
)
# "-" cannot; "2x3" = 2+ with three attacks. Spear->Queen follows SNS-AMB-36 (options may change).
_CRT_ROWS = {
    "Villager": "4 5 5 5 5 6 4 4 5 4 4 4 4 4 6 5 - 4 5 -",
    "Spear": "3 4 4 4 3 4 3 5 4 3 3 4 3 3 5 4 5 4 5 -",
    "Sword": "3 3 4 4 4 5 3 5 3 3 3 4 3 3 5 5 6 4 5 -",
    "Archer": "4 5 5 5 5 5 4 5 4 4 4 5 5 5 5 5 6 5 - -",
    "Rider": "3 4 4 3 4 5 3 5 4 3 3 3 3 3 4 5 6 4 5 -",
    "Knight": "2 3 3 2 3 4 2 4 3 2 3 3 3 3 4 5 4 3 5 -",
    "Monk": "5 6 6 6 6 - 6 6 6 6 6 6 6 6 6 6 - 6 - -",
    "Queen": "3 2 2 2 2 2 2 4 2 2 2 2 4 2 3 2 4 2 5 -",
    "King": "4 6 6 6 6 6 6 6 4 6 6 6 6 6 6 6 4 6 - -",
    "Caster": "5 5 5 5 5 5 4 5 5 4 5 5 5 5 5 5 6 5 - -",
    "Ballista": "4 4 4 4 4 4 3 5 4 3 4 4 4 4 4 5 5 4 3 -",
    "Ram": "- - - - - - - - - - 5 6 6 6 - 5 6 - 2x3 -",
    "Cannon": "4 4 4 4 5 5 3 5 4 4 3 3 3 3 5 3 5 3 2x3 2x3",
    "Catapult": "3 4 4 4 5 6 3 5 4 4 5 5 4 5 5 4 5 5 2x3 2x3",
    "Ship": "4 5 5 5 5 6 5 6 5 5 5 5 5 5 5 5 6 5 5 -",
    "Chariot": "2 3 3 2 3 4 2 4 4 3 6 6 6 6 3 6 6 6 - -",
    "Monster": "2 3 3 2 3 4 2 3 2 2 2 2 2 2 3 2 4 2 3x3 3x3",
}


def _crt_cell(text: str) -> tuple[int, int] | None:
    if text == "-":
        return None
    if "x" in text:
        need, attacks = text.split("x")
        return int(need), int(attacks)
    return int(text), 1


#: SNS-CBT-15: (attacker, target) -> (d6 needed, attacks) or None where it cannot attack.
CRT: Mapping[tuple[str, str], tuple[int, int] | None] = MappingProxyType({
    (row, column): _crt_cell(cell)
    for row, cells in _CRT_ROWS.items()
    for column, cell in zip(CRT_COLUMNS, cells.split(), strict=True)
})
#: SNS-AMB-36: the second printed copy of the table has Spear->Queen 3.
CRT_SPEAR_QUEEN_SECOND_COPY = 3

# --- the catalogue and GM overrides ------------------------------------------------------------


Entry = TypeVar("Entry", BuildingType, UpgradeType, UnitType)


def _index(items: Sequence[Entry]) -> Mapping[str, Entry]:
    return MappingProxyType({item.code: item for item in items})


def _typed(table: Mapping[str, Entry], code: str, kinds: Sequence[str | None],
           rule_id: str) -> Mapping[str, Entry]:
    if code not in table:
        raise ValueError(f"Unknown catalogue entry {rule_id!r}.")
    entry = table[code]
    if len(kinds) != len(entry.cost.amounts):
        raise ValueError(f"{rule_id} has {len(entry.cost.amounts)} printed amounts; "
                         f"{len(kinds)} types given.")
    changed = dict(table)
    changed[code] = replace(entry, cost=Cost(entry.cost.amounts, tuple(kinds)))
    return MappingProxyType(changed)


@dataclass(frozen=True)
class Catalogue:
    """Every buildable thing of one campaign, with the GM's cost types applied (SNS-AMB-30)."""

    buildings: Mapping[str, BuildingType] = field(default_factory=lambda: _index(_BUILDINGS))
    upgrades: Mapping[str, UpgradeType] = field(default_factory=lambda: _index(_UPGRADES))
    units: Mapping[str, UnitType] = field(default_factory=lambda: _index(_UNITS))

    def building(self, code: str) -> BuildingType:
        try:
            return self.buildings[code]
        except KeyError:
            raise RuleViolation(f"There is no building {code!r} (SNS-BLD).") from None

    def upgrade(self, code: str) -> UpgradeType:
        try:
            return self.upgrades[code]
        except KeyError:
            raise RuleViolation(f"There is no upgrade {code!r} (SNS-UPG).") from None

    def unit(self, code: str) -> UnitType:
        try:
            return self.units[code]
        except KeyError:
            raise RuleViolation(f"There is no unit {code!r} (SNS-UNIT).") from None

    def uncertain(self) -> tuple[str, ...]:
        """SNS-AMB-30: rule IDs of every entry whose cost types are unknown or only probable."""
        entries: list[BuildingType | UnitType | UpgradeType] = [
            *self.buildings.values(), *self.units.values(), *self.upgrades.values()]
        return tuple(entry.rule_id for entry in entries if entry.cost.types_uncertain)

    def with_cost_types(self, types: Mapping[str, Sequence[str | None]]) -> Catalogue:
        """SNS-AMB-30: a copy with the GM's resource types for some costs, keyed by rule ID
        (e.g. ``{"SNS-BLD-COMMUNE": ("wood", "stone")}``). The amounts stay as printed."""
        buildings, upgrades, units = self.buildings, self.upgrades, self.units
        for rule_id, kinds in types.items():
            parts = rule_id.split("-", 2)
            area = parts[1] if len(parts) == 3 and parts[0] == "SNS" else ""
            if area == "BLD":
                buildings = _typed(buildings, parts[2], kinds, rule_id)
            elif area == "UPG":
                upgrades = _typed(upgrades, parts[2], kinds, rule_id)
            elif area == "UNIT":
                units = _typed(units, parts[2], kinds, rule_id)
            else:
                raise ValueError(f"{rule_id!r} is not a building, unit or upgrade rule ID.")
        return Catalogue(buildings, upgrades, units)


DEFAULT_CATALOGUE = Catalogue()

__all__ = [
    "ARMOUR_SAVE", "BuildingType", "Catalogue", "Cost", "CRT", "DEFAULT_CATALOGUE", "FAVOR",
    "GOLD", "MAP_TYPES", "MapType", "SPELLS", "Spell", "TIMERS", "UnitType", "UpgradeType",
]
