"""The battle choices of a tile kept in the process (``summer_battles.tile_choices``): the same
answer as the rules give (MK-BSEL-1/2, MK-AMB-40, MK-BTYPE-1/2), and a tile whose forces change
(a token turned on its side, another kingdom's token arriving, a new controller) worked out
again, never answered from what its old forces made."""

from __future__ import annotations

from campaign.systems.mighty_kingdoms import summer_battles
from campaign.systems.mighty_kingdoms.rules import battles as mkb


def rules_answer(tf: mkb.TileForces) -> list[tuple[object, list[tuple[object, mkb.BattleType]]]]:
    return [(chooser, [(opp, mkb.battle_type(tf, chooser, opp))
                       for opp in mkb.legal_opponents(tf, chooser)])
            for chooser in mkb.choosers_in_tile(tf)]


def kept(tf: mkb.TileForces) -> list[tuple[object, list[tuple[object, mkb.BattleType]]]]:
    return [(chooser, list(options)) for chooser, options in summer_battles.tile_choices(tf)]


def test_kept_choices_follow_the_forces() -> None:
    red, blue, ship = (mkb.Token("red-1", 1), mkb.Token("blue-1", 2),
                       mkb.Token("blue-s1", 2, mkb.TokenKind.SHIP))
    tf = mkb.TileForces("0504", 1, (red, blue))
    assert kept(tf) == rules_answer(tf)
    assert kept(tf) == rules_answer(tf)  # answered from what was kept
    # MK-AMB-40: Red on its side may no longer choose; the kept answer is not reused.
    fallen = mkb.TileForces("0504", 1, (mkb.Token("red-1", 1, upright=False), blue))
    assert kept(fallen) == rules_answer(fallen) != rules_answer(tf)
    # MK-BSEL-2: a third kingdom holding the tile becomes the only opponent.
    gold = mkb.Token("gold-1", 3)
    held = mkb.TileForces("0504", 3, (red, blue, gold))
    assert kept(held) == rules_answer(held)
    assert [opp for opp, _ in dict(kept(held))[1]] == [3]
    # MK-BTYPE-1: a ship arriving changes the battle's kind only for the new forces.
    at_sea = mkb.TileForces("0504", None, (mkb.Token("red-s1", 1, mkb.TokenKind.SHIP), ship))
    assert kept(at_sea) == rules_answer(at_sea)
    assert dict(kept(at_sea))[1][0][1].kind is mkb.BattleKind.NAVAL
    assert kept(tf) == rules_answer(tf)


def test_kept_choices_are_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(summer_battles, "CHOICES_KEPT", 3)
    monkeypatch.setattr(summer_battles, "_CHOICES", {})
    tiles = [mkb.TileForces(f"05{n:02}", None, (mkb.Token("a", 1), mkb.Token("b", 2)))
             for n in range(10)]
    for tf in tiles:
        assert kept(tf) == rules_answer(tf)
        assert len(summer_battles._CHOICES) <= 3
    assert list(summer_battles._CHOICES) == tiles[-3:]
