"""The game at the table: each kingdom's Stockpile ledger through a campaign game.

While a game is played, a kingdom's Stockpile is its ledger balances of the six resources
(SNS-ECON-1/2), booked with the campaign's game number, every line citing its rule. Turn 1 opens
the Stockpile with the start the campaign brings, line by line (SNS-ECON-10); each kingdom then
walks its turns through the four phases (SNS-ECON-11): harvest (Farm dice computed, other
harvests typed from the table), the compulsory phase (upkeep paid and growth worked out from the
operational buildings, SNS-ECON-40..46), the advance phase (training capped by growth, paid
first, SNS-ECON-51; other spending typed with its rule) and Move & Combat. When the result is
recorded the Stockpile is put away and what the report needs (peak gold, SNS-STAT-18; units
trained) is written into the kingdom's post-game report.

Each action is one chronicle event; a spend the Stockpile cannot cover is refused (SNS-ECON-3),
and so is anything but favor while the Stockpile is not operational (SNS-ECON-4).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.locking import lock_kingdom
from campaign.models import Campaign, Kingdom
from campaign.systems.swords_and_stones import costs
from campaign.systems.swords_and_stones.models import Game, Participant
from campaign.systems.swords_and_stones.rules import econ_advance as adv
from campaign.systems.swords_and_stones.rules import econ_harvest as harvest
from campaign.systems.swords_and_stones.rules import econ_turn as turn_rules
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.rules import events as evt
from campaign.systems.swords_and_stones.rules import holdings as hold
from campaign.systems.swords_and_stones.rules.catalogue import DEFAULT_CATALOGUE, Catalogue
from campaign.systems.swords_and_stones.services import (
    _check,
    _game_for_update,
    _participant,
)
from campaign.systems.swords_and_stones.state import SnsError
from campaign.systems.swords_and_stones.stockpile import (
    RESOURCES,
    econ_options,
    line_of,
    stock_balances,
    stockpile_of,
)
from ledger.models import LedgerEntry
from ledger.services import post

#: Buildings the compulsory phase asks about: upkeep and growth (SNS-ECON-42..44), and the
#: training buildings of the commonest units (SNS-ECON-51).
BUILDINGS: tuple[str, ...] = ("STOCKPILE", "TAVERN", "TOWNCENTER", "TEMPLE", "ARENA", "COMMUNE",
                              "BARRACKS", "STABLE", "FARM")
#: Rules a line typed at the table may cite, with what they are for.
TYPED_RULES: Mapping[str, str] = {
    "SNS-ECON-21": "Site harvest (Forest or Outcrop)",
    "SNS-ECON-25": "hunting",
    "SNS-ECON-26": "fishing",
    "SNS-ECON-28": "favor from the Temple",
    "SNS-ECON-29": "goods and services (Guild, Relics)",
    "SNS-EVT-1": "an event",
    "SNS-ECON-53": "a foundation the catalogue does not have",
    "SNS-ECON-56": "an upgrade the catalogue does not have",
    "SNS-ECON-57": "trade at the Market or Tavern",
    "SNS-ECON-58": "a demolition's refund",
    "SNS-STATE-2": "a spell",
    "SNS-ECON-3": "other (GM's correction)",
}


def _state(part: Participant) -> dict[str, Any]:
    return dict(part.table)


@dataclass
class _Table:
    """What an action at the table needs of the campaign (no map: the Stockpile is enough)."""

    campaign: Campaign


def _at_table(campaign: Campaign, game: Game, kingdom: Kingdom,
              phases: Sequence[str] = ()) -> tuple[_Table, Game, Participant, dict[str, Any]]:
    """Lock the campaign, then the kingdom (the documented order), then the game and the
    kingdom's seat in it."""
    try:
        locked, kingdom = lock_kingdom(kingdom, campaign.pk)
    except Kingdom.DoesNotExist:
        raise SnsError(f"{kingdom.name} is not a kingdom of this campaign.") from None
    st = _Table(locked)
    game = _game_for_update(st.campaign, game)
    if game.status != Game.Status.PLAYING:
        raise SnsError(f"SNS-ECON-11: game {game.number} is not being played; its Stockpiles "
                       "open when turn 1 begins.")
    part = _participant(game, kingdom)
    state = _state(part)
    if not state:
        raise SnsError(f"SNS-ECON-10: {kingdom.name} has no Stockpile in game {game.number}.")
    if phases and state["phase"] not in phases:
        raise SnsError(f"SNS-ECON-11: {kingdom.name} is in the {_phase(state['phase'])} "
                       f"phase of turn {state['turn']}; this belongs to the "
                       f"{' or '.join(_phase(p) for p in phases)} phase.")
    return st, game, part, state


def _phase(phase: str) -> str:
    return phase.replace("_", " & ")


def _book(st: _Table, user: Any, part: Participant, state: dict[str, Any],
          lines: Sequence[eco.LedgerLine], summary: str, new_state: dict[str, Any] | None = None,
          dice: Sequence[int] = (), dice_rule: str = "SNS-ECON-27") -> str:
    with Recorder(st.campaign, user, "sns.table", summary, kingdom=part.kingdom,
                  data={"turn": state["turn"], "phase": state["phase"]}) as rec:
        if dice:
            rec.roll(dice_rule, dice, "table")
        post(rec, [(part.kingdom, line_of(line, f"turn {state['turn']}: ")) for line in lines])
        if new_state is not None and new_state != part.table:
            rec.update(part, table=new_state)
    return summary


def farm_harvest(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                 dice: Sequence[int], outcomes: Sequence[str] = ()) -> str:
    """SNS-ECON-27, SNS-ECON-30: one die per Farm, typed from the table; a 1 is a Farm event
    whose outcome (rain, insect plague, success, fail) is given in dice order."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.HARVEST,))
        plough = "HEAVYPLOUGH" in hold.owned_upgrades(state)
        result = _check(lambda: _harvest(dice, outcomes, plough))
        stock = stockpile_of(part.kingdom, state)
        _check(lambda: eco.check_operational(stock, result.lines, "harvest"))
        food = sum(line.amount for line in result.lines if line.resource == eco.FOOD)
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {len(dice)} Farm dice "
                   f"({', '.join(map(str, dice))}) give {food} food (SNS-ECON-27"
                   + (", SNS-UPG-HEAVYPLOUGH" if plough else "") + ").")
        new_state = {**state, "farmed": state["turn"]}
        return _book(st, user, part, state, result.lines, summary, new_state, dice=dice)


def _harvest(dice: Sequence[int], outcomes: Sequence[str],
             heavy_plough: bool = False) -> harvest.Harvest:
    try:
        return harvest.farm_harvest(dice, outcomes, heavy_plough=heavy_plough)
    except ValueError as exc:
        raise eco.RuleViolation(str(exc)) from None


def book_line(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, resource: str,
              amount: int, rule_id: str, reason: str) -> str:
    """SNS-ECON-2/3/4: a line typed at the table (a Site harvest, an event, a trade, a
    foundation, an upgrade, a spell...), citing its rule. A spend is refused when the Stockpile
    cannot cover it (pay first) or is not operational."""
    if resource not in RESOURCES:
        raise SnsError(f"SNS-ECON-1: {resource!r} is not a resource.")
    if rule_id not in TYPED_RULES:
        raise SnsError(f"SNS-ECON-2: cite one of the rules offered, not {rule_id!r}.")
    if not amount:
        raise SnsError("SNS-ECON-2: a line moves at least 1.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        stock = stockpile_of(part.kingdom, state)
        what = reason.strip() or TYPED_RULES[rule_id]
        if amount < 0:
            lines = _check(lambda: eco.pay(stock, {resource: -amount}, rule_id, what))
        else:
            lines = (eco.LedgerLine(resource, amount, rule_id, what),)
            _check(lambda: eco.check_operational(stock, lines, "receive"))
        new_state = dict(state)
        if rule_id == "SNS-ECON-56" and amount < 0:
            new_state["bought_upgrades"] = state.get("bought_upgrades", 0) + 1
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {amount:+d} {resource}, {what} "
                   f"({rule_id}).")
        return _book(st, user, part, state, lines, summary, new_state)


def compulsory(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
               operational: Mapping[str, int] | None = None, besieged: bool | None = None, *,
               workers: Mapping[int, int] | None = None, idle: Collection[int] = ()) -> str:
    """SNS-ECON-40..46, SNS-ECON-55, SNS-AMB-33, SNS-AMB-34: the compulsory phase in its order.
    Every die timer ticks down (SNS-ECON-40); the units working foundations remove their Build
    Points (SNS-ECON-41); upkeep of the operational buildings is paid in food as far as there is
    food, every food short lowering growth by 1; the growth rate of the turn follows (D.8), with
    the standing penalties of owned upgrades (Taxation, Crime and Punishment), and 1 less while
    besieged (SNS-ECON-46). ``besieged`` lays or lifts the siege as the phase starts; None keeps
    it as the table has it (``set_besieged``): the kingdom stays besieged until it is lifted.

    The operational buildings are the kingdom's own, less those out of work after a fire,
    unstaffed or ``idle`` (ids the table says an enemy touches, SNS-ECON-55); ``operational``
    counts typed by the table instead are taken as they are (a Stockpile kept on paper)."""
    if operational is not None:
        counts = {code: int(n) for code, n in operational.items() if n}
        if any(n < 0 for n in counts.values()):
            raise SnsError("SNS-ECON-42: building counts are 0 or more.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.COMPULSORY,))
        if state.get("compulsory_done") == state["turn"]:
            raise SnsError(f"SNS-ECON-42: {part.kingdom.name} already paid upkeep in turn "
                           f"{state['turn']}.")
        works = hold.works_of(state)
        unknown = set(idle) - {w.id for w in works}
        if unknown:
            raise SnsError(f"SNS-ECON-55: {part.kingdom.name} has no building "
                           f"{min(unknown)}.")
        if operational is None:
            counts = hold.operational_counts(works, int(state["turn"]), idle)
        owned = hold.owned_upgrades(state)
        ticked, words = _check(lambda: hold.tick(state, "TREADMILL" in owned, workers or {},
                                                 DEFAULT_CATALOGUE, part.kingdom.name))
        stock = stockpile_of(part.kingdom, state)
        mods = [turn_rules.GrowthLine(a, r, w) for a, r, w in state.get("growth_mods", [])]
        mods += turn_rules.upgrade_growth_penalties(sorted(owned))
        mods += [turn_rules.GrowthLine(a, "SNS-STATE-3", w)
                 for a, w in hold.timer_growth(ticked, int(state["turn"]))]
        fixed = state.get("growth_set")
        if besieged is None:
            besieged = bool(state.get("besieged", False))
        result = turn_rules.compulsory_phase(stock, counts, besieged=besieged, modifiers=mods,
                                             fixed=fixed, fixed_by="an event",
                                             options=econ_options(st.campaign, game))
        rate = result.growth.rate
        new_state = {**ticked, "buildings": counts, "growth": rate,
                     "shortfall": result.upkeep.shortfall, "upkeep": result.upkeep.due,
                     "compulsory_done": state["turn"], "growth_mods": [],
                     "growth_set": None, "besieged": besieged}
        summary = (f"{part.kingdom.name}, turn {state['turn']}: "
                   + (f"{'; '.join(words)} (SNS-ECON-40, SNS-ECON-41); " if words else "")
                   + f"upkeep {result.upkeep.due} food"
                   + (f", {result.upkeep.shortfall} short" if result.upkeep.shortfall else "")
                   + f"; growth {rate if rate is not None else 'unlimited'} (SNS-ECON-42..44).")
        return _book(st, user, part, state, result.upkeep.lines, summary, new_state)


def event(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, table_name: str,
          roll: int, sub_rolls: Sequence[int] = (), choices: Sequence[str] = (),
          site: int | None = None) -> str:
    """SNS-EVT-1..3, SNS-ECON-13: a 3d6 event rolled at the table on one of the event tables
    (Idle Villagers before turn 10). Its ledger lines are booked; its growth changes wait for
    this turn's compulsory phase; its die timers start; a result that still needs a sub-roll or
    a choice is refused with what it needs, and one to re-roll says so. The kingdom's upgrades
    and operational buildings protect as their texts say (SNS-UPG-*); an event rolled for one of
    its Sites reads the Site's level and scarcity, adds the scarcity it brings (SNS-ECON-24) and
    is Idle Villagers at a planted Forest (SNS-UPG-REFORESTATION)."""
    if table_name not in evt.EVENT_TABLES:
        raise SnsError(f"SNS-EVT-1: there is no event table {table_name!r}.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        stock = stockpile_of(part.kingdom, state)
        faction = part.faction if part.faction in eco.FACTIONS else eco.AVALONIAN
        working = dict(state.get("buildings", {}))
        at = None
        if site is not None:
            at = next((row for row in hold.sites_of(state) if row.id == site), None)
            if at is None:
                raise SnsError(f"SNS-STATE-5: {part.kingdom.name} has no Site {site}.")
        # Worm Spray protects only once its price of the use is paid (a line of its own).
        protections = set(hold.owned_upgrades(state)) - {"WORMSPRAY"}
        protections |= {code for code in ("BATHHOUSE",) if working.get(code)}
        if at is not None:
            protections |= {flag for flag, on in (("reforested", at.reforested),
                                                  ("unlimited", at.unlimited)) if on}
        context = evt.EventContext(stockpile=stock, faction=faction,
                                   farms=int(working.get("FARM", 0)),
                                   protections=frozenset(protections),
                                   site_level=at.level if at is not None else 0,
                                   site_scarcity=at.scarcity if at is not None else 0,
                                   town_center_operational=bool(working.get("TOWNCENTER")))
        names = {spec.name for spec in evt.EVENT_OPTIONS}
        options = evt.EventOptions.from_dict({k: v for k, v in st.campaign.options.items()
                                              if k in names})
        context = replace(context, ice_lands=econ_options(st.campaign, game).map_type
                          == "ice_lands")
        outcome = _check(lambda: evt.resolve_event(table_name, roll, turn=int(state["turn"]),
                                                   context=context, sub_rolls=sub_rolls,
                                                   choices=choices, options=options))
        if outcome.pending:
            raise SnsError(f"SNS-EVT-2: {outcome.name} needs {outcome.pending} first.")
        if outcome.reroll:
            raise SnsError(f"SNS-EVT-3: {outcome.name}: roll again "
                           f"({'; '.join(outcome.notes) or 'a re-roll result'}).")
        _check(lambda: eco.check_operational(stock, outcome.lines, "take"))
        new_state = dict(state)
        mods = list(state.get("growth_mods", []))
        mods += [[g.amount, g.rule_id, g.reason] for g in outcome.growth]
        if mods:
            new_state["growth_mods"] = mods
        if outcome.growth_set is not None:
            new_state["growth_set"] = outcome.growth_set
        site_words = ""
        if outcome.scarcity and at is not None and not at.growing:
            after = at.with_site(harvest.add_scarcity(at.site(), outcome.scarcity))
            rows = [after if row.id == at.id else row for row in hold.sites_of(state)]
            new_state["sites"] = [row.as_dict() for row in rows]
            site_words = (f"; {after.label} has {after.scarcity} of {after.level} scarcity"
                          + (", depleted" if after.depleted else "") + " (SNS-ECON-24)")
        if outcome.timers:
            # The event's own growth line counts in the next compulsory phase; the timer's
            # growth carries on from the turn after that one (SNS-STATE-3).
            paid = state.get("compulsory_done") == state["turn"]
            timers = list(state.get("timers", []))
            for timer in outcome.timers:
                timers.append(hold.timer_dict(hold.next_id(timers), timer,
                                              int(state["turn"]) + (2 if paid else 1)))
            new_state["timers"] = timers
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {table_name} event {roll}: "
                   f"{outcome.name}" + (f" ({'; '.join(outcome.notes)})" if outcome.notes
                                        else "") + f"{site_words} (SNS-EVT-2).")
        with Recorder(st.campaign, user, "sns.table", summary, kingdom=part.kingdom,
                      data={"turn": state["turn"], "event": outcome.name}) as rec:
            rec.roll(f"SNS-EVT-2 {table_name}", [roll], "table")
            if sub_rolls:
                rec.roll("SNS-EVT-2 sub-roll", sub_rolls, "table")
            post(rec, [(part.kingdom, line_of(line, f"turn {state['turn']}: "))
                       for line in outcome.lines])
            if new_state != part.table:
                rec.update(part, table=new_state)
        return summary


def train(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, code: str,
          count: int = 1, declared_types: Sequence[str] = ()) -> str:
    """SNS-ECON-51, SNS-ECON-44, SNS-UNIT-*: train units at an operational building, paid
    first, no more in a turn than the growth rate."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.ADVANCE,))
        stock = stockpile_of(part.kingdom, state)
        rate = state.get("growth")
        growth = turn_rules.Growth((), rate if rate is not None else None)
        faction = part.faction if part.faction in eco.FACTIONS else eco.AVALONIAN
        realm = adv.Kingdom(faction=faction, stockpile=stock,
                            built=hold.standing_counts(hold.works_of(state)),
                            operational=dict(state.get("buildings", {})),
                            upgrades=hold.owned_upgrades(state))
        catalogue = hold.campaign_catalogue(costs.cost_types(st.campaign))
        training = _check(lambda: _train(realm, code, count, growth, state, declared_types,
                                         catalogue))
        units = dict(state.get("units", {}))
        units[training.unit] = units.get(training.unit, 0) + count
        trained = dict(state.get("trained_units", {}))
        trained[training.unit] = trained.get(training.unit, 0) + count
        new_state = {**state, "units": units, "trained_units": trained,
                     "trained": state.get("trained", 0) + (count if training.uses_growth else 0)}
        summary = (f"{part.kingdom.name}, turn {state['turn']}: trains {count} {code.lower()} "
                   "(SNS-ECON-51).")
        return _book(st, user, part, state, training.lines, summary, new_state)


def _train(realm: adv.Kingdom, code: str, count: int, growth: turn_rules.Growth,
           state: Mapping[str, Any], declared: Sequence[str],
           catalogue: Catalogue = DEFAULT_CATALOGUE) -> adv.Training:
    try:
        return adv.train(realm, code, count, growth=growth,
                         trained_this_turn=int(state.get("trained", 0)),
                         declared_types=declared, catalogue=catalogue)
    except ValueError as exc:
        if isinstance(exc, eco.RuleViolation):
            raise
        raise eco.RuleViolation(str(exc)) from None


def next_phase(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom) -> str:
    """SNS-ECON-11: on to the next phase; after Move & Combat the next turn's harvest, with
    nothing trained yet."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        if state["phase"] == eco.COMPULSORY and state.get("compulsory_done") != state["turn"]:
            raise SnsError("SNS-ECON-42: pay upkeep and work out growth before the advance "
                           "phase.")
        turn, phase = eco.next_phase(state["turn"], state["phase"])
        new_state = {**state, "turn": turn, "phase": phase}
        if turn != state["turn"]:
            new_state["trained"] = 0
        summary = f"{part.kingdom.name}: turn {turn}, {_phase(phase)} phase (SNS-ECON-11)."
        return _book(st, user, part, state, (), summary, new_state)


def set_operational(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                    operational: bool) -> str:
    """SNS-ECON-4: the table says whether the Stockpile works (1 HP, unstaffed or touched by an
    enemy: it does not)."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        if bool(state.get("operational", True)) == operational:
            raise SnsError("SNS-ECON-4: nothing changes.")
        summary = (f"{part.kingdom.name}'s Stockpile "
                   + ("works again." if operational else "stops working (SNS-ECON-4)."))
        return _book(st, user, part, state, (), summary, {**state, "operational": operational})


def set_besieged(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                 besieged: bool) -> str:
    """SNS-ECON-46, SNS-CBT-14: the table says the kingdom is besieged (enemy units ring it no
    more than 3 inches apart, or stand at every Gate of Completed Walls) or no longer is. While
    besieged it harvests no Site outside the siege line, trades with no player unless its Dock
    works, and grows 1 less in each compulsory phase."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        if bool(state.get("besieged", False)) == besieged:
            raise SnsError("SNS-ECON-46: nothing changes.")
        summary = (f"{part.kingdom.name} is besieged (SNS-ECON-46): no harvest outside the "
                   "siege line, no trade without a working Dock, 1 less growth."
                   if besieged else f"The siege of {part.kingdom.name} is lifted (SNS-ECON-46).")
        return _book(st, user, part, state, (), summary, {**state, "besieged": besieged})


def table_view(campaign: Campaign, game: Game, kingdom: Kingdom) -> dict[str, Any]:
    """A kingdom's Stockpile in a game: balances, turn and phase, growth, and the game's lines
    (newest first)."""
    part = Participant.objects.filter(game=game, kingdom=kingdom).first()
    state = dict(part.table) if part is not None else {}
    have = stock_balances([kingdom])[kingdom.pk]
    lines = list(LedgerEntry.objects.filter(campaign=campaign, kingdom=kingdom, year=game.number,
                                            resource__in=RESOURCES).order_by("-pk")[:40])
    return {"part": part, "state": state, "have": have, "lines": lines,
            "typed_rules": list(TYPED_RULES.items()), "resources": RESOURCES,
            "event_tables": list(evt.EVENT_TABLES),
            "buildings": [(code, DEFAULT_CATALOGUE.building(code).name,
                           state.get("buildings", {}).get(code, 0)) for code in BUILDINGS]}
