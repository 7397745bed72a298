"""What the Grand Campaign's pages show, read in a fixed number of queries: the standings, the
play page's parts for one viewer, a kingdom's King and Titles, a Territory's history.

Read-only; the views and the shell build their templates' context from these.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.db.models import Count, F, IntegerField, QuerySet
from django.db.models.expressions import RawSQL

from campaign import prepared
from campaign.access import Access
from campaign.bounded import keep
from campaign.kept_sql import kept_rows, kept_values
from campaign.models import Campaign, Kingdom, Tile
from campaign.systems.swords_and_stones import services
from campaign.systems.swords_and_stones.models import (
    CrateItem,
    Game,
    King,
    Participant,
    Spend,
    TerritoryRecord,
)
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.systems.swords_and_stones.state import PLACEMENT, SnsState, load, pid
from ledger.models import Balance


def clock_label(campaign: Campaign) -> str:
    if campaign.phase == PLACEMENT:
        return "Placement of the kingdoms"
    return f"Grand Campaign, game {campaign.year}"


def games_played(campaign: Campaign) -> dict[int, int]:
    """Games played per kingdom id, in one query (SNS-GC-5)."""
    return dict(_played(campaign).values_list("kingdom_id", "n"))


def _played(campaign: Campaign) -> QuerySet[Participant]:
    return (Participant.objects.filter(game__campaign=campaign, game__status=Game.Status.PLAYED)
            .order_by().values("kingdom_id").annotate(n=Count("pk")))


Points = dict[int, dict[str, int]]


def points_and_games(campaign: Campaign, kingdoms: Sequence[Kingdom]
                     ) -> tuple[Points, dict[int, int]]:
    """Each kingdom's Victory and Vengeance points (SNS-PTS-2, the ledger's balances, 0 where
    nothing was booked) and games played (SNS-GC-5), in one query: the balances and the
    counts as one list (a union). ``kingdoms`` are kingdoms of ``campaign``; the balances
    are read by the campaign (``_POINTS_SQL``), and those of ``kingdoms`` taken."""
    points: Points = {k.pk: {pts.VP: 0, pts.VEN: 0} for k in kingdoms}
    played: dict[int, int] = {}
    with prepared.cursor() as cursor:
        cursor.execute(_POINTS_SQL, (campaign.pk, pts.VP, pts.VEN, campaign.pk,
                                     Game.Status.PLAYED.value))
        for kingdom_id, resource, amount in cursor.fetchall():
            if resource:
                if kingdom_id in points:
                    points[kingdom_id][resource] = amount
            else:
                played[kingdom_id] = amount
    return points, played


# Written out as SQL: the same union as the query sets' (balances, then counts), without
# compiling one; the campaign's kingdoms' balances by a join rather than a list of their ids
# (a value to send for each of 80 kingdoms).
_POINTS_SQL = (
    f"SELECT b.kingdom_id, b.resource, b.amount FROM {Balance._meta.db_table} b "
    f"JOIN {Kingdom._meta.db_table} k ON k.id = b.kingdom_id "
    f"WHERE k.campaign_id = %s AND b.resource IN (%s, %s) UNION ALL "
    f"SELECT p.kingdom_id, '', COUNT(p.id) FROM {Participant._meta.db_table} p "
    f"JOIN {Game._meta.db_table} g ON g.id = p.game_id "
    f"WHERE g.campaign_id = %s AND g.status = %s GROUP BY p.kingdom_id")


# The subqueries of ``kingdoms_with_points``, written out: Django takes as long to compile
# them from query sets (``Subquery``/``OuterRef``) as the database takes to answer them. A
# kingdom's games are counted over its participants, each game's status looked up by its key:
# as a join, PostgreSQL hashed the campaign's games again for every kingdom (0.2 ms of 0.8 for
# 80 kingdoms).
_KINGDOM = Kingdom._meta.db_table
_AMOUNT = (f"SELECT b.amount FROM {Balance._meta.db_table} b "
           f"WHERE b.kingdom_id = {_KINGDOM}.id AND b.resource = %s")
_PLAYED = (f"SELECT COUNT(*) FROM {Participant._meta.db_table} p "
           f"WHERE p.kingdom_id = {_KINGDOM}.id AND (SELECT g.status FROM "
           f"{Game._meta.db_table} g WHERE g.id = p.game_id "
           f"AND g.campaign_id = {_KINGDOM}.campaign_id) = %s")


def _kingdoms_with_points(campaign_id: int) -> QuerySet[Kingdom]:
    return (Kingdom.objects.filter(campaign_id=campaign_id)
            .annotate(sns_vp=RawSQL(_AMOUNT, (pts.VP,), output_field=IntegerField()),
                      sns_ven=RawSQL(_AMOUNT, (pts.VEN,), output_field=IntegerField()),
                      sns_played=RawSQL(_PLAYED, (Game.Status.PLAYED.value,),
                                        output_field=IntegerField()))
            .order_by("order_position", "pk"))


def kingdoms_with_points(campaign: Campaign) -> list[Kingdom]:
    """The campaign's kingdoms in seating order, each with its Victory and Vengeance points (the
    ledger's balances) and games played (SNS-GC-5) read in the same query (``figures_of``
    gives them). The subqueries are written out (``_AMOUNT``, ``_PLAYED``) and the query's SQL
    is worked out once (``kept_rows``); its rows are read each time."""
    return kept_rows(("sns", "kingdoms_with_points"), _kingdoms_with_points, campaign.pk)


def figures_of(kingdoms: Sequence[Kingdom]) -> tuple[Points, dict[int, int]]:
    """What ``points_and_games`` reads, from kingdoms read by ``kingdoms_with_points``."""
    return ({k.id: {pts.VP: k.sns_vp or 0, pts.VEN: k.sns_ven or 0}  # type: ignore[attr-defined]
             for k in kingdoms},
            {k.id: k.sns_played for k in kingdoms  # type: ignore[attr-defined]
             if k.sns_played})  # type: ignore[attr-defined]


@dataclass(frozen=True)
class StandingRow:
    kingdom: Kingdom
    row: pts.Standing
    title_names: tuple[str, ...]
    is_ai: bool


# Each kingdom's name with its Victory and Vengeance points, in seating order.
Balances = tuple[tuple[str, int, int], ...]

# The points entries of the standings made lately (each kingdom's Victory and Vengeance points
# as one entry each), kept under the balances they are made of. At most _ENTRIES_KEPT, the
# oldest forgotten first (campaign.bounded).
_ENTRIES: dict[Balances, tuple[pts.PointsEntry, ...]] = {}
_ENTRIES_KEPT = 16


def _points_entries(balances: Balances) -> tuple[pts.PointsEntry, ...]:
    """SNS-PTS-2: the ledger's balances as the rules' points entries, made again only when a
    name or a balance changed (``_ENTRIES``): a page of 80 kingdoms would make 160 each time."""
    found = _ENTRIES.get(balances)
    if found is None:
        found = tuple(pts.PointsEntry(name, cur, amount, pts.GM_ADJUST)
                      for name, vp, ven in balances
                      for cur, amount in ((pts.VP, vp), (pts.VEN, ven)))
        keep(_ENTRIES, _ENTRIES_KEPT, balances, found)
    return found


# The rules' standings worked out lately, kept under everything they are worked out from: the
# map, by identity (a map is never changed: ``with_holdings`` makes a new one; the maps of reads
# are kept whole by ``state.read_map``, and each entry holds its map, so that no other map can
# take its identity while the entry is kept), the players with their Kings and Titles, the
# balances the points entries are made of, the games played and the options. At most
# _STANDINGS_KEPT, the oldest forgotten first (campaign.bounded).
_STANDINGS: dict[tuple[Any, ...], tuple[gc.CampaignMap, tuple[pts.Standing, ...]]] = {}
_STANDINGS_KEPT = 16


def _rules_standings(state: gc.CampaignState, balances: Balances,
                     entries: tuple[pts.PointsEntry, ...], played: dict[str, int],
                     options: gc.Options) -> tuple[pts.Standing, ...]:
    """``pts.standings`` (SNS-GC-5), reused while nothing it depends on has changed; ``entries``
    are those of ``balances`` (``_points_entries``)."""
    key = (id(state.map), state.players, balances, tuple(played.items()), options)
    found = _STANDINGS.get(key)
    if found is not None and found[0] is state.map:
        return found[1]
    rows = pts.standings(state, entries, played, options)
    keep(_STANDINGS, _STANDINGS_KEPT, key, (state.map, rows))
    return rows


def standings(st: SnsState, figures: tuple[Points, dict[int, int]] | None = None
              ) -> list[StandingRow]:
    """SNS-GC-5, SNS-PTS-2, SNS-GC-12: points, Territories by state, Titles and games played,
    most Victory Points first. ``figures`` are the kingdoms' points and games played when the
    page has read them (``points_and_games``, ``figures_of``)."""
    points, played = (figures if figures is not None
                      else points_and_games(st.campaign, list(st.kingdoms.values())))
    st.memo["points"] = points
    balances = tuple((k.name, points[pk][pts.VP], points[pk][pts.VEN])
                     for pk, k in st.kingdoms.items())
    entries = st.memo["entries"] = _points_entries(balances)
    rows = _rules_standings(st.state, balances, entries,
                            {k.name: played.get(pk, 0) for pk, k in st.kingdoms.items()},
                            st.options)
    by_name = {k.name: k for k in st.kingdoms.values()}
    return [StandingRow(by_name[r.player], r,
                        tuple(tt.TITLE_BY_CODE[c].name for c in r.titles),
                        bool(by_name[r.player].data.get("is_ai"))) for r in rows]


@dataclass
class SetupView:
    """One participant of the open game: its set-up and the start it brings (D.4)."""

    part: Participant
    slots: list[tuple[str, str, str, list[tuple[str, str]]]]
    stock: pts.StartingStockpile | None
    problem: str
    spends: list[str]
    titles: list[tuple[str, str]]
    crate: list[CrateItem]
    editable: bool
    spend_codes: list[str] = field(default_factory=list)


@dataclass
class PlayView:
    """Everything the play page shows one viewer."""

    st: SnsState
    access: Access
    rows: list[StandingRow]
    turn: str | None
    blockers: list[str]
    turn_kingdom: Kingdom | None = None
    targets: list[tuple[str, str]] = field(default_factory=list)
    volunteers: list[Kingdom] = field(default_factory=list)
    may_challenge: bool = False
    open_game: Game | None = None
    setups: list[SetupView] = field(default_factory=list)
    last_game: Game | None = None
    compensation: dict[str, Any] | None = None
    capital_choices: list[tuple[str, str]] = field(default_factory=list)
    capital_for: Kingdom | None = None
    heirs: list[Kingdom] = field(default_factory=list)
    unnamed: list[Kingdom] = field(default_factory=list)
    unplaced: list[tuple[Kingdom, list[tuple[str, str]]]] = field(default_factory=list)
    free: list[tuple[str, str]] = field(default_factory=list)
    spend_kingdoms: list[tuple[Kingdom, dict[str, int], list[pts.SpendChoice], list[str]]] = (
        field(default_factory=list))
    played: list[Game] = field(default_factory=list)
    newcomers: list[tuple[Kingdom, Any, str]] = field(default_factory=list)
    map_free: bool = False
    kingdoms_acting: list[Kingdom] = field(default_factory=list)


def _acting(access: Access, kingdoms: Sequence[Kingdom]) -> list[Kingdom]:
    """The kingdoms this viewer acts for: all for a GM, their own for a player."""
    if access.is_gm:
        return list(kingdoms)
    return [k for k in kingdoms if access.kingdom is not None and k.pk == access.kingdom.pk]


def _names(st: SnsState, territories: Sequence[str]) -> list[tuple[str, str]]:
    return [(t, st.territory_name(t)) for t in territories]


def _latest_games(recent: int) -> Any:
    """The query of the campaign's ``recent`` latest games, newest first."""
    def build(campaign_id: int) -> QuerySet[Game]:
        return Game.objects.filter(campaign_id=campaign_id).order_by("-number")[:recent]
    return build


def play_view(access: Access, recent: int = 6) -> PlayView:
    """The play page for one viewer: standings, whose turn, the open game and its set-ups,
    choices left open, points to spend, recent games to report on."""
    kingdoms = kingdoms_with_points(access.campaign)
    st = load(access.campaign, read_kingdoms=kingdoms)
    # The latest games, read once: the last one is the services' (``blockers``, the turn).
    # Its SQL worked out once (``kept_rows``), its rows read each time.
    games = kept_rows(("sns", "latest_games", recent), _latest_games(recent), st.campaign.pk)
    for g in games:  # its kingdoms are among those just read
        for role in ("challenger", "defender", "before_owner"):
            kingdom_id = getattr(g, f"{role}_id")
            if kingdom_id in st.kingdoms:
                setattr(g, role, st.kingdoms[kingdom_id])
    st.memo["last_game"] = games[0] if games else None
    acting = _acting(access, list(st.kingdoms.values()))
    view = PlayView(st, access, standings(st, figures_of(kingdoms)), None, services.blockers(st))
    view.kingdoms_acting = acting
    view.map_free = access.is_gm and not any(h.owner for h in st.map.holdings.values())
    for k in acting:
        if not st.has_king(k.pk) and not st.had_kings(k.pk):
            view.unnamed.append(k)
        elif not st.has_king(k.pk) and st.map.owned_by(pid(k)):
            view.heirs.append(k)
    if st.campaign.phase == PLACEMENT:
        view.free = _names(st, st.map.unclaimed())
        view.unplaced = [(k, view.free) for k in acting
                         if st.has_king(k.pk) and not st.map.owned_by(pid(k))]
        return view
    view.turn = services.next_challenger(st)
    turn_kingdom = view.turn_kingdom = st.kingdom(view.turn)
    view.may_challenge = (not view.blockers and turn_kingdom is not None
                          and turn_kingdom in acting)
    if view.may_challenge and turn_kingdom is not None:
        view.targets = _names(st, gc.challenge_targets(st.state, view.turn, st.options))
        view.volunteers = [k for k in st.kingdoms.values() if k.pk != turn_kingdom.pk
                           and not k.data.get("eliminated")
                           and (not k.data.get("is_ai") or st.options.ai_can_hold_territory)]
    view.open_game = next((g for g in games if g.status != Game.Status.PLAYED), None)
    view.last_game = games[0] if games else None
    view.played = [g for g in games if g.status == Game.Status.PLAYED]
    spends = _spends(st, view.open_game, acting if access.is_player or access.is_gm else ())
    if view.open_game is not None:
        view.setups = _setups(st, view.open_game, acting, spends.get(view.open_game.pk, {}))
    last = view.last_game
    if last is not None and "compensation" in last.pending:
        offer = services.offer_of(last.pending)
        owner = st.kingdom(offer.beneficiary)
        if owner is not None and owner in acting:
            view.compensation = {
                "offer": offer,
                "claimed": _names(st, offer.claimed_choices),
                "required": _names(st, offer.unclaimed_required),
                "tied": _names(st, offer.unclaimed_tied),
                "pick": offer.unclaimed_count - len(offer.unclaimed_required),
                "beneficiary": owner,
            }
    if last is not None and "capital_for" in last.pending:
        owner = st.kingdom(last.pending["capital_for"])
        if owner is not None and owner in acting:
            view.capital_for = owner
            view.capital_choices = _names(st, last.pending["capital_choices"])
    if access.is_player or access.is_gm:
        view.spend_kingdoms = _spend_choices(st, acting, view.setups, spends.get(None, {}))
    if access.is_gm:
        for k in st.kingdoms.values():
            if st.map.owned_by(pid(k)) or not st.has_king(k.pk):
                continue
            try:
                proposal = services.propose_newcomer(st, k)
                view.newcomers.append((k, proposal, ""))
            except services.SnsError as exc:
                view.newcomers.append((k, None, str(exc)))
    return view


def _spends(st: SnsState, open_game: Game | None, acting: Sequence[Kingdom]
            ) -> dict[int | None, dict[int, list[str]]]:
    """The codes of the spends the play page shows, in one query, by game id and kingdom id:
    every kingdom's for the open game, and the acting kingdoms' bought for their next game
    (under ``None``), in the order they were bought."""
    found: dict[int | None, dict[int, list[str]]] = {}
    if open_game is None and not acting:
        return found
    where = []
    params: list[Any] = []
    if acting:
        marks = ", ".join(["%s"] * len(acting))
        where.append(f"(s.game_id IS NULL AND s.kingdom_id IN ({marks}))")
        params.extend(k.pk for k in acting)
    if open_game is not None:
        where.append("s.game_id = %s")
        params.append(open_game.pk)
    with prepared.cursor() as cursor:
        cursor.execute(f"SELECT s.game_id, s.kingdom_id, s.code FROM {Spend._meta.db_table} s "
                       f"WHERE {' OR '.join(where)} ORDER BY s.id", params)
        for game_id, kingdom_id, code in cursor.fetchall():
            found.setdefault(game_id, {}).setdefault(kingdom_id, []).append(code)
    return found


def _spend_choices(st: SnsState, acting: Sequence[Kingdom], setups: Sequence[SetupView],
                   waiting: dict[int, list[str]]
                   ) -> list[tuple[Kingdom, dict[str, int], list[pts.SpendChoice], list[str]]]:
    """Each acting kingdom's balances, every option with whether it can be bought now, and
    the options already bought for its next game (``services.spend_context``, from the rows
    the page has read: the standings' balances, the open game's set-ups and their spends, the
    spends ``waiting`` for each acting kingdom's next game)."""
    points = st.memo["points"]
    # The ledger's VP and VEN of every kingdom, as services.points_entries reads them (the
    # standings' entries).
    entries = st.memo["entries"]
    open_game = services._open_game(st)
    in_game = {s.part.kingdom_id: s.spend_codes for s in setups
               if open_game is not None and s.part.game_id == open_game.pk}
    found = []
    for k in acting:
        if k.data.get("eliminated"):
            continue
        game = open_game if k.pk in in_game else None
        phase = services.spend_phase(game)
        contested = game.territory if game is not None else None
        bought = list(in_game[k.pk] if game is not None else waiting.get(k.pk, []))
        choices = list(pts.spend_choices(st.state, entries, pid(k), phase, contested, bought,
                                         st.options))
        found.append((k, points[k.pk], choices,
                      [pts.SPEND_BY_CODE[c].name for c in waiting.get(k.pk, [])]))
    return found


def _setup_parts(game_id: int) -> QuerySet[Participant]:
    """A game's participants in seating order (the model's ordering, within one game) without
    their reports and tables at play, each with its declared crate item."""
    return (Participant.objects.filter(game_id=game_id).select_related("declared_crate")
            .defer("report", "gm_yes", "titles_taken", "table").order_by("game_id", "pk"))


@lru_cache(maxsize=8)
def _described(table: tuple[tuple[str, gc.Bundle], ...]) -> tuple[tuple[str, str], ...]:
    """A supply table's choices with their words (SNS-SUP-2, SNS-SUP-3): the rules give a few
    tables, each described once."""
    return tuple((code, bundle.describe()) for code, bundle in table)


def _setups(st: SnsState, game: Game, acting: Sequence[Kingdom],
            spends: dict[int, list[str]]) -> list[SetupView]:
    """The open game's participants with their set-ups; ``spends`` are the codes each kingdom
    bought for this game."""
    # Without the report and the table at play (read by the game's own pages); the kingdoms
    # are those the page has read.
    parts = kept_rows(("sns", "setup_parts"), _setup_parts, game.pk)
    for part in parts:
        if part.kingdom_id in st.kingdoms:
            part.kingdom = st.kingdoms[part.kingdom_id]
    # The held crate items of every current King, read with the campaign (``load``).
    crates: dict[int, list[CrateItem]] = st.memo["held_items"]
    found = []
    for part in parts:
        kingdom = part.kingdom
        slots_rule = gc.supply_slots(st.map, pid(kingdom), st.options)
        picked = {t: o for t, o in part.supply}
        slots = []
        for territory in (*slots_rule.settled, *slots_rule.claimed):
            table = gc.supply_options(st.map, territory, st.options)
            slots.append((territory, st.territory_name(territory), picked.get(territory, ""),
                          list(_described(tuple(table.items())))))
        problem = ""
        stock = None
        try:
            stock = services.starting_stockpile(st, part, spends.get(kingdom.pk, []))
        except gc.RuleViolation as exc:
            problem = str(exc)
        king = st.state.player(pid(kingdom)).king
        titles = [(c, tt.TITLE_BY_CODE[c].name) for c in tt.TITLE_BY_CODE
                  if king is not None and c in king.titles]
        crate = crates.get(kingdom.pk, [])
        found.append(SetupView(part, slots, stock, problem,
                               [pts.SPEND_BY_CODE[c].name for c in spends.get(kingdom.pk, [])],
                               titles, crate,
                               kingdom in acting and game.status == Game.Status.SETUP,
                               spends.get(kingdom.pk, [])))
    return found


def _reign_rows(campaign_id: int) -> QuerySet[King]:
    """Every King of the campaign with a row per Title he won and crate item he found."""
    return King.objects.filter(campaign_id=campaign_id).select_related("died_in").annotate(
        title_pk=F("titles__pk"), title_code=F("titles__code"),
        title_game=F("titles__game__number"), item_pk=F("crate_items__pk"),
        item_name=F("crate_items__name"), item_kind=F("crate_items__kind"),
        item_effect=F("crate_items__effect"), item_status=F("crate_items__status"),
        item_game=F("crate_items__game_id"),
    ).order_by("kingdom_id", "reign", "titles__pk", "crate_items__pk")


def _kingdom_reign_rows(campaign_id: int, kingdom_id: int) -> QuerySet[King]:
    return _reign_rows(campaign_id).filter(kingdom_id=kingdom_id)


@dataclass(frozen=True)
class Reign:
    king: King
    titles: tuple[tuple[str, int | None], ...]
    items: tuple[CrateItem, ...]


def reigns(campaign: Campaign, kingdoms: Sequence[Kingdom] | None = None) -> dict[int,
                                                                                 list[Reign]]:
    """SNS-KING-1, SNS-KING-3: every King of each kingdom, oldest first, with the Titles and
    crate items of his reign (the honours roll); one query: the Kings with a row per Title
    they won and crate item they found (a King's few Titles times his few items)."""
    rows: Sequence[King]
    if kingdoms is not None and len(kingdoms) == 1:
        # One kingdom's (its page): the query's SQL worked out once, its rows read each time.
        rows = kept_rows(("sns", "reigns"), _kingdom_reign_rows, campaign.pk, kingdoms[0].pk)
    elif kingdoms is not None:
        rows = _reign_rows(campaign.pk).filter(kingdom__in=list(kingdoms))
    else:
        rows = _reign_rows(campaign.pk)
    kings: list[King] = []
    titles: dict[int, list[tuple[str, int | None]]] = {}
    items: dict[int, list[CrateItem]] = {}
    seen_titles: set[int] = set()
    seen_items: set[int] = set()
    for king in rows:
        if not kings or kings[-1].pk != king.pk:
            kings.append(king)
        row: Any = king
        if row.title_pk is not None and row.title_pk not in seen_titles:
            seen_titles.add(row.title_pk)
            titles.setdefault(king.pk, []).append(
                (tt.TITLE_BY_CODE[row.title_code].name, row.title_game))
        if row.item_pk is not None and row.item_pk not in seen_items:
            seen_items.add(row.item_pk)
            items.setdefault(king.pk, []).append(CrateItem(
                id=row.item_pk, king_id=king.pk, name=row.item_name, kind=row.item_kind,
                effect=row.item_effect, status=row.item_status, game_id=row.item_game))
    for found_items in items.values():
        found_items.sort(key=lambda i: i.pk)
    found: dict[int, list[Reign]] = {}
    for king in kings:
        found.setdefault(king.kingdom_id, []).append(
            Reign(king, tuple(titles.get(king.pk, ())), tuple(items.get(king.pk, ()))))
    return found


def _balances(kingdom_id: int) -> QuerySet[Balance]:
    return Balance.objects.filter(kingdom_id=kingdom_id).values_list("resource", "amount")


def _kingdom_spends(kingdom_id: int) -> QuerySet[Spend]:
    return Spend.objects.filter(kingdom_id=kingdom_id).select_related("game").order_by("pk")


def kingdom_view(access: Access, kingdom: Kingdom) -> dict[str, Any]:
    """A kingdom's page: its King and past Kings with their Titles, its points, land by state
    and the supply lines its land offers for the next game."""
    # Its King's Titles come with ``reigns``; its own land is all the page shows, so neither
    # the other kingdoms nor the rest of the map are read: its tiles are those the core page
    # has read, when it has.
    memo_pk, memo_tiles = access.memo.get("kingdom_tiles", (None, None))
    st = load(access.campaign, kings=False, read_kingdoms=[kingdom], held_only=True,
              read_tiles=memo_tiles if memo_pk == kingdom.pk else None)
    kingdom = st.kingdoms.get(kingdom.pk, kingdom)
    count = gc.holding_count(st.map, pid(kingdom), st.options)
    slots = gc.supply_slots(st.map, pid(kingdom), st.options)
    # The kingdom's balances (``ledger.services.balances``), the query's SQL worked out once.
    points = {pts.VP: 0, pts.VEN: 0}
    for resource, amount in kept_values(("sns", "kingdom_balances"), _balances, kingdom.pk):
        points[resource] = amount
    land = [(t, st.territory_name(t), st.map.holding(t).state)
            for t in st.map.owned_by(pid(kingdom))]
    spends = kept_rows(("sns", "kingdom_spends"), _kingdom_spends, kingdom.pk)
    return {
        "sns_kingdom": {
            "kingdom": kingdom,
            "reigns": reigns(access.campaign, [kingdom]).get(kingdom.pk, []),
            "points": points,
            "count": count,
            "land": land,
            "supply_settled": len(slots.settled),
            "supply_claimed": len(slots.claimed),
            "spends": [(s, pts.SPEND_BY_CODE[s.code]) for s in spends],
            "fortified": kingdom.data.get("capital_fortified", True),
            "eliminated": kingdom.data.get("eliminated", False),
            "is_ai": kingdom.data.get("is_ai", False),
            "faction": kingdom.data.get("faction", ""),
        }
    }


def territory_history(tile: Tile) -> list[TerritoryRecord]:
    """A Territory's owners over time (every change with its cause and rule)."""
    campaign = tile.map.campaign
    from campaign.systems.swords_and_stones.state import options_of, territory_of

    territory = territory_of(tile, options_of(campaign))
    return list(TerritoryRecord.objects.filter(campaign=campaign, territory=territory)
                .select_related("before_owner", "after_owner", "game").order_by("pk"))


@dataclass
class ReportView:
    part: Participant
    suggestions: tt.TitleReport | None
    problem: str


def report_views(campaign: Campaign, game: Game) -> list[ReportView]:
    """SNS-TITLE-G1/G2: each participant's report with the Titles it earns (from confirmed or
    filed reports; taking a Title needs the GM's confirmation)."""
    st = load(campaign)
    parts = list(game.participants.select_related("kingdom", "king", "game"))
    hist = {}
    from campaign.systems.swords_and_stones import reports

    everything = reports.histories(parts)
    for p in parts:
        hist[p.pk] = [r for r in everything.get(p.kingdom_id, []) if int(r.game) < game.number]
    found = []
    for p in parts:
        if not p.report_status:
            found.append(ReportView(p, None, ""))
            continue
        try:
            found.append(ReportView(p, services.title_report(st, p, hist[p.pk]), ""))
        except gc.RuleViolation as exc:
            found.append(ReportView(p, None, str(exc)))
    return found
