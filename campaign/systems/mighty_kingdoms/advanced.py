"""Advanced modules: Wizard's quests (MK-QUEST, MK-WIZ-5, MK-AMB-22) and magical artefacts
(MK-ART, MK-AMB-37).

A quest is one purchase turn of winter C) 2. Build and recruit: it costs nothing, takes the
player's turn in the buy cycle like any other purchase, and needs Kings of War mode. Its result
comes from ``rules.battles.quest_result``; an artefact it wins is drawn from the
campaign's pool (at random by the server, or the card a GM records) and kept by the kingdom's
Capital City until its player gives it to a unit at winter D) Deploy (MK-ART-2). Captures in
battle live next to the battle results, in ``campaign.systems.mighty_kingdoms.forces``.

Every action is one chronicle event, written in one transaction, that a GM can undo exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower

from battles.models import Unit, UnitStrengthEvent
from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Visibility
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms import forces as battles
from campaign.systems.mighty_kingdoms import winter_services as ws
from campaign.systems.mighty_kingdoms.clock import phase_key
from campaign.systems.mighty_kingdoms.models import Artefact, WizardQuest
from campaign.systems.mighty_kingdoms.models import Purchase as PurchaseRow
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.rules import ledger as eco
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from ledger.services import link_to_event

QUEST = "quest"
NAME_LENGTH = 100
MAX_POINTS = 999
RNG: Any = random.SystemRandom()

RESULT_TEXT = {
    mkb.QuestResult.HERO_LOST: "the Hero never comes back",
    mkb.QuestResult.INJURED: "the Hero comes back injured with nothing",
    mkb.QuestResult.NOTHING: "the Hero comes back with nothing",
    mkb.QuestResult.ARTEFACT: "success: an artefact of 5-15 points",
    mkb.QuestResult.GREAT_ARTEFACT: "great success: an artefact of 20-30 points",
    mkb.QuestResult.RARE_ARTEFACT: "outstanding: a rare artefact of 35-50 points",
}


def roll_d6() -> int:
    """A server roll (tests replace ``RNG``)."""
    return int(RNG.randint(1, 6))


# --- reading ------------------------------------------------------------------------------------


def quests_on(options: mk.MKOptions) -> bool:
    """MK-CFG-3, MK-QUEST-7: quests need the towers module and Kings of War mode."""
    return options.module_wizard_towers and options.battle_mode == "kow"


def towers(state: MKState) -> list[mkb.WizardTower]:
    """MK-WIZ-4, MK-QUEST-1: every Wizard's Tower with the controllers of its neighbours."""
    result = []
    for tile in state.map.tiles:
        if not tile.wizard_tower:
            continue
        controllers = tuple(state.map.tile(n).controller for n in tile.neighbours
                            if n in state.map)
        result.append(mkb.WizardTower(tile.label, controllers))
    return sorted(result, key=lambda t: t.label)


def quests_of_winter(campaign: Campaign, year: int | None = None) -> list[WizardQuest]:
    return list(WizardQuest.objects.filter(campaign=campaign, year=year or campaign.year)
                .select_related("kingdom", "hero", "tower", "artefact").order_by("pk"))


def _records(quests: list[WizardQuest]) -> list[mkb.QuestRecord]:
    return [mkb.QuestRecord(q.kingdom_id, q.tower.label, str(q.hero_id)) for q in quests]


def heroes_of(state: MKState, pk: int) -> list[Unit]:
    """MK-QUEST-3: the living Hero units in the fixed lists of the kingdom's armies in play."""
    armies = [a.id for a in state.armies_of(pk)]
    units = (Unit.objects.filter(army_list__army__in=armies, army_list__fixed_at__isnull=False,
                                 destroyed_reason="")
             .select_related("army_list__army").order_by("army_list__army__number", "position"))
    return [u for u in units if battles.entry_of(u).is_hero]


@dataclass
class QuestChoice:
    """What a kingdom may do about quests now: ``reason`` says why not, else the towers it may
    still visit and the Heroes it may still send."""

    kingdom: Kingdom
    reason: str = ""
    towers: list[str] = field(default_factory=list)
    heroes: list[Unit] = field(default_factory=list)

    @property
    def eligible(self) -> bool:
        return not self.reason


def quest_choice(state: MKState, kingdom: Kingdom) -> QuestChoice:
    """MK-QUEST-1/2/3/7, MK-AMB-22, MK-BUY-1: whether ``kingdom`` can send a quest now."""
    choice = QuestChoice(kingdom)
    if not state.options.module_wizard_towers:
        choice.reason = "Wizard's quests need the Wizard's towers module (MK-CFG-3, MK-WIZ-5)."
        return choice
    if state.options.battle_mode != "kow":
        choice.reason = ("Wizard's quests need Hero units, so they exist only in Kings of War "
                         "mode (MK-QUEST-7, MK-AMB-22).")
        return choice
    if phase_key(state.campaign) != ws.BUY:
        choice.reason = ("A quest is a purchase of winter C) 2. Build and recruit "
                         "(MK-BUY-2, MK-AMB-22).")
        return choice
    cycle, turn = ws.cycle(state, mk.SUB_BUY)
    if cycle.closed:
        choice.reason = "Everyone has passed in a row: purchases are over (MK-BUY-1)."
        return choice
    if turn != kingdom.pk:
        choice.reason = (f"It is {state.kingdom_rows[turn].name}'s turn: one purchase or quest "
                         "per turn (MK-BUY-1, MK-AMB-22)." if turn else "It is nobody's turn.")
        return choice
    done = [q for q in quests_of_winter(state.campaign) if q.kingdom_id == kingdom.pk]
    near = mkb.quest_towers(kingdom.pk, towers(state))
    if not near:
        choice.reason = ("Your kingdom controls no tile next to a Wizard's Tower "
                         "(MK-QUEST-1).")
        return choice
    visited = {q.tower.label for q in done}
    choice.towers = [label for label in near if label not in visited]
    if not choice.towers:
        choice.reason = ("Your kingdom has sent a Hero to every tower it can reach this winter: "
                         "one quest per tower (MK-QUEST-1).")
        return choice
    sent = {q.hero_id for q in done}
    choice.heroes = [u for u in heroes_of(state, kingdom.pk) if u.pk not in sent]
    if not choice.heroes:
        choice.reason = ("No Hero is free for a quest: each tower needs a Hero of a fixed army "
                         "list who has not been on a quest this winter (MK-QUEST-2/3).")
    return choice


def artefacts_of(campaign: Campaign, kingdom: Kingdom | None = None) -> list[Artefact]:
    """The artefacts held by ``kingdom`` (all held ones for None), on units or in a capital."""
    rows = (Artefact.objects.filter(campaign=campaign, in_pool=False)
            .select_related("holder_unit__army_list__army__kingdom", "held_by_capital_of",
                            "captured_in__tile"))
    result = [a for a in rows if kingdom is None or owner_of(a) == kingdom.pk]
    return sorted(result, key=lambda a: (owner_of(a) or 0, a.name.casefold()))


def owner_of(artefact: Artefact) -> int | None:
    """The kingdom holding ``artefact`` (MK-ART-1), None in the pool."""
    if artefact.holder_unit_id is not None:
        assert artefact.holder_unit is not None
        return int(artefact.holder_unit.army_list.army.kingdom_id)
    return artefact.held_by_capital_of_id


def pool(campaign: Campaign) -> list[Artefact]:
    return list(Artefact.objects.filter(campaign=campaign, in_pool=True)
                .order_by("points", Lower("name")))


def carriers_of(state: MKState, pk: int) -> list[Unit]:
    """MK-ART-2: the living units of the kingdom's armies in play, with a fixed list."""
    armies = [a.id for a in state.armies_of(pk)]
    return list(Unit.objects.filter(army_list__army__in=armies,
                                    army_list__fixed_at__isnull=False, destroyed_reason="")
                .select_related("army_list__army")
                .order_by("army_list__army__number", "position"))


def winning_units(artefact: Artefact) -> list[Unit]:
    """MK-ART-5/8: living units of the winner's armies that fought the battle the artefact was
    taken in, still in play."""
    battle = artefact.captured_in
    owner = artefact.held_by_capital_of_id
    if battle is None or owner is None:
        return []
    armies = [a.pk for a in battles.battle_armies(battle)
              if a.kingdom_id == owner and not battles.is_removed(a) and a.tile_id is not None]
    return list(Unit.objects.filter(army_list__army__in=armies,
                                    army_list__fixed_at__isnull=False, destroyed_reason="")
                .select_related("army_list__army")
                .order_by("army_list__army__number", "position"))


# --- helpers for the writes ----------------------------------------------------------------------


def _lock(campaign: Campaign) -> MKState:
    return load_state(campaign, lock=True)


def _kingdom(state: MKState, kingdom: Kingdom) -> Kingdom:
    return ws.kingdom_row(state, kingdom)


def _artefacts_module(state: MKState) -> None:
    if not state.options.module_artefacts:
        raise ServiceError("Magical artefacts are not used in this campaign (MK-CFG-3).")


def _clock(campaign: Campaign) -> dict[str, Any]:
    return {"year": campaign.year, "season": campaign.season, "month": campaign.month,
            "phase": campaign.phase}


def _destroyed(campaign: Campaign) -> dict[str, Any]:
    return {"destroyed_year": campaign.year, "destroyed_season": campaign.season,
            "destroyed_month": campaign.month, "destroyed_phase": campaign.phase}


def _unit_gone(rec: Recorder, state: MKState, hero: Unit, reason: str) -> list[str]:
    """Cross ``hero`` off its list; what it carried goes to its kingdom's capital, else the pool
    (MK-ART-7); an army left without units is removed (MK-REFORM-7)."""
    rec.update(hero, destroyed_reason=reason, **_destroyed(state.campaign))
    army = hero.army_list.army
    notes = []
    carried = list(Artefact.objects.filter(holder_unit=hero))
    if carried:
        capital = battles.holds_capital(state.kingdom_rows[army.kingdom_id])
        holder = mkb.route_artefact(army.kingdom_id, None, capital)
        for artefact in carried:
            battles.move_artefact(rec, artefact, holder)
        names = ", ".join(a.name for a in carried)
        notes.append(f"What {hero.name} carried ({names}) "
                     + ("returns to the Capital City." if capital
                        else "is lost to the pool (MK-ART-7)."))
    alive = Unit.objects.filter(army_list=hero.army_list, destroyed_reason="").exists()
    if not alive:
        battles.remove_army_for_good(rec, army, "quest", "MK-REFORM-7")
        notes.append(f"Army #{army.number} has no unit left and is removed (MK-REFORM-7).")
    return notes


def _draw(rec: Recorder, state: MKState, result: mkb.QuestResult,
          chosen: int | None) -> Artefact | None:
    """MK-QUEST-4, MK-ART-1: the artefact a quest brings back, from the pool's band: the card a
    GM recorded (``chosen``) or a server draw (kept with the event); None if the band is empty."""
    rows = {a.name: a for a in Artefact.objects.filter(campaign=state.campaign)}
    catalogue = [mkb.Artefact(a.name, a.points) for a in rows.values()]
    holdings = {a.name: (mkb.POOL if a.in_pool else mkb.ArtefactHolder(-1)) for a in rows.values()}
    candidates = mkb.available_artefacts(catalogue, holdings, result)
    band = mkb.ARTEFACT_BANDS[result]
    if chosen is not None:
        row = next((a for a in rows.values() if a.pk == chosen), None)
        if row is None or row.name not in {c.name for c in candidates}:
            raise ServiceError(f"That artefact is not in the pool's {band.low}-{band.high} "
                               "points band (MK-QUEST-4, MK-ART-1).")
        return row
    if not candidates:
        return None
    pick = int(RNG.randint(1, len(candidates)))
    rec.roll(f"artefact draw among {len(candidates)} of {band.low}-{band.high} points", [pick])
    drawn = mkb.draw_artefact(catalogue, holdings, result, pick - 1)
    assert drawn is not None
    return rows[drawn.name]


# --- quests (MK-QUEST-1..7, MK-AMB-22) ----------------------------------------------------------


def send_quest(kingdom: Kingdom, user: Any, *, tower: str, hero_id: int, die: int | None = None,
               artefact_id: int | None = None, gm: bool = False) -> str:
    """MK-QUEST-1..7, MK-AMB-22, MK-BUY-1: on the kingdom's buy turn, send a Hero to a tower.

    The die is typed in or rolled by the server; the result row (MK-QUEST-4/6) is applied at
    once: the Hero is crossed off (1), takes -1 Unit Strength and the destruction check
    MK-REFORM-5 (2), or brings back an artefact of the band for the kingdom's Capital City
    (4, 5, 6+). ``artefact_id`` is a physical draw a GM records. The quest takes the turn and
    costs nothing.
    """
    with transaction.atomic():
        state = _lock(kingdom.campaign)
        row = _kingdom(state, kingdom)
        if not state.options.module_wizard_towers or state.options.battle_mode != "kow":
            raise ServiceError(quest_choice(state, row).reason)
        ws.require_phase(state, ws.BUY, "a quest is a purchase of winter C) 2. Build and "
                                        "recruit (MK-AMB-22)")
        cycle, _ = ws.cycle(state, mk.SUB_BUY)
        eco.validate_turn(cycle, row.name)
        if artefact_id is not None and not gm:
            raise ServiceError("Only a GM records a physical artefact draw (MK-QUEST-4).")
        by_label = {t.label: t for t in towers(state)}
        if tower not in by_label:
            raise ServiceError(f"There is no Wizard's Tower at {tower} (MK-WIZ-1).")
        hero = (Unit.objects.filter(pk=hero_id, army_list__army__kingdom=row)
                .select_related("army_list__army").first())
        army_ids = {a.id for a in state.armies_of(row.pk)}
        if (hero is None or hero.destroyed or hero.army_list.army_id not in army_ids
                or not hero.army_list.is_fixed):
            raise ServiceError(f"Pick a Hero of a fixed army list of {row.name} still in play "
                               "(MK-QUEST-3).")
        quests = quests_of_winter(state.campaign)
        try:
            mkb.validate_quest(row.pk, by_label[tower], str(hero.pk), battles.entry_of(hero),
                               _records(quests))
            roll = mkb.quest_result(hero.points, die if die is not None else roll_d6())
        except mkb.BattleError as exc:
            raise ServiceError(str(exc)) from None
        result = roll.result
        summary = (f"{row.name} sends {hero.name} ({hero.points} points) to the Wizard's Tower "
                   f"at {tower}: {roll.die} + {roll.modifier} = {roll.total}, "
                   f"{RESULT_TEXT[result]} (MK-QUEST-3/4).")
        notes: list[str] = []
        with Recorder(state.campaign, user, "winter.quest", "", kingdom=row,
                      data={"tower": tower, "hero": hero.pk, "result": result.value}) as rec:
            rec.roll("quest", [roll.die], "table" if die is not None else "server")
            artefact = None
            if result is mkb.QuestResult.HERO_LOST:
                notes.append(f"{hero.name} is crossed off army #{hero.army_list.army.number}'s "
                             "list (MK-QUEST-4).")
                notes += _unit_gone(rec, state, hero, Unit.Reason.QUEST)
            elif result is mkb.QuestResult.INJURED:
                notes += _injure(rec, state, hero)
            elif roll.band is not None:
                artefact = _draw(rec, state, result, artefact_id)
                if artefact is None:
                    notes.append(f"The pool has no artefact of {roll.band.low}-{roll.band.high} "
                                 "points left: nothing to bring back (MK-QUEST-4, MK-ART-1).")
                else:
                    battles.move_artefact(rec, artefact, mkb.ArtefactHolder(row.pk))
                    notes.append(f"{row.name} keeps the artefact in its Capital City until "
                                 "winter D) Deploy (MK-QUEST-5, MK-ART-2).")
            quest = rec.create(WizardQuest(
                campaign=state.campaign, year=state.campaign.year, kingdom=row, hero=hero,
                tower=state.tile_rows[tower], die=roll.die, modifier=roll.modifier,
                total=roll.total, result=result.value, artefact=artefact))
            bought = rec.create(PurchaseRow(
                campaign=state.campaign, year=state.campaign.year, kingdom=row, kind=QUEST,
                tile_label=tower, seq=ws.next_purchase_seq(state)))
            link_to_event(rec, [quest, bought])
            data = ws.winter_data(state.campaign)
            data["cycles"].setdefault(mk.SUB_BUY, []).append([row.pk, False])
            ws.save_winter(rec, state.campaign, data)
            rec.summary = " ".join([summary, *notes])
        return rec.summary


def _injure(rec: Recorder, state: MKState, hero: Unit) -> list[str]:
    """MK-QUEST-4 (2), MK-AMB-31: -1 Unit Strength now, then the Reform destruction check."""
    status = battles.unit_statuses([hero])[0]
    event = rec.create(UnitStrengthEvent(unit=hero, delta=-1,
                                         reason=UnitStrengthEvent.Reason.QUEST,
                                         **_clock(state.campaign)))
    link_to_event(rec, [event])
    if status.total is None or hero.base_us is None:
        return [f"{hero.name} loses 1 Unit Strength (MK-QUEST-4)."]
    injured, destroyed = mkb.apply_quest_injury(mkb.UnitStrength(
        str(hero.pk), hero.base_us, tuple(step.delta for step in status.history)))
    notes = [f"{hero.name} loses 1 Unit Strength, now {injured.total} (MK-QUEST-4)."]
    if destroyed:
        notes.append(f"At {injured.total} it is destroyed (MK-REFORM-5).")
        notes += _unit_gone(rec, state, hero, Unit.Reason.REFORM)
    return notes


# --- the pool (MK-ART-1, MK-QUEST-4) ------------------------------------------------------------


def add_artefact(campaign: Campaign, user: Any, name: str, points: int) -> Artefact:
    """MK-ART-1: a GM adds an artefact card to the campaign's one pool; names are unique."""
    name = " ".join(name.split())
    if not name or len(name) > NAME_LENGTH:
        raise ServiceError(f"An artefact needs a name of 1 to {NAME_LENGTH} characters.")
    if isinstance(points, bool) or not 0 < points <= MAX_POINTS:
        raise ServiceError(f"An artefact is worth 1 to {MAX_POINTS} points (MK-QUEST-4).")
    with transaction.atomic():
        state = _lock(campaign)
        _artefacts_module(state)
        taken = Artefact.objects.filter(campaign=state.campaign, name__iexact=name).exists()
        written = Unit.objects.filter(army_list__army__campaign=state.campaign,
                                      artefact__iexact=name).exists()
        if taken or written:
            raise ServiceError(f"{name} is already in this campaign; each artefact is unique "
                               "across the campaign (MK-ART-1).")
        summary = f"{name} ({points} points) joins the pool of artefacts (MK-ART-1)."
        with Recorder(state.campaign, user, "artefact.pool", summary) as rec:
            artefact = rec.create(Artefact(campaign=state.campaign, name=name, points=points))
        return artefact


def remove_artefact(campaign: Campaign, user: Any, artefact_id: int) -> str:
    """MK-ART-1: a GM takes an artefact out of the pool (only one nobody holds)."""
    with transaction.atomic():
        state = _lock(campaign)
        _artefacts_module(state)
        artefact = Artefact.objects.filter(campaign=state.campaign, pk=artefact_id).first()
        if artefact is None:
            raise ServiceError("There is no such artefact in this campaign.")
        if not artefact.in_pool:
            raise ServiceError(f"{artefact.name} is held by a kingdom; only artefacts in the "
                               "pool can be taken out (MK-ART-1).")
        summary = f"{artefact.name} is taken out of the pool of artefacts."
        with Recorder(state.campaign, user, "artefact.pool", summary) as rec:
            rec.delete(artefact)
        return summary


# --- assigning (MK-ART-2/5/8) -------------------------------------------------------------------


def _held(state: MKState, row: Kingdom, artefact_id: int) -> Artefact:
    artefact = (Artefact.objects.filter(campaign=state.campaign, pk=artefact_id)
                .select_related("holder_unit__army_list__army", "captured_in").first())
    if artefact is None or artefact.in_pool or owner_of(artefact) != row.pk:
        raise ServiceError(f"{row.name} does not hold that artefact (MK-ART-1).")
    return artefact


def assign_artefact(kingdom: Kingdom, user: Any, artefact_id: int, unit_id: int | None) -> str:
    """MK-ART-2: at winter D) Deploy a player gives one of their artefacts to a unit of their
    armies (or keeps it in the Capital City, ``unit_id`` None); fixed until next winter. The
    assignment is secret to the kingdom and the GMs until a battle reveals the list (MK-ART-3).
    """
    with transaction.atomic():
        state = _lock(kingdom.campaign)
        _artefacts_module(state)
        row = _kingdom(state, kingdom)
        ws.require_phase(state, ws.DEPLOY, "artefacts are given to units at winter D) Deploy "
                                           "and stay until next winter (MK-ART-2)")
        artefact = _held(state, row, artefact_id)
        if unit_id is None:
            if not battles.holds_capital(row):
                raise ServiceError(f"{row.name} holds no Capital City to keep {artefact.name} "
                                   "in: give it to a unit (MK-ART-6/7).")
            holder = mkb.ArtefactHolder(row.pk)
            where = "keeps it in its Capital City"
        else:
            unit = next((u for u in carriers_of(state, row.pk) if u.pk == unit_id), None)
            if unit is None:
                raise ServiceError(f"Pick a living unit of a fixed list of {row.name}'s armies "
                                   "(MK-ART-2).")
            holder = mkb.ArtefactHolder(row.pk, str(unit.pk))
            where = f"gives it to {unit.name} of army #{unit.army_list.army.number}"
        summary = f"{row.name} {where}: {artefact.name} (MK-ART-2)."
        with Recorder(state.campaign, user, "artefact.assign", summary, kingdom=row,
                      visibility=Visibility.KINGDOM) as rec:
            battles.move_artefact(rec, artefact, holder)
        return summary


def claim_captured(kingdom: Kingdom, user: Any, artefact_id: int, unit_id: int) -> str:
    """MK-ART-5/8: the winner gives an artefact won in a battle, still kept in its Capital City,
    to a suitable unit of an army that fought that battle (the player confirms it is suitable).
    """
    with transaction.atomic():
        state = _lock(kingdom.campaign)
        _artefacts_module(state)
        row = _kingdom(state, kingdom)
        artefact = _held(state, row, artefact_id)
        if artefact.captured_in is None or artefact.held_by_capital_of_id != row.pk:
            raise ServiceError(f"{artefact.name} was not won in a battle and waits for winter "
                               "D) Deploy (MK-ART-2, MK-ART-5).")
        unit = next((u for u in winning_units(artefact) if u.pk == unit_id), None)
        if unit is None:
            raise ServiceError(f"Pick a living unit of an army of {row.name} that fought the "
                               f"battle at {artefact.captured_in.tile.label} (MK-ART-5/8).")
        summary = (f"{row.name} gives the captured {artefact.name} to {unit.name} of army "
                   f"#{unit.army_list.army.number} (MK-ART-5).")
        with Recorder(state.campaign, user, "artefact.capture", summary, kingdom=row,
                      visibility=Visibility.KINGDOM) as rec:
            battles.move_artefact(rec, artefact, mkb.ArtefactHolder(row.pk, str(unit.pk)))
        return summary
