"""The Grand Campaign's services on the preset Map of Avalon: placement, challenges and their
outcomes, compensation, capitals, Kings, points and their spends, reports and Titles, new
players; every refusal writes nothing and every action's undo restores every row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from campaign.chronicle import Recorder
from campaign.models import Event, Kingdom
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import (
    Game,
    King,
    Participant,
    Spend,
    TerritoryRecord,
    TitleAward,
)
from campaign.systems.swords_and_stones.services import PointsLine, SnsError
from ledger.services import post
from tests.sns.conftest import Avalon, at, dump, undo

pytestmark = pytest.mark.django_db


def refused(action: Callable[[], Any], message: str) -> None:
    """The action is refused with ``message`` and changes no row."""
    before = dump()
    events = Event.objects.count()
    with pytest.raises(SnsError) as caught:
        action()
    assert str(caught.value) == message
    assert dump() == before
    assert Event.objects.count() == events


def grant(avalon: Avalon, kingdom: Kingdom, vp: int = 0, ven: int = 0) -> None:
    """Points for a test, booked on the ledger as a GM adjustment would be."""
    from django.db import transaction

    with transaction.atomic(), Recorder(avalon.campaign, avalon.gm, "test.grant") as rec:
        post(rec, [(kingdom, PointsLine("vp", vp, "SNS-PTS-2", "test")),
                   (kingdom, PointsLine("ven", ven, "SNS-PTS-2", "test"))])
    avalon.refresh()


# --- placement (SNS-GC-3) -----------------------------------------------------------------------


def test_sns_gc_3_placement_puts_capital_and_two_claims_on_the_tiles(avalon: Avalon) -> None:
    """SNS-GC-3: Capital and two bordering claims, with their history."""
    assert avalon.holding(at(1, 1)) == ("capital", "Red")
    assert avalon.holding(at(2, 1)) == ("claimed", "Red")
    assert avalon.holding(at(1, 2)) == ("claimed", "Red")
    assert avalon.holding(at(12, 1)) == ("capital", "Blue")
    records = list(TerritoryRecord.objects.filter(campaign=avalon.campaign)
                   .values_list("territory", "after_state", "cause", "rule_id"))
    assert records[:3] == [("0202", "capital", "initial_placement", "SNS-GC-3"),
                           ("0302", "claimed", "initial_placement", "SNS-GC-3"),
                           ("0203", "claimed", "initial_placement", "SNS-GC-3")]
    assert avalon.campaign.phase == "campaign"


def test_sns_gc_3_placement_refuses_a_claim_not_bordering_the_capital(campaign: Any, gm: Any,
                                                                      player: Any) -> None:
    """SNS-GC-3: both claims border the Capital."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    sns.name_king(campaign, gm, red, "Aldous")
    refused(lambda: sns.place(campaign, gm, red, at(1, 1), [at(2, 1), at(5, 5)]),
            "SNS-GC-3: 0606 Isle of Gold is not a free Territory bordering the Capital.")


def test_sns_king_7_a_kingdom_names_its_king_before_placing(campaign: Any, gm: Any,
                                                            player: Any) -> None:
    """SNS-KING-7: the King is named at setup."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    refused(lambda: sns.place(campaign, gm, red, at(1, 1), [at(2, 1), at(1, 2)]),
            "SNS-KING-7: Red names its King first.")


def test_sns_gc_2_challenges_begin_only_when_everyone_has_placed(campaign: Any, gm: Any,
                                                                 player: Any,
                                                                 other_player: Any) -> None:
    """SNS-GC-2, SNS-GC-3: the GM closes placement once every kingdom has land."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    sns.name_king(campaign, gm, red, "Aldous")
    sns.place(campaign, gm, red, at(1, 1), [at(2, 1), at(1, 2)])
    refused(lambda: sns.start_challenges(campaign, gm),
            "SNS-GC-3: still to place a Capital and two claims: Blue.")


# --- challenges and outcomes (SNS-GC-4..8, SNS-PTS-1) -------------------------------------------


def test_sns_gc_6a_unclaimed_win_settles_and_gives_points(avalon: Avalon) -> None:
    """SNS-GC-6a, SNS-PTS-1, SNS-GC-8: Red wins unclaimed land against a volunteer."""
    game = avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    assert (game.number, game.row, game.status, game.result) == (1, "SNS-GC-6a", "played", "win")
    assert avalon.holding(at(2, 2)) == ("settled", "Red")
    assert avalon.points(avalon.red) == (1, 0)
    assert avalon.points(avalon.blue) == (0, 1)
    assert avalon.campaign.year == 2
    parts = dict(Participant.objects.filter(game=game).values_list("kingdom__name", "result"))
    assert parts == {"Red": "win", "Blue": "loss"}


def test_sns_gc_6a_lost_to_an_outside_ai_stays_unclaimed(avalon: Avalon) -> None:
    """SNS-GC-6a, SNS-AMB-5: an artificial opponent outside the campaign takes nothing and
    earns nothing; the challenger still gains Vengeance."""
    game = avalon.play(avalon.red, at(2, 2), None, "loss", ai_name="Bandits")
    assert game.ai_name == "Bandits"
    assert avalon.holding(at(2, 2)) == ("unclaimed", None)
    assert avalon.points(avalon.red) == (0, 1)


def test_sns_gc_6b_claimed_win_moves_the_claim(avalon: Avalon) -> None:
    """SNS-GC-6b: a won claim changes hands, still claimed."""
    avalon.play(avalon.red, at(11, 1), avalon.blue, "win")
    assert avalon.holding(at(11, 1)) == ("claimed", "Red")


def test_sns_gc_6b_claimed_loss_settles_for_the_holder(avalon: Avalon) -> None:
    """SNS-GC-6b: the holder who beats the challenger settles the claim."""
    avalon.play(avalon.red, at(11, 1), avalon.blue, "loss")
    assert avalon.holding(at(11, 1)) == ("settled", "Blue")
    assert avalon.points(avalon.blue) == (1, 0)


def test_sns_amb_9_draw_changes_nothing(avalon: Avalon) -> None:
    """SNS-AMB-9: a draw moves no land and gives no points."""
    avalon.play(avalon.red, at(11, 1), avalon.blue, "draw")
    assert avalon.holding(at(11, 1)) == ("claimed", "Blue")
    assert avalon.points(avalon.red) == (0, 0) and avalon.points(avalon.blue) == (0, 0)


def test_sns_gc_4_players_take_turns(avalon: Avalon) -> None:
    """SNS-GC-4: after Red's challenge it is Blue's turn."""
    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    refused(lambda: sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(3, 3), None),
            "SNS-GC-4: it is Blue's turn to issue a challenge.")


def test_sns_amb_8_own_land_cannot_be_challenged(avalon: Avalon) -> None:
    """SNS-AMB-8: a challenge for one's own land is refused with the way to settle it."""
    refused(lambda: sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 1), None),
            "SNS-AMB-8: 0302 Norwest Isles is already yours; settle your own claims with "
            "Bolster Frontier Outposts or Fiefdoms.")


def test_sns_gc_6_held_land_is_defended_by_its_holder(avalon: Avalon) -> None:
    """SNS-GC-6: only the holder defends held land."""
    refused(lambda: sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(11, 1), None),
            "SNS-GC-6: 1202 Riverrun is held by Blue, who must be the opponent.")


def test_sns_gc_4_one_game_at_a_time(avalon: Avalon) -> None:
    """SNS-GC-4: the next challenge waits for the open game's result."""
    sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), None)
    refused(lambda: sns.challenge(avalon.campaign, avalon.gm, avalon.blue, at(3, 3), None),
            "SNS-GC-4: not yet: Game 1 is being set up.")


def test_sns_res_2_a_dead_king_cannot_win(avalon: Avalon) -> None:
    """SNS-RES-2, SNS-KING-5: a game won by a player whose King died is refused."""
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(11, 1), avalon.blue)
    refused(lambda: sns.record_result(avalon.campaign, avalon.gm, game, "win",
                                      {avalon.red.pk: "dead"}),
            "SNS-RES-2: Red's King dead, so Red lost the game.")


# --- compensation (SNS-GC-7) and capitals (SNS-CAP-*) -------------------------------------------


def settled_defence(avalon: Avalon) -> Game:
    """Red settles 0303; Blue attacks it and loses: Red is owed compensation."""
    avalon.play(avalon.red, at(2, 2), None, "win", ai_name="Bandits")
    return avalon.play(avalon.blue, at(2, 2), avalon.red, "loss")


def test_sns_gc_7_offer_lists_the_nearest_claims_and_unclaimed_land(avalon: Avalon) -> None:
    """SNS-GC-7, SNS-AMB-6, SNS-AMB-7: Blue's two claims are both 12 steps from 0303 (a tie
    for Red); the nearest unclaimed land is 0304 (1 step), then 0305 and 0404 (2 steps)."""
    game = settled_defence(avalon)
    offer = game.pending["compensation"]
    assert offer["claimed_choices"] == ["1202", "1303"]
    assert offer["claimed_distance"] == 12
    assert offer["unclaimed_required"] == ["0304"]
    assert offer["unclaimed_tied"] == ["0305", "0404"]
    assert offer["unclaimed_count"] == 2
    refused(lambda: sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(3, 3), None),
            "SNS-GC-4: not yet: Red chooses compensation (SNS-GC-7).")
    refused(lambda: sns.choose_compensation(avalon.campaign, avalon.gm, game, "take_claimed"),
            "SNS-GC-7: take exactly one of the nearest claimed Territories: 1202 Riverrun, "
            "1303 Riverrun.")


def test_sns_gc_7_take_the_nearest_claim(avalon: Avalon) -> None:
    """SNS-GC-7 (i): Red takes Blue's claim 1303."""
    game = settled_defence(avalon)
    sns.choose_compensation(avalon.campaign, avalon.gm, game, "take_claimed", ["1303"])
    assert avalon.holding("1303") == ("claimed", "Red")
    assert avalon.game(2).pending == {}


def test_sns_gc_7_stake_the_nearest_unclaimed(avalon: Avalon) -> None:
    """SNS-GC-7 (ii): Red stakes 0304 and picks 0404 of the tied pair."""
    game = settled_defence(avalon)
    sns.choose_compensation(avalon.campaign, avalon.gm, game, "stake_unclaimed", ["0404"])
    assert avalon.holding("0304") == ("claimed", "Red")
    assert avalon.holding("0404") == ("claimed", "Red")
    assert avalon.holding("0305") == ("unclaimed", None)


def test_sns_cap_3_a_lost_capital_is_replaced_and_unfortified(avalon: Avalon) -> None:
    """SNS-CAP-2, SNS-CAP-3, SNS-AMB-12: Red storms Blue's fortified Capital; Blue names 1303
    its new, unfortified Capital; Blue's next win fortifies it again."""
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(12, 1), avalon.blue)
    assert game.capital_advantage is True and game.row == "SNS-GC-6d"
    sns.record_result(avalon.campaign, avalon.gm, game, "win", {})
    avalon.refresh()
    assert avalon.holding(at(12, 1)) == ("claimed", "Red")
    assert avalon.blue.data["capital_fortified"] is False
    assert avalon.game(1).pending == {"capital_for": "Blue", "capital_choices": ["1202", "1303"]}
    sns.name_capital(avalon.campaign, avalon.gm, avalon.game(1), "1303")
    assert avalon.holding("1303") == ("capital", "Blue")
    second = sns.challenge(avalon.campaign, avalon.gm, avalon.blue, at(12, 1), avalon.red)
    assert second.capital_advantage is False
    sns.record_result(avalon.campaign, avalon.gm, second, "win", {})
    avalon.refresh()
    assert avalon.blue.data["capital_fortified"] is True
    third = sns.challenge(avalon.campaign, avalon.gm, avalon.red, "1303", avalon.blue)
    assert third.capital_advantage is True


def test_sns_cap_4_losing_the_last_land_leaves_the_campaign(avalon: Avalon) -> None:
    """SNS-CAP-4, SNS-AMB-13: Blue with nothing but its Capital loses it and is out."""
    # Red takes Blue's two claims first, in two games, Blue challenging in between.
    avalon.play(avalon.red, "1202", avalon.blue, "win")
    avalon.play(avalon.blue, at(2, 2), None, "draw")
    avalon.play(avalon.red, "1303", avalon.blue, "win")
    avalon.play(avalon.blue, at(2, 2), None, "draw")
    avalon.play(avalon.red, at(12, 1), avalon.blue, "win")
    assert avalon.blue.data["eliminated"] is True
    assert avalon.game(5).pending == {}


# --- Kings (SNS-KING-3) -------------------------------------------------------------------------


def test_sns_king_3_a_dead_king_loses_titles_and_items_and_an_heir_is_crowned(
        avalon: Avalon) -> None:
    """SNS-KING-3, SNS-TITLE-G4, SNS-CRATE-7: Aldous dies; his Title and crate item are gone;
    the heir needs a new name; land and points stay."""
    first = avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    sns.file_report(avalon.campaign, avalon.gm, first, avalon.red, {"peak_gold": 50},
                    confirm=True)
    sns.take_titles(avalon.campaign, avalon.gm, first, avalon.red, ["FRUGAL"])
    avalon.play(avalon.blue, at(2, 1), avalon.red, "win", fates={avalon.red.pk: "dead"})
    aldous = King.objects.get(kingdom=avalon.red, reign=1)
    assert (aldous.current, aldous.died_in.number) == (False, 2)
    assert avalon.points(avalon.red) == (1, 1)
    refused(lambda: sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(3, 3), None),
            "SNS-GC-4: not yet: Red crowns an heir (SNS-KING-3).")
    refused(lambda: sns.name_king(avalon.campaign, avalon.gm, avalon.red, "aldous"),
            "SNS-KING-3: the heir needs a new name, not aldous.")
    sns.name_king(avalon.campaign, avalon.gm, avalon.red, "Bertram")
    bertram = King.objects.get(kingdom=avalon.red, current=True)
    assert (bertram.name, bertram.reign) == ("Bertram", 2)
    assert not TitleAward.objects.filter(king=bertram).exists()
    assert TitleAward.objects.filter(king=aldous).count() == 1


# --- points (SNS-PTS-3, SNS-VP-*, SNS-VEN-*) -----------------------------------------------------


def test_sns_pts_3_a_spend_beyond_the_balance_is_refused(avalon: Avalon) -> None:
    """SNS-PTS-3: Favor of the King costs 2 Victory Points; Red has 1."""
    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    refused(lambda: sns.spend(avalon.campaign, avalon.gm, avalon.red, "FAVOR"),
            "SNS-PTS-3: Favor of the King costs 2 Victory Points; Red has 1.")


def test_sns_vp_empire_joins_the_buyers_next_game(avalon: Avalon) -> None:
    """SNS-VP-EMPIRE, SNS-PTS-4, D.4: bought between games, it joins Red's next game and its
    starting stockpile."""
    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    sns.spend(avalon.campaign, avalon.gm, avalon.red, "EMPIRE")
    avalon.refresh()
    assert avalon.points(avalon.red) == (0, 0)
    spend = Spend.objects.get(kingdom=avalon.red)
    assert spend.game is None
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.blue, at(2, 1), avalon.red)
    spend.refresh_from_db()
    assert spend.game == game
    sns.set_up(avalon.campaign, avalon.gm, game, avalon.red, faction="avalonian",
               supply=[("0202", "WOOD"), ("0303", "IRON"), ("0302", "FOOD")])
    from campaign.systems.swords_and_stones.state import load

    st = load(avalon.campaign)
    part = Participant.objects.get(game=game, kingdom=avalon.red)
    stock = sns.starting_stockpile(st, part, ["EMPIRE"])
    assert stock.total.as_dict() == {"food": 2, "wood": 4, "stone": 1, "iron": 3, "gold": 1,
                                     "favor": 0, "villagers": 3}


def test_sns_pts_4_start_options_are_fixed_once_the_game_begins(avalon: Avalon) -> None:
    """SNS-PTS-4, SNS-AMB-15: no START option once turn 1 began."""
    grant(avalon, avalon.red, vp=2)
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), None)
    sns.begin_game(avalon.campaign, avalon.gm, game)
    refused(lambda: sns.spend(avalon.campaign, avalon.gm, avalon.red, "FAVOR"),
            "SNS-PTS-4: Favor of the King can only be bought before turn 1 of the game it is "
            "for (SNS-AMB-15).")
    sns.spend(avalon.campaign, avalon.gm, avalon.red, "CAVALRY")
    assert Spend.objects.get(kingdom=avalon.red).game == game


def test_sns_ven_fiefdoms_settles_a_claim_at_once(avalon: Avalon) -> None:
    """SNS-VEN-FIEFDOMS: 3 Vengeance settle one of the buyer's claims."""
    grant(avalon, avalon.red, ven=3)
    sns.spend(avalon.campaign, avalon.gm, avalon.red, "FIEFDOMS", "0302")
    assert avalon.holding("0302") == ("settled", "Red")
    assert avalon.points(avalon.red) == (0, 0)
    record = TerritoryRecord.objects.filter(campaign=avalon.campaign).last()
    assert (record.cause, record.rule_id) == ("ven_fiefdoms", "SNS-VEN-FIEFDOMS")


def test_sns_ven_politics_takes_the_leaders_settled_land_never_a_capital(avalon: Avalon) -> None:
    """SNS-VEN-POLITICS, SNS-AMB-19: Blue takes Red's settled 0303, not Red's Capital."""
    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    grant(avalon, avalon.blue, ven=2)
    refused(lambda: sns.spend(avalon.campaign, avalon.gm, avalon.blue, "POLITICS", "0202"),
            "SNS-VEN-POLITICS: 0202 Norwest Isles cannot be chosen: a Capital can never change "
            "hands this way (SNS-AMB-3); choose one of 0303 Norwest Isles.")
    sns.spend(avalon.campaign, avalon.gm, avalon.blue, "POLITICS", "0303")
    assert avalon.holding("0303") == ("settled", "Blue")


def test_sns_vp_bolster_needs_four_points(avalon: Avalon) -> None:
    """SNS-VP-BOLSTER: 4 Victory Points; with 3 it is refused."""
    grant(avalon, avalon.red, vp=3)
    refused(lambda: sns.spend(avalon.campaign, avalon.gm, avalon.red, "BOLSTER", "0302"),
            "SNS-PTS-3: Bolster Frontier Outposts costs 4 Victory Points; Red has 3.")


def test_sns_ven_gondor_roll_is_kept_with_its_spend(avalon: Avalon) -> None:
    """SNS-VEN-GONDOR: the die rolled in the game, once."""
    grant(avalon, avalon.red, ven=1)
    sns.spend(avalon.campaign, avalon.gm, avalon.red, "GONDOR")
    spend = Spend.objects.get(kingdom=avalon.red)
    summary = sns.roll_gondor(avalon.campaign, avalon.gm, spend, 3)
    assert summary == "Red calls for aid and rolls 3: 5 Swords."
    refused(lambda: sns.roll_gondor(avalon.campaign, avalon.gm, spend, 4),
            "SNS-VEN-GONDOR: the die was already rolled for this spend.")


# --- reports and Titles (SNS-STAT-*, SNS-TITLE-G*) ------------------------------------------------


def test_sns_title_g2_suggestions_need_a_confirmed_report_and_the_gms_yes(avalon: Avalon) -> None:
    """SNS-TITLE-G2, SNS-TITLE-G5, SNS-STAT-18, SNS-STAT-11: peak gold 50 earns The Frugal;
    The Honorable needs the GM's yes; one Title per game."""
    game = avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    sns.file_report(avalon.campaign, avalon.gm, game, avalon.red,
                    {"peak_gold": 50, "attacked_villagers_unprovoked": False})
    refused(lambda: sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red, ["FRUGAL"]),
            "SNS-TITLE-G2: Titles are taken once the GM has confirmed the report.")
    sns.confirm_report(avalon.campaign, avalon.gm, game, avalon.red, [])
    from campaign.systems.swords_and_stones.state import load

    st = load(avalon.campaign)
    report = sns.title_report(st, Participant.objects.get(game=game, kingdom=avalon.red))
    assert [(s.code, s.status) for s in report.suggestions] == [
        ("FRUGAL", "earned"), ("HONORABLE", "needs_gm")]
    refused(lambda: sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red,
                                    ["HONORABLE"]),
            "SNS-TITLE-HONORABLE: The Honorable needs the GM's yes: Did the player attack no "
            "Villager all game, except Villagers that attacked them first?")
    refused(lambda: sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red, ["BRAVE"]),
            "SNS-TITLE-G2: The Brave was not earned in this game.")
    refused(lambda: sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red,
                                    ["FRUGAL", "HONORABLE"]),
            "SNS-TITLE-G2: pick one Title at the end of a game.")
    sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red, ["FRUGAL"])
    assert list(TitleAward.objects.values_list("king__name", "code", "game__number")) == [
        ("Aldous", "FRUGAL", 1)]
    refused(lambda: sns.take_titles(avalon.campaign, avalon.gm, game, avalon.red,
                                    ["HONORABLE"]),
            "SNS-TITLE-G2: Red already took its Title for game 1.")


def test_sns_stat_a_report_for_a_game_not_played_is_refused(avalon: Avalon) -> None:
    """SNS-STAT: reports come after the game."""
    game = sns.challenge(avalon.campaign, avalon.gm, avalon.red, at(2, 2), avalon.blue)
    refused(lambda: sns.file_report(avalon.campaign, avalon.gm, game, avalon.red,
                                    {"peak_gold": 9}),
            "SNS-STAT: game 1 has not been played yet.")


def test_sns_stat_7_an_impossible_report_is_refused(avalon: Avalon) -> None:
    """SNS-STAT-7: more Fire Pot kills than buildings destroyed cannot be true."""
    game = avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    refused(lambda: sns.file_report(avalon.campaign, avalon.gm, game, avalon.red,
                                    {"enemy_buildings_destroyed": 2,
                                     "enemy_buildings_destroyed_fire_pots": 3}),
            "SNS-STAT-7: Fire Pot kills are part of the enemy buildings destroyed, so they "
            "cannot be more.")


def test_sns_amb_25_titles_of_the_game_a_king_died_in_are_lost(avalon: Avalon) -> None:
    """SNS-AMB-25: the report of the fatal game suggests nothing to take."""
    game = avalon.play(avalon.red, at(11, 1), avalon.blue, "loss", fates={avalon.red.pk: "dead"})
    sns.file_report(avalon.campaign, avalon.gm, game, avalon.red,
                    {"enemy_farms_destroyed_before_t30": 3}, confirm=True)
    from campaign.systems.swords_and_stones.state import load

    report = sns.title_report(load(avalon.campaign),
                              Participant.objects.get(game=game, kingdom=avalon.red))
    assert report.suggestions == () and [s.code for s in report.voided] == ["RAIDER"]


# --- new players (SNS-NEW-*) --------------------------------------------------------------------


def test_sns_new_2_a_newcomer_gets_the_land_of_the_smallest_kingdom(avalon: Avalon) -> None:
    """SNS-NEW-2..4: Red and Blue hold a Capital and two claims each; Green gets the same
    from unclaimed land, one settled Territory its Capital."""
    green = Kingdom.objects.create(campaign=avalon.campaign, name="Green", colour="#00aa00")
    sns.name_king(avalon.campaign, avalon.gm, green, "Tamsin")
    sns.add_newcomer(avalon.campaign, avalon.gm, green)
    from campaign.models import Tile

    held = sorted(Tile.objects.filter(controller=green).values_list("settlement", flat=True))
    assert held == ["capital", "claimed", "claimed"]
    refused(lambda: sns.add_newcomer(avalon.campaign, avalon.gm, green),
            "SNS-NEW-1: Green already holds land.")


# --- undo restores every row (one test per kind of action) --------------------------------------


def _played(a: Avalon) -> Game:
    return a.play(a.red, at(2, 2), a.blue, "win")


def _challenged(a: Avalon) -> Game:
    return sns.challenge(a.campaign, a.gm, a.red, at(2, 2), a.blue)


def _green(a: Avalon) -> Kingdom:
    green = Kingdom.objects.create(campaign=a.campaign, name="Green", colour="#00aa00")
    sns.name_king(a.campaign, a.gm, green, "Tamsin")
    return green


def _reported(a: Avalon) -> Game:
    game = _played(a)
    sns.file_report(a.campaign, a.gm, game, a.red, {"peak_gold": 50}, confirm=True)
    return game


def _carry_over(a: Avalon) -> Game:
    from campaign import services as core

    core.update_campaign(a.campaign, a.gm, name=a.campaign.name, description="",
                         options={"crate_carryover": True}, paper_size="a4", eco_print=False)
    a.refresh()
    return _played(a)


def _king_dead(a: Avalon) -> None:
    a.play(a.red, at(11, 1), a.blue, "loss", fates={a.red.pk: "dead"})


# Each kind of action: what comes before it, and the action (one chronicle event).
ACTIONS: dict[str, tuple[Callable[[Avalon], Any], Callable[[Avalon, Any], Any]]] = {
    "challenge": (lambda a: None,
                  lambda a, _: sns.challenge(a.campaign, a.gm, a.red, at(2, 2), a.blue)),
    "result": (lambda a: sns.challenge(a.campaign, a.gm, a.red, at(11, 1), a.blue),
               lambda a, g: sns.record_result(a.campaign, a.gm, g, "loss",
                                              {a.red.pk: "dead"})),
    "result_capital": (lambda a: sns.challenge(a.campaign, a.gm, a.red, at(12, 1), a.blue),
                       lambda a, g: sns.record_result(a.campaign, a.gm, g, "win", {})),
    "setup": (_challenged,
              lambda a, g: sns.set_up(a.campaign, a.gm, g, a.red, faction="paganite",
                                      supply=[("0202", "GOLD")])),
    "begin": (_challenged, lambda a, g: sns.begin_game(a.campaign, a.gm, g)),
    "spend_map": (lambda a: grant(a, a.red, ven=3),
                  lambda a, _: sns.spend(a.campaign, a.gm, a.red, "FIEFDOMS", "0302")),
    "spend_start": (lambda a: grant(a, a.red, vp=2),
                    lambda a, _: sns.spend(a.campaign, a.gm, a.red, "FAVOR")),
    "report": (_played, lambda a, g: sns.file_report(a.campaign, a.gm, g, a.red,
                                                      {"peak_gold": 50})),
    "confirm": (lambda a: (g := _played(a), sns.file_report(a.campaign, a.gm, g, a.red,
                                                             {"peak_gold": 50}))[0],
                lambda a, g: sns.confirm_report(a.campaign, a.gm, g, a.red, [])),
    "titles": (_reported, lambda a, g: sns.take_titles(a.campaign, a.gm, g, a.red, ["FRUGAL"])),
    "compensation": (settled_defence,
                     lambda a, g: sns.choose_compensation(a.campaign, a.gm, g, "take_claimed",
                                                          ["1202"])),
    "capital": (lambda a: a.play(a.red, at(12, 1), a.blue, "win"),
                lambda a, g: sns.name_capital(a.campaign, a.gm, g, "1202")),
    "heir": (_king_dead, lambda a, _: sns.name_king(a.campaign, a.gm, a.red, "Bertram")),
    "crate": (_carry_over, lambda a, g: sns.carry_crate_item(a.campaign, a.gm, g, a.red,
                                                             name="Rusty Key")),
    "newcomer": (_green, lambda a, k: sns.add_newcomer(a.campaign, a.gm, k)),
    "artificial": (lambda a: None, lambda a, _: sns.set_artificial(a.campaign, a.gm, a.blue,
                                                                   True)),
    "gondor": (lambda a: (grant(a, a.red, ven=1), sns.spend(a.campaign, a.gm, a.red, "GONDOR"),
                          Spend.objects.get(kingdom=a.red))[2],
               lambda a, s: sns.roll_gondor(a.campaign, a.gm, s, 6)),
}


@pytest.mark.parametrize("kind", sorted(ACTIONS))
def test_undo_of_each_kind_of_action_restores_every_row(avalon: Avalon, kind: str) -> None:
    """Every Grand Campaign action is one chronicle event; undoing it restores every row of
    the campaign's tables exactly."""
    prepare, act = ACTIONS[kind]
    context = prepare(avalon)
    avalon.refresh()
    before = dump()
    events = Event.objects.count()
    act(avalon, context)
    assert Event.objects.count() == events + 1
    assert dump() != before
    undo(avalon)
    assert dump() == before


def test_sns_gc_9_a_new_campaign_starts_on_the_preset_map(gm: Any) -> None:
    """SNS-GC-9, SNS-AMB-2: the preset's size and no seed give the Map of Avalon: 74 land
    squares of the 18 map types in the sea; a seed gives a generated map; nothing is left to
    explore either way."""
    from campaign import services as core
    from campaign.models import Tile

    campaign = core.create_campaign(gm, name="New", slug="new", rule_system="swords-and-stones")
    tiles = Tile.objects.filter(map__campaign=campaign)
    assert tiles.count() == 140
    assert tiles.exclude(terrain="sea").count() == 74
    assert len(set(tiles.exclude(terrain="sea").values_list("terrain", flat=True))) == 18
    assert not tiles.filter(explored=False).exists()
    seeded = core.create_campaign(gm, name="Seeded", slug="seeded",
                                  rule_system="swords-and-stones", width=6, height=5, seed=3)
    assert Tile.objects.filter(map__campaign=seeded, explored=True).count() == 30
