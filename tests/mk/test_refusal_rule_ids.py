"""Each refusal of a winter or summer action cites its own rule (MK-TITHE-1, MK-TITHE-3/5/6,
MK-AMB-32, MK-BUY-1/3, MK-SETTLE-1, MK-SHIPYARD-2, MK-RECRUIT-1/5, MK-FEED-1, MK-DEPLOY-4,
MK-ORD-1/2, MK-SHIP-2, MK-RES-1, MK-BSEL-1, MK-RESULT-3, MK-AMB-6, MK-SETUP-3..5).

One row per refusal message: the campaign is put where the action makes sense (the access
table's ``prep_*``), a persona sends the form through the web, and the message of the 409 must
cite exactly the rule IDs of the row, each of which the digest defines. A tithe out of turn
once cited the purchase rule (MK-BUY-1); it cites the tithe's own (MK-TITHE-1).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from django.urls import reverse

from ledger.models import Balance
from tests.attack.arena import dump
from tests.mk import test_mk_access as t
from tests.mk.test_mk_access import People, people  # noqa: F401
from tests.mk.test_summer_scene import army_key, campaign, scene  # noqa: F401

DIGEST = Path("/work/shared/rules/mighty-kingdoms.md")
RULE_ID = re.compile(r"MK-[A-Z]+-\d+(?:\.\.\d+)?")

Prepared = tuple[list[Any], dict[str, Any]]


@dataclass(frozen=True)
class Refusal:
    case: str
    name: str
    persona: str
    prepare: Callable[[People], Prepared]
    rules: tuple[str, ...]
    text: str  # a part of the message, so the row is known to hit the refusal it means


def _stock(p: People, gold: int, food: int) -> None:
    s = p.scene
    Balance.objects.update_or_create(kingdom=s.red, resource="gold", defaults={"amount": gold})
    Balance.objects.update_or_create(kingdom=s.red, resource="food", defaults={"amount": food})


def _with(prepare: Callable[[People], Prepared], then: Callable[[People], Any] | None = None,
          **data: Any) -> Callable[[People], Prepared]:
    """``prepare``, then ``then`` (more state), with the form's fields replaced by ``data``
    (a callable value is called with the People)."""
    def run(p: People) -> Prepared:
        args, form = prepare(p)
        if then is not None:
            then(p)
        values = {k: (v(p) if callable(v) else v) for k, v in data.items()}
        return args, {**form, **values}
    return run


def _ws() -> Any:
    from campaign.systems.mighty_kingdoms import winter_services

    return winter_services


def _both_pass(sub: str) -> Callable[[People], None]:
    def run(p: People) -> None:
        s = p.scene
        _ws().pass_turn(s.red, s.gm, sub)
        _ws().pass_turn(s.blue, s.gm, sub)
    return run


def _tithed_blue(p: People) -> None:
    s = p.scene
    _ws().give_tithe(s.red, s.gm, s.blue.pk, 1, 0)
    _ws().pass_turn(s.blue, s.gm, "tithe")


def _fed(p: People) -> None:
    s = p.scene
    _ws().feed(s.red, s.gm, [1, 2])


def _simple_battles(p: People) -> None:
    t._options(p.scene, battle_mode="simple")


def _ordered(p: People) -> None:
    from campaign.systems.mighty_kingdoms import summer

    s = p.scene
    summer.give_order(s.red, s.player, army_key(s.red, 1), "defend", None)


def _red(p: People) -> str:
    return str(p.scene.red.pk)


def _far_kingdom(p: People) -> str:
    from campaign.models import Kingdom
    from tests.conftest import make_campaign, make_user

    elsewhere = make_campaign(make_user("stranger"), slug="elsewhere", seed=None, width=3,
                              height=3)
    return str(Kingdom.objects.create(campaign=elsewhere, name="Far").pk)


REFUSALS = [
    # Winter C) 1. Tithe.
    Refusal("tithe out of turn", "mk:winter_tithe", "other", t.prep_tithe, ("MK-TITHE-1",),
            "It is Red's turn"),
    Refusal("tithe pass out of turn", "mk:winter_pass", "other", t.prep_pass, ("MK-TITHE-1",),
            "It is Red's turn"),
    Refusal("tithe after everyone passed", "mk:winter_tithe", "player",
            _with(t.prep_tithe, _both_pass("tithe")), ("MK-TITHE-5",),
            "This sub-phase is over"),
    Refusal("tithe to oneself", "mk:winter_tithe", "player", _with(t.prep_tithe, receiver=_red),
            ("MK-TITHE-1",), "A tithe goes to another player"),
    Refusal("tithe of 2 gold", "mk:winter_tithe", "player", _with(t.prep_tithe, gold="2"),
            ("MK-TITHE-1",), "at most 1 gold and at most 1 food"),
    Refusal("tithe of nothing", "mk:winter_tithe", "player", _with(t.prep_tithe, gold="0"),
            ("MK-AMB-32",), "A tithe of nothing is a pass"),
    Refusal("tithe to another campaign's kingdom", "mk:winter_tithe", "player",
            _with(t.prep_tithe, receiver=_far_kingdom), ("MK-AMB-32",),
            "is not a player in this campaign"),
    Refusal("second tithe to one player", "mk:winter_tithe", "player",
            _with(t.prep_tithe, _tithed_blue), ("MK-TITHE-3",), "once per player"),
    Refusal("tithe beyond the stock", "mk:winter_tithe", "player",
            _with(t.prep_tithe, lambda p: _stock(p, 0, 0)), ("MK-TITHE-6",),
            "you can only give what you have now"),
    # Winter C) 2. Build and recruit.
    Refusal("purchase out of turn", "mk:winter_buy", "other", t.prep_buy, ("MK-BUY-1",),
            "It is Red's turn"),
    Refusal("purchase pass out of turn", "mk:winter_pass", "other",
            _with(t.prep_buy, sub="buy"), ("MK-BUY-1",), "It is Red's turn"),
    Refusal("purchase after everyone passed", "mk:winter_buy", "player",
            _with(t.prep_buy, _both_pass("buy")), ("MK-BUY-1",), "This sub-phase is over"),
    Refusal("settlement outside one's tiles", "mk:winter_buy", "player",
            _with(t.prep_buy, tile="0101"), ("MK-SETTLE-1",), "You do not control 0101"),
    Refusal("purchase beyond the gold", "mk:winter_buy", "player",
            _with(t.prep_buy, lambda p: _stock(p, 0, 0)), ("MK-BUY-3",), "This costs"),
    Refusal("ship outside a city", "mk:winter_buy", "player",
            _with(t.prep_buy, kind="ship", tile="0402"), ("MK-SHIPYARD-2",),
            "0402 is not one of your cities"),
    Refusal("recruit outside a fortress", "mk:winter_buy", "player",
            _with(t.prep_buy, kind="recruit", tile="0402"), ("MK-RECRUIT-1",),
            "0402 is not one of your fortresses"),
    Refusal("allied army in Simple battles", "mk:winter_buy", "player",
            _with(t.prep_buy, _simple_battles, kind="recruit", tile="0403", allied="1"),
            ("MK-RECRUIT-5",), "Allied armies are Kings of War army lists"),
    Refusal("quest out of turn", "mk:quest", "other", t.prep_quest, ("MK-BUY-1",),
            "It is Red's turn"),
    # Winter C) 3. Feed and D) Deploy.
    Refusal("feeding another's army", "mk:winter_feed", "other", t.prep_feed, ("MK-FEED-1",),
            "Army #2 is not one of yours"),
    Refusal("feeding beyond the food", "mk:winter_feed", "player",
            _with(t.prep_feed, lambda p: _stock(p, 0, 1)), ("MK-FEED-1",),
            "you can feed at most 1 army"),
    Refusal("feeding twice", "mk:winter_feed", "player", _with(t.prep_feed, _fed),
            ("MK-FEED-1",), "has already fed its armies this winter"),
    Refusal("deploying out of turn", "mk:winter_deploy", "other", t.prep_deploy,
            ("MK-DEPLOY-4",), "It is Red's turn to deploy"),
    # Summer A) Orders and ships, B) Resolution.
    Refusal("order for another's army", "mk:summer_order", "other", t.prep_order_given,
            ("MK-ORD-1",), "is not yours"),
    Refusal("second order for one army", "mk:summer_order", "player",
            _with(t.prep_order_given, _ordered), ("MK-ORD-2",), "already has its order"),
    Refusal("boarding another's army", "mk:summer_pair", "other", t.prep_pair, ("MK-SHIP-2",),
            "Red army #1 is not yours"),
    Refusal("leaving another's ship", "mk:summer_unpair", "other", t.prep_unpair,
            ("MK-SHIP-2",), "Red ship #1 is not yours"),
    Refusal("resolving another's order", "mk:summer_resolve", "other", t.prep_resolve,
            ("MK-RES-1",), "That order belongs to another kingdom"),
    # Summer C) Battle.
    Refusal("battle chosen out of turn", "mk:summer_battle", "other", t.prep_choose_battle,
            ("MK-BSEL-1",), "It is Red's turn"),
    Refusal("winner's move by the loser", "mk:summer_winner_move", "other", t.prep_winner_move,
            ("MK-RESULT-3",), "Blue did not win this battle"),
    Refusal("slaughtered token chosen by the winner", "mk:battle_slaughter", "player",
            t.prep_slaughter, ("MK-AMB-6",), "Blue chooses which of its tokens is lost"),
    # Setup.
    Refusal("capital chosen out of turn", "mk:setup_capital", "other", t.prep_capital,
            ("MK-SETUP-3..5",), "setup goes in player order"),
]


def _defined(rule: str) -> bool:
    """Whether the digest defines ``rule`` (each ID of a range such as MK-SETUP-3..5)."""
    text = DIGEST.read_text(encoding="utf-8")
    family, _, numbers = rule.rpartition("-")
    first, _, last = numbers.partition("..")
    return all(re.search(rf"\b{family}-{n}\b", text)
               for n in range(int(first), int(last or first) + 1))


def _message(response: Any) -> str:
    """The refusal's message: htmx gets it alone, as one paragraph."""
    body = response.content.decode()
    match = re.fullmatch(r'<p class="error" role="alert">(.*)</p>', body, re.S)
    assert match is not None, body[-400:]
    return match.group(1).replace("&#x27;", "'").replace("&quot;", '"')


@pytest.mark.parametrize("r", REFUSALS, ids=[r.case for r in REFUSALS])
def test_each_refusal_cites_its_own_rule(people: People, r: Refusal) -> None:
    args, data = r.prepare(people)
    url = reverse(r.name, args=[people.scene.campaign.slug, *args])
    before = dump()
    response = people.client(r.persona).post(url, data, headers={"HX-Request": "true"})
    message = _message(response)
    assert response.status_code == 409, message
    assert r.text in message
    assert tuple(RULE_ID.findall(message)) == r.rules, message
    assert all(_defined(rule) for rule in r.rules)
    assert dump() == before


def test_the_table_has_one_row_per_refusal() -> None:
    assert len({r.case for r in REFUSALS}) == len(REFUSALS)
    assert len({(r.name, r.persona, r.text, r.rules) for r in REFUSALS}) == len(REFUSALS)


SOURCES = sorted(Path("campaign/systems/mighty_kingdoms").rglob("*.py"))


@pytest.mark.parametrize("source", SOURCES, ids=[str(p) for p in SOURCES])
def test_every_rule_id_a_message_cites_is_in_the_digest(source: Path) -> None:
    """A typo in a cited ID (MK-TITH-1, MK-BUY-11) would send players to a rule that does not
    exist: every ID written in the Mighty Kingdoms code is one the digest defines."""
    cited = set(RULE_ID.findall(source.read_text(encoding="utf-8")))
    assert sorted(rule for rule in cited if not _defined(rule)) == []
