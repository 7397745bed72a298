"""Swords & Stones Grand Campaign benchmark: Title suggestions for 12 players' post-game reports,
and the pages every phone opens (play page with the standings, campaign overview, a kingdom) of
a 12-player campaign after 50 and after 200 games: time and queries. Then the game at the table:
one turn's computation (Farm dice, upkeep and growth) for 8 kingdoms of 60 buildings each, and
a kingdom's Stockpile page at turn 1 and turn 40.

Run: `DEBUG=1 .venv/bin/python bench/sns_campaign.py [games ...]` (default: 50 200). Figures are
printed next to a minimal view's time from the same run. Targets: suggestions for 12 reports
under 20 ms; each page under 100 ms; the query counts the same at every number of games.
"""

from __future__ import annotations

import sys
import time

from common import BENCH_URLCONF, minimal_view_ms, setup_django, timed

PLAYERS = 12


def full_report(player: str, game: int, result: str) -> dict[str, object]:
    """A report with every statistic filled in, most of them near a Title's threshold."""
    return {
        "faction_chosen": "paganite" if game % 3 else "avalonian",
        "king_wounds_on_non_villager_monk_units": game % 7,
        "kills_by_turn": {t: (t * game) % 6 for t in range(1, 41)},
        "enemy_villagers_killed_before_t30": game % 6,
        "max_villagers_killed_vs_one_player_before_their_tc": game % 6,
        "kills_before_own_temple_tc_castle": game % 12,
        "enemy_buildings_destroyed": game % 17, "enemy_buildings_destroyed_fire_pots": 0,
        "enemy_farms_destroyed_before_t30": game % 4, "enemy_kings_killed_by_own_king_or_queen": 0,
        "dragon_slain_king_wound_own_units_only": False, "attacked_villagers_unprovoked": False,
        "walls_and_castle_turn": 20, "first_attack_outside_map_section_turn": 25,
        "prisoners_used_in_blood_rites": 3, "zombies_raised": 0,
        "max_cavalry_single_group_full_turn": 8, "razed_all_temples_totems_of_a_player": False,
        "peak_gold": 30 + game % 30, "gold_given_to_struggling_player": 5,
        "max_successful_farm_dice_one_turn": 6, "mill_upgrades_at_end": ["Wells", "Estates"],
        "upgrades_purchased": 10 + game % 15, "warrior_king_purchased": False,
        "reforestation_projects": 1, "forests_depleted": 2,
        "building_types_built": ["Stockpile", "Farm", "Mill", "Castle"],
        "castle_and_completed_walls_same_time": True, "temple_vigil_kept": True,
        "temple_vigil_turns": 12, "surprise_attack_uses": 1, "successful_spy_saboteur_uses": 1,
        "favor_spent_on_spells_living": 35, "used_crime_and_punishment": False,
        "used_blood_magic": False, "used_blood_sports": False, "rituals_performed": ["Amanti"],
    }


def suggestions_ms() -> tuple[float, int]:
    """The pure rules: 12 reports, each with 16 earlier games of history."""
    from campaign.systems.swords_and_stones.rules import titles as tt

    def report(p: int, g: int, result: str) -> tt.GameReport:
        values = dict(full_report(str(p), g, result))
        values["kills_by_turn"] = dict(values["kills_by_turn"])  # type: ignore[call-overload]
        for name in ("mill_upgrades_at_end", "building_types_built", "rituals_performed"):
            values[name] = frozenset(values[name])  # type: ignore[arg-type]
        return tt.GameReport(player=f"P{p}", result=result, game=str(g), **values)  # type: ignore[arg-type]

    reports = [report(p, 17, "win" if p % 2 else "loss") for p in range(PLAYERS)]
    histories = {f"P{p}": [report(p, g, "win" if (p + g) % 3 else "loss") for g in range(16)]
                 for p in range(PLAYERS)}
    found = tt.suggest_titles_for_game(reports, histories)
    return timed(lambda: tt.suggest_titles_for_game(reports, histories)), sum(
        len(r.suggestions) for r in found.values())


def build(games: int, state: dict[str, object]) -> None:
    """Play games through the services until the campaign has ``games`` of them."""
    from campaign.systems.swords_and_stones import services as sns
    from campaign.systems.swords_and_stones.models import Game
    from campaign.systems.swords_and_stones.rules import grand_campaign as gc
    from campaign.systems.swords_and_stones.state import load, pid

    campaign, gm = state["campaign"], state["gm"]
    played = Game.objects.filter(campaign=campaign).count()  # type: ignore[misc]
    while played < games:
        st = load(campaign)  # type: ignore[arg-type]
        turn = st.kingdom(sns.next_challenger(st))
        assert turn is not None
        targets = gc.challenge_targets(st.state, pid(turn), st.options)
        rivals = [k for k in st.kingdoms.values()
                  if k.pk != turn.pk and not k.data.get("eliminated")]
        rival = rivals[played % len(rivals)]
        owned = [t for t in targets if st.map.holding(t).owner == rival.name
                 and st.map.holding(t).state != gc.CAPITAL]
        free = [t for t in targets if st.map.holding(t).state == gc.UNCLAIMED]
        target = (owned or free or list(targets))[0]
        holder = st.kingdom(st.map.holding(target).owner)
        game = sns.challenge(campaign, gm, turn, target, holder or rival)  # type: ignore[arg-type]
        result = ("win", "loss", "draw")[played % 3]
        sns.record_result(campaign, gm, game, result, {})  # type: ignore[arg-type]
        game = Game.objects.get(pk=game.pk)
        if "compensation" in game.pending:
            sns.choose_compensation(campaign, gm, game, None)  # type: ignore[arg-type]
        if "capital_for" in game.pending:
            sns.name_capital(campaign, gm, game,  # type: ignore[arg-type]
                             game.pending["capital_choices"][0])
        if played < PLAYERS:
            for part in game.participants.all():
                sns.file_report(campaign, gm, game, part.kingdom,  # type: ignore[arg-type]
                                {"peak_gold": 50}, confirm=True)
        played += 1


def setup() -> dict[str, object]:
    from django.contrib.auth.models import User

    from campaign import services
    from campaign.models import Kingdom, Membership
    from campaign.systems.swords_and_stones import services as sns

    gm = User.objects.create_user("gm", password="x")
    campaign = services.create_campaign(gm, name="Bench", slug="bench",
                                        rule_system="swords-and-stones")
    sns.load_preset(campaign, gm)
    campaign.refresh_from_db()
    player = User.objects.create_user("p0", password="x")
    membership = Membership.objects.create(campaign=campaign, user=player, role="player")
    # Twelve kingdoms placed in pairs of bordering squares along the map's land.
    spots = [((1, 1), (2, 1), (1, 2)), ((12, 1), (11, 1), (12, 2)), ((4, 1), (5, 1), (4, 2)),
             ((8, 1), (9, 1), (8, 2)), ((2, 3), (3, 3), (2, 4)), ((6, 3), (7, 3), (6, 2)),
             ((10, 3), (11, 3), (10, 4)), ((1, 5), (2, 5), (1, 4)), ((4, 5), (5, 5), (4, 6)),
             ((8, 5), (9, 5), (8, 6)), ((3, 8), (4, 8), (3, 7)), ((9, 8), (10, 8), (9, 7))]
    label = lambda x, y: f"{x + 1:02d}{y + 1:02d}"  # noqa: E731
    for i, (capital, a, b) in enumerate(spots):
        kingdom = Kingdom.objects.create(campaign=campaign, name=f"Kingdom {i + 1}",
                                         colour="#336699",
                                         player=membership if i == 0 else None)
        sns.name_king(campaign, gm, kingdom, f"King {i + 1}")
        sns.place(campaign, gm, kingdom, label(*capital), [label(*a), label(*b)])
    sns.start_challenges(campaign, gm)
    return {"campaign": campaign, "gm": gm, "player": player}


def main(sizes: list[int]) -> None:
    setup_django()
    from django.db import connection, reset_queries
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    ms, count = suggestions_ms()
    print(f"Title suggestions for {PLAYERS} reports (16 earlier games each): {ms:.2f} ms, "
          f"{count} Titles suggested")
    with override_settings(ROOT_URLCONF=BENCH_URLCONF, ALLOWED_HOSTS=["testserver"]):
        baseline = minimal_view_ms(Client())
        print(f"minimal view: {baseline:.2f} ms")
        state = setup()
        client = Client()
        client.force_login(state["player"])  # type: ignore[arg-type]
        campaign = state["campaign"]
        slug = campaign.slug  # type: ignore[attr-defined]
        kingdom = campaign.kingdoms.order_by("pk").first()  # type: ignore[attr-defined]
        pages = {
            "play": reverse("campaign:play", args=[slug]),
            "overview": reverse("campaign:detail", args=[slug]),
            "kingdom": reverse("campaign:kingdom", args=[slug, kingdom.pk]),
            "honours": reverse("sns:honours", args=[slug]),
            "game 1": reverse("sns:game", args=[slug, 1]),
        }
        print(f"{'games':>6} {'build s':>8} " + " ".join(f"{n + ' ms':>12} {'q':>3}"
                                                     for n in pages))
        for games in sizes:
            start = time.perf_counter()
            build(games, state)
            built = time.perf_counter() - start
            row = []
            for url in pages.values():
                reset_queries()
                with CaptureQueriesContext(connection) as ctx:
                    assert client.get(url).status_code == 200
                queries = len(ctx.captured_queries)
                row.append(f"{timed(lambda u=url: client.get(u), repeat=5):>12.1f} {queries:>3}")
            print(f"{games:>6} {built:>8.1f} " + " ".join(row))
        print(f"One turn for 8 kingdoms of 60 buildings: {turn_ms():.2f} ms")
        table_pages(Client())


def turn_ms() -> float:
    """One turn's harvest and compulsory phase for 8 kingdoms with 60 buildings each."""
    from campaign.systems.swords_and_stones.rules import econ_harvest as harvest
    from campaign.systems.swords_and_stones.rules import econ_turn as turns
    from campaign.systems.swords_and_stones.rules import economy as eco

    buildings = {"STOCKPILE": 1, "TAVERN": 8, "TOWNCENTER": 4, "TEMPLE": 6, "ARENA": 3,
                 "COMMUNE": 8, "FARM": 30}
    dice = [(n % 5) + 2 for n in range(30)]

    def turn() -> None:
        for k in range(8):
            stock = eco.Stockpile(food=20 + k)
            crops = harvest.farm_harvest(dice)
            stock = eco.book(stock, crops.lines)
            turns.compulsory_phase(stock, buildings)

    return timed(turn, repeat=20)


def table_pages(client: object) -> None:
    """A kingdom's Stockpile page at turn 1 and at turn 40 of a game: time and queries."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from campaign.systems.swords_and_stones import services as sns
    from campaign.systems.swords_and_stones import table
    from campaign.systems.swords_and_stones.models import Game, Participant
    from campaign.systems.swords_and_stones.state import load, pid

    campaign = Game.objects.order_by("-number").first().campaign  # type: ignore[union-attr]
    gm = campaign.created_by
    st = load(campaign)
    turn = st.kingdom(sns.next_challenger(st))
    rival = next(k for k in st.kingdoms.values() if k.pk != turn.pk)  # type: ignore[union-attr]
    target = next(iter(st.map.owned_by(pid(rival))))
    game = sns.challenge(campaign, gm, turn, target, rival)  # type: ignore[arg-type]
    sns.begin_game(campaign, gm, game)
    url = reverse("sns:table", args=[campaign.slug, game.number, turn.pk])  # type: ignore[union-attr]
    client.force_login(gm)  # type: ignore[attr-defined]
    for stop in (1, 40):
        while Participant.objects.get(game=game, kingdom=turn).table["turn"] < stop:
            table.farm_harvest(campaign, gm, game, turn, [2, 3, 4])  # type: ignore[arg-type]
            table.next_phase(campaign, gm, game, turn)  # type: ignore[arg-type]
            table.compulsory(campaign, gm, game, turn, {"STOCKPILE": 1})  # type: ignore[arg-type]
            for _ in range(3):
                table.next_phase(campaign, gm, game, turn)  # type: ignore[arg-type]
        reset_queries()
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200  # type: ignore[attr-defined]
        ms = timed(lambda: client.get(url), repeat=5)  # type: ignore[attr-defined]
        print(f"Stockpile page at turn {stop}: {ms:.1f} ms, {len(ctx.captured_queries)} queries")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [50, 200])
