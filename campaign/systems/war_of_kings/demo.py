"""War of Kings' demo: four kingdoms on the preset board, played through the services to round 6.

Alice (Red), Bob (Blue), Carol (Green) and Dave (Black) sit at crests 3 to 6 (the seating table's
four-player columns, WOK-SETUP-10). Five rounds are played with fixed dice: each kingdom builds
from its own list of wishes, sends its armies into unexplored land and explores it; in round 5
an army walks into an empty territory of an enemy's road chain if one is in reach (WOK-AMB-31).
In round 6 the kingdoms build, the Marauders seize a link of a kingdom's road chain (recorded
by the GM), which cuts a settlement off from its capital (WOK-ECON-8); in the lead player's turn
the lead player draws an Event Card (Shield Wall, kept secret), the next player plays Bountiful
Harvest (3 wheat, booked by the GM), a Marauder card brings two Marauder armies there and the
lead player's army attacks: the game waits in that Battle Resolution Phase with the offer of
battle pending, armies in the field, roads, fortifications and a close race to 13 AP.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from campaign import services as core
from campaign.demo import DemoCampaign
from campaign.models import Campaign, Kingdom, Membership, Role
from campaign.systems.war_of_kings import services
from campaign.systems.war_of_kings import state as st
from campaign.systems.war_of_kings.rules import board as wb
from campaign.systems.war_of_kings.rules import construction
from campaign.systems.war_of_kings.rules.armies import destinations
from campaign.systems.war_of_kings.rules.boards import hex_realm
from campaign.systems.war_of_kings.rules.economy import GOLD_BY_LEVEL, gold_generation, gold_network

SLUG = "war-of-kings-demo"

PLAYERS = (("alice", "Red", "#b3261e"), ("bob", "Blue", "#1f5fb4"),
           ("carol", "Green", "#2e7d32"), ("dave", "Black", "#303030"))

# What each kingdom builds first, in order, when it can (the rest of its gold stays in the
# stockpile): Red fortifies, Blue trades along roads, Green spreads villages, Black builds up.
WISHES = {
    "Red": ("walls", "town", "fortress", "village", "road", "army", "city", "castle"),
    "Blue": ("village", "road", "town", "city", "walls"),
    "Green": ("village", "town", "road", "walls", "city"),
    "Black": ("town", "village", "army", "city", "road", "walls"),
}

# The Resource Dice of rounds 1 to 6, and the Table 9 row read for each exploration in turn.
DICE = (("red", "green", "blue"), ("yellow", "red", "green"), ("green", "blue", "red"),
        ("blue", "yellow", "red"), ("red", "red", "green"), ("green", "yellow", "blue"))
EXPLORATIONS = (("green", 3), ("blue", 2), ("green", 3), ("blue", 1), ("green", 2),
                ("blue", 2))


def build(users: dict[str, User]) -> Campaign:
    gm = users["gm"]
    campaign = core.create_campaign(gm, name="War of Kings: the Hexagon Realm", slug=SLUG,
                                    rule_system="war-of-kings",
                                    description="Four kingdoms in round 6 of a race to 13 AP.")
    kingdoms: dict[str, Kingdom] = {}
    for username, name, colour in PLAYERS:
        membership = Membership.objects.create(campaign=campaign, user=users[username],
                                               role=Role.PLAYER)
        kingdoms[name] = core.create_kingdom(campaign, gm, name=name, colour=colour,
                                             player=membership)
    Membership.objects.create(campaign=campaign, user=users["olga"], role=Role.OBSERVER)
    crests = hex_realm().crests[2:6]
    services.start_game(campaign, gm, [services.SeatChoice(kingdoms[n], c.capital, c.front)
                                       for (_, n, _), c in zip(PLAYERS, crests, strict=True)],
                        drawn=1)
    explorations = iter(EXPLORATIONS * 10)
    for round_ in range(1, 7):
        services.advance(campaign, gm)  # receive gold
        _settle(campaign, gm, kingdoms)
        services.advance(campaign, gm)  # support checked
        services.advance(campaign, gm, dice=list(DICE[round_ - 1]))
        _build(campaign, users, kingdoms)
        if round_ == 6:
            _battle_in_round_six(campaign, gm, users, _marauders_cut_a_chain(campaign, gm))
            break
        services.advance(campaign, gm)  # construction closed, first turn
        for _turn in range(4):
            _turn_of(campaign, gm, users, kingdoms, explorations, round_)
        services.advance(campaign, gm)  # end of round
    return campaign


def _marauders_cut_a_chain(campaign: Campaign, gm: User) -> str | None:
    """The GM records Marauders seizing an empty link of a road chain (WOK-TERR-1): the first
    territory whose loss cuts another settlement off from its capital."""
    from dataclasses import replace

    state = _load(campaign).state
    for name in state.kingdoms:
        gold = gold_generation(state, name)
        for code in state.controlled(name):
            if code == state.capital(name) or state.armies_in(code):
                continue
            seized = state.with_holding(code, replace(state.holding(code), controller=wb.MALADOR))
            if gold_generation(seized, name) < gold - GOLD_BY_LEVEL[state.lvl(code)]:
                services.edit_territory(campaign, gm, code, {"malador": True})
                return code
    return None


def _battle_in_round_six(campaign: Campaign, gm: User, users: dict[str, User],
                         seized: str | None) -> None:
    """The first turn of round 6: the Event Die draws a card; a Marauder card brings two
    Marauder armies into the territory they seized (WOK-MAL-12); the lead player's army moves
    where its arrival is an offer of battle; the game waits in the Battle Resolution Phase with
    the offer pending."""
    from campaign.systems.war_of_kings import battles
    from campaign.systems.war_of_kings.rules.armies import move as move_rule

    services.advance(campaign, gm)  # construction closed: the lead player's Event Die
    state = _load(campaign).state
    name = state.active or ""
    user = users[next(u for u, n, _ in PLAYERS if n == name)]
    battles.event_die(campaign, user, "flag", "red")
    _cards_at_the_table(campaign, gm, user, name)
    if seized is not None:
        battles.place_marauders(campaign, gm, seized, 2)
    services.advance(campaign, gm)  # movement
    state = _load(campaign).state
    for army in (a for a in state.armies_of(name) if a.ready):
        for target in sorted(destinations(state, army.id)):
            if move_rule(state, army.id, target)[1].outcome == "battle":
                services.move(campaign, user, int(army.id[1:]), target)
                break
        else:
            continue
        break
    services.advance(campaign, gm)  # exploration
    services.advance(campaign, gm)  # battle resolution


def _cards_at_the_table(campaign: Campaign, gm: User, user: User, name: str) -> None:
    """WOK-EVENT-4, WOK-EVENT-5: the card the lead player just drew goes into their secret
    hand; the next player plays a harvest card it held and the GM books its effect."""
    from campaign.systems.war_of_kings import battles, cards
    from campaign.systems.war_of_kings.models import Card

    kingdoms = {k.name: k for k in Kingdom.objects.filter(campaign=campaign)}
    battles.take_card(campaign, user, kingdoms[name], "Shield Wall",
                      "one more blue bonus die on both defence rolls of one round")
    state = _load(campaign).state
    order = [k for k in state.seats if k in state.kingdoms]
    other = kingdoms[order[(order.index(name) + 1) % len(order)]]
    battles.take_card(campaign, gm, other, "Bountiful Harvest", "3 wheat into the stockpile")
    card = Card.objects.get(campaign=campaign, holder=other, name="Bountiful Harvest")
    battles.play_card(campaign, gm, other, card.pk)
    cards.adjust_stockpile(campaign, gm, other, {"wheat": 3}, "Bountiful Harvest",
                           "the card's 3 wheat")


def _settle(campaign: Campaign, gm: User, kingdoms: dict[str, Kingdom]) -> None:
    from campaign.systems.war_of_kings.rules.armies import support

    loaded = _load(campaign)
    for name in loaded.state.kingdoms:
        check = support(loaded.state, name)
        if check.unsupported:
            extra = [int(a[1:]) for a in check.choosable][-check.unsupported:]
            services.settle(campaign, gm, kingdoms[name], extra, [])


def _build(campaign: Campaign, users: dict[str, User], kingdoms: dict[str, Kingdom]) -> None:
    """Each kingdom builds the first of its wishes it may and can afford, again and again; when
    nothing fits it trades its largest pile at the market once (WOK-MKT-1) and tries again."""
    by_name = {name: users[username] for username, name, _ in PLAYERS}
    for name, wishes in WISHES.items():
        traded = 0
        while True:
            loaded = _load(campaign)
            allowed = [b for b in construction.available_builds(loaded.state, name,
                                                                loaded.options) if b.allowed]
            choice = next((b for wish in wishes for b in allowed if b.item == wish), None)
            if choice is not None:
                services.build(campaign, by_name[name], kingdoms[name], choice.item,
                               choice.where)
                continue
            stock = loaded.state.stock(name)
            pile = max(wb.RESOURCES, key=stock.amount)
            short = min((r for r in wb.RESOURCES if r != pile), key=stock.amount)
            if traded >= 2 or stock.amount(pile) < 8:
                break
            services.trade(campaign, by_name[name], kingdoms[name], pile, short, 1)
            traded += 1


def _turn_of(campaign: Campaign, gm: User, users: dict[str, User],
             kingdoms: dict[str, Kingdom], explorations: object, round_: int) -> None:
    services.advance(campaign, gm)  # Event Die
    loaded = _load(campaign)
    name = loaded.state.active
    user = users[next(u for u, n, _ in PLAYERS if n == name)]
    entered = []
    for army in loaded.state.armies_of(name or ""):
        state = _load(campaign).state
        paths = destinations(state, army.id)
        target = _target(state, name or "", paths, round_)
        if target is not None:
            services.move(campaign, user, int(army.id[1:]), target)
            if state.ctrl(target) is None:
                entered.append(target)
    services.advance(campaign, gm)  # Movement closed
    for code in dict.fromkeys(entered):
        state = _load(campaign).state
        if state.ctrl(code) is not None or not state.armies_in(code, name):
            continue
        colour, row = next(explorations)  # type: ignore[call-overload]
        roads = []
        if (colour, row) in (("blue", 1), ("green", 2)):
            roads = sorted(t for t in state.map.neighbours(code)
                           if state.map.territory(t).playable)[:1 if row == 1 else 2]
        services.explore(campaign, user, code, colour, row, road_to=roads)
    for _phase in range(3):  # Exploration, Battle Resolution, Supply
        services.advance(campaign, gm)


def _target(state: wb.GameState, name: str, paths: dict[str, tuple[str, ...]],
            round_: int) -> str | None:
    """Unexplored land two steps away first; in round 5 an army walks into an empty enemy
    territory that links the enemy's road chain, if it can reach one."""
    if round_ == 5:
        raid = [t for t in paths if state.ctrl(t) not in (None, name, wb.MALADOR)
                and not state.lvl(t) and not state.armies_in(t)
                and t in gold_network(state, state.ctrl(t) or "")
                and t != state.capital(state.ctrl(t) or "")]
        return sorted(raid)[0] if raid else None
    if round_ >= 4:
        return None
    free = sorted(t for t in paths if state.ctrl(t) is None
                  and state.map.territory(t).playable and len(paths[t]) == 2)
    return free[0] if free else None


def _load(campaign: Campaign) -> st.Loaded:
    campaign.refresh_from_db()
    return st.load(campaign)


CAMPAIGNS = (DemoCampaign(SLUG, build),)
