"""A kingdom's Resource Sites at the table (SNS-ECON-21..24, SNS-STATE-5): a Site is recorded
once a unit has looked at its hidden face (type, set, level, secondary resource and threshold),
harvested with the dice of the units touching it, worn down by scarcity until depleted, and a
Forest may be planted with Reforestation Projects and comes up at level 3 (4 with Wells) when its
timer runs out (SNS-UPG-REFORESTATION). Sites are harvested before the Farms (SNS-ECON-20).

Each action is one chronicle event on the seat's table state and its ledger lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from campaign.models import Campaign, Kingdom
from campaign.systems.swords_and_stones import costs
from campaign.systems.swords_and_stones.buildings import realm
from campaign.systems.swords_and_stones.models import Game
from campaign.systems.swords_and_stones.rules import econ_advance as adv
from campaign.systems.swords_and_stones.rules import econ_harvest as harvest
from campaign.systems.swords_and_stones.rules import economy as eco
from campaign.systems.swords_and_stones.rules import holdings as hold
from campaign.systems.swords_and_stones.state import SnsError, rules_check
from campaign.systems.swords_and_stones.stockpile import econ_options, stockpile_of
from campaign.systems.swords_and_stones.table import _at_table, _book
from campaign.words import counted

_check = rules_check


def _site(state: dict[str, Any], site_id: int, name: str) -> hold.SiteRow:
    for site in hold.sites_of(state):
        if site.id == site_id:
            return site
    raise SnsError(f"SNS-STATE-5: {name} has no Site {site_id}.")


def _with_site(state: dict[str, Any], site: hold.SiteRow) -> list[dict[str, Any]]:
    rows = [s for s in hold.sites_of(state) if s.id != site.id] + [site]
    return [s.as_dict() for s in sorted(rows, key=lambda s: s.id)]


def record_site(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, label: str,
                kind: str, level: int, *, set_name: str = "A", secondary: str | None = None,
                threshold: int | None = None, middle_island: bool = False,
                at_mountain: bool = False) -> str:
    """SNS-ECON-21, SNS-STATE-5, SNS-ECON-23, SNS-MAP-2/3/6/8/9: a Site the kingdom works, as
    its hidden face reads (the game's map type may set its level, scarcity or stone)."""
    label = label.strip()
    if not label:
        raise SnsError("SNS-STATE-5: name the Site as the table calls it.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        map_type = econ_options(st.campaign, game).map_type
        site = _check(lambda: hold.new_site(
            hold.sites_of(state), label, kind, level, set_name=set_name, secondary=secondary,
            threshold=threshold, map_type=map_type, middle_island=middle_island,
            at_mountain=at_mountain))
        summary = (f"{part.kingdom.name}, turn {state['turn']}: Site {site.label} recorded: "
                   f"{site.describe()} (SNS-STATE-5).")
        return _book(st, user, part, state, (), summary,
                     {**state, "sites": _with_site(state, site)})


def harvest_site(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, site_id: int,
                 dice: Sequence[int], *, stone_instead: int = 0,
                 inside_siege_line: bool = False) -> str:
    """SNS-ECON-20..23, SNS-ECON-4: the harvest dice of the units touching a Site, typed from
    the table: each 2-6 gives 1 wood (Forest) or 1 stone (Outcrop), the Outcrop's gold or iron
    where the die reaches its threshold (``stone_instead`` of those taken as stone); each 1 is an
    event on the Site's table, resolved first (an event at a planted Forest is Idle Villagers).
    All Sites are harvested before the Farm dice. A besieged kingdom harvests only a Site the
    table says lies inside the siege line (``inside_siege_line``, SNS-ECON-46)."""
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.HARVEST,))
        site = _site(state, site_id, part.kingdom.name)
        turn = int(state["turn"])
        if state.get("farmed") == turn:
            raise SnsError("SNS-ECON-20: the Farm dice were rolled this turn; every Site is "
                           "harvested before them.")
        if site.growing:
            raise SnsError(f"SNS-UPG-REFORESTATION: {site.label} is still growing.")
        outside = bool(state.get("besieged", False)) and not inside_siege_line
        result = _check(lambda: harvest.harvest_site(site.site(), dice,
                                                     stone_instead=stone_instead,
                                                     outside_siege_line=outside))
        stock = stockpile_of(part.kingdom, state)
        _check(lambda: eco.check_operational(stock, result.lines, "harvest"))
        got = ", ".join(f"{line.amount} {line.resource}" for line in result.lines) or "nothing"
        summary = (f"{part.kingdom.name}, turn {turn}: {counted(len(dice), 'die')} at {site.label} "
                   f"({', '.join(map(str, dice))}) give {got} (SNS-ECON-22)")
        if result.events:
            table = "Forest" if site.kind == harvest.FOREST else "Outcrop"
            summary += (f"; {len(result.events)} {table} event"
                        f"{'s' if len(result.events) != 1 else ''}"
                        + (" (Idle Villagers: a planted Forest)" if site.reforested else
                           f": roll {'them' if len(result.events) != 1 else 'it'} on the "
                           f"{table} table first (SNS-ECON-22)"))
        return _book(st, user, part, state, result.lines, summary + ".", dice=dice,
                     dice_rule="SNS-ECON-22")


def add_scarcity(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, site_id: int,
                 points: int = 1) -> str:
    """SNS-ECON-24: a Resource Scarcity event (or fire on a Forest, SNS-CBT-8) adds a scarcity
    point; when the points reach the Site's level it is depleted and leaves play (a Mountain's
    stone never runs out, SNS-MAP-2, SNS-MAP-9)."""
    if points < 1:
        raise SnsError("SNS-ECON-24: add 1 scarcity point or more.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        site = _site(state, site_id, part.kingdom.name)
        if site.depleted:
            raise SnsError(f"SNS-ECON-24: {site.label} is already depleted.")
        if site.growing:
            raise SnsError(f"SNS-UPG-REFORESTATION: {site.label} is still growing.")
        after = site.with_site(harvest.add_scarcity(site.site(), points))
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {site.label} "
                   + ("never runs out of stone" if after.unlimited else
                      f"has {after.scarcity} of {after.level} scarcity"
                      + (" and is depleted, out of play" if after.depleted else ""))
                   + " (SNS-ECON-24).")
        return _book(st, user, part, state, (), summary,
                     {**state, "sites": _with_site(state, after)})


def set_level(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, site_id: int,
              level: int) -> str:
    """SNS-STATE-5: the GM sets a Site's level (its face misread, or an event that says so);
    the Site is depleted while its scarcity reaches the level (SNS-ECON-24)."""
    if not 1 <= level <= 12:
        raise SnsError("SNS-ECON-21: a Site's level is from 1 to 12.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom)
        site = _site(state, site_id, part.kingdom.name)
        if site.growing:
            raise SnsError(f"SNS-UPG-REFORESTATION: {site.label} is still growing.")
        if site.level == level:
            raise SnsError("SNS-STATE-5: nothing changes.")
        after = hold.SiteRow(**{**site.as_dict(), "level": level,
                                "depleted": not site.unlimited and site.scarcity >= level})
        summary = (f"{part.kingdom.name}, turn {state['turn']}: {site.label} goes from level "
                   f"{site.level} to {level}"
                   + (", depleted" if after.depleted else "") + " (SNS-STATE-5).")
        return _book(st, user, part, state, (), summary,
                     {**state, "sites": _with_site(state, after)})


def plant_forest(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, label: str,
                 declared_type: str | None = None) -> str:
    """SNS-UPG-REFORESTATION, SNS-STATE-3, SNS-UPG-WELLS: with Reforestation Projects a kingdom
    pays 5 (the resource the campaign gives that price, else the one named) to plant a Forest;
    its timer of 10 runs down in the compulsory phases and it comes up at level 3, 4 with
    Wells; events there are Idle Villagers."""
    label = label.strip()
    if not label:
        raise SnsError("SNS-STATE-5: name the Site as the table calls it.")
    with transaction.atomic():
        st, game, part, state = _at_table(campaign, game, kingdom, (eco.ADVANCE,))
        kind = costs.use_type(st.campaign, "SNS-UPG-REFORESTATION") or declared_type
        if kind is not None and kind not in eco.RESOURCES:
            raise SnsError(f"SNS-ECON-1: {kind!r} is not a resource.")
        stock = stockpile_of(part.kingdom, state)
        lines, timer, level = _check(lambda: adv.plant_forest(realm(part, state, stock),
                                                              declared_type=kind))
        sites = hold.sites_of(state)
        if any(s.label == label for s in sites):
            raise SnsError(f"SNS-STATE-5: there is already a Site called {label!r}.")
        site = hold.SiteRow(hold.next_id([s.as_dict() for s in sites]), label, harvest.FOREST,
                            0, grows_to=level)
        timers = list(state.get("timers", []))
        timers.append(hold.timer_dict(hold.next_id(timers), timer.__class__(
            timer.name, timer.remaining, "SNS-UPG-REFORESTATION", hold.site_subject(site.id))))
        summary = (f"{part.kingdom.name}, turn {state['turn']}: plants Forest {label}, paid "
                   f"{', '.join(f'{-ln.amount} {ln.resource}' for ln in lines)}; it grows for "
                   f"{timer.remaining} turns and comes up at level {level} "
                   "(SNS-UPG-REFORESTATION).")
        return _book(st, user, part, state, lines, summary,
                     {**state, "sites": _with_site(state, site), "timers": timers})
