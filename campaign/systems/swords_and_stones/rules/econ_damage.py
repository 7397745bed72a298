"""Swords & Stones: battle and damage facts a ledger records (SNS-CBT-*) and the spell and
terrain state it keeps (SNS-STATE-*).

Armour saves and the combat table, wounds on units, buildings and foundations, fire, repairs,
prisoners and captured ships, conversion, the King's states, spells cast and learnt, and terrain
wounds. Dice are arguments; resource movements are ledger lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from campaign.systems.swords_and_stones.rules.catalogue import (
    ARMOUR_SAVE,
    CRT,
    CRT_SPEAR_QUEEN_SECOND_COPY,
    DEFAULT_CATALOGUE,
    DEFENSIVE,
    GNASHING_RAIN_COSTS,
    SPELLS,
    Catalogue,
)
from campaign.systems.swords_and_stones.rules.econ_turn import Foundation, Timer, start_timer
from campaign.systems.swords_and_stones.rules.economy import (
    DAMNED,
    DEFAULT_OPTIONS,
    FACTION_LETTER,
    FAVOR,
    FOOD,
    WOOD,
    EconOptions,
    LedgerLine,
    RuleViolation,
    Stockpile,
    lose_up_to,
    pay,
)


def _die(value: int) -> None:
    if not 1 <= value <= 6:
        raise ValueError(f"A d6 shows 1 to 6, not {value}.")


# --- units and attacks (SNS-CBT-1..4, SNS-CBT-13, SNS-CBT-15) ---------------------------------


def unit_hp(code: str, *, hero_king: bool = False, fountain_of_youth: bool = False,
            catalogue: Catalogue = DEFAULT_CATALOGUE) -> int:
    """SNS-CBT-1: 1 HP unless the profile says otherwise (ships 2); the King gains 1 with Hero
    King (SNS-UPG-HEROKING) and 1 with the Fountain of Youth."""
    hp = catalogue.unit(code).hp
    if code == "KING":
        hp += int(hero_king) + int(fountain_of_youth)
    return hp


def armour_save_needed(total_armour: int) -> int | None:
    """SNS-CBT-3: the d6 needed to save for a total armour value (values add up); ``None`` when
    there is no armour to save with."""
    if total_armour <= 0:
        return None
    return ARMOUR_SAVE[min(total_armour, 7)]


def to_wound(attacker: str, target: str, *, spear_queen: int = 5) -> tuple[int, int] | None:
    """SNS-CBT-15: the d6 an attack needs and how many attacks it makes, or ``None`` where the
    attacker cannot harm the target. Spear against Queen is 5 in one printing and 3 in the other
    (SNS-AMB-36): ``spear_queen`` picks it."""
    if (attacker, target) not in CRT:
        raise ValueError(f"No combat table cell for {attacker} against {target}.")
    if attacker == "Spear" and target == "Queen":
        if spear_queen not in (5, CRT_SPEAR_QUEEN_SECOND_COPY):
            raise ValueError("Spear against Queen is 5 or 3 (SNS-AMB-36).")
        return spear_queen, 1
    return CRT[(attacker, target)]


@dataclass(frozen=True)
class Attack:
    """What one attack did (SNS-CBT-2/3/4)."""

    hit: bool
    wounded: bool
    counter_attack: bool


def resolve_attack(need: int, roll: int, *, armour: int = 0, save_roll: int | None = None,
                   ignores_armour: bool = False, close_combat: bool = True,
                   target_survives: bool = True) -> Attack:
    """SNS-CBT-2..4: a roll at or above the table value hits; the target saves on its armour
    (ignored by fire, siege and magical attacks); an unsaved hit is a wound. A unit that survives
    a close attack strikes back at once; ranged attacks and spells draw no counter-attack."""
    _die(roll)
    hit = roll >= need
    wounded = hit
    if hit and not ignores_armour:
        save = armour_save_needed(armour)
        if save is not None:
            if save_roll is None:
                raise RuleViolation("The target has armour: roll its save (SNS-CBT-3).")
            _die(save_roll)
            wounded = save_roll < save if save > 0 else False
    survives = not wounded or target_survives
    return Attack(hit, wounded, close_combat and survives)


def remove_from_play() -> int:
    """SNS-CBT-13: removed from play means gone: no save, extra HP does not help (0 HP left)."""
    return 0


# --- buildings and foundations (SNS-CBT-5..8) --------------------------------------------------


@dataclass(frozen=True)
class BuildingDamage:
    """A building's wounds after damage and whether it fell (SNS-CBT-5)."""

    wounds: int
    destroyed: bool
    fire_token: bool = False


def wound_building(code: str, wounds: int, damage: int, *, bonus_hp: int = 0,
                   fire: bool = False, catalogue: Catalogue = DEFAULT_CATALOGUE
                   ) -> BuildingDamage:
    """SNS-CBT-5, SNS-CBT-8: wounds on a building's HP die; destroyed when wounds reach its HP
    (garrison and staff inside are lost; upgrades bought stay). A Stockpile never drops below
    1 HP (SNS-ECON-4). A fire hit leaves a non-defensive building out of work the whole next
    turn. ``bonus_hp`` is Defensive Architecture's +3 / +2 (SNS-UPG-DEFARCH)."""
    building = catalogue.building(code)
    if building.hp is None:
        raise RuleViolation(f"A {building.name} cannot be destroyed ({building.rule_id}).")
    hp = building.hp + bonus_hp
    total = wounds + damage
    if code == "STOCKPILE":
        return BuildingDamage(min(total, hp - 1), False, fire)
    defensive = building.category == DEFENSIVE
    return BuildingDamage(min(total, hp), total >= hp, fire and not defensive)


def totem_destroyed(stockpile: Stockpile, options: EconOptions = DEFAULT_OPTIONS
                    ) -> tuple[LedgerLine, ...]:
    """SNS-BLD-TOTEM: a destroyed Totem costs 3 of a resource whose symbol was lost (probably
    favor, ``EconOptions.totem_loss_resource``, SNS-AMB-30) and blocks all favor gain next turn;
    the loss takes what there is."""
    return lose_up_to(stockpile, options.totem_loss_resource, 3, "SNS-BLD-TOTEM",
                      "a Totem was destroyed")


def fire_damage(die: int, *, wells: bool = False, yedvadova: bool = False) -> int:
    """SNS-CBT-8: a fire hit does d6 damage, 1 less with Wells (SNS-UPG-WELLS); the Yedvadova
    ritual caps a fire at 2 HP (SNS-FAC-4)."""
    _die(die)
    damage = max(0, die - (1 if wells else 0))
    return min(damage, 2) if yedvadova else damage


def defensive_architecture_hp(code: str, owned: bool) -> int:
    """SNS-UPG-DEFARCH: +3 HP for Stone Walls, Stone Gates and Castles, +2 for towers."""
    if not owned:
        return 0
    if code in ("STONEWALL", "STONEGATE", "CASTLE"):
        return 3
    return 2 if code == "GUARDTOWER" else 0


def wound_foundation(foundation: Foundation, wounds: int) -> Foundation | None:
    """SNS-CBT-6: each wound on a foundation adds 2 BP; past the building's full BP it is
    destroyed (``None``)."""
    bp = foundation.bp_remaining + 2 * wounds
    if bp > foundation.bp_full:
        return None
    return replace(foundation, bp_remaining=bp)


def repair_ship(stockpile: Stockpile, at_dock: bool) -> tuple[LedgerLine, ...]:
    """SNS-CBT-7: a ship mends 1 HP a turn at a friendly Dock for free, or for 1 wood and a land
    unit's action elsewhere."""
    if at_dock:
        return ()
    return pay(stockpile, {WOOD: 1}, "SNS-CBT-7", "ship repair")


def heal_undead(stockpile: Stockpile) -> tuple[LedgerLine, ...]:
    """SNS-CBT-7, SNS-BLD-CATACOMBS: Catacombs heal an undead unit 1 HP for 1 favor."""
    return pay(stockpile, {FAVOR: 1}, "SNS-BLD-CATACOMBS", "Catacombs healing")


def take_prisoner(stockpile: Stockpile, *, lone_unit: bool, target: str) -> tuple[LedgerLine,
                                                                                  ...]:
    """SNS-CBT-9: wounding a lone unit in close combat, or any Knight, Queen or Caster, lets the
    attacker pay 1 food to keep it prisoner at the own Stockpile."""
    if not lone_unit and target not in ("KNIGHTS", "QUEEN", "CASTER"):
        raise RuleViolation("Only a lone unit, a Knight, a Queen or a Caster can be taken "
                            "prisoner (SNS-CBT-9).")
    return pay(stockpile, {FOOD: 1}, "SNS-CBT-9", f"take a {target.lower()} prisoner")


def capture_ship(stockpile: Stockpile, *, unloaded: bool) -> tuple[LedgerLine, ...]:
    """SNS-CBT-10: an enemy ship with nobody aboard, sunk in a close fight, can be kept at 1 HP
    by paying 1 wood and 1 food."""
    if not unloaded:
        raise RuleViolation("Only an unloaded ship can be captured (SNS-CBT-10).")
    return pay(stockpile, {WOOD: 1, FOOD: 1}, "SNS-CBT-10", "capture a ship")


#: SNS-CBT-11: the d6 a converter needs.
CONVERTERS = {"QUEEN": 3, "CASTER": 4, "MONK": 4}
NOT_CONVERTIBLE = ("KING", "QUEEN", "CASTER")


def convert(converter: str, target: str, roll: int, *, target_in_own_zone: bool = False,
            target_monster: bool = False, target_bone: bool = False, treason: bool = False,
            treason_roll: int | None = None) -> bool:
    """SNS-CBT-11: a Queen (3+), Caster or Monk (4+) may convert an enemy unit within 3 inches
    instead of attacking; never Kings, Queens, Casters, monsters, Kingdom of Bone units or units
    in their own kingdom zone. Under Treason a converted unit then dies on 3+
    (SNS-UPG-TREASON); returns whether the unit joins (alive)."""
    if converter not in CONVERTERS:
        raise RuleViolation("Only Queens, Casters and Monks convert (SNS-CBT-11).")
    if target in NOT_CONVERTIBLE or target_monster or target_bone or target_in_own_zone:
        raise RuleViolation("That unit cannot be converted (SNS-CBT-11).")
    _die(roll)
    if roll < CONVERTERS[converter]:
        return False
    if treason:
        if treason_roll is None:
            raise RuleViolation("Treason: roll for the converted unit (SNS-UPG-TREASON).")
        _die(treason_roll)
        return treason_roll < 3
    return True


# --- the King (SNS-CBT-12) ---------------------------------------------------------------------

ALIVE, UNCONSCIOUS, DEAD = "alive", "unconscious", "dead"


def king_struck(state: str) -> tuple[str, Timer | None]:
    """SNS-CBT-12: a King knocked out is unconscious for 3 turns (timer 3); knocked out again
    while unconscious, he dies (and the game is lost)."""
    if state == ALIVE:
        return UNCONSCIOUS, start_timer("Unconscious King")
    if state == UNCONSCIOUS:
        return DEAD, None
    raise RuleViolation("The King is already dead (SNS-CBT-12).")


def is_besieged(*, surrounded: bool = False, completed_walls: bool = False,
                enemy_at_every_gate: bool = False) -> bool:
    """SNS-CBT-14, SNS-ECON-46: besieged when enemy units ring the kingdom no more than 3 inches
    apart, or, behind Completed Walls, when an enemy unit stands near every Gate."""
    return surrounded or (completed_walls and enemy_at_every_gate)


# --- spells and terrain (SNS-STATE-1/2/6/7) ----------------------------------------------------


def learn_spell(stockpile: Stockpile, known: Sequence[str], spell: str, faction: str
                ) -> tuple[LedgerLine, ...]:
    """SNS-STATE-1: a Caster learns one more spell of its faction per turn spent at a Temple, for
    1 favor (it starts with Heal, or Vigor Mortis if Damned, and 2 chosen spells)."""
    if spell not in SPELLS:
        raise RuleViolation(f"There is no spell {spell!r} (SNS-STATE-7).")
    if spell in known:
        raise RuleViolation(f"The Caster already knows {spell} (SNS-STATE-1).")
    if FACTION_LETTER[faction] not in SPELLS[spell].factions:
        raise RuleViolation(f"{spell} is not a spell of your faction (SNS-STATE-7).")
    return pay(stockpile, {FAVOR: 1}, "SNS-STATE-1", f"learn {spell}")


def starting_spells(faction: str) -> tuple[str, ...]:
    """SNS-STATE-1: the spell every new Caster knows before its 2 chosen ones."""
    return ("Vigor Mortis",) if faction == DAMNED else ("Heal",)


def cast_spell(stockpile: Stockpile, spell: str, faction: str, *, known: Sequence[str] = (),
               extra: int = 0, level: int = 0, shunned: bool = False) -> tuple[LedgerLine, ...]:
    """SNS-STATE-2, SNS-STATE-7: a Caster casts one known spell a turn; its favor is paid at once
    (``extra`` steps of the spell's surcharge; ``level`` picks Gnashing Rain's strength). A
    Shunned kingdom casts nothing. The lines carry the spell so that the favor spent on spells
    can be counted (SNS-STAT-31)."""
    if spell not in SPELLS:
        raise RuleViolation(f"There is no spell {spell!r} (SNS-STATE-7).")
    data = SPELLS[spell]
    if known and spell not in known:
        raise RuleViolation(f"The Caster does not know {spell} (SNS-STATE-2).")
    if FACTION_LETTER[faction] not in data.factions:
        raise RuleViolation(f"{spell} is not a spell of your faction (SNS-STATE-7).")
    if shunned:
        raise RuleViolation("A Shunned kingdom casts no spells (SNS-STATE-3).")
    if spell == "Gnashing Rain":
        cost = GNASHING_RAIN_COSTS[level]
    else:
        cost = data.cost + data.extra * extra
    return pay(stockpile, {FAVOR: cost}, "SNS-STATE-2", f"cast {spell}", subject=spell,
               count=1)


def dispel(stockpile: Stockpile, spell: str, roll: int) -> tuple[tuple[LedgerLine, ...], bool]:
    """SNS-STATE-2: dispelling costs the favor of the spell being cast and works on 2+."""
    _die(roll)
    lines = pay(stockpile, {FAVOR: SPELLS[spell].cost}, "SNS-STATE-2", f"dispel {spell}")
    return lines, roll >= 2


#: SNS-STATE-6: terrain that may wound a unit ending its move there: the d6 that wounds.
TERRAIN_WOUND = {"snow": 6, "ice": 6, "fire tundra": 5}


def terrain_wound(terrain: str, roll: int) -> bool:
    """SNS-STATE-6: snow or ice wound a unit ending its move there on a 6, fire tundra on 5+;
    other terrain does not wound."""
    _die(roll)
    need = TERRAIN_WOUND.get(terrain)
    return need is not None and roll >= need
