"""The game at the table: a kingdom's Stockpile ledger through a campaign game, opened with the
campaign's start, walked through the phases with upkeep, growth, Farm dice and training, and
put away (with peak gold in the report) when the result is recorded."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Event
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones import table
from campaign.systems.swords_and_stones.models import Game, Participant
from campaign.systems.swords_and_stones.state import SnsError
from ledger.services import balances
from tests.sns.conftest import Avalon, at, dump, undo

pytestmark = pytest.mark.django_db

SIX = ("food", "wood", "stone", "iron", "gold", "favor")


def stock(avalon: Avalon, kingdom: Any) -> dict[str, int]:
    return {r: n for r, n in balances([kingdom], SIX)[kingdom.pk].items() if r in SIX}


def refused(action: Any, message: str) -> None:
    before = dump()
    with pytest.raises(SnsError) as caught:
        action()
    assert str(caught.value) == message
    assert dump() == before


@pytest.fixture
def game(avalon: Avalon) -> Game:
    """Game 1, Red against Blue for unclaimed 0303; Red picks 3 wood from its Capital and 1
    food from 0302; turn 1 begins."""
    g = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    sns.set_up(avalon.campaign, avalon.gm, g, avalon.red, faction="avalonian",
               supply=[("0202", "WOOD"), ("0302", "FOOD")])
    sns.begin_game(avalon.campaign, avalon.gm, g)
    return Game.objects.get(pk=g.pk)


def to_phase(avalon: Avalon, game: Game, kingdom: Any, phase: str) -> None:
    while Participant.objects.get(game=game, kingdom=kingdom).table["phase"] != phase:
        table.next_phase(avalon.campaign, avalon.gm, game, kingdom)


def test_sns_econ_10_the_stockpile_opens_with_the_campaigns_start(avalon: Avalon,
                                                                  game: Game) -> None:
    """SNS-ECON-10, SNS-SUP-1, SNS-ECON-5: Red opens with 3 wood and 1 food, 3 Villagers and
    the King; Blue with nothing; both at turn 1, harvest."""
    assert stock(avalon, avalon.red) == {"food": 1, "wood": 3, "stone": 0, "iron": 0, "gold": 0,
                                         "favor": 0}
    assert stock(avalon, avalon.blue) == dict.fromkeys(SIX, 0)
    state = Participant.objects.get(game=game, kingdom=avalon.red).table
    assert (state["turn"], state["phase"], state["units"]) == (1, "harvest",
                                                               {"VILLAGER": 3, "KING": 1})


def test_sns_econ_42_worked_example_d8_upkeep_and_growth(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-42..44, D.8: Tavern, Temple, Town Center and a Commune with 1 food: upkeep 2,
    1 paid and 1 short, growth 3 (the unstaffed Arena is not counted)."""
    to_phase(avalon, game, avalon.red, "compulsory")
    summary = table.compulsory(avalon.campaign, avalon.gm, game, avalon.red,
                               {"STOCKPILE": 1, "TAVERN": 1, "TEMPLE": 1, "TOWNCENTER": 1,
                                "COMMUNE": 1})
    assert summary == "Red, turn 1: upkeep 2 food, 1 short; growth 3 (SNS-ECON-42..44)."
    assert stock(avalon, avalon.red)["food"] == 0
    state = Participant.objects.get(game=game, kingdom=avalon.red).table
    assert (state["growth"], state["shortfall"]) == (3, 1)
    refused(lambda: table.compulsory(avalon.campaign, avalon.gm, game, avalon.red, {}),
            "SNS-ECON-42: Red already paid upkeep in turn 1.")


@pytest.mark.parametrize(("outcome", "food"), [("rain", 8), ("insect_plague", 0), ("fail", 3)])
def test_sns_econ_27_worked_example_d8_farm_dice(avalon: Avalon, game: Game, outcome: str,
                                                 food: int) -> None:
    """SNS-ECON-27, D.8: 4 Farms roll 1, 2, 5, 6: Rain gives 8 food, an Insect Plague 0, Idle
    Villagers (a failed die) 3."""
    table.farm_harvest(avalon.campaign, avalon.gm, game, avalon.blue, [1, 2, 5, 6], [outcome])
    assert stock(avalon, avalon.blue)["food"] == food
    assert Event.objects.filter(kind="sns.table").last().dice == [
        {"purpose": "SNS-ECON-27", "values": [1, 2, 5, 6], "source": "table"}]


def test_sns_econ_51_training_is_paid_first_and_capped_by_growth(avalon: Avalon,
                                                                  game: Game) -> None:
    """SNS-ECON-51, SNS-ECON-3, SNS-UNIT-VILLAGER: growth 1 (a Stockpile alone) allows one
    Villager for 1 food; a second is refused, and so is one without the food."""
    to_phase(avalon, game, avalon.red, "compulsory")
    table.compulsory(avalon.campaign, avalon.gm, game, avalon.red, {"STOCKPILE": 1})
    to_phase(avalon, game, avalon.red, "advance")
    refused(lambda: table.train(avalon.campaign, avalon.gm, game, avalon.red, "VILLAGER", 2),
            "Your growth rate is 1 and 0 units were already trained this turn, so 2 more cannot "
            "be trained (SNS-ECON-51, SNS-ECON-44).")
    table.train(avalon.campaign, avalon.gm, game, avalon.red, "VILLAGER", 1)
    assert stock(avalon, avalon.red)["food"] == 0
    state = Participant.objects.get(game=game, kingdom=avalon.red).table
    assert state["units"] == {"VILLAGER": 4, "KING": 1} and state["trained"] == 1
    to_phase(avalon, game, avalon.blue, "compulsory")
    table.compulsory(avalon.campaign, avalon.gm, game, avalon.blue, {"STOCKPILE": 1})
    to_phase(avalon, game, avalon.blue, "advance")
    refused(lambda: table.train(avalon.campaign, avalon.gm, game, avalon.blue, "VILLAGER", 1),
            "train 1 Villager: you need 1 more food first; resources are paid before anything "
            "is placed (SNS-ECON-3).")


def test_sns_econ_3_a_spend_beyond_the_stockpile_is_refused(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-3: 5 gold cannot be paid from 0."""
    refused(lambda: table.book_line(avalon.campaign, avalon.gm, game, avalon.red, "gold", -5,
                                    "SNS-ECON-57", "buy at the Market"),
            "buy at the Market: you need 5 more gold first; resources are paid before anything "
            "is placed (SNS-ECON-3).")


def test_sns_econ_4_a_stockpile_that_does_not_work_moves_only_favor(avalon: Avalon,
                                                                     game: Game) -> None:
    """SNS-ECON-4: wood cannot come in, favor can."""
    table.set_operational(avalon.campaign, avalon.gm, game, avalon.red, False)
    refused(lambda: table.book_line(avalon.campaign, avalon.gm, game, avalon.red, "wood", 2,
                                    "SNS-ECON-21", "Forest"),
            "Your Stockpile is not working (it is at 1 HP, unstaffed or touched by an enemy), "
            "so you cannot receive wood; only favor still moves (SNS-ECON-4).")
    table.book_line(avalon.campaign, avalon.gm, game, avalon.red, "favor", 2, "SNS-ECON-28", "")
    assert stock(avalon, avalon.red)["favor"] == 2


def test_sns_econ_11_a_game_not_begun_has_no_stockpile(avalon: Avalon) -> None:
    """SNS-ECON-11: the table opens with turn 1."""
    g = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    refused(lambda: table.next_phase(avalon.campaign, avalon.gm, g, avalon.red),
            "SNS-ECON-11: game 1 is not being played; its Stockpiles open when turn 1 begins.")


def test_sns_stat_18_the_result_puts_the_stockpile_away_with_peak_gold(avalon: Avalon,
                                                                       game: Game) -> None:
    """SNS-STAT-18, SNS-ECON-2: 7 gold gained, 4 spent, 2 gained: peak 7 goes into Red's
    report; every balance is back to 0; the campaign's points are untouched."""
    for amount, rule in ((7, "SNS-ECON-29"), (-4, "SNS-ECON-57"), (2, "SNS-ECON-29")):
        table.book_line(avalon.campaign, avalon.gm, game, avalon.red, "gold", amount, rule, "")
    sns.record_result(avalon.campaign, avalon.gm, game, "win", {})
    assert stock(avalon, avalon.red) == dict.fromkeys(SIX, 0)
    assert Participant.objects.get(game=game, kingdom=avalon.red).report == {"peak_gold": 7}
    assert avalon.points(avalon.red) == (1, 0)


def test_undo_of_a_ledger_line_restores_the_balances(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-2: undoing a line puts every row back."""
    before = dump()
    table.farm_harvest(avalon.campaign, avalon.gm, game, avalon.red, [2, 3, 4])
    assert stock(avalon, avalon.red)["food"] == 4
    undo(avalon)
    assert dump() == before


@pytest.mark.parametrize(("persona", "status"), [("gm", 200), ("player", 200),
                                                 ("other_player", 403), ("observer", 403)])
def test_the_stockpile_page_is_its_players_and_the_gms(avalon: Avalon, game: Game, gm: Any,
                                                        player: Any, other_player: Any,
                                                        observer: Any, persona: str,
                                                        status: int) -> None:
    """A kingdom's Stockpile page and its actions: its player or the GM; an htmx action gets
    the page's fragment back."""
    users = {"gm": gm, "player": player, "other_player": other_player, "observer": observer}
    client = Client()
    client.force_login(users[persona])
    args = {"slug": avalon.campaign.slug, "number": 1, "kingdom_id": avalon.red.pk}
    assert client.get(reverse("sns:table", kwargs=args)).status_code == status
    before = dump()
    response = client.post(reverse("sns:table_action", kwargs={**args, "action": "farm"}),
                           {"dice": "2 3"}, headers={"HX-Request": "true"})
    if status == 200:
        assert response.status_code == 200
        assert "give 2 food" in response.content.decode()
        assert stock(avalon, avalon.red)["food"] == 3
    else:
        assert response.status_code == status and dump() == before


def test_sns_evt_2_events_at_the_table(avalon: Avalon, game: Game) -> None:
    """SNS-ECON-13, SNS-EVT-2, SNS-EVT-1: before turn 10 every event is Idle Villagers; at turn
    10 a Gemstone Patch (Outcrop 14) brings 6 gold; a result that needs a choice says so and
    books nothing."""
    summary = table.event(avalon.campaign, avalon.gm, game, avalon.red, "outcrop", 14)
    assert summary == ("Red, turn 1: outcrop event 14: Idle Villagers (before turn 10 every "
                       "event is Idle Villagers) (SNS-EVT-2).")
    assert stock(avalon, avalon.red)["gold"] == 0
    while Participant.objects.get(game=game, kingdom=avalon.red).table["turn"] < 10:
        to_phase(avalon, game, avalon.red, "compulsory")
        table.compulsory(avalon.campaign, avalon.gm, game, avalon.red, {"STOCKPILE": 1})
        to_phase(avalon, game, avalon.red, "harvest")
    table.event(avalon.campaign, avalon.gm, game, avalon.red, "outcrop", 14)
    assert stock(avalon, avalon.red)["gold"] == 6
    with pytest.raises(SnsError, match=r"^SNS-EVT-2: Giant Amorphous Object needs choice"):
        table.event(avalon.campaign, avalon.gm, game, avalon.red, "outcrop", 13)


def test_sns_ar_3_the_battle_calculator(avalon: Avalon, player: Any) -> None:
    """SNS-AR-1..3, SNS-AR-6, SNS-AR-7: 6 Swords and 2 Knights (12) against a Guard Tower (3)
    and 2 Spears (5): the attacker wins, the defender loses the game; with 8 dice the 5+ come
    home; typing nothing for the dice asks for 8. Nothing is written."""
    client = Client()
    client.force_login(player)
    url = reverse("sns:battle", args=[avalon.campaign.slug])
    data = {"attackers": "6 SWORDS 2 KNIGHTS", "defenders": "SPEARS SPEARS",
            "guard_towers": "1"}
    before = dump()
    body = client.get(url, data).content.decode()
    assert "The attacker wins" in body and "Roll 8 dice" in body
    assert "Attacker 12 against defence 3 plus 2 units committed: 5" in body
    body = client.get(url, {**data, "dice": "5 6 1 2 3 4 5 6"}).content.decode()
    assert "Home: SWORDS, SWORDS, KNIGHTS, KNIGHTS." in body
    assert "The defender loses the game (SNS-AR-3)." in body
    response = client.get(url, {**data, "attackers": "6 GOBLINS"})
    assert response.status_code == 400
    assert "GOBLINS is not a unit the battle counts (SNS-AR-6)." in response.content.decode()
    assert dump() == before


def test_sns_amb_33_the_campaigns_economy_house_rules_reach_the_table(avalon: Avalon,
                                                                     game: Game) -> None:
    """SNS-AMB-33: with upkeep charged at the start of the advance phase the line says so (the
    growth is the same); the economy's house rules are campaign settings."""
    from campaign import services as core
    from ledger.models import LedgerEntry

    core.update_campaign(avalon.campaign, avalon.gm, name=avalon.campaign.name, description="",
                         options={**avalon.campaign.options, "upkeep_when": "advance"},
                         paper_size="a4", eco_print=False)
    to_phase(avalon, game, avalon.red, "compulsory")
    table.compulsory(avalon.campaign, avalon.gm, game, avalon.red,
                     {"STOCKPILE": 1, "TAVERN": 1})
    line = LedgerEntry.objects.filter(kingdom=avalon.red, resource="food").last()
    assert (line.amount, line.rule_id, line.source) == (
        -1, "SNS-ECON-42", "turn 1: upkeep (start of the advance phase)")
