"""Auto-resolved battles between two kingdoms of a game, step by step (SNS-AR-1..7): the
attacker's army score, the defender's kingdom defence score (favor paid at once), units
committed one at a time until the total just beats the attacker, the buy-back with the margin,
5+ survivors from typed dice or the app's, and both kingdoms' units written; refusals cite the
rule and write nothing; each step is an event undone exactly."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from campaign import chronicle
from campaign.models import Event
from campaign.systems.swords_and_stones import autoresolve_play as arp
from campaign.systems.swords_and_stones import table
from campaign.systems.swords_and_stones.models import AutoBattle, Participant
from campaign.systems.swords_and_stones.rules import autoresolve as ar
from campaign.systems.swords_and_stones.state import SnsError
from tests.sns.conftest import DUMPED
from tests.sns.fourway import Four, four, stock  # noqa: F401
from tests.sns.test_table_trades import to

pytestmark = pytest.mark.django_db


def dump() -> dict[str, list[dict[str, Any]]]:
    return {m._meta.label: list(m.objects.order_by("pk").values())
            for m in (*DUMPED, AutoBattle)}


def refused(action: Any, message: str) -> None:
    before = dump()
    with pytest.raises(SnsError) as caught:
        action()
    assert str(caught.value) == message
    assert dump() == before


def arm(four: Four, name: str, units: dict[str, int], faction: str = "avalonian") -> None:
    """Arrange a kingdom's units and faction as the table has them (set-up, not a flow)."""
    part = Participant.objects.get(game=four.game, kingdom=four.kingdoms[name])
    part.table = {**part.table, "units": units}
    part.faction = faction
    part.save()


def units(four: Four, name: str) -> dict[str, int]:
    return Participant.objects.get(game=four.game, kingdom=four.kingdoms[name]).table["units"]


@pytest.fixture
def battle_ready(four: Four) -> Four:
    """Red and Blue at move & combat of turn 1; Blue has 2 favor from its Temple."""
    to(four, "Blue", "harvest")
    table.book_line(four.campaign, four.gm, four.game, four.kingdoms["Blue"], "favor", 2,
                    "SNS-ECON-28", "Temple")
    for name in ("Red", "Blue"):
        to(four, name, "move_combat")
    return four


def begin(four: Four, sent: list[str], **kw: Any) -> AutoBattle:
    return arp.begin(four.campaign, four.gm, four.game, four.kingdoms["Red"],
                     four.kingdoms["Blue"], sent, **kw)


def test_sns_ar_2_an_attack_won_step_by_step_with_a_buy_back(battle_ready: Four) -> None:
    """SNS-AR-1, SNS-AR-2, SNS-AR-3, SNS-AR-6, SNS-AR-7: 6 Swords and 2 Knights (12) against a
    Guard Tower and 2 favor (5): Blue commits 3 Spears (6, 7, 8) and 5 Villagers (9, 9, 10, 10,
    10) and still loses by 2; Red cannot buy a Knight (3) back with 2 but buys 2 Swords; the 6
    dice 5 1 6 2 5 4 bring 2 Swords and a Knight home; Red loses 2 Swords and a Knight, Blue
    all 8 units and the game."""
    four = battle_ready
    arm(four, "Red", {"SWORDS": 6, "KNIGHTS": 2, "KING": 1})
    arm(four, "Blue", {"SPEARS": 3, "VILLAGER": 5, "KING": 1})
    battle = begin(four, ["SWORDS"] * 6 + ["KNIGHTS"] * 2)
    assert battle.data["steps"] == ["Red sends 6 swords and 2 knights: army score 12 "
                                    "(SNS-AR-6)."]
    summary = arp.defences(four.campaign, four.gm, four.game, battle.pk,
                           ar.Defences(guard_towers=1, favor_spent=2))
    assert summary == "Blue's kingdom defence score 5, 2 favor spent (SNS-AR-7)."
    assert stock(four.kingdoms["Blue"])["favor"] == 0
    totals = []
    for code in ["SPEARS"] * 3 + ["VILLAGER"] * 5:
        summary = arp.commit(four.campaign, four.gm, four.game, battle.pk, code)
        totals.append(int(summary.split("total ")[1].split(" ")[0]))
    assert totals == [6, 7, 8, 9, 9, 10, 10, 10]
    assert summary.endswith("Red 12 against Blue 10: Red wins by 2 (SNS-AR-2).")
    refused(lambda: arp.buy_back(four.campaign, four.gm, four.game, battle.pk, ["KNIGHTS"]),
            "The margin of 2 does not buy back that much (3 points) (SNS-AR-2).")
    assert arp.buy_back(four.campaign, four.gm, four.game, battle.pk, ["SWORDS", "SWORDS"]) \
        == "Red buys back 2 swords with the margin of 2 (SNS-AR-2)."
    refused(lambda: arp.survival(four.campaign, four.gm, four.game, battle.pk, [5, 1, 6, 2, 5]),
            "SNS-AR-2: Red rolls 6 dice, one per unit, not 5.")
    before = dump()
    summary = arp.survival(four.campaign, four.gm, four.game, battle.pk, [5, 1, 6, 2, 5, 4])
    assert summary == ("Red rolls 5 1 6 2 5 4: 4 swords and 1 knights come home (5+, SNS-AR-2); "
                       "Red loses 2 swords and 1 knights, Blue loses 3 spears and 5 villagers "
                       "(SNS-AR-3). Blue lost its defence and so loses the game (SNS-AR-3).")
    assert units(four, "Red") == {"SWORDS": 4, "KNIGHTS": 1, "KING": 1}
    assert units(four, "Blue") == {"KING": 1}
    event = Event.objects.filter(kind="sns.battle").latest("seq")
    assert (event.dice[0]["values"] if event.dice else None) == [5, 1, 6, 2, 5, 4]
    battle.refresh_from_db()
    assert (battle.step, battle.data["defender_loses_game"]) == ("done", True)
    with transaction.atomic():
        chronicle.undo_latest(four.campaign, four.gm)
    assert dump() == before


def test_sns_ar_5_the_damned_and_committed_villagers(battle_ready: Four) -> None:
    """SNS-AR-5, SNS-AR-4, SNS-FAC-10: Damned Red sends 5 Swords and 3 Villagers: 5 + 1.2
    rounded up = 7, times 0.7 rounded up = 5. Blue's Palisade (5) does not beat it; one Spear
    (6) does. Blue's die 4: the Spear is lost too; Red loses all 8, and its totals against Blue
    are halved to turn 4: its next army of 5 Swords counts 4 (3.5 rounded up), halved (rounded
    down, SNS-AMB-37) to 2."""
    four = battle_ready
    arm(four, "Red", {"SWORDS": 10, "VILLAGER": 3}, faction="damned")
    arm(four, "Blue", {"SPEARS": 2})
    battle = begin(four, ["SWORDS"] * 5 + ["VILLAGER"] * 3)
    assert battle.data["steps"] == ["Red sends 5 swords and 3 villagers: army score 5 (Damned, "
                                    "70 % rounded up, SNS-AR-5) (SNS-AR-6)."]
    assert arp.defences(four.campaign, four.gm, four.game, battle.pk,
                        ar.Defences(palisade_wall=True)) == \
        "Blue's kingdom defence score 5 (SNS-AR-7)."
    assert arp.commit(four.campaign, four.gm, four.game, battle.pk, "SPEARS") == (
        "Blue commits 1 spears: total 6 against 5 (SNS-AR-1). "
        "Red 5 against Blue 6: Blue wins by 1 (SNS-AR-2).")
    summary = arp.survival(four.campaign, four.gm, four.game, battle.pk, [4])
    assert summary == ("Blue rolls 4: no units come home (5+, SNS-AR-2); Red loses 5 swords and "
                       "3 villagers, Blue loses 1 spears (SNS-AR-3). Red's totals against Blue "
                       "are halved to turn 4 (SNS-AR-4).")
    assert units(four, "Red") == {"SWORDS": 5}
    assert units(four, "Blue") == {"SPEARS": 1}
    again = begin(four, ["SWORDS"] * 5)
    assert again.data["steps"] == ["Red sends 5 swords: army score 4 (Damned, 70 % rounded up, "
                                   "SNS-AR-5), halved to 2 after the defence it lost (SNS-AR-4) "
                                   "(SNS-AR-6)."]
    assert again.data["attacker_total"] == 2


def test_sns_ar_1_refusals_of_the_steps(battle_ready: Four) -> None:
    """SNS-AR-1, SNS-AR-7, SNS-ECON-3: each refusal names its rule and writes nothing."""
    four = battle_ready
    arm(four, "Red", {"SWORDS": 2})
    arm(four, "Blue", {"SPEARS": 1})
    refused(lambda: begin(four, ["KNIGHTS"]), "SNS-AR-1: Red has 0 knights, not 1.")
    refused(lambda: arp.begin(four.campaign, four.gm, four.game, four.kingdoms["Red"],
                              four.kingdoms["Green"], ["SWORDS"]),
            "SNS-AR-1: Green is in the harvest phase; an auto-resolved battle is fought once "
            "both advance phases are over (move & combat).")
    refused(lambda: begin(four, ["SWORDS"], by=four.kingdoms["Blue"]),
            "SNS-AR-1: Red sends the attacking army.")
    battle = begin(four, ["SWORDS", "SWORDS"])
    refused(lambda: begin(four, ["SWORDS"]),
            "SNS-AR-1: Blue is already defending a battle; finish it first.")
    refused(lambda: arp.commit(four.campaign, four.gm, four.game, battle.pk, "SPEARS"),
            "SNS-AR-1: this battle waits for the defender's defences.")
    refused(lambda: arp.defences(four.campaign, four.gm, four.game, battle.pk,
                                 ar.Defences(), by=four.kingdoms["Red"]),
            "SNS-AR-1: Blue sets out its own defences.")
    refused(lambda: arp.defences(four.campaign, four.gm, four.game, battle.pk,
                                 ar.Defences(favor_spent=3)),
            "favor spent on the defence: you need 1 more favor first; resources are paid "
            "before anything is placed (SNS-ECON-3).")
    refused(lambda: arp.defences(four.campaign, four.gm, four.game, battle.pk,
                                 ar.Defences(favor_spent=11)),
            "A defender spends 0 to 10 favor on its defence (SNS-AR-7).")
    arp.defences(four.campaign, four.gm, four.game, battle.pk, ar.Defences())
    refused(lambda: arp.commit(four.campaign, four.gm, four.game, battle.pk, "KNIGHTS"),
            "SNS-AR-1: Blue has no knights left to commit.")
    summary = arp.commit(four.campaign, four.gm, four.game, battle.pk, "SPEARS")
    assert summary.endswith("Red 2 against Blue 1: Red wins by 1 (SNS-AR-2).")


def test_sns_ar_2_equal_totals_go_to_the_defender_and_the_app_rolls(battle_ready: Four) -> None:
    """SNS-AR-2 (tie_goes_to): 2 Swords (2) against a Spear (1) and 1 favor: 2 against 2, the
    defender holds; the app rolls one die for the Spear, recorded as the server's."""
    four = battle_ready
    arm(four, "Red", {"SWORDS": 2})
    arm(four, "Blue", {"SPEARS": 1})
    battle = begin(four, ["SWORDS", "SWORDS"])
    arp.defences(four.campaign, four.gm, four.game, battle.pk, ar.Defences(favor_spent=1))
    summary = arp.commit(four.campaign, four.gm, four.game, battle.pk, "SPEARS")
    assert summary.endswith("Red 2 against Blue 2: Blue wins by 0 (SNS-AR-2).")
    arp.survival(four.campaign, four.gm, four.game, battle.pk, None)
    battle.refresh_from_db()
    event = Event.objects.filter(kind="sns.battle").latest("seq")
    assert event.dice[0]["source"] == "server" and len(battle.data["dice"]) == 1
    assert units(four, "Blue") == ({"SPEARS": 1} if battle.data["dice"][0] >= 5 else {})
    assert units(four, "Red") == {}


def test_sns_ar_1_a_defence_that_beats_the_attacker_alone(battle_ready: Four) -> None:
    """SNS-AR-1, SNS-AR-7: a Castle (10) beats 2 Swords without a unit committed: the battle is
    over at the defences step, no dice; Red loses both Swords."""
    four = battle_ready
    arm(four, "Red", {"SWORDS": 2})
    arm(four, "Blue", {"SPEARS": 1})
    battle = begin(four, ["SWORDS", "SWORDS"])
    summary = arp.defences(four.campaign, four.gm, four.game, battle.pk, ar.Defences(castles=1))
    assert summary == ("Blue's kingdom defence score 10 (SNS-AR-7). Red 2 against Blue 10: "
                       "Blue wins by 8 (SNS-AR-2). Blue committed no units, so none roll "
                       "(SNS-AR-2); Red loses 2 swords, Blue loses no units (SNS-AR-3). Red's "
                       "totals against Blue are halved to turn 4 (SNS-AR-4).")
    assert units(four, "Red") == {} and units(four, "Blue") == {"SPEARS": 1}


def test_sns_ar_1_battle_steps_on_the_phones(battle_ready: Four) -> None:
    """SNS-AR-1..2: Red attacks from its page; Blue sets its defence and commits on its own
    page; Red may not set Blue's defence (409 citing the rule); dice left empty without asking
    the app to roll are 400."""
    four = battle_ready
    arm(four, "Red", {"SWORDS": 3})
    arm(four, "Blue", {"SPEARS": 1})
    red, blue = four.client("Red"), four.client("Blue")
    slug, rk, bk = four.campaign.slug, four.kingdoms["Red"].pk, four.kingdoms["Blue"].pk
    response = red.post(reverse("sns:battle_begin", args=[slug, 1, rk]),
                        {"defender": bk, "units": "3 SWORDS"}, headers={"HX-Request": "true"})
    assert "Red sends 3 swords: army score 3 (SNS-AR-6)." in response.content.decode()
    battle = AutoBattle.objects.get()
    page = blue.get(reverse("sns:table", args=[slug, 1, bk])).content.decode()
    assert "Set the defence" in page
    before = dump()
    response = red.post(reverse("sns:battle_step", args=[slug, 1, rk, battle.pk, "defences"]),
                        {"castles": "0"})
    assert response.status_code == 409 and "SNS-AR-1: Blue sets out its own defences." in \
        response.content.decode()
    assert dump() == before
    step = reverse("sns:battle_step", args=[slug, 1, bk, battle.pk, "defences"])
    assert blue.post(step, {"guard_towers": "1"}).status_code == 302
    page = blue.get(reverse("sns:table", args=[slug, 1, bk])).content.decode()
    assert '<option value="SPEARS">spears</option>' in page
    blue.post(reverse("sns:battle_step", args=[slug, 1, bk, battle.pk, "commit"]),
              {"unit": "SPEARS"})
    battle.refresh_from_db()
    assert battle.step == "dice" and battle.data["winner"] == "defender"
    dice = reverse("sns:battle_step", args=[slug, 1, bk, battle.pk, "dice"])
    assert blue.post(dice, {"dice": ""}).status_code == 400
    assert blue.post(dice, {"dice": "6"}).status_code == 302
    assert units(four, "Red") == {} and units(four, "Blue") == {"SPEARS": 1}
