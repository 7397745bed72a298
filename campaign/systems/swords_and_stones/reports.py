"""The post-game report (SNS-STAT-*): its fields as a form describes them, how a posted form
becomes the JSON a participant keeps, and how that JSON becomes the rules' ``GameReport``.

Every statistic is optional: a field left empty is "not recorded", and a Title that needs it is
not suggested. Yes/no questions have three answers (empty, yes, no); the two "first turn" fields
take a turn number or "never".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.parsing import ParseError, parse_int
from campaign.systems.swords_and_stones.models import Participant
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import titles as tt

INT = "int"
BOOL = "bool"
TURN = "turn"
SET = "set"
KILLS = "kills"
FACTION = "faction"

#: Pagani deities whose rituals a report may list (SNS-STAT-35).
DEITIES = ("Akhina", "Amanti", "Apoleo", "Aros", "Emes", "Hiros", "Piya", "Talos", "Vullie",
           "Vena", "Yedvadova")


@dataclass(frozen=True)
class Field:
    """One question of the report: its ``GameReport`` name, words, kind, rule ID and the
    choices of a set."""

    name: str
    label: str
    kind: str
    rule_id: str
    group: str
    choices: tuple[str, ...] = ()


def _f(name: str, label: str, kind: str, rule_id: str, group: str,
       choices: tuple[str, ...] = ()) -> Field:
    return Field(name, label, kind, rule_id, group, choices)


FIELDS: tuple[Field, ...] = (
    _f("faction_chosen", "Faction at setup", FACTION, "SNS-STAT-0b", "The game"),
    _f("faction_at_end", "Faction at the end (if it changed)", FACTION, "SNS-STAT-0d",
       "The game"),
    _f("dark_ritual_performed", "Performed the Dark Ritual", BOOL, "SNS-STAT-0c", "The game"),
    _f("kingdom_of_bone_at_end", "A Kingdom of Bone at the end", BOOL, "SNS-STAT-0e",
       "The game"),
    _f("king_wounds_on_non_villager_monk_units",
       "Enemy units (not Villagers or Monks) the King wounded", INT, "SNS-STAT-1", "Kills"),
    _f("kills_by_turn", "Kills by turn (e.g. 31:5, 32:5)", KILLS, "SNS-STAT-2", "Kills"),
    _f("max_kills_5_turn_window", "Or: most kills in 5 turns in a row", INT, "SNS-STAT-2",
       "Kills"),
    _f("enemy_villagers_killed_before_t30", "Enemy Villagers killed before turn 30", INT,
       "SNS-STAT-3", "Kills"),
    _f("max_villagers_killed_vs_one_player_before_their_tc",
       "Most Villagers of one player killed before their Town Center", INT, "SNS-STAT-4",
       "Kills"),
    _f("kills_before_own_temple_tc_castle",
       "Kills before owning a Temple, Town Center or Castle", INT, "SNS-STAT-5", "Kills"),
    _f("enemy_kings_killed_by_own_king_or_queen", "Enemy Kings killed by your King or Queen",
       INT, "SNS-STAT-9", "Kills"),
    _f("prisoners_used_in_blood_rites", "Prisoners spent on Blood Sacrifice or Blood Sports",
       INT, "SNS-STAT-14", "Kills"),
    _f("zombies_raised", "Zombies raised from the dead", INT, "SNS-STAT-15", "Kills"),
    _f("max_cavalry_single_group_full_turn", "Most cavalry kept in one group for a turn", INT,
       "SNS-STAT-16", "Kills"),
    _f("enemy_buildings_destroyed", "Enemy buildings destroyed", INT, "SNS-STAT-6",
       "Destruction"),
    _f("enemy_buildings_destroyed_fire_pots", "Of those, with Fire Pots", INT, "SNS-STAT-7",
       "Destruction"),
    _f("enemy_farms_destroyed_before_t30", "Enemy Farms destroyed before turn 30", INT,
       "SNS-STAT-8", "Destruction"),
    _f("razed_all_temples_totems_of_a_player",
       "Razed every Temple and Totem of a player, owning none", BOOL, "SNS-STAT-17",
       "Destruction"),
    _f("dragon_slain_king_wound_own_units_only",
       "A Dragon wounded by the King, killed by your units alone", BOOL, "SNS-STAT-10",
       "Destruction"),
    _f("attacked_villagers_unprovoked", "Attacked a Villager that had not attacked you", BOOL,
       "SNS-STAT-11", "Conduct"),
    _f("used_crime_and_punishment", "Used Crime and Punishment", BOOL, "SNS-STAT-32",
       "Conduct"),
    _f("used_blood_magic", "Used Blood Sacrifice", BOOL, "SNS-STAT-33", "Conduct"),
    _f("used_blood_sports", "Used Blood Sports", BOOL, "SNS-STAT-34", "Conduct"),
    _f("walls_and_castle_turn", "First turn with Completed Walls and a Castle", TURN,
       "SNS-STAT-12", "Building"),
    _f("first_attack_outside_map_section_turn", "First attack outside your map section",
       TURN, "SNS-STAT-13", "Building"),
    _f("peak_gold", "Most gold held at once", INT, "SNS-STAT-18", "Economy"),
    _f("gold_given_to_struggling_player", "Gold given to a struggling player", INT,
       "SNS-STAT-19", "Economy"),
    _f("max_successful_farm_dice_one_turn", "Most successful Farm dice in one harvest", INT,
       "SNS-STAT-20", "Economy"),
    _f("mill_upgrades_at_end", "Mill upgrades owned at the end", SET, "SNS-STAT-21",
       "Economy", (*tt.MILL_UPGRADES, tt.AGRICULTURAL_REVOLUTION)),
    _f("upgrades_purchased", "Upgrades bought", INT, "SNS-STAT-22", "Economy"),
    _f("warrior_king_purchased", "Bought Warrior King", BOOL, "SNS-STAT-23", "Economy"),
    _f("reforestation_projects", "Forests planted by ReForestation Projects", INT,
       "SNS-STAT-24", "Economy"),
    _f("forests_depleted", "Forest Sites you depleted", INT, "SNS-STAT-25", "Economy"),
    _f("building_types_built", "Building types completed", SET, "SNS-STAT-26", "Building",
       tuple(sorted(tt.ALL_BUILDINGS))),
    _f("castle_and_completed_walls_same_time", "Owned a Castle and Completed Walls at once",
       BOOL, "SNS-STAT-27", "Building"),
    _f("temple_vigil_kept", "Temple vigil kept", BOOL, "SNS-STAT-28", "Faith"),
    _f("temple_vigil_turns", "Temple vigil turns", INT, "SNS-STAT-28", "Faith"),
    _f("surprise_attack_uses", "Surprise Attacks played", INT, "SNS-STAT-29", "Faith"),
    _f("successful_spy_saboteur_uses", "Spies or Saboteurs that succeeded", INT,
       "SNS-STAT-30", "Faith"),
    _f("favor_spent_on_spells_living", "Favor spent on spells as Avalonian or Paganite", INT,
       "SNS-STAT-31", "Faith"),
    _f("rituals_performed", "Pagani rituals performed", SET, "SNS-STAT-35", "Faith", DEITIES),
)
FIELD_BY_NAME = {f.name: f for f in FIELDS}
GROUPS: tuple[str, ...] = tuple(dict.fromkeys(f.group for f in FIELDS))
_KILLS = re.compile(r"^\s*(\d{1,3})\s*[:=]\s*(\d{1,3})\s*$")


def parse(data: Any) -> dict[str, Any]:
    """A posted report form (a QueryDict) as Python values; what is left empty is not in the
    result. Malformed values raise ``ParseError`` naming the field."""
    found: dict[str, Any] = {}
    for f in FIELDS:
        raw = (data.get(f.name) or "").strip() if f.kind != SET else None
        if f.kind == INT and raw:
            found[f.name] = parse_int(raw, 0, 9999, f.label)
        elif f.kind == BOOL and raw:
            if raw not in ("yes", "no"):
                raise ParseError(f"“{f.label}” is yes, no or left empty.")
            found[f.name] = raw == "yes"
        elif f.kind == TURN and raw:
            found[f.name] = None if raw == "never" else parse_int(raw, 1, 999, f.label)
        elif f.kind == FACTION and raw:
            if raw not in gc.FACTIONS:
                raise ParseError(f"“{f.label}” must be one of {', '.join(gc.FACTIONS)}.")
            found[f.name] = raw
        elif f.kind == KILLS and raw:
            kills: dict[int, int] = {}
            for part in raw.replace(";", ",").split(","):
                if not part.strip():
                    continue
                m = _KILLS.match(part)
                if m is None:
                    raise ParseError(f"“{f.label}”: write turn:kills pairs such as 31:5, 32:5.")
                kills[int(m.group(1))] = kills.get(int(m.group(1)), 0) + int(m.group(2))
            found[f.name] = kills
        elif f.kind == SET and data.get(f"{f.name}__asked"):
            picked = data.getlist(f.name)
            unknown = [p for p in picked if p not in f.choices]
            if unknown:
                raise ParseError(f"“{f.label}”: unknown {', '.join(unknown)}.")
            found[f.name] = sorted(set(picked))
    return found


def clean(values: Mapping[str, Any]) -> dict[str, Any]:
    """Python values (from ``parse`` or a file) as the JSON a participant keeps."""
    stored: dict[str, Any] = {}
    for name, value in values.items():
        f = FIELD_BY_NAME.get(name)
        if f is None:
            raise tt.RuleViolation(f"SNS-STAT: the report has no question {name!r}.")
        if f.kind == SET:
            stored[name] = sorted(set(value))
        elif f.kind == KILLS:
            stored[name] = {str(int(t)): int(n) for t, n in dict(value).items()}
        else:
            stored[name] = value
    return stored


def game_report(part: Participant, stored: Mapping[str, Any],
                options: gc.Options = gc.DEFAULT_OPTIONS) -> tt.GameReport:
    """SNS-STAT-*: the rules' report of one participant: the game's result and King's fate
    from the game, the rest from what the report recorded."""
    values: dict[str, Any] = {}
    for name, value in stored.items():
        f = FIELD_BY_NAME.get(name)
        if f is None:
            continue
        if f.kind == SET:
            values[name] = frozenset(value)
        elif f.kind == KILLS:
            values[name] = {int(t): int(n) for t, n in value.items()}
        else:
            values[name] = value
    values.setdefault("faction_chosen", part.faction)
    return tt.GameReport(
        player=part.kingdom.name if part.kingdom_id else "",
        result=part.result or gc.DRAW,
        king_outcome=part.king_outcome or gc.ALIVE,
        reign=part.king.reign if part.king_id and part.king else 1,
        game=str(part.game.number),
        **values,
    )


def history(part: Participant) -> tuple[tt.GameReport, ...]:
    """SNS-TITLE-CONQUEROR/CHOSEN/ETERNAL, SNS-TITLE-NOBLE: the kingdom's earlier played
    games, oldest first (with or without a report: results and factions are known)."""
    earlier = (Participant.objects.filter(kingdom_id=part.kingdom_id,
                                          game__status="played",
                                          game__number__lt=part.game.number)
               .select_related("game", "king", "kingdom").order_by("game__number"))
    return tuple(game_report(p, p.report) for p in earlier)


def histories(parts: Sequence[Participant]) -> dict[int, list[tt.GameReport]]:
    """Every kingdom's played games in one query, by kingdom id (for many reports at once)."""
    rows = (Participant.objects.filter(kingdom_id__in={p.kingdom_id for p in parts},
                                       game__status="played")
            .select_related("game", "king", "kingdom").order_by("game__number"))
    found: dict[int, list[tt.GameReport]] = {}
    for p in rows:
        found.setdefault(p.kingdom_id, []).append(game_report(p, p.report))
    return found
