"""The Swords & Stones demo: a five-player Grand Campaign on the preset Map of Avalon after
eight games: Titles taken, points spent, a King who died and his heir, an artificial player
holding land, and the ninth challenge issued and being set up.

Everything is written through the system's services, so the chronicle tells the story.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User

from campaign import services as core
from campaign.demo import DemoCampaign, found_kingdoms
from campaign.models import Campaign, Kingdom
from campaign.systems.swords_and_stones import buildings, costs, sites, table
from campaign.systems.swords_and_stones import services as sns
from campaign.systems.swords_and_stones.models import Game, Participant

SLUG = "avalon-grand-campaign"

SNS_KINGDOMS = (
    ("alice", "Kingdom of Aldmere", "#b03a2e"),
    ("bob", "Blackwater", "#2e5fa3"),
    ("carol", "Greenhollow", "#3d8b3d"),
    ("dave", "Goldmarch", "#c9a227"),
)
AI_KINGDOM = ("The Hollow Crown", "#6b4f8a")


def at(x: int, y: int) -> str:
    """The label of a square of the preset map, 0-based column and row."""
    return f"{x + 1:02d}{y + 1:02d}"


def _game(campaign: Campaign) -> Game:
    return Game.objects.filter(campaign=campaign).order_by("-number").first()  # type: ignore[return-value]


def _play(campaign: Campaign, gm: User, challenger: Kingdom, territory: str,
          defender: Kingdom | None, result: str, *, ai_name: str = "",
          fates: dict[int, str] | None = None, mode: str = "standard") -> Game:
    game = sns.challenge(campaign, gm, challenger, territory, defender, ai_name, "", mode)
    sns.begin_game(campaign, gm, game)
    sns.record_result(campaign, gm, game, result, fates or {})
    return Game.objects.get(pk=game.pk)


def _report(campaign: Campaign, gm: User, game: Game, kingdom: Kingdom,
            values: dict[str, Any], take: list[str] | None = None,
            yes: list[str] | None = None) -> None:
    sns.file_report(campaign, gm, game, kingdom, values, confirm=not yes)
    if yes:
        sns.confirm_report(campaign, gm, game, kingdom, yes)
    if take:
        sns.take_titles(campaign, gm, game, kingdom, take)


#: The GM's resource types for the costs the demo's kingdoms pay (SNS-AMB-30).
DEMO_COST_TYPES = {
    "SNS-BLD-TAVERN": ("wood",), "SNS-BLD-BARRACKS": ("wood", "stone"),
    "SNS-BLD-MILL": ("wood", "stone"), "SNS-UPG-HUNTINGCABINS": ("wood", "stone"),
    "SNS-UPG-WELLS": ("wood", "stone"), "SNS-UNIT-SWORDS": ("food", "iron"),
}
#: What each kingdom builds, in order, as soon as it can pay (a foundation a turn).
BUILD_ORDER = ("FARM", "TAVERN", "FARM", "BARRACKS", "MILL")
UPGRADES = ("HUNTINGCABINS", "WELLS")


def _at_the_table(campaign: Campaign, gm: User, game: Game, kingdoms: tuple[Kingdom, ...],
                  until: int) -> None:
    """Both kingdoms play their turns up to the harvest of turn ``until``: each records a Forest
    and an Outcrop and harvests them before its Farms, lays its foundations one a turn (two
    Villagers working each), buys upgrades, pays upkeep and trains a Villager when growth and
    food allow. Late on, Goldmarch starts Public Executions and the Hollow Crown takes in
    Refugees (die timers), and a fire hits the Hollow Crown's Tavern; a Mill foundation is still
    being built at turn 12."""
    for key, kinds in DEMO_COST_TYPES.items():
        costs.set_cost_types(campaign, gm, key, kinds)
    for i, kingdom in enumerate(kingdoms):
        sites.record_site(campaign, gm, game, kingdom, "Forest 1", "forest", 4 + i)
        sites.record_site(campaign, gm, game, kingdom, "Outcrop 1", "outcrop", 4,
                          secondary="gold" if i == 0 else "iron", threshold=4 + i)
    built = {k.pk: 0 for k in kingdoms}
    bought = {k.pk: 0 for k in kingdoms}
    for turn in range(1, until):
        for i, kingdom in enumerate(kingdoms):
            args = (campaign, gm, game, kingdom)
            state = Participant.objects.get(game=game, kingdom=kingdom).table
            sites.harvest_site(*args, 1, [(turn + i + n) % 5 + 2 for n in range(3)])
            sites.harvest_site(*args, 2, [(turn * 2 + i + n) % 6 + 1 for n in range(2)])
            farms = state.get("buildings", {}).get("FARM", 0)
            if farms:
                dice = [(turn + i + n) % 6 + 1 for n in range(farms * 2)]
                table.farm_harvest(*args, dice, ["fail"] * dice.count(1))
            table.next_phase(*args)
            foundations = [w for w in state.get("works", []) if w["bp"] > 0]
            table.compulsory(*args, workers={w["id"]: 2 for w in foundations})
            table.next_phase(*args)
            if turn % 2:
                try:
                    table.train(*args, "VILLAGER", 1)
                except sns.SnsError:
                    pass  # not enough food or growth this turn
            if built[kingdom.pk] < len(BUILD_ORDER):
                try:
                    buildings.lay_foundation(*args, BUILD_ORDER[built[kingdom.pk]])
                    built[kingdom.pk] += 1
                except sns.SnsError:
                    pass  # not enough yet
            if bought[kingdom.pk] < len(UPGRADES):
                try:
                    buildings.buy_upgrade(*args, UPGRADES[bought[kingdom.pk]])
                    bought[kingdom.pk] += 1
                except sns.SnsError:
                    pass
            if turn == until - 2:
                buildings.start_timer(*args, "Public Executions" if i == 0 else "Refugees")
            if turn == until - 1 and i == 1:
                state = Participant.objects.get(game=game, kingdom=kingdom).table
                tavern = next(w for w in state["works"] if w["code"] == "TAVERN")
                buildings.damage(*args, tavern["id"], fire_die=2)
            table.next_phase(*args)
            table.next_phase(*args)


def build(users: dict[str, User]) -> Campaign:
    gm = users["gm"]
    campaign = core.create_campaign(
        gm, name="The Isles of Avalon", slug=SLUG, rule_system="swords-and-stones",
        description="A Grand Campaign of Swords & Stones after eight games.")
    sns.load_preset(campaign, gm)
    campaign.refresh_from_db()
    options = {**campaign.options, "ai_can_hold_territory": True, "crate_carryover": True}
    core.update_campaign(campaign, gm, name=campaign.name, description=campaign.description,
                         options=options, paper_size="a4", eco_print=False)
    red, blue, green, gold = found_kingdoms(campaign, users, SNS_KINGDOMS)
    ai = core.create_kingdom(campaign, gm, name=AI_KINGDOM[0], colour=AI_KINGDOM[1],
                             player=None)
    sns.set_artificial(campaign, gm, ai, True)
    for kingdom, king in ((red, "Aldous"), (blue, "Morwen"), (green, "Tamsin"),
                          (gold, "Oswin"), (ai, "The Pale King")):
        sns.name_king(campaign, gm, kingdom, king)
    sns.place(campaign, gm, red, at(1, 1), [at(2, 1), at(1, 2)])
    sns.place(campaign, gm, blue, at(12, 1), [at(11, 1), at(12, 2)])
    sns.place(campaign, gm, green, at(3, 8), [at(4, 8), at(3, 7)])
    sns.place(campaign, gm, gold, at(10, 8), [at(9, 8), at(10, 7)])
    sns.place(campaign, gm, ai, at(8, 4), [at(9, 4), at(8, 3)])
    sns.start_challenges(campaign, gm)

    # 1. Aldmere settles unclaimed Norwest land; Blackwater volunteered to stop it.
    g1 = _play(campaign, gm, red, at(2, 2), blue, "win")
    _report(campaign, gm, g1, red, {"faction_chosen": "avalonian", "peak_gold": 55,
                                    "upgrades_purchased": 8}, take=["FRUGAL"])
    _report(campaign, gm, g1, blue, {"faction_chosen": "avalonian", "peak_gold": 21})
    # 2. Blackwater beats bandit lords (an artificial opponent) for unclaimed Riverrun.
    g2 = _play(campaign, gm, blue, at(11, 2), None, "win", ai_name="Bandit lords")
    _report(campaign, gm, g2, blue, {"faction_chosen": "avalonian", "upgrades_purchased": 22},
            take=["LEARNED"])
    sns.spend(campaign, gm, blue, "EMPIRE")
    # 3. Greenhollow takes Aldmere's claim on the Norwest Isles.
    g3 = _play(campaign, gm, green, at(2, 1), red, "win")
    _report(campaign, gm, g3, green, {"faction_chosen": "paganite",
                                      "enemy_farms_destroyed_before_t30": 3,
                                      "attacked_villagers_unprovoked": False},
            yes=["HONORABLE"], take=["RAIDER"])
    # 4. Goldmarch fails against Greenhollow's claim, which Greenhollow then settles.
    g4 = _play(campaign, gm, gold, at(3, 7), green, "loss")
    _report(campaign, gm, g4, gold, {"faction_chosen": "damned", "zombies_raised": 12})
    sns.spend(campaign, gm, gold, "BROTHERS")
    # 5. The Hollow Crown (artificial) takes Goldmarch's claim.
    _play(campaign, gm, ai, at(9, 8), gold, "win")
    # 6. Aldmere attacks Blackwater's settled Riverrun and loses; King Aldous falls.
    g6 = _play(campaign, gm, red, at(11, 2), blue, "loss", fates={red.pk: "dead"})
    sns.choose_compensation(campaign, gm, g6, "stake_unclaimed", [at(10, 3)])
    sns.name_king(campaign, gm, red, "Bertram")
    _report(campaign, gm, g6, red, {"faction_chosen": "avalonian", "peak_gold": 60})
    _report(campaign, gm, g6, blue, {"faction_chosen": "avalonian",
                                     "king_wounds_on_non_villager_monk_units": 6},
            take=["BRAVE"])
    sns.spend(campaign, gm, red, "BLACKSHEEP")
    # 7. Blackwater storms Goldmarch's fortified Capital; Goldmarch moves its Capital.
    g7 = _play(campaign, gm, blue, at(10, 8), gold, "win")
    sns.name_capital(campaign, gm, g7, at(10, 7))
    sns.carry_crate_item(campaign, gm, g7, blue, name="Rusty Key", kind="token",
                         effect="Opens one gate once.")
    # 8. Greenhollow wins unclaimed Crater Lake against the Hollow Crown.
    g8 = _play(campaign, gm, green, at(2, 6), ai, "win")
    _report(campaign, gm, g8, green, {"faction_chosen": "paganite",
                                      "enemy_kings_killed_by_own_king_or_queen": 1,
                                      "rituals_performed": ["Amanti"]}, take=["KINGSLAYER"])
    # 9. Goldmarch challenges the Hollow Crown for its old claim: at the table, turn 12.
    g9 = sns.challenge(campaign, gm, gold, at(9, 8), ai, "", "Great Sandy", "standard")
    sns.set_up(campaign, gm, g9, gold, faction="damned",
               supply=[(at(10, 7), "IRON")], title="", variant="")
    sns.set_up(campaign, gm, g9, ai, faction="paganite",
               supply=[(at(8, 4), "FOOD"), (at(9, 4), "WOOD")], title="", variant="")
    sns.begin_game(campaign, gm, g9)
    _at_the_table(campaign, gm, g9, (gold, ai), until=12)
    campaign.refresh_from_db()
    return campaign


CAMPAIGNS = (DemoCampaign(SLUG, build),)
