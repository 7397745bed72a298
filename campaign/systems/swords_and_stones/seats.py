"""Games of three players or more (SNS-RES-3, SNS-AMB-10): while a game is being set up, other
kingdoms of the campaign take a seat on the challenger's side or the defender's. Each seat sets
itself up (faction, supply lines, start bonus) like the two principals, and opens its own
Stockpile when turn 1 begins (SNS-ECON-10); in peace every seat plays each phase at the same time
as the others (SNS-ECON-12), so each kingdom walks its own turn on its own phone.

The Territory at stake stays between the challenger and the designated defender; at the result
every member of the winning side is a winner and every member of the losing side a loser for the
campaign's points (SNS-AMB-10).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.models import Campaign, Kingdom, Visibility
from campaign.systems.swords_and_stones.models import Game, Participant
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.state import SnsError, load, pid

CHALLENGER = "challenger"
DEFENDER = "defender"
SIDES = (CHALLENGER, DEFENDER)
#: The most kingdoms one game seats (a table of eight; the book sets no limit, SNS-ECON-8
#: divides the table for "3+ players").
MAX_SEATS = 8


def seat_order(game: Game) -> list[Participant]:
    """The seats of a game in the order they were taken: the challenger, the defender, then
    the others as they joined (the order the table goes round, SNS-ECON-12)."""
    return list(game.participants.select_related("kingdom").order_by("pk"))


def join_game(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom, side: str) -> str:
    """SNS-RES-3, SNS-AMB-10, SNS-ECON-12: a kingdom of the campaign takes a seat in a game
    being set up, on the challenger's side or the defender's; at most eight seats."""
    if side not in SIDES:
        raise SnsError(f"SNS-RES-3: a seat is on the challenger's or the defender's side, "
                       f"not {side!r}.")
    with transaction.atomic():
        st = load(campaign, lock=True)
        kingdom = st.kingdoms.get(kingdom.pk)
        if kingdom is None:
            raise SnsError("That kingdom is not a kingdom of this campaign.")
        game = Game.objects.select_for_update().filter(campaign=st.campaign, pk=game.pk).first()
        if game is None:
            raise SnsError("That game is not part of this campaign.")
        if game.status != Game.Status.SETUP:
            raise SnsError(f"SNS-PTS-4: game {game.number} has begun; its seats are fixed.")
        player = st.state.player(pid(kingdom))
        if player.eliminated:
            raise SnsError(f"SNS-CAP-4: {kingdom.name} has left the campaign.")
        seats = list(game.participants.select_for_update().order_by("pk"))
        if any(p.kingdom_id == kingdom.pk for p in seats):
            raise SnsError(f"SNS-RES-3: {kingdom.name} already has a seat in game "
                           f"{game.number}.")
        if len(seats) >= MAX_SEATS:
            raise SnsError(f"SNS-RES-3: game {game.number} already seats {MAX_SEATS} "
                           "kingdoms.")
        lead = game.challenger.name if side == CHALLENGER else (
            game.defender.name if game.defender is not None else game.ai_name)
        summary = (f"Game {game.number}: {kingdom.name} takes a seat on {lead}'s side "
                   f"(SNS-RES-3).")
        with Recorder(st.campaign, user, "sns.seat", summary, kingdom=kingdom,
                      visibility=Visibility.PUBLIC) as rec:
            rec.create(Participant(game=game, kingdom=kingdom, king=st.kings.get(kingdom.pk),
                                   side=side,
                                   faction=kingdom.data.get("faction", gc.AVALONIAN)))
    return summary


def leave_game(campaign: Campaign, user: Any, game: Game, kingdom: Kingdom) -> str:
    """SNS-RES-3: a kingdom that joined gives its seat up while the game is still being set up
    (the challenger and the defender cannot: the challenge is theirs)."""
    with transaction.atomic():
        st = load(campaign, lock=True)
        game = Game.objects.select_for_update().filter(campaign=st.campaign, pk=game.pk).first()
        if game is None:
            raise SnsError("That game is not part of this campaign.")
        if game.status != Game.Status.SETUP:
            raise SnsError(f"SNS-PTS-4: game {game.number} has begun; its seats are fixed.")
        if kingdom.pk in (game.challenger_id, game.defender_id):
            raise SnsError(f"SNS-GC-4: {kingdom.name} is a party to the challenge and keeps "
                           "its seat.")
        seat = (game.participants.select_for_update(of=("self",))
                .filter(kingdom_id=kingdom.pk).first())
        if seat is None:
            raise SnsError(f"{kingdom.name} has no seat in game {game.number}.")
        summary = f"Game {game.number}: {kingdom.name} gives up its seat."
        with Recorder(st.campaign, user, "sns.seat", summary, kingdom=kingdom,
                      visibility=Visibility.PUBLIC) as rec:
            rec.delete(seat)
    return summary


def side_results(result: str, sides: dict[int, str]) -> dict[int, str]:
    """SNS-AMB-10: each seat's result from the challenger's: its side shares it, the other side
    has the opposite (a draw is a draw for everyone)."""
    opposite = {gc.WIN: gc.LOSS, gc.LOSS: gc.WIN, gc.DRAW: gc.DRAW}
    return {pk: result if side == CHALLENGER else opposite[result] for pk, side in sides.items()}
