"""The Mighty Kingdoms shell: the hooks the core site calls (see RuleSystem.shell)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from campaign import mapsvg
from campaign.access import Access
from campaign.kept_sql import kept_values
from campaign.models import Campaign, Kingdom, Tile
from campaign.systems.mighty_kingdoms import (
    advanced_views,
    phases,
    standings,
    summer,
    views,
    winter,
)
from campaign.systems.mighty_kingdoms.map_actions import tile_actions  # noqa: F401
from campaign.systems.mighty_kingdoms.models import Ship
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from campaign.systems.mighty_kingdoms.sheets import SHEETS  # noqa: F401
from campaign.systems.mighty_kingdoms.state import MKState, load_state
from campaign.systems.mighty_kingdoms.urls import urlpatterns  # noqa: F401


def initial_clock_fields() -> dict[str, Any]:
    """A new campaign starts with setup, step A (MK-SETUP-1)."""
    return {"year": 1, "season": phases.SETUP, "month": None, "phase": phases.SETUP_STEPS[0],
            "sub_phase": ""}


def clock_label(campaign: Campaign) -> str:
    return phases.label(campaign)


def advance(campaign: Campaign, user: Any, inputs: Mapping[str, str] | None = None) -> Any:
    """The GM closes the phase; ``inputs`` is the posted form, which may carry the table's
    tie-break dice for a new player order (MK-PORDER-1, MK-DEPLOY-2)."""
    return phases.advance(campaign, user, tiebreak=views.tiebreak_dice(inputs))


# Whether a player may still take back an event of theirs (campaign.chronicle.take_back).
step_open = views.step_open


def whose_turn(campaign: Campaign) -> list[int]:
    """The kingdom expected to act now, if the phase goes kingdom by kingdom (notifications)."""
    state = load_state(campaign)
    handler = phases.handler_for(state.campaign)
    turn = handler.turn(state) if handler.turn else None
    return [turn] if turn else []


def play_context(access: Access) -> dict[str, Any]:
    """What the play page shows: the phase, what blocks it, whose turn, the phase's own parts
    (the kingdoms' races among them: their ``data`` comes with the kingdoms)."""
    state = load_state(access.campaign, data=True)
    handler = phases.handler_for(state.campaign)
    # The viewer's kingdom is read along with whichever kingdom's tokens the page reads first.
    state.focus = {access.kingdom.pk} if access.kingdom is not None else set()
    summer.read_page(state)
    turn = handler.turn(state) if handler.turn else None
    rows = None if access.is_gm else summer.PHONE_ROWS
    state.focus |= {turn} if turn else set()
    if rows is not None and handler.brief is not None:
        blockers, waiting = handler.brief(state, rows)
    else:
        blockers = handler.blockers(state)
        waiting = len(blockers)
    context: dict[str, Any] = {
        "mk_state": state,
        "phase_label": phases.label(state.campaign),
        "phase_template": handler.template,
        "blockers": blockers,
        "turn_kingdom": state.kingdom_rows.get(turn) if turn else None,
        "my_turn": bool(turn and access.kingdom and access.kingdom.pk == turn),
    }
    if handler.order_counts is not None and access.is_gm:
        context.update(views.order_tiebreak(state, access, handler.order_counts(state),
                                            handler.order_rule))
    context.update(views.setup_context(state, access, rows))
    context.update(_compact(state, context, access, waiting))
    context.update(summer.play_context(state, access))
    context.update(winter.play_context(state, access))
    context.update(advanced_views.play_context(state, access))
    if standings.ended(state.campaign):
        context["mk_standings"] = standings_context(state.campaign)
    return context


def _compact(state: MKState, context: dict[str, Any], access: Access,
             waiting: int) -> dict[str, Any]:
    """What a player's phone lists of the blockers (``waiting`` in all) and the player order:
    all of it for a GM or a small campaign; else the first rows, how many more there are and
    the player's place."""
    blockers: list[str] = context["blockers"]
    race_rows: list[Any] = context["race_rows"]
    total = len(state.order)
    if access.is_gm:
        return {"blockers_shown": blockers, "blockers_more": 0, "order_shown": race_rows,
                "order_more": 0, "order_place": None, "order_total": total}
    mine = access.kingdom.pk if access.kingdom is not None else None
    place = state.order.index(mine) + 1 if mine in state.order else None
    rows = summer.PHONE_ROWS
    shown = race_rows[:rows]
    return {
        "blockers_shown": blockers[:rows], "blockers_more": max(0, waiting - rows),
        "order_shown": shown, "order_more": total - len(shown),
        "order_place": place if len(shown) < total else None, "order_total": total,
    }


def overview_context(access: Access) -> dict[str, Any]:
    """The campaign page: the standings, during the campaign and at its end (MK-AMB-20)."""
    campaign = access.campaign
    if phases.in_setup(campaign):
        return {}
    return {"mk_standings": standings_context(campaign, access.memo.get("holdings"))}


def standings_context(campaign: Campaign,
                      held: Mapping[int, Mapping[str, int]] | None = None) -> dict[str, Any]:
    """The standings table's context; ``held``: the tiles each kingdom holds, when the page
    has counted them (``tile_versions.holdings``)."""
    options = mk.MKOptions.from_dict(campaign.options)
    rows = standings.standings(campaign, held)
    scoring = standings.SCORING_NAMES.get(options.scoring, "")
    ended = standings.ended(campaign)
    return {
        "rows": rows,
        "rows_html": standings.table_rows(rows, bool(scoring), ended),
        "ended": ended,
        "scoring": scoring,
        "years": options.campaign_years,
        "year": campaign.year,
        "winners": [r.tally for r in rows if r.winner],
    }


def kingdom_context(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    """A kingdom's page: its tokens and their orders in summer, its economy in winter (the
    tokens and orders of this kingdom only, see ``MKState.read_tokens_of``). The page's
    core part read the kingdom's tiles and armies already (``access.memo``): they serve here
    too."""
    # The kingdom's gold and food come with the kingdoms where the page shows its economy.
    state = load_state(access.campaign, stocks=access.can_edit_kingdom(kingdom))
    known = access.memo.get("kingdom_tiles")
    tiles = known[1] if known is not None and known[0] == kingdom.pk else None
    if tiles is not None:
        state.know_holdings(kingdom.pk, tiles)
    known = access.memo.get("kingdom_armies")
    armies = known[1] if known is not None and known[0] == kingdom.pk else None
    # Any kingdom's ships in its cities come with its own (MK-RECALL-5: docked there).
    state.read_tokens_of([kingdom.pk], armies,
                         [t for t in tiles or () if t.settlement == mk.CITY])
    context: dict[str, Any] = {"mk_state": state}
    context.update(summer.kingdom_context(state, access, kingdom))
    context.update(winter.kingdom_context(state, access, kingdom))
    return context


def map_markers(campaign: Campaign, kingdoms: Mapping[int, Kingdom]) -> list[tuple[int, Any]]:
    """Ship counters for the map (MK-SHIP-5), beside the army counters every system has: the
    ships read as plain rows, in their model's order (by kingdom, then number), the query's
    text kept under the campaign (``kept_values``)."""
    rows = kept_values(
        ("map-ships", campaign.pk),
        lambda: Ship.objects.filter(campaign=campaign, tile__isnull=False).values_list(
            "number", "kingdom_id", "tile_id", "on_side"))
    return [
        (tile_id, mapsvg.Marker(f"S{number}", kingdoms[kingdom_id].colour, "ship",
                                f"{kingdoms[kingdom_id].name} ship {number}", on_side=on_side))
        for number, kingdom_id, tile_id, on_side in rows
    ]


def tile_tokens(tile: Tile) -> list[dict[str, str]]:
    """The ships on a tile, for its panel's "Here now" (MK-SHIP-2: one may carry an army)."""
    return [
        {"colour": ship.kingdom.colour,
         "text": f"{ship.kingdom.name} ship #{ship.number}"
                 + (" carrying an army" if ship.paired_army_id else "")}
        for ship in Ship.objects.filter(tile=tile).select_related("kingdom")
    ]
