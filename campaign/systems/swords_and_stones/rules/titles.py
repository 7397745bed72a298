"""Swords & Stones, Part A: Titles, post-game statistics, Mystery Crate items and game results.

* The Title catalogue as data (SNS-TITLE-*): 33 Titles, each with its check class (A: from the
  game result; S: from the statistics a GM records; J: needs the GM's yes or no), its
  requirement and reward in our words, and what it adds at game start.
* The per-game report of every player (SNS-STAT-*) and the Title suggestions drawn from it
  (``suggest_titles_for_game``), with the pick rules at a game's end (SNS-TITLE-G*).
* Mystery Crate items: free-text records, who may hold them, and carrying one to the next game
  (SNS-CRATE-*).
* How a game is won, lost or drawn (SNS-RES-*) and the early-end score (SNS-SCORE-*), which is
  not the campaign's Victory Points (SNS-AMB-26).

Pure functions over frozen dataclasses; illegal actions raise ``RuleViolation``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, fields, replace

from campaign.systems.swords_and_stones.rules.grand_campaign import (
    ALIVE,
    AVALONIAN,
    DAMNED,
    DEAD,
    DEFAULT_OPTIONS,
    DRAW,
    FACTIONS,
    KING_OUTCOMES,
    LOSS,
    NOTHING,
    PAGANITE,
    RESULTS,
    TITLES_ONE,
    WIN,
    Bundle,
    Options,
    Player,
    PlayerId,
    RuleViolation,
)

# --- the catalogue (SNS-TITLE-*) -----------------------------------------------------------------

CLASS_A = "A"
CLASS_S = "S"
CLASS_J = "J"


@dataclass(frozen=True)
class TitleDef:
    """One Title: catalogue code, rule ID, printed name, check class, requirement and reward
    (in our words), and ``stats`` naming the report fields its check reads."""

    code: str
    rule_id: str
    name: str
    check_class: str
    requirement: str
    reward: str
    stats: tuple[str, ...] = ()


def _t(code: str, name: str, cls: str, requirement: str, reward: str,
       *stats: str) -> TitleDef:
    return TitleDef(code, f"SNS-TITLE-{code}", name, cls, requirement, reward, stats)


TITLES: tuple[TitleDef, ...] = (
    _t("BRAVE", "The Brave", CLASS_S,
       "The King wounded 5 or more different enemy units that were not Villagers or Monks.",
       "+1 on every attack and counter-attack roll of the King, whatever profile he uses.",
       "king_wounds_on_non_villager_monk_units"),
    _t("BUTCHER", "The Butcher", CLASS_S,
       "15 kills or more within 5 consecutive turns (sacrificed prisoners count).",
       "Three times a game, one unit wounds automatically in close combat (never against a "
       "King, Queen or Caster).",
       "kills_by_turn", "max_kills_5_turn_window"),
    _t("CONQUEROR", "The Conqueror", CLASS_A,
       "Three campaign wins in a row, this game included, each ending as a Paganite.",
       "At game start, Leaf springs or Recurve bow researched for free.",
       "result", "faction_at_end"),
    _t("CHARITABLE", "The Charitable", CLASS_J,
       "Gave 10 gold or more to a player who was last or having a hard time.",
       "+1 gold in the starting Stockpile.",
       "gold_given_to_struggling_player"),
    _t("CHOSEN", "The Chosen", CLASS_A,
       "Three campaign wins in a row, this game included, each ending as an Avalonian.",
       "At game start, Black Powder researched for free or +5 favor.",
       "result", "faction_at_end"),
    _t("CUNNING", "The Cunning", CLASS_S,
       "Surprise Attack played 3 times or more and at least one successful use of Spies or "
       "Saboteurs, in the same game.",
       "Once a game, one chosen player plays without their Kingdom Screen until the turn ends.",
       "surprise_attack_uses", "successful_spy_saboteur_uses"),
    _t("DAMNED", "The Damned", CLASS_S,
       "Raised 25 Zombies or more from the dead.",
       "Each Dark Ritual you perform brings 5 Zombies into your kingdom zone at once.",
       "zombies_raised"),
    _t("DESTROYER", "The Destroyer", CLASS_S,
       "Destroyed 15 enemy buildings or more (each wall or gate section counts).",
       "Twice a game, a siege unit attacks a second time.",
       "enemy_buildings_destroyed"),
    _t("DEFENDER", "The Defender", CLASS_J,
       "Owned Completed Walls and a Castle, and attacked nobody outside the own map section "
       "before that turn.",
       "Defensive Fortifications may be added to the starting Stockpile.",
       "walls_and_castle_turn", "first_attack_outside_map_section_turn"),
    _t("DRAGONSLAYER", "The Dragon Slayer", CLASS_J,
       "Killed a Dragon that the King wounded and that took wounds from nobody else's units.",
       "A sleeping Dragon is tamed without a roll.",
       "dragon_slain_king_wound_own_units_only"),
    _t("DREADFUL", "The Dreadful", CLASS_S,
       "Killed 5 enemy Villagers or more before turn 30.",
       "Once a game, one other player's growth rate is 0 for a turn.",
       "enemy_villagers_killed_before_t30"),
    _t("ETERNAL", "The Eternal", CLASS_A,
       "Three campaign wins in a row, this game included, each ending as the Damned.",
       "At game start, Deep Burial Excavations researched for free.",
       "result", "faction_at_end"),
    _t("FEARED", "The Feared", CLASS_S,
       "Took 10 prisoners or more and spent them in blood rites.",
       "Once a game, hostile units inside your map section stand still for the rest of the "
       "turn.",
       "prisoners_used_in_blood_rites"),
    _t("FORESTLORD", "The Forest Lord", CLASS_S,
       "Planted 3 Forests with ReForestation Projects, or depleted at most 1 Forest.",
       "Forests your ReForestation Projects grow are one level higher.",
       "reforestation_projects", "forests_depleted"),
    _t("FRUGAL", "The Frugal", CLASS_S,
       "Held 50 gold or more in the Stockpile at some moment.",
       "+3 gold in the starting Stockpile.",
       "peak_gold"),
    _t("AGRICULTURALIST", "The Agriculturalist", CLASS_S,
       "8 successful Farm dice in one harvest, and every Mill upgrade of the faction owned at "
       "the end.",
       "One starting Villager is replaced by a Farm already in place.",
       "max_successful_farm_dice_one_turn", "mill_upgrades_at_end"),
    _t("HERETIC", "The Heretic", CLASS_J,
       "Destroyed every Temple and Totem of a player while owning none yourself.",
       "At game start, the Heresy upgrade for free.",
       "razed_all_temples_totems_of_a_player"),
    _t("HONORABLE", "The Honorable", CLASS_J,
       "Attacked no Villager all game, except Villagers that attacked first.",
       "Once a game, one wound on any of your units (the King too) is ignored.",
       "attacked_villagers_unprovoked"),
    _t("HORSEMASTER", "Horse Master", CLASS_S,
       "Kept 20 cavalry units together as one group for a whole turn.",
       "A Rider instead of one starting Villager, or 3 Riders free when the first Stable is "
       "completed.",
       "max_cavalry_single_group_full_turn"),
    _t("KIND", "The Kind", CLASS_S,
       "Used none of Crime and Punishment, Blood Magic and Blood Sports this game.",
       "3 Villagers join in the turn your Town Center is completed.",
       "used_crime_and_punishment", "used_blood_magic", "used_blood_sports"),
    _t("KINGSLAYER", "The King Slayer", CLASS_S,
       "Your King or Queen dealt the killing wound to an enemy King.",
       "At game start, name a rival: they take 2 off every Assassin event roll.",
       "enemy_kings_killed_by_own_king_or_queen"),
    _t("LEARNED", "The Learned", CLASS_S,
       "Bought 20 upgrades or more (free ones do not count).",
       "When a University is completed, one upgrade you may take comes free.",
       "upgrades_purchased"),
    _t("LORDOFBONES", "The Lord of Bones", CLASS_A,
       "Won the game while a Kingdom of Bone.",
       "+1 on every Of Beast and Bone spell roll.",
       "result", "kingdom_of_bone_at_end"),
    _t("MIGHTY", "The Mighty", CLASS_S,
       "Built every non-defensive building open to you, and at one moment owned a Castle and "
       "Completed Walls.",
       "After building a Castle, a staffed Merchant's Guild placed free in your kingdom zone.",
       "building_types_built", "castle_and_completed_walls_same_time"),
    _t("MONSTER", "The Monster", CLASS_S,
       "Killed 5 Villagers or more of one player before that player had a Town Center.",
       "Once a game, one player harvests nothing from all Forests or all Outcrops for a turn.",
       "max_villagers_killed_vs_one_player_before_their_tc"),
    _t("MYSTIC", "The Mystic", CLASS_S,
       "Spent 40 favor or more casting spells as an Avalonian or a Paganite.",
       "+10 favor at game start.",
       "favor_spent_on_spells_living"),
    _t("NOBLE", "The Noble", CLASS_S,
       "The reigning King never bought Warrior King.",
       "4 units instead of 3 may earn gold at the Merchant's Guild.",
       "warrior_king_purchased"),
    _t("PIOUS", "The Pious", CLASS_J,
       "From the Temple's completion on, a Villager or Monk kept touching it for 10 turns or "
       "more (breaks only while under attack or siege).",
       "2 Monks free when you complete a Temple.",
       "temple_vigil_kept", "temple_vigil_turns"),
    _t("RAIDER", "The Raider", CLASS_S,
       "Destroyed 3 enemy Farms or more before turn 30.",
       "Your first Barracks at once trains 2 of its units for free.",
       "enemy_farms_destroyed_before_t30"),
    _t("UNDYING", "The Undying", CLASS_A,
       "Won a game in which you performed the Dark Ritual.",
       "Once a game, the King ignores one successful wound.",
       "result", "dark_ritual_performed"),
    _t("VANDAL", "The Vandal", CLASS_S,
       "Fire Pots had a hand in destroying 6 enemy buildings or more.",
       "The first Saboteurs or Spies roll may be rolled again, keeping either result.",
       "enemy_buildings_destroyed_fire_pots"),
    _t("WARLORD", "The Warlord", CLASS_S,
       "10 kills or more before owning any Temple, Town Center or Castle.",
       "At game start, the Warrior King upgrade for free.",
       "kills_before_own_temple_tc_castle"),
    _t("WILD", "The Wild", CLASS_S,
       "Ended as a Paganite without performing the Emes, Vullie, Apoleo or Akhina ritual.",
       "The Amanti ritual's 4-worshipper bonus is active from the start until another ritual "
       "is performed.",
       "faction_at_end", "rituals_performed"),
)
TITLE_BY_CODE: Mapping[str, TitleDef] = {t.code: t for t in TITLES}


def title_start_bonus(code: str, variant: str | None = None) -> tuple[Bundle, str]:
    """SNS-KING-2, SNS-TITLE-G3: what an activated Title adds to the start of a game: resources
    or Villagers (a Bundle) and a note for the sheet. The Chosen asks ``variant`` "favor" or
    "black_powder"; Horse Master "rider" or "stable"; The Conqueror "leaf_springs" or
    "recurve_bow". Titles acting during play add nothing here."""
    title = TITLE_BY_CODE.get(code)
    if title is None:
        raise RuleViolation(f"SNS-TITLE-G3: there is no Title {code!r}.")
    variants: dict[str, dict[str, tuple[Bundle, str]]] = {
        "CHOSEN": {
            "favor": (Bundle(favor=5), ""),
            "black_powder": (NOTHING, "Black Powder researched free"),
        },
        "HORSEMASTER": {
            "rider": (Bundle(villagers=-1), "a Rider instead of one starting Villager"),
            "stable": (NOTHING, "3 Riders free when the first Stable is completed"),
        },
        "CONQUEROR": {
            "leaf_springs": (NOTHING, "Leaf springs researched free (SNS-AMB-23)"),
            "recurve_bow": (NOTHING, "Recurve bow researched free"),
        },
    }
    if code in variants:
        if variant not in variants[code]:
            raise RuleViolation(
                f"{title.rule_id}: {title.name} needs a choice: "
                + " or ".join(variants[code]) + "."
            )
        return variants[code][variant]
    fixed: dict[str, tuple[Bundle, str]] = {
        "FRUGAL": (Bundle(gold=3), ""),
        "CHARITABLE": (Bundle(gold=1), ""),
        "MYSTIC": (Bundle(favor=10), ""),
        "AGRICULTURALIST": (Bundle(villagers=-1), "a Farm in place instead of one Villager"),
        "ETERNAL": (NOTHING, "Deep Burial Excavations researched free"),
        "HERETIC": (NOTHING, "Heresy upgrade free"),
        "WARLORD": (NOTHING, "Warrior King upgrade free (SNS-AMB-23)"),
        "DEFENDER": (NOTHING, "Defensive Fortifications as the GM defines them (SNS-AMB-23)"),
        "WILD": (NOTHING, "Amanti 4-worshipper bonus active"),
        "KINGSLAYER": (NOTHING, "name the King's rival now"),
    }
    return fixed.get(code, (NOTHING, "acts during play"))


# --- reference sets (A.9.4) ----------------------------------------------------------------------

MILL_UPGRADES: tuple[str, ...] = (
    "Wells", "Salt Safe", "Crop Rotation", "Heavy Plough", "Worm Spray", "Estates", "Stone Drill",
)
AGRICULTURAL_REVOLUTION = "Agricultural Revolution"


def mill_upgrades_available(faction: str, options: Options = DEFAULT_OPTIONS) -> frozenset[str]:
    """SNS-TITLE-AGRICULTURALIST, SNS-AMB-22h: the Mill upgrades a faction can own (the Damned
    have no Worm Spray), plus Agricultural Revolution where the group has defined it."""
    found = set(MILL_UPGRADES)
    if faction == DAMNED:
        found.discard("Worm Spray")
    if options.agricultural_revolution:
        found.add(AGRICULTURAL_REVOLUTION)
    return frozenset(found)


NON_DEFENSIVE_BUILDINGS: tuple[str, ...] = (
    "Stockpile", "Commune", "Farm", "Mill", "Market", "Merchant's Guild", "Tavern", "Town Center",
    "Temple", "Totem", "Monument", "University", "Vendor", "Bathhouse", "Arena", "Barracks",
    "Stable", "Workshop", "Siege Camp", "Dock",
)
FACTION_BUILDINGS: Mapping[str, str] = {
    AVALONIAN: "Foundry", PAGANITE: "Sacred Ground", DAMNED: "Catacombs",
}
DEFENSIVE_BUILDINGS: tuple[str, ...] = (
    "Castle", "Guard Tower", "Wood Bridge", "Palisade Wall", "Palisade Gate", "Stone Bridge",
    "Stone Wall", "Stone Gate", "Trenches", "Moats", "Mounds",
)
ALL_BUILDINGS = frozenset(NON_DEFENSIVE_BUILDINGS) | frozenset(FACTION_BUILDINGS.values()) | (
    frozenset(DEFENSIVE_BUILDINGS)
)


def required_buildings(faction: str, dock_available: bool = True) -> frozenset[str]:
    """SNS-TITLE-MIGHTY, SNS-AMB-22j: every non-defensive building plus the faction's own,
    without the Dock on a map that has none."""
    found = set(NON_DEFENSIVE_BUILDINGS) | {FACTION_BUILDINGS[faction]}
    if not dock_available:
        found.discard("Dock")
    return frozenset(found)


#: SNS-TITLE-WILD, SNS-AMB-22n: rituals The Wild must not perform ("Ermes" read as Emes).
FORBIDDEN_WILD_RITUALS = frozenset({"Emes", "Vullie", "Apoleo", "Akhina"})


# --- the post-game report (SNS-STAT-*) -----------------------------------------------------------

#: SNS-STAT-12/13: the value of a "first turn" field the GM has not filled in (None there means
#: "never happened").
NOT_RECORDED = "not recorded"


@dataclass(frozen=True)
class GameReport:
    """One player's record of one campaign game: the result (SNS-STAT-0a..0f) and the
    statistics a GM enters (SNS-STAT-1..35, None where not recorded; Titles that need a field
    left empty are not suggested). ``reign`` says which King of the kingdom played;
    ``dock_available`` is false on maps without a Dock (SNS-MAP-5)."""

    player: PlayerId
    result: str
    faction_chosen: str
    dark_ritual_performed: bool = False
    faction_at_end: str | None = None
    kingdom_of_bone_at_end: bool = False
    king_outcome: str = ALIVE
    reign: int = 1
    dock_available: bool = True
    game: str = ""
    king_wounds_on_non_villager_monk_units: int | None = None
    kills_by_turn: Mapping[int, int] | None = None
    max_kills_5_turn_window: int | None = None
    enemy_villagers_killed_before_t30: int | None = None
    max_villagers_killed_vs_one_player_before_their_tc: int | None = None
    kills_before_own_temple_tc_castle: int | None = None
    enemy_buildings_destroyed: int | None = None
    enemy_buildings_destroyed_fire_pots: int | None = None
    enemy_farms_destroyed_before_t30: int | None = None
    enemy_kings_killed_by_own_king_or_queen: int | None = None
    dragon_slain_king_wound_own_units_only: bool | None = None
    attacked_villagers_unprovoked: bool | None = None
    walls_and_castle_turn: int | None | str = NOT_RECORDED
    first_attack_outside_map_section_turn: int | None | str = NOT_RECORDED
    prisoners_used_in_blood_rites: int | None = None
    zombies_raised: int | None = None
    max_cavalry_single_group_full_turn: int | None = None
    razed_all_temples_totems_of_a_player: bool | None = None
    peak_gold: int | None = None
    gold_given_to_struggling_player: int | None = None
    max_successful_farm_dice_one_turn: int | None = None
    mill_upgrades_at_end: frozenset[str] | None = None
    upgrades_purchased: int | None = None
    warrior_king_purchased: bool | None = None
    reforestation_projects: int | None = None
    forests_depleted: int | None = None
    building_types_built: frozenset[str] | None = None
    castle_and_completed_walls_same_time: bool | None = None
    temple_vigil_kept: bool | None = None
    temple_vigil_turns: int | None = None
    surprise_attack_uses: int | None = None
    successful_spy_saboteur_uses: int | None = None
    favor_spent_on_spells_living: int | None = None
    used_crime_and_punishment: bool | None = None
    used_blood_magic: bool | None = None
    used_blood_sports: bool | None = None
    rituals_performed: frozenset[str] | None = None

    @property
    def final_faction(self) -> str:
        """SNS-STAT-0d: the GM's entry, else the Damned after a Dark Ritual, else the faction
        chosen at setup."""
        if self.faction_at_end is not None:
            return self.faction_at_end
        return DAMNED if self.dark_ritual_performed else self.faction_chosen


_COUNT_FIELDS = tuple(
    f.name for f in fields(GameReport)
    if f.type in ("int | None", "int | None | str") and f.name != "reign"
)


def check_report(report: GameReport) -> GameReport:
    """SNS-STAT-0a..0f, SNS-STAT-1..35, SNS-KING-5, SNS-RES-2: refuse a report that cannot be
    true: unknown result, faction or King outcome; a dead, surrendered or fled King on the
    winning side; negative counts; more Fire Pot kills than buildings destroyed; unknown Mill
    upgrades or buildings."""
    who = report.player
    if report.result not in RESULTS:
        raise RuleViolation(f"SNS-STAT-0a: {who}'s result must be win, loss or draw.")
    if report.faction_chosen not in FACTIONS:
        raise RuleViolation(f"SNS-STAT-0b: {report.faction_chosen!r} is not a Faction.")
    if report.faction_at_end is not None and report.faction_at_end not in FACTIONS:
        raise RuleViolation(f"SNS-STAT-0d: {report.faction_at_end!r} is not a Faction.")
    if report.king_outcome not in KING_OUTCOMES:
        raise RuleViolation(f"SNS-STAT-0f: {report.king_outcome!r} is not a King outcome.")
    if report.king_outcome != ALIVE and report.result != LOSS:
        raise RuleViolation(
            f"SNS-KING-5: {who}'s King {report.king_outcome}, so {who} lost the game."
        )
    for name in _COUNT_FIELDS:
        value = getattr(report, name)
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise RuleViolation(f"SNS-STAT: {name} cannot be negative.")
    if report.kills_by_turn is not None:
        for turn, kills in report.kills_by_turn.items():
            if turn < 1 or kills < 0:
                raise RuleViolation(
                    "SNS-STAT-2: kills are counted for turns 1 and on, never below 0."
                )
    fire, destroyed = report.enemy_buildings_destroyed_fire_pots, report.enemy_buildings_destroyed
    if fire is not None and destroyed is not None and fire > destroyed:
        raise RuleViolation(
            "SNS-STAT-7: Fire Pot kills are part of the enemy buildings destroyed, so they "
            "cannot be more."
        )
    if report.mill_upgrades_at_end is not None:
        unknown = report.mill_upgrades_at_end - set(MILL_UPGRADES) - {AGRICULTURAL_REVOLUTION}
        if unknown:
            raise RuleViolation(
                f"SNS-STAT-21: unknown Mill upgrades: {', '.join(sorted(unknown))}."
            )
    if report.building_types_built is not None:
        unknown = report.building_types_built - ALL_BUILDINGS
        if unknown:
            raise RuleViolation(f"SNS-STAT-26: unknown buildings: {', '.join(sorted(unknown))}.")
    return report


def best_kill_window(kills_by_turn: Mapping[int, int], width: int = 5) -> int:
    """SNS-STAT-2, SNS-AMB-22b: the most kills within any ``width`` consecutive turn numbers
    (turns without an entry count 0)."""
    if not kills_by_turn:
        return 0
    best = 0
    for start in range(min(kills_by_turn), max(kills_by_turn) + 1):
        best = max(best, sum(kills_by_turn.get(t, 0) for t in range(start, start + width)))
    return best


def win_streak(history: Sequence[GameReport], report: GameReport) -> int:
    """SNS-TITLE-CONQUEROR/CHOSEN/ETERNAL (A.9.4): consecutive wins ending with this game, all
    with the same final faction. A loss or draw ends a streak; a win with another faction
    starts a new one."""
    streak = 0
    faction: str | None = None
    for game in (*history, report):
        if game.result != WIN:
            streak, faction = 0, None
        elif faction == game.final_faction:
            streak += 1
        else:
            streak, faction = 1, game.final_faction
    return streak


EARNED = "earned"
NEEDS_GM = "needs_gm"


@dataclass(frozen=True)
class TitleSuggestion:
    """A Title whose condition the report meets. ``status`` is ``earned`` when the app could
    check it, ``needs_gm`` when the GM must answer ``question`` yes or no first."""

    code: str
    name: str
    rule_id: str
    status: str
    reason: str
    question: str = ""
    already_held: bool = False


@dataclass(frozen=True)
class TitleReport:
    """SNS-TITLE-G1, SNS-TITLE-G2: one player's Titles from one game. ``voided`` lists Titles
    met by a King who died in this game: they are lost with him (SNS-AMB-25)."""

    player: PlayerId
    suggestions: tuple[TitleSuggestion, ...]
    voided: tuple[TitleSuggestion, ...] = ()

    @property
    def pickable(self) -> tuple[TitleSuggestion, ...]:
        """SNS-TITLE-G5: Titles the King does not hold yet."""
        return tuple(s for s in self.suggestions if not s.already_held)


Check = Callable[[GameReport, "_Context"], "tuple[str, str] | None"]


@dataclass(frozen=True)
class _Context:
    history: tuple[GameReport, ...]
    options: Options


def _at_least(name: str, threshold: int, label: str) -> Check:
    def check(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
        value = getattr(r, name)
        if value is None or value < threshold:
            return None
        return EARNED, f"{label}: {value} (needs {threshold})"
    return check


def _streak(faction: str) -> Check:
    def check(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
        if r.result != WIN or r.final_faction != faction:
            return None
        streak = win_streak(ctx.history, r)
        if streak < 3:
            return None
        return EARNED, f"{streak} campaign wins in a row as {faction.capitalize()} (needs 3)"
    return check


def _butcher(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    if r.max_kills_5_turn_window is not None:
        best = r.max_kills_5_turn_window
    elif r.kills_by_turn is not None:
        best = best_kill_window(r.kills_by_turn)
    else:
        return None
    return (EARNED, f"best 5-turn window: {best} kills (needs 15)") if best >= 15 else None


def _cunning(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    surprise, spies = r.surprise_attack_uses, r.successful_spy_saboteur_uses
    if surprise is None or spies is None or surprise < 3 or spies < 1:
        return None
    return EARNED, f"Surprise Attack {surprise} times (needs 3), spies or saboteurs {spies} (1)"


def _defender(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    walls, attack = r.walls_and_castle_turn, r.first_attack_outside_map_section_turn
    if walls == NOT_RECORDED or attack == NOT_RECORDED or not isinstance(walls, int):
        return None
    if attack is not None and isinstance(attack, int) and attack < walls:
        return None
    first = "no attack outside the map section" if attack is None else (
        f"first attack outside on turn {attack}")
    return NEEDS_GM, f"Walls and Castle on turn {walls}, {first}"


def _flag(name: str, wanted: bool, label: str, status: str = NEEDS_GM) -> Check:
    def check(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
        return (status, label) if getattr(r, name) is wanted else None
    return check


def _forest(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    planted, depleted = r.reforestation_projects, r.forests_depleted
    if planted is not None and planted >= 3:
        return EARNED, f"{planted} Forests planted by ReForestation Projects (needs 3)"
    if depleted is not None and depleted <= 1:
        return NEEDS_GM, f"only {depleted} Forest depleted (at most 1): weak reason (SNS-AMB-22g)"
    return None


def _agriculturalist(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    dice, mills = r.max_successful_farm_dice_one_turn, r.mill_upgrades_at_end
    if dice is None or mills is None or dice < 8:
        return None
    missing = mill_upgrades_available(r.final_faction, ctx.options) - mills
    if missing:
        return None
    return EARNED, f"{dice} successful Farm dice in one harvest (needs 8) and every Mill upgrade"


def _pious(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    if r.temple_vigil_kept is not True or r.temple_vigil_turns is None:
        return None
    if r.temple_vigil_turns < 10:
        return None
    return NEEDS_GM, f"Temple vigil kept for {r.temple_vigil_turns} turns (needs 10)"


def _kind(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    used = (r.used_crime_and_punishment, r.used_blood_magic, r.used_blood_sports)
    if any(u is None for u in used) or any(used):
        return None
    return EARNED, "no Crime and Punishment, Blood Magic or Blood Sports this game"


def _lord_of_bones(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    if r.result == WIN and r.kingdom_of_bone_at_end:
        return EARNED, "won as a Kingdom of Bone"
    return None


def _mighty(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    built, together = r.building_types_built, r.castle_and_completed_walls_same_time
    if built is None or together is not True:
        return None
    if required_buildings(r.final_faction, r.dock_available) - built:
        return None
    return EARNED, "every non-defensive building built, Castle and Completed Walls at once"


def _noble(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    if r.warrior_king_purchased is not False:
        return None
    same_king = [g for g in ctx.history if g.reign == r.reign]
    if any(g.warrior_king_purchased for g in same_king):
        return None
    return EARNED, f"this King never bought Warrior King ({len(same_king) + 1} games)"


def _undying(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    if r.result == WIN and r.dark_ritual_performed:
        return EARNED, "won a game with the Dark Ritual performed"
    return None


def _wild(r: GameReport, ctx: _Context) -> tuple[str, str] | None:
    if r.final_faction != PAGANITE or r.rituals_performed is None:
        return None
    if r.rituals_performed & FORBIDDEN_WILD_RITUALS:
        return None
    return EARNED, "ended Paganite without the Emes, Vullie, Apoleo or Akhina ritual"


_CHECKS: Mapping[str, Check] = {
    "BRAVE": _at_least("king_wounds_on_non_villager_monk_units", 5,
                       "enemy units wounded by the King"),
    "BUTCHER": _butcher,
    "CONQUEROR": _streak(PAGANITE),
    "CHARITABLE": _at_least("gold_given_to_struggling_player", 10,
                            "gold given to a struggling player"),
    "CHOSEN": _streak(AVALONIAN),
    "CUNNING": _cunning,
    "DAMNED": _at_least("zombies_raised", 25, "Zombies raised"),
    "DESTROYER": _at_least("enemy_buildings_destroyed", 15, "enemy buildings destroyed"),
    "DEFENDER": _defender,
    "DRAGONSLAYER": _flag("dragon_slain_king_wound_own_units_only", True,
                          "a Dragon wounded by the King and killed by your units alone"),
    "DREADFUL": _at_least("enemy_villagers_killed_before_t30", 5,
                          "enemy Villagers killed before turn 30"),
    "ETERNAL": _streak(DAMNED),
    "FEARED": _at_least("prisoners_used_in_blood_rites", 10, "prisoners spent in blood rites"),
    "FORESTLORD": _forest,
    "FRUGAL": _at_least("peak_gold", 50, "peak gold"),
    "AGRICULTURALIST": _agriculturalist,
    "HERETIC": _flag("razed_all_temples_totems_of_a_player", True,
                     "razed every Temple and Totem of a player"),
    "HONORABLE": _flag("attacked_villagers_unprovoked", False,
                       "no unprovoked attack on a Villager recorded"),
    "HORSEMASTER": _at_least("max_cavalry_single_group_full_turn", 20,
                             "cavalry kept in one group for a turn"),
    "KIND": _kind,
    "KINGSLAYER": _at_least("enemy_kings_killed_by_own_king_or_queen", 1,
                            "enemy Kings killed by your King or Queen"),
    "LEARNED": _at_least("upgrades_purchased", 20, "upgrades bought"),
    "LORDOFBONES": _lord_of_bones,
    "MIGHTY": _mighty,
    "MONSTER": _at_least("max_villagers_killed_vs_one_player_before_their_tc", 5,
                         "Villagers of one player killed before their Town Center"),
    "MYSTIC": _at_least("favor_spent_on_spells_living", 40,
                        "favor spent on spells as Avalonian or Paganite"),
    "NOBLE": _noble,
    "PIOUS": _pious,
    "RAIDER": _at_least("enemy_farms_destroyed_before_t30", 3,
                        "enemy Farms destroyed before turn 30"),
    "UNDYING": _undying,
    "VANDAL": _at_least("enemy_buildings_destroyed_fire_pots", 6,
                        "enemy buildings destroyed with Fire Pots"),
    "WARLORD": _at_least("kills_before_own_temple_tc_castle", 10,
                         "kills before owning a Temple, Town Center or Castle"),
    "WILD": _wild,
}

_QUESTIONS: Mapping[str, str] = {
    "CHARITABLE": "Was the player who received the gold last or having a hard time?",
    "DEFENDER": "Do the recorded turns hold: Walls and Castle before any attack outside the "
                "player's map section?",
    "DRAGONSLAYER": "Did the King wound the Dragon, and did only this player's units wound it "
                    "before it was killed (not tamed)?",
    "FORESTLORD": "Did this player really harvest Forests and still deplete at most one?",
    "HERETIC": "Did the player destroy every Temple and Totem of some player while owning "
               "none?",
    "HONORABLE": "Did the player attack no Villager all game, except Villagers that attacked "
                 "them first?",
    "PIOUS": "Was the Temple vigil broken only while the Temple was attacked or besieged?",
}


def suggest_titles(
    report: GameReport,
    history: Sequence[GameReport] = (),
    held: Collection[str] = (),
    options: Options = DEFAULT_OPTIONS,
) -> TitleReport:
    """SNS-TITLE-G1, SNS-TITLE-G2, SNS-TITLE-G5, SNS-STAT-*, every SNS-TITLE-<NAME> and
    SNS-AMB-22a..n: the Titles one player met in one game, with a reason each. Class A and S
    Titles are decided here; class J ones (and The Forest Lord's weak branch) come back as a
    question for the GM. ``history`` is the player's earlier campaign games, oldest first;
    ``held`` the Titles their King holds. A King who died loses them all (SNS-AMB-25)."""
    check_report(report)
    ctx = _Context(tuple(history), options)
    found = []
    for title in TITLES:
        verdict = _CHECKS[title.code](report, ctx)
        if verdict is None:
            continue
        status, reason = verdict
        if title.check_class == CLASS_J:
            status = NEEDS_GM
        found.append(TitleSuggestion(
            code=title.code,
            name=title.name,
            rule_id=title.rule_id,
            status=status,
            reason=reason,
            question=_QUESTIONS.get(title.code, "") if status == NEEDS_GM else "",
            already_held=title.code in held,
        ))
    if report.king_outcome == DEAD:
        return TitleReport(report.player, (), tuple(found))
    return TitleReport(report.player, tuple(found))


def suggest_titles_for_game(
    reports: Sequence[GameReport],
    histories: Mapping[PlayerId, Sequence[GameReport]] | None = None,
    held: Mapping[PlayerId, Collection[str]] | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> dict[PlayerId, TitleReport]:
    """SNS-TITLE-G1, SNS-TITLE-G2, SNS-STAT-*: the Title suggestions of every player of one
    game. At most one player may have won unless the game had allied winners (SNS-RES-3)."""
    seen = [r.player for r in reports]
    if len(set(seen)) != len(seen):
        raise RuleViolation("SNS-STAT: one report per player and game.")
    histories = histories or {}
    held = held or {}
    return {
        r.player: suggest_titles(r, histories.get(r.player, ()), held.get(r.player, ()), options)
        for r in reports
    }


def award_titles(
    player: Player,
    report: TitleReport,
    picks: Sequence[str],
    gm_yes: Collection[str] = (),
    options: Options = DEFAULT_OPTIONS,
) -> Player:
    """SNS-TITLE-G2, SNS-TITLE-G4, SNS-TITLE-G5, SNS-AMB-20, SNS-AMB-25: the player adds the
    picked Titles to their King. By default one Title per game end (``titles_per_game_end``
    "all": any number); a pick must be a suggestion not held yet, and a Title that needs the
    GM must be in ``gm_yes``. A King who died takes no Title."""
    if report.player != player.id:
        raise RuleViolation("SNS-TITLE-G2: these suggestions belong to another player.")
    if player.king is None or report.voided:
        raise RuleViolation(
            "SNS-AMB-25: the King died in this game, so no Title from it is kept."
        )
    if options.titles_per_game_end == TITLES_ONE and len(picks) > 1:
        raise RuleViolation("SNS-TITLE-G2: pick one Title at the end of a game.")
    if len(set(picks)) != len(picks):
        raise RuleViolation("SNS-TITLE-G5: a Title is picked once.")
    by_code = {s.code: s for s in report.suggestions}
    for code in picks:
        suggestion = by_code.get(code)
        if suggestion is None:
            name = TITLE_BY_CODE[code].name if code in TITLE_BY_CODE else code
            raise RuleViolation(f"SNS-TITLE-G2: {name} was not earned in this game.")
        if suggestion.already_held or code in player.king.titles:
            raise RuleViolation(
                f"SNS-TITLE-G5: King {player.king.name} already holds {suggestion.name}; "
                "pick another."
            )
        if suggestion.status == NEEDS_GM and code not in gm_yes:
            raise RuleViolation(
                f"{suggestion.rule_id}: {suggestion.name} needs the GM's yes: "
                f"{suggestion.question}"
            )
    king = replace(player.king, titles=player.king.titles | frozenset(picks))
    return replace(player, king=king)


# --- Mystery Crate (SNS-CRATE-*) -----------------------------------------------------------------

GENERAL = "general"
TOKEN = "token"
CRATE_ITEM_KINDS = (GENERAL, TOKEN)
#: SNS-CRATE-1: the event tables on which a 16 finds a Mystery Crate.
CRATE_TABLES = frozenset({"forest", "outcrop", "farm", "fishing", "favor"})
CRATE_ROLL = 16


@dataclass(frozen=True)
class CrateItem:
    """SNS-CRATE-2, SNS-CRATE-8: a Mystery Crate card as the table writes it down: the book
    lists no cards, so name, kind (general or token) and effect are free text."""

    name: str
    kind: str = GENERAL
    effect: str = ""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RuleViolation("SNS-CRATE-8: a crate item needs a name.")
        if self.kind not in CRATE_ITEM_KINDS:
            raise RuleViolation("SNS-CRATE-2: a crate item is general or a token.")


def finds_mystery_crate(table: str, roll: int) -> bool:
    """SNS-CRATE-1: a 16 on the Forest, Outcrop, Farm, Fishing or Favor event table."""
    return table in CRATE_TABLES and roll == CRATE_ROLL


def keep_one_of_three(drawn: Sequence[CrateItem], keep: str) -> CrateItem:
    """SNS-CRATE-1 (Wish "From Sand To Solid"): three cards drawn, one kept."""
    if len(drawn) != 3:
        raise RuleViolation("SNS-CRATE-1: From Sand To Solid draws three crate items.")
    for item in drawn:
        if item.name == keep:
            return item
    raise RuleViolation(f"SNS-CRATE-1: {keep} is not one of the three drawn.")


def remove_random_item(items: Sequence[CrateItem], pick: int) -> tuple[CrateItem, ...]:
    """SNS-CRATE-1 (Wish "From Solid To Sand"): one item of another player, chosen at random
    (``pick`` is the 1-based position the dice chose), leaves the game."""
    if not items:
        raise RuleViolation("SNS-CRATE-1: that player holds no crate item.")
    if not 1 <= pick <= len(items):
        raise RuleViolation(f"SNS-CRATE-1: roll a number from 1 to {len(items)}.")
    return tuple(item for i, item in enumerate(items, 1) if i != pick)


#: SNS-CRATE-3: unit kinds that can never carry an item.
NO_ITEM_UNITS = frozenset({"monster", "beast"})


def may_hold_item(unit_kind: str) -> bool:
    """SNS-CRATE-3: any unit may hold items (several at once), but never a Monster or Beast."""
    return unit_kind.lower() not in NO_ITEM_UNITS


def may_pass_token(item: CrateItem, passes_this_move: int, touching_friend: bool) -> bool:
    """SNS-CRATE-2: a token item passes to a touching friendly unit once per move subphase;
    general items are not passed around."""
    return item.kind == TOKEN and passes_this_move == 0 and touching_friend


def carrier_removed(
    carried: Sequence[CrateItem], discards: Sequence[CrateItem]
) -> tuple[tuple[CrateItem, ...], tuple[CrateItem, ...]]:
    """SNS-CRATE-4: a unit removed from play loses what it carried; those items go to the
    discard pile for the rest of the game. Returns (carried now, discard pile)."""
    return (), (*discards, *carried)


def close_crate_inventory(
    player: Player,
    king_outcome: str,
    gone: Collection[str] = (),
    carry: CrateItem | None = None,
    options: Options = DEFAULT_OPTIONS,
) -> Player:
    """SNS-CRATE-5, SNS-CRATE-7, SNS-AMB-24: at a game's end items used up or lost
    (``gone``, by name) leave the King's inventory; if the group agreed to carry-over and the
    King lives, one item held at the end (``carry``) joins the inventory. A dead King keeps
    nothing (see ``grand_campaign.king_dies``)."""
    if king_outcome not in KING_OUTCOMES:
        raise RuleViolation(f"SNS-STAT-0f: {king_outcome!r} is not a King outcome.")
    if player.king is None or king_outcome == DEAD:
        if carry is not None:
            raise RuleViolation("SNS-CRATE-5: only a living King carries an item onward.")
        return player
    if carry is not None and not options.crate_carryover:
        raise RuleViolation(
            "SNS-CRATE-5: this campaign does not carry crate items from game to game."
        )
    kept = tuple(i for i in player.king.crate_items if i.name not in gone)
    if carry is not None:
        kept = (*kept, carry)
    return replace(player, king=replace(player.king, crate_items=kept))


# --- game results (SNS-RES-*) and the early-end score (SNS-SCORE-*) -----------------------------

#: SNS-RES-1: turns a Monument must stand for a victory By Stone.
MONUMENT_TURNS = 25
#: SNS-RES-4, SNS-SCORE-3: the lead a top score needs to win an early-ended game.
EARLY_END_LEAD = 10


@dataclass(frozen=True)
class GameResult:
    """SNS-RES-5: all a campaign needs from any game mode: who won, who lost, or a draw."""

    winners: tuple[PlayerId, ...] = ()
    losers: tuple[PlayerId, ...] = ()
    drawn: tuple[PlayerId, ...] = ()

    def result_of(self, player: PlayerId) -> str:
        if player in self.winners:
            return WIN
        if player in self.losers:
            return LOSS
        if player in self.drawn:
            return DRAW
        raise RuleViolation(f"SNS-RES-5: {player} did not play this game.")


def sword_victory(kings_standing: Sequence[PlayerId]) -> PlayerId | None:
    """SNS-RES-1: By Sword, the last King standing wins (the others killed or surrendered)."""
    return kings_standing[0] if len(kings_standing) == 1 else None


def stone_victory(monument_turns_standing: int) -> bool:
    """SNS-RES-1: By Stone, a Monument kept standing for 25 turns wins."""
    return monument_turns_standing >= MONUMENT_TURNS


def sides_result(sides: Mapping[str, Sequence[PlayerId]], winning_side: str | None) -> GameResult:
    """SNS-RES-3, SNS-RES-5, SNS-AMB-10: with team victories every member of the winning side
    wins and every member of the other sides loses; no winning side is a draw."""
    everyone = [p for members in sides.values() for p in members]
    if len(set(everyone)) != len(everyone):
        raise RuleViolation("SNS-RES-3: a player plays on one side only.")
    if winning_side is None:
        return GameResult(drawn=tuple(everyone))
    if winning_side not in sides:
        raise RuleViolation(f"SNS-RES-3: there is no side {winning_side!r}.")
    losers = tuple(p for side, members in sides.items() if side != winning_side for p in members)
    return GameResult(winners=tuple(sides[winning_side]), losers=losers)


def check_result(result: GameResult, king_outcomes: Mapping[PlayerId, str]) -> GameResult:
    """SNS-RES-2, SNS-KING-5: a player whose King died (or surrendered or fled) cannot be a
    winner."""
    for p in result.winners:
        outcome = king_outcomes.get(p, ALIVE)
        if outcome != ALIVE:
            raise RuleViolation(f"SNS-RES-2: {p}'s King {outcome}, so {p} lost the game.")
    return result


def early_end(scores: Mapping[PlayerId, int]) -> GameResult:
    """SNS-RES-4, SNS-SCORE-3: an early-ended game goes to the top score only if it leads the
    next best by 10 or more; otherwise it is a draw."""
    if len(scores) < 2:
        raise RuleViolation("SNS-RES-4: an early end compares the scores of two players or more.")
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (top, best), (_, second) = ranked[0], ranked[1]
    if best - second >= EARLY_END_LEAD:
        return GameResult(winners=(top,), losers=tuple(p for p, _ in ranked[1:]))
    return GameResult(drawn=tuple(p for p, _ in ranked))


#: SNS-SCORE-1, SNS-AMB-27: points per counted thing; the four numbers the book leaves blank
#: take the line above's (veteran or bomb 3, tower 4, upgrade 4, Completed Wall 10).
SCORE_TABLE: Mapping[str, int] = {
    "units": 1,
    "favor": 1,
    "military_on_land": 1,
    "elite_units": 1,
    "ships": 3,
    "veteran_or_bomb_units": 3,
    "operational_buildings": 4,
    "towers": 4,
    "upgrades": 4,
    "dragons_queens_casters": 6,
    "castles": 10,
    "completed_walls": 10,
    "monuments": 20,
}


def score_total(
    counts: Mapping[str, int], damned: bool = False, table: Mapping[str, int] = SCORE_TABLE
) -> int:
    """SNS-SCORE-1, SNS-SCORE-2, SNS-AMB-26, SNS-AMB-27: the early-end score (not campaign
    Victory Points): each count times its points; the Damned keep 70 %, rounded up."""
    unknown = sorted(set(counts) - set(table))
    if unknown:
        raise RuleViolation(f"SNS-SCORE-1: nothing scores for {', '.join(unknown)}.")
    total = sum(table[k] * n for k, n in counts.items())
    return -(-total * 7 // 10) if damned else total
