"""Standings and the end of the campaign (MK-AMB-20, MK-GEN-5).

The rules define neither a winner nor a length. A group may set ``campaign_years``: when the
last year's winter closes (its D) Deploy armies), the campaign ends; the clock stays where it
stopped, ``Campaign.state["ended"]`` records it, and every action is refused from then on. If the
GM later lengthens the campaign (or makes it open-ended), closing the phase again goes on into
the next summer. ``tallies`` reads what the standings count in one query of a few aggregates,
whatever the map's size; the ranking itself is the pure ``mk.standings``.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django.db.models import CharField, IntegerField, Q, Sum, Value
from django.utils.safestring import SafeString, mark_safe

from battles.models import Army
from campaign import tile_versions, words
from campaign.kept_sql import kept_values
from campaign.models import Campaign, Kingdom
from campaign.systems.mighty_kingdoms.rules import campaign as mk

SCORING_NAMES = {
    mk.SCORE_TILES: "most tiles",
    mk.SCORE_SETTLEMENTS: "most settlements",
    mk.SCORE_ARMY_POINTS: "most army points",
}


def ended(campaign: Campaign) -> bool:
    """Whether the campaign has ended (MK-AMB-20)."""
    return bool((campaign.state or {}).get("ended"))


def end_message(campaign: Campaign) -> str:
    """Why nothing more can be played."""
    year = ((campaign.state or {}).get("ended") or {}).get("year", campaign.year)
    return (f"The campaign is over: it ended with the winter of year {year}, the last year the "
            "group set (MK-AMB-20). A GM can undo the end, or lengthen the campaign in its "
            "settings and close the phase again to play on.")


def army_points(campaign: Campaign) -> dict[int, list[int]]:
    """Each kingdom's armies in play and their points: a Kings of War army with a fixed list
    counts its units still alive; any other army its roster points (MK-SETUP-6)."""
    # One query: each army with the points of its fixed list's living units (None without).
    # The query's text is kept under the campaign (``kept_values``); its rows are read each time.
    alive = Q(army_list__fixed_at__isnull=False, army_list__units__destroyed_reason="")
    armies = kept_values(
        ("standings-armies", campaign.pk),
        lambda: (Army.objects.filter(campaign=campaign, tile__isnull=False)
                 .annotate(listed=Sum("army_list__units__points", filter=alive))
                 .order_by("kingdom__order_position", "kingdom__name", "number")
                 .values_list("kingdom_id", "points", "listed")))
    by_kingdom: dict[int, list[int]] = defaultdict(list)
    for kingdom, points, listed in armies:
        by_kingdom[kingdom].append(listed or points)
    return dict(by_kingdom)


def _tallied(campaign_id: int) -> Any:
    """Every row the standings count but the tiles, in one query (a union, each row marked by
    what it is): each kingdom (0: its primary key, name, capital, the capital's controller and
    settlement, its place in the player order) and each army in play with its fixed list's
    living points (2: kingdom, roster points, listed points, number), as ``army_points`` reads
    them. The tiles each kingdom holds of each settlement come apart, counted again only after
    a tile was written (``tile_versions.holdings``)."""
    text, number = CharField(), IntegerField()
    blank_text = Value(None, output_field=text)
    kingdoms = Kingdom.objects.filter(campaign_id=campaign_id).order_by().values_list(
        Value(0, output_field=number), "pk", "name", "capital_tile_id",
        "capital_tile__controller_id", "capital_tile__settlement", "order_position")
    alive = Q(army_list__fixed_at__isnull=False, army_list__units__destroyed_reason="")
    armies = (Army.objects.filter(campaign_id=campaign_id, tile__isnull=False).order_by()
              .annotate(listed=Sum("army_list__units__points", filter=alive))
              .values_list(Value(2, output_field=number), "kingdom_id", blank_text, "points",
                           "listed", blank_text, "number"))
    return kingdoms.union(armies, all=True)


def tallies(campaign: Campaign,
            held: Mapping[int, Mapping[str, int]] | None = None) -> list[mk.KingdomTally]:
    """What each kingdom holds now, for ``mk.standings``, in the player order (one query, its
    text kept, see ``kept_values``; the rows are read each time), with the tiles each holds by
    settlement: ``held`` when the page has counted them (``tile_versions.holdings``), else
    counted here."""
    if held is None:
        held = tile_versions.holdings(campaign.pk)
    kingdoms = []
    armies: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for kind, pk, name, x, y, text, z in kept_values(("mk", "standings"), _tallied,
                                                     campaign.pk):
        if kind == 0:
            kingdoms.append((z is None, z or 0, name, pk, x, y, text))
        else:
            armies[pk].append((z, y or x))  # MK-SETUP-6: living listed points, else roster
    result = []
    nothing: Mapping[str, int] = {}
    for _, _, name, pk, capital, capital_controller, capital_settlement in sorted(kingdoms):
        counts = held.get(pk, nothing)
        # MK-AMB-8/36: the own capital counts while the kingdom holds it as a city.
        own = bool(capital) and (capital_controller, capital_settlement) == (pk, mk.CITY)
        result.append(mk.KingdomTally(
            pk, name, tiles=sum(counts.values()), villages=counts.get(mk.VILLAGE, 0),
            cities=counts.get(mk.CITY, 0), fortresses=counts.get(mk.FORTRESS, 0),
            own_capital=own,
            army_points=tuple(points for _, points in sorted(armies[pk])),
        ))
    return result


def standings(campaign: Campaign, held: Mapping[int, Mapping[str, int]] | None = None
              ) -> tuple[mk.Standing, ...]:
    options = mk.MKOptions.from_dict(campaign.options)
    return mk.standings(tallies(campaign, held), options.scoring)


def table_rows(rows: tuple[mk.Standing, ...], placed: bool, ended: bool) -> SafeString:
    """The standings table's rows (``placed``: with the place column, when a scoring names
    one; ``ended``: the winners marked), one per kingdom: built here rather than as template
    nodes for each of a large campaign's kingdoms (each name escaped)."""
    parts = []
    for r in rows:
        t = r.tally
        name = html.escape(str(t.name))  # exactly Django's ``escape``
        if r.winner and ended:
            name = f'<strong>{name}</strong> <span class="badge">winner</span>'
        place = (f'<td role="cell" class="num" data-label="Place">{r.place}</td>'
                 if placed else "")
        capital = " ★" if t.own_capital else ""
        parts.append(
            f'<tr role="row">{place}<th scope="row" role="rowheader">{name}</th>'
            f'<td role="cell" class="num" data-label="Tiles">{t.tiles}</td>'
            f'<td role="cell" class="num" data-label="Villages">{t.villages}</td>'
            f'<td role="cell" class="num" data-label="Cities">{t.cities}{capital}</td>'
            f'<td role="cell" class="num" data-label="Fortresses">{t.fortresses}</td>'
            f'<td role="cell" class="num" data-label="Armies">{r.armies}</td>'
            f'<td role="cell" class="num" data-label="Army points">{r.points}</td></tr>')
    return mark_safe("".join(parts))  # noqa: S308 (the names are escaped, the rest numbers)


def summary(rows: tuple[mk.Standing, ...], scoring: str) -> str:
    """The standings in one paragraph, for the chronicle."""
    parts = []
    for row in rows:
        t = row.tally
        place = f"{row.place}. " if row.place else ""
        capital = ", its capital" if t.own_capital else ""
        parts.append(
            f"{place}{t.name}: {words.counted(t.tiles, 'tile')}, "
            f"{words.counted(t.villages, 'village')}, {words.counted(t.cities, 'city')}"
            f"{capital}, {words.counted(t.fortresses, 'fortress')}, "
            f"{words.counted(row.armies, 'army')} ({row.points} points)"
        )
    text = "Final standings: " + "; ".join(parts) + "."
    winners = [r.tally.name for r in rows if r.winner]
    if scoring == mk.SCORE_NONE or not winners:
        return text + " No winner is declared (MK-AMB-20)."
    joint = " and ".join(winners)
    verb = "win" if len(winners) > 1 else "wins"
    return text + f" {joint} {verb} with the {SCORING_NAMES[scoring]} (house rule, MK-AMB-20)."


def as_data(rows: tuple[mk.Standing, ...]) -> list[dict[str, Any]]:
    """The standings as JSON for the end event (by kingdom name, as a campaign file keeps
    them)."""
    return [{"name": r.tally.name, "tiles": r.tally.tiles,
             "villages": r.tally.villages, "cities": r.tally.cities,
             "fortresses": r.tally.fortresses, "own_capital": r.tally.own_capital,
             "armies": r.armies, "army_points": r.points, "score": r.score, "place": r.place}
            for r in rows]
