"""A kingdom's buildings at the table: foundations laid from the catalogue and paid first
(SNS-ECON-53, SNS-ECON-3/4), Build Points worked off in the compulsory phase (SNS-ECON-41),
staff (SNS-ECON-54), upgrades bought on operational buildings (SNS-ECON-56), damage, fire and
destruction (SNS-CBT-5/6/8, SNS-ECON-4), repairs (SNS-CBT-7), cancelled foundations
(SNS-ECON-58), and the die timers that tick down in the compulsory phase (SNS-ECON-40,
SNS-STATE-3).

Each action is one chronicle event on the seat's table state (``rules.holdings`` says what
the state holds) and its ledger lines; undo puts both back."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from django.db import transaction

from campaign.models import Campaign, Kingdom
from campaign.systems.swords_and_stones import costs
from campaign.systems.swords_and_stones.models import Game, Participant
from campaign.systems.swords_and_stones.rules import econ_advance as adv
from campaign.systems.swords_and_stones.rules import econ_damage as dmg
from campaign.systems.swords_and_stones.rules import econ_turn as turn_rules
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.rules import holdings as hold
from campaign.systems.swords_and_stones.rules.catalogue import TIMERS
from campaign.systems.swords_and_stones.state import SnsError, rules_check
from campaign.systems.swords_and_stones.stockpile import econ_options, stockpile_of
from campaign.systems.swords_and_stones.table import _at_table, _book

_check = rules_check

#: Upgrades priced "+ n per ..." and the units on the table they count (SNS-UPG-*).
PER_ITEM_UNITS: Mapping[str, tuple[str, ...]] = {
    "MARTIALTRADITION": ("VILLAGER", "SWORDS", "SPEARS", "ARCHERS"),
    "RECURVEBOW": ("RIDERS",),
    "STEAMENGINE": ("RAM",),
    "GALLEONS": ("COG",),
}


def faction_of(part: Participant) -> str:
    return part.faction if part.faction in eco.FACTIONS else eco.AVALONIAN


def realm(part: Participant, state: Mapping[str, Any], stock: eco.Stockpile) -> adv.Kingdom:
    """What the advance-phase rules need of the kingdom: its buildings standing, those
    operational (as the compulsory phase found them, SNS-ECON-55) and its upgrades."""
    return adv.Kingdom(faction=faction_of(part), stockpile=stock,
                       built=hold.standing_counts(hold.works_of(state)),
                       operational=dict(state.get("buildings", {})),
                       upgrades=hold.owned_upgrades(state))


def _work(state: Mapping[str, Any], work_id: int, name: str) -> hold.Work:
    for work in hold.works_of(state):
        if work.id == work_id:
            return work
    raise SnsError(f"SNS-BLD: {name} has no building {work_id}.")


def _with_work(state: Mapping[str, Any], work: hold.Work | None, drop: int = 0
               ) -> list[dict[str, Any]]:
    """The works list with ``work`` replacing its namesake (or added), ``drop`` removed."""
    out: list[dict[str, Any]] = []
    placed = False
    for old in hold.works_of(state):
        if old.id == drop:
            continue
        if work is not None and old.id == work.id:
            out.append(work.as_dict())
            placed = True
        else:
            out.append(old.as_dict())
    if work is not None and not placed:
        out.append(work.as_dict())
    return out


def _paid_words(lines: Sequence[eco.LedgerLine]) -> str:
    paid = {r: -a for r, a in eco.net(lines).items() if a < 0}
    return ", ".join(f"{a} {r}" for r, a in paid.items()) or "nothing"


# --- foundations (SNS-ECON-53, SNS-ECON-58) ---------------------------------------------------


def lay_foundation(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, code: str,
                   declared_types: Sequence[str] = (), *, wood_for_stone: int = 0,
                   over_impassable: bool = False, in_own_section: bool = True) -> str:
    """SNS-ECON-53, SNS-ECON-3, SNS-ECON-4, SNS-BLD-*: a building from the catalogue, legal for
    the kingdom's faction and holdings, paid first at the campaign's cost types, placed as a
    foundation with its BP die."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.ADVANCE,))
        types = costs.cost_types(st.campaign)
        catalogue = hold.campaign_catalogue(types)
        stock = stockpile_of(part.kingdom, state)
        building = _check(lambda: catalogue.building(code))
        lines, foundation = _check(lambda: adv.lay_foundation(
            realm(part, state, stock), code, declared_types=declared_types,
            wood_for_stone=wood_for_stone, over_impassable=over_impassable,
            in_own_section=in_own_section, options=econ_options(st.campaign, game),
            catalogue=catalogue))
        works = hold.works_of(state)
        work = hold.Work(hold.next_id(works), code, foundation.bp_remaining, foundation.bp_full,
                         {r: -a for r, a in eco.net(lines).items() if a < 0},
                         staffed=False, in_own_section=in_own_section,
                         laid_turn=int(state["turn"]))
        summary = (f"{part.kingdom.name}, turn {state['turn']}: the foundation of a "
                   f"{building.name} ({foundation.bp_full} BP), paid {_paid_words(lines)} "
                   f"({building.rule_id}, SNS-ECON-53).")
        return _book(st, user, part, state, lines, summary,
                     {**state, "works": _with_work(state, work)})


def cancel_foundation(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                      work_id: int) -> str:
    """SNS-ECON-58: a foundation cancelled by a unit touching it returns its full cost."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.ADVANCE,))
        work = _work(state, work_id, part.kingdom.name)
        if work.complete:
            raise SnsError(f"SNS-ECON-58: the {work.code.title()} is complete; demolish it at "
                           "the table instead.")
        stock = stockpile_of(part.kingdom, state)
        lines = _check(lambda: adv.refund(realm(part, state, stock), work.code, foundation=True,
                                          resources=work.paid))
        back = ", ".join(f"{line.amount} {line.resource}" for line in lines) or "nothing"
        summary = (f"{part.kingdom.name}, turn {state['turn']}: the {work.code.title()} "
                   f"foundation is cancelled, {back} back (SNS-ECON-58).")
        return _book(st, user, part, state, lines, summary,
                     {**state, "works": _with_work(state, None, drop=work.id)})


# --- upgrades (SNS-ECON-56) -------------------------------------------------------------------


def upgrade_items(code: str, units: Mapping[str, int]) -> int:
    """What a "+ n per ..." surcharge counts, from the units on the table."""
    return sum(int(units.get(u, 0)) for u in PER_ITEM_UNITS.get(code, ()))


def buy_upgrade(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, code: str,
                declared_types: Sequence[str] = (), *, alternative: int = 0) -> str:
    """SNS-ECON-56, SNS-UPG-*, SNS-ECON-3/4: an upgrade from the catalogue bought at an
    operational building of the kingdom with its prerequisites and faction, paid first; kept
    on the building it was bought at."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.ADVANCE,))
        catalogue = hold.campaign_catalogue(costs.cost_types(st.campaign))
        stock = stockpile_of(part.kingdom, state)
        upgrade = _check(lambda: catalogue.upgrade(code))
        units = dict(state.get("units", {}))
        lines = _check(lambda: adv.buy_upgrade(
            realm(part, state, stock), code, items=upgrade_items(code, units),
            alternative=alternative, declared_types=declared_types, catalogue=catalogue))
        turn = int(state["turn"])
        at = [w for w in hold.works_of(state)
              if w.code == upgrade.building and hold.working(w, turn)]
        owned = list(state.get("upgrades", []))
        owned.append({"code": code, "work": at[0].id if at else None, "turn": turn})
        summary = (f"{part.kingdom.name}, turn {turn}: buys {upgrade.name}, paid "
                   f"{_paid_words(lines)} ({upgrade.rule_id}, SNS-ECON-56).")
        new_state = {**state, "upgrades": owned,
                     "bought_upgrades": int(state.get("bought_upgrades", 0)) + 1}
        return _book(st, user, part, state, lines, summary, new_state)


def discard_upgrade(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                    code: str) -> str:
    """SNS-ECON-56: a single-use upgrade used, or one the text discards, leaves the kingdom
    (to be bought again if wanted)."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        owned = list(state.get("upgrades", []))
        left = [u for u in owned if u["code"] != code]
        if len(left) == len(owned):
            raise SnsError(f"SNS-ECON-56: {part.kingdom.name} does not own {code.title()}.")
        name = hold.campaign_catalogue({}).upgrade(code).name
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {name} is used up or discarded "
                   "(SNS-ECON-56).")
        return _book(st, user, part, state, (), summary, {**state, "upgrades": left})


# --- staff, damage, fire, repair (SNS-ECON-54, SNS-CBT-5..8) ----------------------------------


def set_staff(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, work_id: int,
              staffed: bool) -> str:
    """SNS-ECON-54: a Villager steps in as staff, or the staff steps out as a Villager (the
    building stops working, SNS-ECON-55)."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        work = _work(state, work_id, part.kingdom.name)
        name = hold.campaign_catalogue({}).building(work.code).name
        if not work.standing or not hold.needs_staff(work.code):
            raise SnsError(f"SNS-ECON-54: the {name} takes no staff now.")
        if work.staffed == staffed:
            raise SnsError("SNS-ECON-54: nothing changes.")
        units = dict(state.get("units", {}))
        if staffed:
            if units.get("VILLAGER", 0) < 1:
                raise SnsError(f"SNS-ECON-54: {part.kingdom.name} has no Villager to staff the "
                               f"{name}.")
            units["VILLAGER"] -= 1
        else:
            units["VILLAGER"] = units.get("VILLAGER", 0) + 1
        changed = hold.Work(**{**work.as_dict(), "staffed": staffed})
        summary = (f"{part.kingdom.name}, turn {state['turn']}: "
                   + (f"a Villager staffs the {name}" if staffed
                      else f"the {name}'s staff steps out as a Villager; it stops working")
                   + " (SNS-ECON-54).")
        return _book(st, user, part, state, (), summary,
                     {**state, "units": units, "works": _with_work(state, changed)})


def damage(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, work_id: int, *,
           wounds: int = 0, fire_die: int | None = None) -> str:
    """SNS-CBT-5, SNS-CBT-6, SNS-CBT-8, SNS-ECON-4, SNS-BLD-TOTEM: wounds on a building (or a
    fire hit of d6, Wells taking 1 off); a foundation gains 2 BP per wound and is lost past its
    full BP; a building falls when its wounds reach its HP (its upgrades stay, SNS-ECON-56); a
    fire leaves a non-defensive building out of work the whole next turn; a Stockpile stops at
    1 HP and stops working; a fallen Totem costs 3."""
    if fire_die is None and wounds < 1:
        raise SnsError("SNS-CBT-5: damage is 1 wound or more.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        work = _work(state, work_id, part.kingdom.name)
        catalogue = hold.campaign_catalogue({})
        building = catalogue.building(work.code)
        owned = hold.owned_upgrades(state)
        turn = int(state["turn"])
        if work.destroyed_turn is not None:
            raise SnsError(f"SNS-CBT-5: the {building.name} is already destroyed.")
        hits = wounds if fire_die is None else _check(
            lambda: dmg.fire_damage(fire_die, wells="WELLS" in owned))
        how = (f"takes {hits} wound{'s' if hits != 1 else ''}"
               + (f" from a fire ({fire_die} on the die)" if fire_die is not None else ""))
        lines: tuple[eco.LedgerLine, ...] = ()
        new_state = dict(state)
        if not work.complete:
            after = dmg.wound_foundation(work.foundation(), hits)
            if after is None:
                summary = (f"{part.kingdom.name}, turn {turn}: the {building.name} foundation "
                           f"{how} and is destroyed (SNS-CBT-6).")
                new_state["works"] = _with_work(state, None, drop=work.id)
            else:
                summary = (f"{part.kingdom.name}, turn {turn}: the {building.name} foundation "
                           f"{how}: {after.bp_remaining} of {after.bp_full} BP left "
                           "(SNS-CBT-6).")
                new_state["works"] = _with_work(state, hold.Work(
                    **{**work.as_dict(), "bp": after.bp_remaining}))
            return _book(st, user, part, state, lines, summary, new_state)
        bonus = dmg.defensive_architecture_hp(work.code, "DEFARCH" in owned)
        hurt = _check(lambda: dmg.wound_building(work.code, work.wounds, hits, bonus_hp=bonus,
                                                 fire=fire_die is not None,
                                                 catalogue=catalogue))
        hp = (building.hp or 0) + bonus
        changed = hold.Work(**{**work.as_dict(), "wounds": hurt.wounds,
                               "fire_turn": turn if hurt.fire_token else work.fire_turn,
                               "destroyed_turn": turn if hurt.destroyed else None})
        words = [f"the {building.name} {how}: {hp - hurt.wounds} of {hp} HP left"]
        if hurt.destroyed:
            words = [f"the {building.name} {how} and is destroyed (SNS-CBT-5; its upgrades "
                     "stay, SNS-ECON-56)"]
            counts = dict(state.get("buildings", {}))
            standing = hold.standing_counts(
                [changed if w.id == work.id else w for w in hold.works_of(state)])
            if counts.get(work.code, 0) > standing.get(work.code, 0):
                counts[work.code] = standing.get(work.code, 0)
            new_state["buildings"] = {c: n for c, n in counts.items() if n}
            if work.code == "TOTEM":
                stock = stockpile_of(part.kingdom, state)
                lines = _check(lambda: dmg.totem_destroyed(
                    stock, econ_options(st.campaign, game)))
                words.append("a fallen Totem costs 3 and blocks favor next turn (SNS-BLD-TOTEM)")
        elif hurt.fire_token:
            words.append("out of work the whole next turn (SNS-CBT-8)")
        if work.code == "STOCKPILE" and hp and hurt.wounds >= hp - 1:
            new_state["operational"] = False
            words.append("the Stockpile is at 1 HP and stops working (SNS-ECON-4)")
        new_state["works"] = _with_work(state, changed)
        summary = f"{part.kingdom.name}, turn {turn}: " + "; ".join(words) + "."
        return _book(st, user, part, state, lines, summary, new_state)


def repair(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, work_id: int,
           wounds: int) -> str:
    """SNS-CBT-7: Villagers remove a building's wounds like building, in the advance phase; a
    Stockpile lifted past 1 HP works again (SNS-ECON-4)."""
    if wounds < 1:
        raise SnsError("SNS-CBT-7: repair at least 1 wound.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.ADVANCE,))
        work = _work(state, work_id, part.kingdom.name)
        building = hold.campaign_catalogue({}).building(work.code)
        if not work.standing or not work.wounds:
            raise SnsError(f"SNS-CBT-7: the {building.name} has no wounds to repair.")
        left = max(0, work.wounds - wounds)
        new_state = {**state, "works": _with_work(
            state, hold.Work(**{**work.as_dict(), "wounds": left}))}
        hp = building.hp or 0
        summary = (f"{part.kingdom.name}, turn {state['turn']}: the {building.name} is repaired "
                   f"to {hp - left} HP (SNS-CBT-7)")
        if work.code == "STOCKPILE" and not state.get("operational", True) and left < hp - 1:
            new_state["operational"] = True
            summary += "; the Stockpile works again (SNS-ECON-4)"
        return _book(st, user, part, state, (), summary + ".", new_state)


# --- die timers (SNS-ECON-40, SNS-STATE-3) ----------------------------------------------------


def start_timer(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, name: str,
                value: int | None = None, subject: str = "") -> str:
    """SNS-STATE-3: a die timer set at its printed start (or a value the table gives, e.g. the
    Dire Warning flood, computed from the turn when none is given). Plague, Public Executions and
    Refugees change growth in every compulsory phase while they run (SNS-ECON-44)."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        if name == "Flood" and value is None:
            value = turn_rules.flood_timer(int(state["turn"]))
        if name not in TIMERS and value is None:
            raise SnsError(f"SNS-STATE-3: {name!r} has no printed start; give its value.")
        timer = _check(lambda: turn_rules.start_timer(name, value, subject=subject))
        timers = list(state.get("timers", []))
        paid = state.get("compulsory_done") == state["turn"]
        timers.append(hold.timer_dict(hold.next_id(timers), timer,
                                      int(state["turn"]) + (1 if paid else 0)))
        growth = hold.TIMER_GROWTH.get(name)
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {name} timer set at "
                   f"{timer.remaining}"
                   + (f", {growth:+d} growth while it runs" if growth else "")
                   + " (SNS-STATE-3).")
        return _book(st, user, part, state, (), summary, {**state, "timers": timers})


def end_timer(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
              timer_id: int) -> str:
    """SNS-ECON-40: an effect that ends before its timer runs out ("a few effects say
    otherwise") is taken off."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        timers = list(state.get("timers", []))
        left = [t for t in timers if int(t["id"]) != timer_id]
        if len(left) == len(timers):
            raise SnsError(f"SNS-ECON-40: {part.kingdom.name} has no timer {timer_id}.")
        gone = next(t for t in timers if int(t["id"]) == timer_id)
        summary = (f"{part.kingdom.name}, turn {state['turn']}: the {gone['name']} timer is "
                   "taken off (SNS-ECON-40).")
        return _book(st, user, part, state, (), summary, {**state, "timers": left})


def operational_now(state: Mapping[str, Any], idle: Collection[int] = ()) -> dict[str, int]:
    """SNS-ECON-55: the kingdom's operational buildings at the start of the compulsory phase."""
    return hold.operational_counts(hold.works_of(state), int(state["turn"]), idle)


# --- what the table page shows ----------------------------------------------------------------

_RICH = eco.Stockpile(**dict.fromkeys(eco.RESOURCES, 10**6))


def _fill(cost: Any) -> list[str]:
    return [eco.FOOD] * sum(1 for kind in cost.types if kind is None)


def _cost_words(cost: Any) -> str:
    return ", ".join(f"{a} {k or '?'}" for a, k in zip(cost.amounts, cost.types)) or "free"


def holdings_view(campaign: Campaign, game: Game, part: Participant | None,
                  types: Mapping[str, Sequence[str | None]]) -> dict[str, Any]:
    """A kingdom's buildings with their upgrades, foundations, Sites and timers, and what it may
    build or buy now (SNS-ECON-53/56: only what its faction, buildings and upgrades allow),
    each uncertain cost with its note (SNS-AMB-30)."""
    if part is None or not part.table:
        return {"works": [], "sites": [], "timers": [], "can_build": [], "can_buy": [],
                "units_to_train": []}
    state = dict(part.table)
    turn = int(state.get("turn", 1))
    catalogue = hold.campaign_catalogue(types)
    works = hold.works_of(state)
    upgrades = list(state.get("upgrades", []))
    rows = []
    for work in works:
        building = catalogue.building(work.code)
        bought = [catalogue.upgrade(u["code"]).name for u in upgrades if u.get("work") == work.id]
        rows.append({"work": work, "name": building.name, "status": hold.status(work, turn),
                     "upgrades": bought, "needs_staff": hold.needs_staff(work.code),
                     "hp": building.hp, "fire": hold.on_fire(work, turn)})
    loose = [catalogue.upgrade(u["code"]).name for u in upgrades
             if u.get("work") not in {w.id for w in works}]
    rich = realm(part, state, _RICH)
    options = econ_options(campaign, game)
    can_build = []
    for code, building in catalogue.buildings.items():
        try:
            adv.lay_foundation(rich, code, declared_types=_fill(building.cost), options=options,
                               catalogue=catalogue)
        except ValueError:
            continue
        can_build.append({"code": code, "name": building.name, "bp": building.bp,
                          "cost": _cost_words(building.cost),
                          "note": costs.note(building.rule_id, types)})
    units = dict(state.get("units", {}))
    can_buy = []
    for code, upgrade in catalogue.upgrades.items():
        items = upgrade_items(code, units)
        try:
            adv.buy_upgrade(rich, code, items=items,
                            declared_types=_fill(upgrade.cost_for(items)), catalogue=catalogue)
        except ValueError:
            continue
        can_buy.append({"code": code, "name": upgrade.name,
                        "at": catalogue.building(upgrade.building).name,
                        "cost": _cost_words(upgrade.cost_for(items)), "effect": upgrade.effect,
                        "note": costs.note(upgrade.rule_id, types)})
    trainable = []
    operational = dict(state.get("buildings", {}))
    letter = eco.FACTION_LETTER[faction_of(part)]
    for code, unit in catalogue.units.items():
        if (unit.trained_at and code != "MERC" and operational.get(unit.trained_at)
                and unit.faction in ("", letter)):
            trainable.append({"code": code, "name": unit.name,
                              "at": catalogue.building(unit.trained_at).name,
                              "cost": _cost_words(unit.cost),
                              "note": costs.note(unit.rule_id, types)})
    return {"works": rows, "loose_upgrades": loose, "sites": hold.sites_of(state),
            "timers": [{"id": i, "timer": t, "growth": int(d.get("growth", 0))}
                       for (i, t), d in zip(hold.timers_of(state), state.get("timers", ()))],
            "can_build": can_build, "can_buy": can_buy, "units_to_train": trainable,
            "timer_names": sorted(TIMERS), "plant_note": costs.note(
                hold.USE_KEY.format(rule_id="SNS-UPG-REFORESTATION"), types),
            "owns_reforestation": "REFORESTATION" in hold.owned_upgrades(state)}
