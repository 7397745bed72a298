"""War of Kings options and the v0.6 preview set (WOK-V06-*, WOK-AMB-14, WOK-AMB-30)."""

from __future__ import annotations

import pytest

from campaign.rules.options import OptionError
from campaign.systems.war_of_kings.rules import achievements as ach
from campaign.systems.war_of_kings.rules import battle as bt
from campaign.systems.war_of_kings.rules import construction as con
from campaign.systems.war_of_kings.rules.board import (
    COMPONENTS,
    MALADOR,
    TOWN,
    VILLAGE,
    Army,
    RuleViolation,
    Stock,
    TerritoryDef,
    make_map,
)
from campaign.systems.war_of_kings.rules.options import (
    DEFAULTS,
    V06,
    V06_COMPONENTS,
    Options,
    as_dict,
    options_from,
    v06_options,
)
from tests.wok.factory import RICH, hold, world


def test_options_from_stored_json_defaults_and_refusals() -> None:
    """WOK-VAR-6: stored options fill in defaults; bad values are refused by name."""
    assert options_from({}) == DEFAULTS
    assert options_from({"ap_target": 15, "merchant_ap": 2}) == Options(ap_target=15,
                                                                         merchant_ap=2)
    with pytest.raises(OptionError, match="Master Merchant AP: must be at most 2"):
        options_from({"merchant_ap": 3})
    with pytest.raises(OptionError, match="Unknown option"):
        options_from({"dragons": True})
    assert options_from(as_dict(v06_options())) == v06_options()


def test_v06_preset_changes_exactly_the_preview_numbers() -> None:
    """WOK-V06-13 and the rest of §31: the preset flips the preview's switches and nothing
    else."""
    changed = {k for k, v in as_dict(v06_options()).items() if as_dict(DEFAULTS)[k] != v}
    assert changed == {"merchant_ap", "warlord_ap", "prices", "militia", "raze_loot", "plague",
                       "exploration", "fort_dice_on_counterattack", "foreign_upgrades",
                       "malador_towns", "event_card_trading", "resupply_needs_controlled_chain",
                       "rebellion_to", "forced_march_withdraw"}


def test_wok_v06_1_components() -> None:
    """WOK-V06-1, WOK-COMP-1: 28/28/14 settlements and 42 roads in the preview against
    30/24/12 and 36."""
    preview = (V06_COMPONENTS["villages"], V06_COMPONENTS["towns"], V06_COMPONENTS["cities"],
               V06_COMPONENTS["roads"], V06_COMPONENTS["armies"])
    final = (COMPONENTS["villages"], COMPONENTS["towns"], COMPONENTS["cities"],
             COMPONENTS["roads"], COMPONENTS["armies"])
    assert (preview, final) == ((28, 28, 14, 42, 46), (30, 24, 12, 36, 66))


def test_wok_v06_6_prices() -> None:
    """WOK-V06-6: city 8/4/4/4/2, fortress 4/2/0/0/2, castle 6/2/2/2/6; the rest as v1.01."""
    preview = v06_options()
    assert con.price(con.CITY_ITEM, preview) == Stock(8, 4, 4, 4, 2)
    assert con.price(con.FORTRESS_ITEM, preview) == Stock(4, 2, 0, 0, 2)
    assert con.price(con.CASTLE_ITEM, preview) == Stock(6, 2, 2, 2, 6)
    assert con.price(con.TOWN_ITEM, preview) == con.price(con.TOWN_ITEM) == Stock(6, 4, 4, 4, 1)
    assert con.price(con.CITY_ITEM, Options(prices=V06)) == Stock(8, 4, 4, 4, 2)


def test_wok_v06_12_foreign_upgrades_use_the_other_cultures_pieces() -> None:
    """WOK-V06-12: under v0.6 Red may upgrade a Blue village to a Blue town, unless all Blue
    towns are in use."""
    state = world(["A", "B", "C"], [], {"A": hold("Red", TOWN),
                                        "B": hold("Red", VILLAGE, cult="Blue"),
                                        "C": hold("Blue", TOWN)},
                  capitals={"Red": "A", "Blue": "C"}, stock=RICH)
    with pytest.raises(RuleViolation, match="WOK-SET-8"):
        con.build(state, "Red", con.TOWN_ITEM, "B")
    done = con.build(state, "Red", con.TOWN_ITEM, "B", v06_options())
    assert (done.state.lvl("B"), done.state.holding("B").culture) == (TOWN, "Blue")
    with pytest.raises(RuleViolation, match="all 1 town pieces of the Blue culture"):
        con.build(state, "Red", con.TOWN_ITEM, "B", Options(foreign_upgrades=True, town_cap=1))


def test_wok_v06_13_exclusive_cards_worth_two() -> None:
    """WOK-V06-13: in the preview both exclusive achievements are worth 2 AP."""
    state = world(["A"], [], {"A": hold("Red", TOWN)}, capitals={"Red": "A"})
    holders = ach.Holders(master_merchant="Red")
    assert ach.score(state, "Red", holders, v06_options()).merchant == 2


def test_wok_v06_20_damage_never_changes_superiority() -> None:
    """WOK-V06-20, WOK-BATTLE-6: a wounded army counts as a whole army: 2 damaged attackers
    against 1 fresh defender still get 1 purple die."""
    state = world(["A", "B"], ["A-B"], {"A": hold("Red", TOWN), "B": hold("Blue", VILLAGE)},
                  capitals={"Red": "A", "Blue": "B"},
                  armies=[Army("r1", "Red", "B", 2), Army("r2", "Red", "B", 2),
                          Army("b1", "Blue", "B", 0)])
    dice = bt.dice_for_round(2, 1)
    faces = bt.Rolls(("blank",) * dice.attack, ("blank",) * dice.defense,
                     ("blank",) * dice.counter, ("blank",) * dice.negation)
    result = bt.fight_round(state, "B", ["r1", "r2"], faces)
    assert (result.dice.bonus_att, result.dice.attack) == (1, 5)


def test_wok_amb_14_face_tables_are_configured_not_assumed() -> None:
    """WOK-AMB-14: a configured face table turns rolled numbers into symbols; the table may only
    name battle symbols."""
    table = ("warhammer", "warhammer", "warhammer", "shield", "shield", "flail", "blank",
             "blank")
    assert bt.read_faces(table, [1, 4, 8]) == ("warhammer", "shield", "blank")
    with pytest.raises(RuleViolation, match="faces 1 to 8"):
        bt.read_faces(table, [9])
    with pytest.raises(RuleViolation, match="WOK-AMB-14"):
        bt.read_faces(("crown",), [1])


def test_wok_amb_30_board_geometry_is_checked_data() -> None:
    """WOK-AMB-30, WOK-BOARD-5: a map is data; a border to an unknown territory or a repeated
    code is refused."""
    with pytest.raises(ValueError, match="must join two known territories"):
        make_map([TerritoryDef("A")], [("A", "Z")])
    with pytest.raises(ValueError, match="share a code"):
        make_map([TerritoryDef("A"), TerritoryDef("A")], [])
    assert make_map([TerritoryDef("A"), TerritoryDef("B")], [("A", "B")]).adjacent("B", "A")


def test_wok_cult_4_culture_decides_the_empire() -> None:
    """WOK-CULT-4: the same board with the two settlements of Red's own culture is no Empire."""
    from campaign.systems.war_of_kings.rules.board import CITY

    foreign = world(["A", "B", "C"], [], {"A": hold("Red", CITY),
                                          "B": hold("Red", TOWN, cult=MALADOR),
                                          "C": hold("Red", VILLAGE, cult="Blue")},
                    capitals={"Red": "A"})
    own = world(["A", "B", "C"], [], {"A": hold("Red", CITY), "B": hold("Red", TOWN),
                                      "C": hold("Red", VILLAGE)}, capitals={"Red": "A"})
    assert (ach.empire(foreign, "Red"), ach.empire(own, "Red")) == (True, False)
