"""Grand Campaign writes: each loads the campaign (locking it, then its kingdoms), calls the pure
rules, writes through one chronicle event and returns its summary. A refusal raises ``SnsError``
with the rules' reason and writes nothing.

Who may act is the views' business (a player for their own kingdom, a GM for any); these
functions check the rules: whose turn it is, what a Territory allows, what points buy.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Visibility
from campaign.systems.swords_and_stones import reports, seats
from campaign.systems.swords_and_stones.models import (
    CrateItem,
    Game,
    King,
    Participant,
    Spend,
    TitleAward,
)
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.systems.swords_and_stones.state import (
    CAMPAIGN,
    PLACEMENT,
    PointsLine,
    SnsError,
    SnsState,
    load,
    pid,
    rules_check,
    write_changes,
    write_player,
)
from campaign.systems.swords_and_stones.stockpile import (
    close_tables,
    open_tables,
    starting_stockpile,
)
from ledger.models import Balance
from ledger.services import post

_check = rules_check


def _kingdom_in(st: SnsState, kingdom: Kingdom) -> Kingdom:
    row = st.kingdoms.get(kingdom.pk)
    if row is None:
        raise SnsError(f"{kingdom.name} is not a kingdom of this campaign.")
    return row


def points_entries(campaign: Campaign) -> tuple[pts.PointsEntry, ...]:
    """The balances as the rules read them: one entry per kingdom and currency, the ledger's
    cached sum (SNS-PTS-2)."""
    return tuple(
        pts.PointsEntry(name, resource, amount, pts.GM_ADJUST)
        for name, resource, amount in Balance.objects.filter(
            kingdom__campaign=campaign, resource__in=(pts.VP, pts.VEN)
        ).values_list("kingdom__name", "resource", "amount")
    )


def _post_points(rec: Recorder, st: SnsState, entries: Sequence[pts.PointsEntry],
                 source: str) -> None:
    lines = []
    for e in entries:
        kingdom = st.kingdom(e.player)
        if kingdom is None:
            continue
        lines.append((kingdom, PointsLine(e.currency, e.delta, e.rule_id, source)))
    post(rec, lines)


def _games_played(campaign: Campaign) -> int:
    return Game.objects.filter(campaign=campaign, status=Game.Status.PLAYED).count()


def _last_game(st: SnsState) -> Game | None:
    if "last_game" not in st.memo:
        st.memo["last_game"] = (Game.objects.filter(campaign=st.campaign)
                                .select_related("challenger").order_by("-number").first())
    return st.memo["last_game"]


def _open_game(st: SnsState) -> Game | None:
    last = _last_game(st)
    return last if last is not None and last.status != Game.Status.PLAYED else None


# --- the map and the start of the campaign (SNS-GC-1..3, SNS-GC-9, SNS-KING-7) ---------------


def name_king(campaign: Campaign, user: Any, kingdom: Kingdom, name: str) -> str:
    """SNS-KING-7, SNS-KING-3: name a kingdom's first King, or the heir of a King who died
    (a new name, no Titles, no crate items)."""
    clean = " ".join(name.split())
    if not clean or len(clean) > 60:
        raise SnsError("SNS-KING-7: a King's name has 1 to 60 characters.")
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        player = st.state.player(pid(kingdom))
        first = player.king is None and not player.past_kings
        if first:
            king = King(campaign=st.campaign, kingdom=kingdom, name=clean, reign=1,
                        crowned_before=st.campaign.year)
            summary = f"{kingdom.name} crowns King {clean}."
        else:
            new_state = _check(lambda: gc.crown_heir(st.state, player.id, clean))
            reign = new_state.player(player.id).king.reign  # type: ignore[union-attr]
            king = King(campaign=st.campaign, kingdom=kingdom, name=clean, reign=reign,
                        crowned_before=st.campaign.year)
            summary = (f"{kingdom.name}'s heir takes the throne as King {clean} "
                       f"(reign {reign}, SNS-KING-3).")
        with Recorder(st.campaign, user, "sns.king", summary, kingdom=kingdom,
                      data={"king": clean}) as rec:
            rec.create(king)
    return summary


def place(campaign: Campaign, user: Any, kingdom: Kingdom, capital: str,
          claims: Sequence[str]) -> str:
    """SNS-GC-3: the kingdom's Capital and two claimed Territories bordering it."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        if st.campaign.phase != PLACEMENT:
            raise SnsError("SNS-GC-3: kingdoms are placed at the start of the campaign; new "
                           "players get their land by SNS-NEW-2..4.")
        kingdom = _kingdom_in(st, kingdom)
        if kingdom.pk not in st.kings:
            raise SnsError(f"SNS-KING-7: {kingdom.name} names its King first.")
        _, changes = _check(lambda: gc.place_kingdom(st.state, pid(kingdom), capital, claims))
        names = ", ".join(st.territory_name(t) for t in claims)
        summary = (f"{kingdom.name} places its Capital on {st.territory_name(capital)} and "
                   f"claims {names} (SNS-GC-3).")
        with Recorder(st.campaign, user, "sns.placement", summary, kingdom=kingdom) as rec:
            write_changes(rec, st, changes)
    return summary


def start_challenges(campaign: Campaign, user: Any) -> Any:
    """SNS-GC-2, SNS-GC-3, SNS-GC-4: the GM closes placement once every kingdom has placed;
    challenges begin with the first kingdom in seating order."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        if st.campaign.phase != PLACEMENT:
            raise SnsError("The challenges have already begun.")
        if not st.kingdoms:
            raise SnsError("SNS-GC-2: a Grand Campaign needs its kingdoms first.")
        missing = [k.name for k in st.kingdoms.values()
                   if not st.map.owned_by(pid(k)) and not k.data.get("eliminated")]
        if missing:
            raise SnsError("SNS-GC-3: still to place a Capital and two claims: "
                           + ", ".join(missing) + ".")
        with Recorder(st.campaign, user, "sns.start",
                      "Placement is over; the challenges begin (SNS-GC-4).") as rec:
            rec.update(st.campaign, phase=CAMPAIGN)
        return rec.event


# --- challenges (SNS-GC-4..8, SNS-CAP-1/2) ------------------------------------------------------


def next_challenger(st: SnsState) -> str | None:
    """SNS-GC-4: whose turn it is to issue a challenge (the one after the last challenger)."""
    if not st.state.active():
        return None
    last = _last_game(st)
    last_id = pid(last.challenger) if last is not None else None
    if last_id is not None and last_id not in {p.id for p in st.state.players}:
        last_id = None
    return _check(lambda: gc.next_challenger(st.state, last_id))


def blockers(st: SnsState) -> list[str]:
    """What must happen before the next challenge: the open game, a compensation or Capital
    choice left open, a King to crown."""
    found = []
    if st.campaign.phase == PLACEMENT:
        found.append("Placement is still going on.")
    open_game = _open_game(st)
    if open_game is not None:
        found.append(f"Game {open_game.number} is {open_game.get_status_display().lower()}.")
    last = _last_game(st)
    if last is not None and last.pending:
        if "compensation" in last.pending:
            found.append(f"{last.pending['compensation']['beneficiary']} chooses compensation "
                         "(SNS-GC-7).")
        if "capital_for" in last.pending:
            found.append(f"{last.pending['capital_for']} names a new Capital (SNS-CAP-3).")
    for p in st.state.active():
        if p.king is None:
            found.append(f"{p.id} crowns an heir (SNS-KING-3).")
    return found


def challenge(campaign: Campaign, user: Any, challenger: Kingdom, territory: str,
              defender: Kingdom | None, ai_name: str = "", map_type: str = "",
              game_mode: str = "") -> Game:
    """SNS-GC-4, SNS-GC-6, SNS-GC-8, SNS-GC-10, SNS-CAP-2: the kingdom whose turn it is
    challenges for a Territory; its holder defends, or for unclaimed land a volunteer or an
    artificial opponent. Points bought for "the next game" join this one."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        challenger = _kingdom_in(st, challenger)
        problems = blockers(st)
        if problems:
            raise SnsError("SNS-GC-4: not yet: " + " ".join(problems))
        turn = next_challenger(st)
        if turn != pid(challenger):
            raise SnsError(f"SNS-GC-4: it is {turn}'s turn to issue a challenge.")
        defender_id = pid(_kingdom_in(st, defender)) if defender is not None else None
        ch = _check(lambda: gc.issue_challenge(st.state, pid(challenger), territory,
                                               defender_id, st.options, map_type, game_mode))
        if defender is None and not ai_name.strip():
            ai_name = "An artificial kingdom"
        number = (Game.objects.filter(campaign=st.campaign).count()) + 1
        game = Game(
            campaign=st.campaign, number=number, challenger=challenger,
            defender=st.kingdom(ch.defender), ai_name=ai_name.strip()[:60] if defender is None
            else "", territory=territory, territory_name=st.territory_name(territory)[:80],
            before_state=ch.before.state, before_owner=st.kingdom(ch.before.owner), row=ch.row,
            capital_advantage=ch.capital_advantage, map_type_played=map_type[:40],
            game_mode=game_mode[:40],
        )
        against = defender.name if defender is not None else game.ai_name
        summary = (f"Game {number}: {challenger.name} challenges {against} for "
                   f"{game.territory_name} ({gc.STATE_NAMES[ch.before.state].lower()}, "
                   f"{ch.row}).")
        with Recorder(st.campaign, user, "sns.challenge", summary) as rec:
            rec.create(game)
            for side, kingdom in (("challenger", challenger), ("defender", defender)):
                if kingdom is None:
                    continue
                rec.create(Participant(
                    game=game, kingdom=kingdom, king=st.kings.get(kingdom.pk), side=side,
                    faction=kingdom.data.get("faction", gc.AVALONIAN)))
                for spend in Spend.objects.filter(kingdom=kingdom, game__isnull=True,
                                                  code__in=_GAME_CODES).order_by("pk"):
                    rec.update(spend, game=game)
        return game


_GAME_CODES = tuple(o.code for o in pts.SPEND_OPTIONS if o.timing != pts.MAP)


def _game_for_update(campaign: Campaign, game: Game) -> Game:
    row = Game.objects.select_for_update().filter(campaign=campaign, pk=game.pk).first()
    if row is None:
        raise SnsError("That game is not part of this campaign.")
    return row


def _participant(game: Game, kingdom: Kingdom) -> Participant:
    # Lock the participant alone: PostgreSQL cannot lock the nullable side of an outer join.
    row = (Participant.objects.select_for_update(of=("self",)).filter(game=game, kingdom=kingdom)
           .select_related("king", "declared_crate").first())
    if row is None:
        raise SnsError(f"{kingdom.name} does not play game {game.number}.")
    return row


def set_up(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, *, faction: str,
           supply: Sequence[tuple[str, str]], title: str = "", variant: str = "",
           crate_item: int | None = None) -> str:
    """SNS-KING-7, SNS-SUP-1..4, SNS-KING-2, SNS-CRATE-6: a kingdom's faction, supply-line picks
    and one start bonus for a game being set up."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        game = _game_for_update(st.campaign, game)
        if game.status != Game.Status.SETUP:
            raise SnsError(f"SNS-PTS-4: game {game.number} has begun; its start is fixed.")
        part = _participant(game, kingdom)
        if faction not in gc.FACTIONS:
            raise SnsError(f"SNS-KING-7: {faction!r} is not a Faction.")
        crate = None
        if crate_item is not None:
            crate = CrateItem.objects.filter(pk=crate_item, king__kingdom=kingdom,
                                             king__current=True,
                                             status=CrateItem.Status.HELD).first()
            if crate is None:
                raise SnsError("SNS-CRATE-6: the King carries no such crate item.")
        trial = Participant(game=game, kingdom=kingdom, supply=[list(p) for p in supply],
                            declared_title=title, title_variant=variant, declared_crate=crate)
        spends = list(game.spends.filter(kingdom=kingdom).values_list("code", flat=True))
        stock = _check(lambda: starting_stockpile(st, trial, spends))
        total = stock.total
        summary = (f"{kingdom.name} sets up game {game.number} as {faction.capitalize()}: "
                   f"starts with {total.describe()}.")
        with Recorder(st.campaign, user, "sns.setup", summary, kingdom=kingdom,
                      visibility=Visibility.PUBLIC) as rec:
            rec.update(part, faction=faction, supply=[list(p) for p in supply],
                       declared_title=title, title_variant=variant, declared_crate=crate)
            if kingdom.data.get("faction") != faction:
                rec.update(kingdom, data={**kingdom.data, "faction": faction})
    return summary


def begin_game(campaign: Campaign, user: Any, game: Game) -> str:
    """SNS-PTS-4, SNS-AMB-15: turn 1 begins: start options and set-ups are fixed."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        game = _game_for_update(st.campaign, game)
        if game.status != Game.Status.SETUP:
            raise SnsError(f"Game {game.number} is not being set up.")
        summary = (f"Game {game.number} begins; start options are fixed and the Stockpiles "
                   "open (SNS-PTS-4, SNS-ECON-10).")
        with Recorder(st.campaign, user, "sns.begin", summary) as rec:
            rec.update(game, status=Game.Status.PLAYING)
            open_tables(rec, st, game)
    return summary


# --- results (SNS-GC-6, SNS-GC-7, SNS-CAP-3/4, SNS-PTS-1, SNS-KING-3..5) ----------------------


def _challenge_of(st: SnsState, game: Game) -> gc.Challenge:
    before_owner = pid(game.before_owner) if game.before_owner is not None else None
    return gc.Challenge(
        challenger=pid(game.challenger), territory=game.territory,
        defender=pid(game.defender) if game.defender is not None else None,
        before=gc.Holding(game.before_state, before_owner), row=game.row,
        capital_advantage=game.capital_advantage, map_type_played=game.map_type_played,
        game_mode=game.game_mode)


def _offer_json(offer: gc.CompensationOffer) -> dict[str, Any]:
    return {
        "beneficiary": offer.beneficiary, "from_player": offer.from_player,
        "contested": offer.contested, "claimed_choices": list(offer.claimed_choices),
        "claimed_distance": offer.claimed_distance,
        "unclaimed_required": list(offer.unclaimed_required),
        "unclaimed_tied": list(offer.unclaimed_tied), "unclaimed_count": offer.unclaimed_count,
    }


def offer_of(pending: Mapping[str, Any]) -> gc.CompensationOffer:
    o = pending["compensation"]
    return gc.CompensationOffer(
        beneficiary=o["beneficiary"], from_player=o["from_player"], contested=o["contested"],
        claimed_choices=tuple(o["claimed_choices"]), claimed_distance=o["claimed_distance"],
        unclaimed_required=tuple(o["unclaimed_required"]),
        unclaimed_tied=tuple(o["unclaimed_tied"]), unclaimed_count=o["unclaimed_count"])


def record_result(campaign: Campaign, user: Any, game: Game, result: str,
                  outcomes: Mapping[int, str], decline: bool | None = None) -> str:
    """SNS-GC-6a..6d, SNS-GC-7, SNS-CAP-3, SNS-CAP-4, SNS-PTS-1, SNS-KING-3..5, SNS-RES-2,
    SNS-AMB-4, -5, -9, -12, -13, -25: the challenger's result and each King's fate. Land changes
    hands, every winner gains a Victory Point and every loser a Vengeance Point, a dead King
    takes his Titles and crate items with him; a compensation or a new Capital is left for its
    player to choose."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        game = _game_for_update(st.campaign, game)
        if game.status == Game.Status.PLAYED:
            raise SnsError(f"Game {game.number} already has its result.")
        parts = {p.kingdom_id: p for p in game.participants.select_for_update().order_by("pk")}
        fates = {pk: outcomes.get(pk, gc.ALIVE) for pk in parts}
        for fate in fates.values():
            if fate not in gc.KING_OUTCOMES:
                raise SnsError(f"SNS-STAT-0f: {fate!r} is not a King's fate.")
        ch = _challenge_of(st, game)
        outcome = _check(lambda: gc.resolve_challenge(st.state, ch, result, st.options,
                                                      decline=decline))
        per_kingdom = {}
        for pk in parts:
            name = st.kingdoms[pk].name
            per_kingdom[pk] = (gc.WIN if name in outcome.winners else
                               gc.LOSS if name in outcome.losers else gc.DRAW)
        # SNS-AMB-10: a kingdom seated beside the challenger or the defender shares its side's
        # result (seats.py); the Territory stays between the two parties to the challenge.
        allies = seats.side_results(result, {pk: p.side for pk, p in parts.items()
                                             if pk not in (game.challenger_id,
                                                           game.defender_id)})
        per_kingdom.update(allies)
        outcome = replace(
            outcome,
            winners=(*outcome.winners, *(st.kingdoms[pk].name for pk, r in allies.items()
                                         if r == gc.WIN)),
            losers=(*outcome.losers, *(st.kingdoms[pk].name for pk, r in allies.items()
                                       if r == gc.LOSS)),
            drawn=(*outcome.drawn, *(st.kingdoms[pk].name for pk, r in allies.items()
                                     if r == gc.DRAW)))
        _check(lambda: tt.check_result(
            tt.GameResult(outcome.winners, outcome.losers, outcome.drawn),
            {st.kingdoms[pk].name: fate for pk, fate in fates.items()}))
        pending: dict[str, Any] = {}
        if outcome.compensation is not None and outcome.compensation.choices:
            pending["compensation"] = _offer_json(outcome.compensation)
        if outcome.new_capital_for is not None:
            pending["capital_for"] = outcome.new_capital_for
            pending["capital_choices"] = list(outcome.capital_choices)
        words = {gc.WIN: "wins", gc.LOSS: "loses", gc.DRAW: "draws"}[result]
        summary = f"Game {game.number}: {game.challenger.name} {words} ({ch.row})"
        if outcome.changes:
            summary += "; " + "; ".join(
                f"{st.territory_name(c.territory)} becomes "
                f"{gc.STATE_NAMES[c.after.state].lower()}"
                + (f" by {c.after.owner}" if c.after.owner else "") for c in outcome.changes)
        elif outcome.declined:
            summary += "; the outcome was declined (SNS-AMB-4)"
        dead = [pk for pk, fate in fates.items() if fate == gc.DEAD]
        if dead:
            summary += "; " + ", ".join(
                f"King {st.kings[pk].name} of {st.kingdoms[pk].name} dies" for pk in dead
                if pk in st.kings)
        summary += "."
        with Recorder(st.campaign, user, "sns.result", summary,
                      data={"game": game.number, "result": result}) as rec:
            write_changes(rec, st, outcome.changes, game)
            for p in outcome.state.players:
                if p != st.state.player(p.id):
                    write_player(rec, st, replace(
                        st.state.player(p.id), capital_fortified=p.capital_fortified,
                        eliminated=p.eliminated))
            _post_points(rec, st, pts.game_points(outcome.winners, outcome.losers,
                                                  outcome.drawn, st.options,
                                                  game=str(game.number)),
                         f"game {game.number}")
            for pk, part in parts.items():
                rec.update(part, result=per_kingdom[pk], king_outcome=fates[pk])
            close_tables(rec, st, game, list(parts.values()))
            for pk in dead:
                king = st.kings.get(pk)
                if king is None:
                    continue
                rec.update(king, current=False, died_in=game)
                for item in CrateItem.objects.filter(king=king, status=CrateItem.Status.HELD):
                    rec.update(item, status=CrateItem.Status.VOIDED)
            rec.update(game, status=Game.Status.PLAYED, result=result,
                       declined=outcome.declined, pending=pending)
            rec.update(st.campaign, year=st.campaign.year + 1)
    return summary


def choose_compensation(campaign: Campaign, user: Any, game: Game, choice: str | None,
                        territories: Sequence[str] = ()) -> str:
    """SNS-GC-7, SNS-AMB-6, SNS-AMB-7: the defender of settled land or a Capital who beat the
    challenger takes the nearest claim of the challenger, or stakes the nearest unclaimed
    land, or declines (``choice`` None)."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        game = _game_for_update(st.campaign, game)
        if "compensation" not in game.pending:
            raise SnsError("SNS-GC-7: no compensation is waiting for a choice.")
        offer = offer_of(game.pending)
        new_state, changes = _check(lambda: gc.apply_compensation(st.state, offer, choice,
                                                                  territories))
        if changes:
            summary = (f"{offer.beneficiary} takes compensation for game {game.number}: "
                       + ", ".join(st.territory_name(c.territory) for c in changes)
                       + " claimed (SNS-GC-7).")
        else:
            summary = f"{offer.beneficiary} declines compensation for game {game.number}."
        pending = {k: v for k, v in game.pending.items() if k != "compensation"}
        with Recorder(st.campaign, user, "sns.compensation", summary) as rec:
            write_changes(rec, st, changes, game)
            rec.update(game, pending=pending)
    return summary


def name_capital(campaign: Campaign, user: Any, game: Game, territory: str) -> str:
    """SNS-CAP-3: the kingdom that lost its Capital makes one of its settled or claimed
    Territories the new one; it stays unfortified until the kingdom wins a game."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        game = _game_for_update(st.campaign, game)
        who = game.pending.get("capital_for")
        if who is None:
            raise SnsError("SNS-CAP-3: no kingdom has a Capital to name.")
        _, change = _check(lambda: gc.name_new_capital(st.state, who, territory))
        summary = (f"{who} makes {st.territory_name(territory)} its new Capital, unfortified "
                   "until it wins a game (SNS-CAP-3).")
        pending = {k: v for k, v in game.pending.items()
                   if k not in ("capital_for", "capital_choices")}
        with Recorder(st.campaign, user, "sns.capital", summary) as rec:
            write_changes(rec, st, (change,), game)
            rec.update(game, pending=pending)
    return summary


# --- points (SNS-PTS-3/4, SNS-VP-*, SNS-VEN-*) ---------------------------------------------------


def spend_phase(game: Game | None) -> str:
    """SNS-AMB-15: between games, while a game is set up, or while it is played."""
    if game is None:
        return pts.BETWEEN_GAMES
    return pts.SETUP if game.status == Game.Status.SETUP else pts.PLAYING


def spend_context(st: SnsState, kingdom: Kingdom) -> tuple[Game | None, str, str | None,
                                                            list[str]]:
    """The game a kingdom's spends are for now, the moment, the contested Territory of its
    coming game and the options already bought for it."""
    game = _open_game(st)
    if game is not None and not game.participants.filter(kingdom=kingdom).exists():
        game = None
    phase = spend_phase(game)
    contested = game.territory if game is not None else None
    if game is not None:
        bought = list(Spend.objects.filter(kingdom=kingdom, game=game)
                      .values_list("code", flat=True))
    else:
        bought = list(Spend.objects.filter(kingdom=kingdom, game__isnull=True)
                      .values_list("code", flat=True))
    return game, phase, contested, bought


def spend(campaign: Campaign, user: Any, kingdom: Kingdom, code: str,
          target: str | None = None) -> str:
    """SNS-PTS-3, SNS-PTS-4, SNS-VP-*, SNS-VEN-*, SNS-AMB-14..16, SNS-AMB-19: spend points on
    one option. MAP options change the map at once; START and IN_GAME ones are kept for the
    buyer's coming game. A spend beyond the balance, at the wrong moment or on a Territory it
    cannot change is refused with the reason."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        game, phase, contested, bought = spend_context(st, kingdom)
        option = pts.SPEND_BY_CODE.get(code)
        if option is None:
            raise SnsError(f"SNS-PTS-3: there is no points option {code!r}.")
        entries = points_entries(st.campaign)
        spent = _check(lambda: pts.apply_spend(
            st.state, entries, pid(kingdom), code, phase, target or None, contested, bought,
            st.options, game=str(game.number) if game else None))
        where = ""
        if spent.changes:
            where = f" on {st.territory_name(spent.changes[0].territory)}"
        elif option.timing != pts.MAP:
            where = f" for game {game.number}" if game else " for its next game"
        summary = (f"{kingdom.name} spends {option.cost} "
                   f"{pts.CURRENCY_NAMES[option.currency]} on {option.name}{where} "
                   f"({option.rule_id}).")
        with Recorder(st.campaign, user, "sns.spend", summary, kingdom=kingdom,
                      data={"code": code}) as rec:
            _post_points(rec, st, (spent.entry,), f"{option.name}{where}")
            rec.create(Spend(
                campaign=st.campaign, kingdom=kingdom, code=code,
                game=game if option.timing != pts.MAP else None,
                bought_before=st.campaign.year,
                target=(spent.changes[0].territory if spent.changes else ""),
                contested=(contested or "") if option.target == pts.CONTESTED else ""))
            write_changes(rec, st, spent.changes)
    return summary


def roll_gondor(campaign: Campaign, user: Any, spend_row: Spend, die: int,
                source: str = "table") -> str:
    """SNS-VEN-GONDOR: the Gondor die, once rolled in the game; the units it brings."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        row = Spend.objects.select_for_update().filter(campaign=st.campaign,
                                                       pk=spend_row.pk).first()
        if row is None or row.code != "GONDOR":
            raise SnsError("SNS-VEN-GONDOR: that is not a Gondor Calls for Aid! spend.")
        if row.roll is not None:
            raise SnsError("SNS-VEN-GONDOR: the die was already rolled for this spend.")
        units = _check(lambda: pts.gondor_units(die))
        brought = ", ".join(f"{n} {u}" for u, n in units) or "nobody answers"
        summary = f"{row.kingdom.name} calls for aid and rolls {die}: {brought}."
        with Recorder(st.campaign, user, "sns.gondor", summary, kingdom=row.kingdom) as rec:
            rec.roll("SNS-VEN-GONDOR", [die], source)
            rec.update(row, roll=die)
    return summary


# --- post-game reports and Titles (SNS-STAT-*, SNS-TITLE-*) --------------------------------------


def file_report(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                values: Mapping[str, Any], *, confirm: bool = False) -> str:
    """SNS-STAT-*: a player's post-game report (or the GM's, who may confirm it at once). Only
    a played game has reports; a report that cannot be true is refused."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        game = _game_for_update(st.campaign, game)
        if game.status != Game.Status.PLAYED:
            raise SnsError(f"SNS-STAT: game {game.number} has not been played yet.")
        part = _participant(game, kingdom)
        stored = reports.clean(values)
        _check(lambda: tt.check_report(reports.game_report(part, stored, st.options)))
        status = "confirmed" if confirm else "filed"
        summary = (f"{kingdom.name}'s report on game {game.number} is "
                   + ("confirmed by the GM." if confirm else "filed."))
        with Recorder(st.campaign, user, "sns.report", summary, kingdom=kingdom) as rec:
            rec.update(part, report=stored, report_status=status,
                       faction=stored.get("faction_chosen", part.faction))
    return summary


def confirm_report(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                   gm_yes: Sequence[str]) -> str:
    """SNS-TITLE-G1, SNS-F.4: the GM confirms a report and answers the yes-or-no questions of
    Titles the app cannot check (class J)."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        game = _game_for_update(st.campaign, game)
        part = _participant(game, kingdom)
        if not part.report_status:
            raise SnsError(f"SNS-STAT: {kingdom.name} has filed no report on game "
                           f"{game.number}.")
        unknown = [c for c in gm_yes if c not in tt.TITLE_BY_CODE]
        if unknown:
            raise SnsError("SNS-TITLE-G2: unknown Titles: " + ", ".join(unknown) + ".")
        summary = f"The GM confirms {kingdom.name}'s report on game {game.number}."
        with Recorder(st.campaign, user, "sns.report_confirmed", summary,
                      kingdom=kingdom) as rec:
            rec.update(part, report_status="confirmed", gm_yes=sorted(set(gm_yes)))
    return summary


def title_report(st: SnsState, part: Participant,
                 history: Sequence[tt.GameReport] | None = None) -> tt.TitleReport:
    """SNS-TITLE-G1, SNS-TITLE-G2, SNS-TITLE-G5: the Titles one report earns, with reasons."""
    if history is None:
        history = reports.history(part)
    held = st.state.player(pid(part.kingdom)).king
    codes = held.titles if held is not None else frozenset()
    return tt.suggest_titles(reports.game_report(part, part.report, st.options), history,
                             codes, st.options)


def take_titles(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom,
                picks: Sequence[str]) -> str:
    """SNS-TITLE-G2, SNS-TITLE-G4, SNS-TITLE-G5, SNS-AMB-20, SNS-AMB-25: the player takes the
    Title (or, by house rule, the Titles) the confirmed report earned; a Title that needs the
    GM's yes only with it; never a Title not earned or already held, nor from a game the King
    died in."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        game = _game_for_update(st.campaign, game)
        part = _participant(game, kingdom)
        if part.report_status != "confirmed":
            raise SnsError("SNS-TITLE-G2: Titles are taken once the GM has confirmed the "
                           "report.")
        if part.titles_taken:
            raise SnsError(f"SNS-TITLE-G2: {kingdom.name} already took its Title for game "
                           f"{game.number}.")
        if not picks:
            raise SnsError("SNS-TITLE-G2: pick a Title.")
        report = title_report(st, part)
        player = st.state.player(pid(kingdom))
        if part.king_id is not None and (player.king is None or
                                         st.kings.get(kingdom.pk) is None or
                                         st.kings[kingdom.pk].pk != part.king_id):
            raise SnsError("SNS-AMB-25: the King who played this game is dead; no Title from "
                           "it is kept.")
        _check(lambda: tt.award_titles(player, report, picks, part.gm_yes, st.options))
        king = st.kings[kingdom.pk]
        names = ", ".join(tt.TITLE_BY_CODE[c].name for c in picks)
        summary = f"King {king.name} of {kingdom.name} takes {names} (game {game.number})."
        with Recorder(st.campaign, user, "sns.titles", summary, kingdom=kingdom) as rec:
            for code in picks:
                rec.create(TitleAward(king=king, code=code, game=game))
            rec.update(part, titles_taken=list(picks))
    return summary


def carry_crate_item(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, *,
                     gone: Sequence[int] = (), name: str = "", kind: str = tt.GENERAL,
                     effect: str = "") -> str:
    """SNS-CRATE-5, SNS-CRATE-7, SNS-AMB-24: at a game's end the items used or lost leave the
    King's inventory, and with carry-over agreed a living King keeps one item found."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        game = _game_for_update(st.campaign, game)
        if game.status != Game.Status.PLAYED:
            raise SnsError(f"SNS-CRATE-5: game {game.number} has not ended.")
        part = _participant(game, kingdom)
        king = st.kings.get(kingdom.pk)
        held = {i.pk: i for i in (CrateItem.objects.filter(king=king,
                                                           status=CrateItem.Status.HELD)
                                  if king else [])}
        if any(pk not in held for pk in gone):
            raise SnsError("SNS-CRATE-4: the King holds no such item.")
        carry = None
        if name.strip():
            carry = _check(lambda: tt.CrateItem(name.strip()[:60], kind, effect.strip()[:200]))
        player = st.state.player(pid(kingdom))
        _check(lambda: tt.close_crate_inventory(player, part.king_outcome or gc.ALIVE,
                                                [held[pk].name for pk in gone], carry,
                                                st.options))
        if not gone and carry is None:
            raise SnsError("SNS-CRATE-5: nothing to record.")
        parts = [f"{held[pk].name} is gone" for pk in gone]
        if carry is not None:
            parts.append(f"King {king.name} carries {carry.name} on")  # type: ignore[union-attr]
        summary = f"{kingdom.name}, game {game.number}: " + "; ".join(parts) + " (SNS-CRATE-5)."
        with Recorder(st.campaign, user, "sns.crate", summary, kingdom=kingdom) as rec:
            for pk in gone:
                rec.update(held[pk], status=CrateItem.Status.GONE)
            if carry is not None:
                rec.create(CrateItem(king=king, name=carry.name, kind=carry.kind,
                                     effect=carry.effect, game=game))
    return summary


# --- new players (SNS-NEW-*) ---------------------------------------------------------------------


def propose_newcomer(st: SnsState, kingdom: Kingdom) -> gc.NewPlayerProposal:
    """SNS-NEW-1..5: the land a kingdom joining the running campaign would get (shown to the
    GM before it applies)."""
    player = next((p for p in st.state.players if p.id == pid(kingdom)), None)
    if player is None or player.king is None:
        raise SnsError(f"SNS-KING-7: {kingdom.name} names its King first.")
    others = replace(st.state, players=tuple(p for p in st.state.players
                                             if p.id != player.id
                                             and (st.map.owned_by(p.id) or p.eliminated)))
    if player.eliminated:
        others = replace(others, players=(*others.players, player))
    return _check(lambda: gc.propose_new_player(
        others, replace(player, eliminated=player.eliminated), st.options))


def add_newcomer(campaign: Campaign, user: Any, kingdom: Kingdom) -> str:
    """SNS-NEW-1..4, SNS-CAP-4: the GM gives a kingdom joining the campaign its land as
    proposed: as much settled and claimed land as the player with the least, unclaimed land
    first, one settled Territory its Capital."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        if st.campaign.phase == PLACEMENT:
            raise SnsError("SNS-GC-3: during placement a kingdom places its own Capital.")
        kingdom = _kingdom_in(st, kingdom)
        if st.map.owned_by(pid(kingdom)):
            raise SnsError(f"SNS-NEW-1: {kingdom.name} already holds land.")
        proposal = propose_newcomer(st, kingdom)
        summary = (f"{kingdom.name} joins the campaign with "
                   f"{proposal.settled} settled and {proposal.claimed} claimed Territories "
                   f"like {proposal.reference}; Capital {st.territory_name(proposal.capital)} "
                   "(SNS-NEW-2..4).")
        with Recorder(st.campaign, user, "sns.new_player", summary, kingdom=kingdom) as rec:
            write_changes(rec, st, proposal.changes)
            write_player(rec, st, replace(st.state.player(pid(kingdom)), eliminated=False,
                                          capital_fortified=True))
    return summary


# --- the preset Map of Avalon ---------------------------------------------------------------------


def load_preset(campaign: Campaign, user: Any) -> str:
    """SNS-GC-9, SNS-AMB-2: the GM lays out the preset Map of Avalon shipped with the app (the
    book's picture is not in the text, so this one is ours): its 18 map types on a square grid,
    the sea around them. Only before any land is held."""
    from campaign.models import Map, Tile
    from campaign.systems.swords_and_stones.preset import PRESET_HEIGHT, PRESET_WIDTH, layout

    with transaction.atomic():
        st = load(campaign, lock=True)
        if any(h.owner for h in st.map.holdings.values()) or Game.objects.filter(
                campaign=st.campaign).exists():
            raise SnsError("The map can be replaced only before any land is held.")
        game_map = Map.objects.select_for_update().filter(campaign=st.campaign).first()
        summary = "The GM lays out the preset Map of Avalon (18 map types, SNS-GC-9)."
        with Recorder(st.campaign, user, "sns.map_preset", summary) as rec:
            if game_map is None:
                game_map = rec.create(Map(campaign=st.campaign, kind="square",
                                          width=PRESET_WIDTH, height=PRESET_HEIGHT))
            else:
                rec.delete_many(Tile.objects.filter(map=game_map))
                rec.update(game_map, kind="square", width=PRESET_WIDTH,
                           height=PRESET_HEIGHT, seed=None)
            from campaign.rules.geometry import SquareGrid

            grid = SquareGrid(PRESET_WIDTH, PRESET_HEIGHT)
            terrains = layout()
            rec.create_many(Tile, [
                Tile(map=game_map, q=x, r=y, label=grid.label(x, y), explored=True,
                     terrain=terrains[(x, y)]) for x, y in grid.coords()])
    return summary


def set_artificial(campaign: Campaign, user: Any, kingdom: Kingdom, is_ai: bool) -> str:
    """SNS-GC-1, SNS-AMB-5: the GM marks a kingdom as an artificial player (played by the
    table, holding land only with ``ai_can_hold_territory``)."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = _kingdom_in(st, kingdom)
        if bool(kingdom.data.get("is_ai")) == is_ai:
            raise SnsError(f"{kingdom.name} is already "
                           + ("an artificial player." if is_ai else "played by a person."))
        summary = (f"{kingdom.name} is " + ("an artificial player (SNS-GC-1)." if is_ai
                                           else "played by a person again."))
        with Recorder(st.campaign, user, "sns.artificial", summary, kingdom=kingdom) as rec:
            rec.update(kingdom, data={**kingdom.data, "is_ai": is_ai})
    return summary
