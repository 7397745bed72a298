"""War of Kings: achievement points, the two exclusive cards and the race to victory.

Settlement AP, Empire and Heavily Fortified are read from the board (WOK-ACH-1, -3, -4). Master
Merchant and Warlord of Arowyth have one holder each, carried in :class:`Holders` from round to
round and updated at the end-of-round check (WOK-ACH-5, -6, WOK-AMB-3). :func:`end_of_round`
tallies everyone, updates the holders and decides the winner (WOK-WIN-1, -2);
:func:`next_achievement` says what each kingdom still lacks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from campaign.systems.war_of_kings.rules.board import (
    CASTLE,
    CITY,
    FORTRESS,
    NO_SETTLEMENT,
    SETTLEMENT_NAMES,
    TOWN,
    VILLAGE,
    WALLS,
    GameState,
    Stock,
    who,
)
from campaign.systems.war_of_kings.rules.economy import gold_generation
from campaign.systems.war_of_kings.rules.options import DEFAULTS, HOLDER_KEEPS, STRICT, Options

EMPIRE_AP = 2
FORTIFIED_AP = 2
FORTIFIED_THRESHOLD = 5
MERCHANT_THRESHOLD = 24
WARLORD_THRESHOLD = 7
EMPIRE_MIN_FOREIGN = 2
EMPIRE_MIN_FOREIGN_LEVELS = 3

MASTER_MERCHANT = "Master Merchant"
WARLORD = "Warlord of Arowyth"
EMPIRE = "Establishing an Empire"
HEAVILY_FORTIFIED = "Heavily Fortified"


def settlement_ap(state: GameState, kingdom: str) -> int:
    """WOK-ACH-1: 1 / 2 / 3 AP for each village / town / city the kingdom controls, of any
    culture (WOK-CULT-8). Counted once per state."""
    key = ("settlement_ap", kingdom)
    if key not in state.memo:
        holdings = state.holdings
        state.memo[key] = sum(holdings[code].level for code in state.controlled(kingdom))
    return state.memo[key]  # type: ignore[return-value]


def foreign_settlements(state: GameState, kingdom: str) -> tuple[str, ...]:
    """``F(k)`` of WOK-ACH-3: controlled territories whose settlement is of another culture
    (the Malador's included), the capital too (WOK-AMB-5)."""
    holdings = state.holdings  # every controlled territory is on the map and held
    return tuple(code for code in state.controlled(kingdom)
                 if holdings[code].level and holdings[code].culture != kingdom)


@dataclass(frozen=True)
class EmpireCheck:
    """The three Empire conditions, each with where the kingdom stands (WOK-ACH-3)."""

    capital_city: bool
    foreign: int
    foreign_levels: int

    @property
    def held(self) -> bool:
        return (self.capital_city and self.foreign >= EMPIRE_MIN_FOREIGN
                and self.foreign_levels >= EMPIRE_MIN_FOREIGN_LEVELS)


def empire_check(state: GameState, kingdom: str) -> EmpireCheck:
    """WOK-ACH-3, WOK-CAP-4, WOK-AMB-5: a city of any culture in the kingdom's own controlled
    capital, and at least two foreign settlements with at least 3 levels between them. Checked
    once per state."""
    key = ("empire", kingdom)
    if key not in state.memo:
        capital = state.capital(kingdom)
        capital_city = state.ctrl(capital) == kingdom and state.lvl(capital) == CITY
        foreign = foreign_settlements(state, kingdom)
        holdings = state.holdings
        state.memo[key] = EmpireCheck(capital_city, len(foreign),
                                      sum(holdings[t].level for t in foreign))
    return state.memo[key]  # type: ignore[return-value]


def empire(state: GameState, kingdom: str) -> bool:
    """WOK-ACH-3: any number of kingdoms may hold an Empire at once."""
    return empire_check(state, kingdom).held


def fort_levels(state: GameState, kingdom: str) -> int:
    """``FortLevels(k)`` of WOK-ACH-4: walls 1, fortress 2, castle 3 over controlled
    territories (counted once per state)."""
    key = ("fort_levels", kingdom)
    if key not in state.memo:
        holdings = state.holdings
        state.memo[key] = sum(holdings[code].fort for code in state.controlled(kingdom))
    return state.memo[key]  # type: ignore[return-value]


def heavily_fortified(state: GameState, kingdom: str) -> bool:
    """WOK-ACH-4: at least 5 fortification levels; not exclusive."""
    return fort_levels(state, kingdom) >= FORTIFIED_THRESHOLD


def territory_count(state: GameState, kingdom: str) -> int:
    """WOK-ACH-6: territories controlled, with or without a settlement (the winter centre can
    never be controlled)."""
    return len(state.controlled(kingdom))


# --- the exclusive cards ---------------------------------------------------------------------

@dataclass(frozen=True)
class Holders:
    """Who holds Master Merchant and Warlord of Arowyth (``None``: the card is in the supply)."""

    master_merchant: str | None = None
    warlord: str | None = None


def update_exclusive(holder: str | None, values: Mapping[str, int], threshold: int,
                     options: Options = DEFAULTS) -> str | None:
    """WOK-ACH-5, WOK-AMB-27: the holder below the threshold loses the card first; then a single
    player strictly above the holder takes it, and a tie keeps it with the holder. Several
    challengers tied above the holder: the card goes back to the supply (WOK-AMB-4), or stays
    with the holder under ``tied_challengers == "holder_keeps"``. Without a holder, a single
    player on top at or above the threshold takes it; a tie awards nobody."""
    if holder is not None and values.get(holder, 0) < threshold:
        holder = None
    if holder is not None:
        challengers = [p for p, v in values.items() if p != holder and v > values[holder]]
        if not challengers:
            return holder
        top = max(values[p] for p in challengers)
        best = [p for p in challengers if values[p] == top]
        if len(best) == 1:
            return best[0]
        return holder if options.tied_challengers == HOLDER_KEEPS else None
    eligible = [p for p, v in values.items() if v >= threshold]
    if not eligible:
        return None
    top = max(values[p] for p in eligible)
    best = [p for p in eligible if values[p] == top]
    return best[0] if len(best) == 1 else None


def _merchant_table(state: GameState) -> Mapping[str, int]:
    """:func:`merchant_values` as kept with the state: read it, never change it."""
    key = ("merchant_values",)
    if key not in state.memo:
        state.memo[key] = {k: gold_generation(state, k) for k in state.kingdoms}
    return state.memo[key]  # type: ignore[return-value]


def _warlord_table(state: GameState) -> Mapping[str, int]:
    """:func:`warlord_values` as kept with the state: read it, never change it."""
    key = ("warlord_values",)
    if key not in state.memo:
        state.memo[key] = {k: territory_count(state, k) for k in state.kingdoms}
    return state.memo[key]  # type: ignore[return-value]


def merchant_values(state: GameState) -> dict[str, int]:
    """WOK-ACH-5, WOK-AMB-2: the full gold generation of every active kingdom (worked out once
    per state; each caller gets its own copy)."""
    return dict(_merchant_table(state))


def warlord_values(state: GameState) -> dict[str, int]:
    """WOK-ACH-6: territories controlled by every active kingdom (worked out once per state;
    each caller gets its own copy)."""
    return dict(_warlord_table(state))


def strict_losses(state: GameState, holders: Holders, options: Options = DEFAULTS) -> Holders:
    """WOK-AMB-3, strict timing: after any recorded change, a holder below the threshold loses
    the card at once. At the default end-of-round timing nothing changes here."""
    if options.exclusive_timing != STRICT:
        return holders
    merchant, warlord = holders.master_merchant, holders.warlord
    if merchant is not None and _merchant_table(state).get(merchant, 0) < MERCHANT_THRESHOLD:
        merchant = None
    if warlord is not None and _warlord_table(state).get(warlord, 0) < WARLORD_THRESHOLD:
        warlord = None
    return Holders(merchant, warlord)


def update_holders(state: GameState, holders: Holders, options: Options = DEFAULTS) -> Holders:
    """WOK-ACH-5, WOK-ACH-6 at the end-of-round check; a holder who is eliminated or forfeits
    returns the card (WOK-AMB-19, WOK-AMB-20)."""
    active = set(state.kingdoms)
    merchant = holders.master_merchant if holders.master_merchant in active else None
    warlord = holders.warlord if holders.warlord in active else None
    return Holders(
        update_exclusive(merchant, _merchant_table(state), MERCHANT_THRESHOLD, options),
        update_exclusive(warlord, _warlord_table(state), WARLORD_THRESHOLD, options),
    )


# --- totals and victory ----------------------------------------------------------------------

@dataclass(frozen=True)
class Score:
    """A kingdom's AP and where each point comes from (WOK-ACH-8)."""

    kingdom: str
    settlements: int
    empire: int
    fortified: int
    merchant: int
    warlord: int

    @property
    def total(self) -> int:
        return self.settlements + self.empire + self.fortified + self.merchant + self.warlord


def score(state: GameState, kingdom: str, holders: Holders,
          options: Options = DEFAULTS) -> Score:
    """WOK-ACH-8: settlement AP + 2 for an Empire + 2 for Heavily Fortified + the exclusive
    cards held (1 each by default, 2 under WOK-AMB-1 or WOK-V06-13)."""
    return Score(
        kingdom,
        settlement_ap(state, kingdom),
        EMPIRE_AP if empire(state, kingdom) else 0,
        FORTIFIED_AP if heavily_fortified(state, kingdom) else 0,
        options.merchant_ap if holders.master_merchant == kingdom else 0,
        options.warlord_ap if holders.warlord == kingdom else 0,
    )


def tie_break_key(state: GameState, kingdom: str, holders: Holders,
                  options: Options = DEFAULTS) -> tuple[int, ...]:
    """WOK-WIN-2: AP, cities, towns, villages, controlled territories without a settlement,
    castles, fortresses, walls; higher is better in each."""
    mine = state.controlled(kingdom)
    levels = [state.lvl(t) for t in mine]
    forts = [state.fort(t) for t in mine]
    return (score(state, kingdom, holders, options).total,
            levels.count(CITY), levels.count(TOWN), levels.count(VILLAGE),
            levels.count(NO_SETTLEMENT),
            forts.count(CASTLE), forts.count(FORTRESS), forts.count(WALLS))


@dataclass(frozen=True)
class RoundEnd:
    """The end-of-round check (WOK-TURN-5): the new holders, every score, who reached the target,
    and the winner; ``tied`` lists the players who share the win when even the tie-break fails."""

    holders: Holders
    scores: tuple[Score, ...]
    qualifying: tuple[str, ...]
    winner: str | None
    tied: tuple[str, ...] = ()

    @property
    def over(self) -> bool:
        return self.winner is not None or bool(self.tied)

    def ap(self, kingdom: str) -> int:
        for s in self.scores:
            if s.kingdom == kingdom:
                return s.total
        raise KeyError(kingdom)


def end_of_round(state: GameState, holders: Holders, options: Options = DEFAULTS) -> RoundEnd:
    """WOK-TURN-5, WOK-TURN-6, WOK-WIN-1, WOK-WIN-2, WOK-WIN-3: update the exclusive holders,
    tally AP, and among those at or above the target the highest tie-break key wins; an exact tie
    on the whole key is a shared game. The Malador never score (WOK-MAL-7)."""
    holders = update_holders(state, strict_losses(state, holders, options), options)
    scores = tuple(score(state, k, holders, options) for k in state.kingdoms)
    qualifying = tuple(s.kingdom for s in scores if s.total >= options.ap_target)
    if not qualifying:
        return RoundEnd(holders, scores, (), None)
    keys = {k: tie_break_key(state, k, holders, options) for k in qualifying}
    best = max(keys.values())
    top = tuple(k for k in qualifying if keys[k] == best)
    if len(top) == 1:
        return RoundEnd(holders, scores, qualifying, top[0])
    return RoundEnd(holders, scores, qualifying, None, top)


# --- what is missing -------------------------------------------------------------------------

def _best_rival(state: GameState, card: str, values: Mapping[str, int],
                kingdom: str) -> int | None:
    """The highest of ``values`` (the card's values of this state) among the kingdoms other than
    ``kingdom``, or None if there is none: read from the two highest, found once per state."""
    key = ("top_two", card)
    if key not in state.memo:
        state.memo[key] = sorted(values.items(), key=lambda item: -item[1])[:2]
    for other, value in state.memo[key]:  # type: ignore[attr-defined]
        if other != kingdom:
            return int(value)
    return None


def next_achievement(state: GameState, kingdom: str, holders: Holders,
                     options: Options = DEFAULTS) -> tuple[str, ...]:
    """What the kingdom lacks for each achievement it does not hold, and AP to the target, in
    plain words with numbers (WOK-ACH-2..6, WOK-WIN-1)."""
    notes = []
    check = empire_check(state, kingdom)
    if not check.held:
        lacks = []
        capital = state.capital(kingdom)
        if state.ctrl(capital) != kingdom:
            lacks.append(f"retake the capital {capital} (held by {who(state.ctrl(capital))}) "
                         "and make it a city")
        elif not check.capital_city:
            lacks.append(f"a city in the capital {capital} (now "
                         f"{SETTLEMENT_NAMES[state.lvl(capital)]})")
        more = max(0, EMPIRE_MIN_FOREIGN - check.foreign)
        if more:
            lacks.append(f"{more} more foreign settlement{'s' if more > 1 else ''} "
                         f"(has {check.foreign})")
        levels = max(0, EMPIRE_MIN_FOREIGN_LEVELS - check.foreign_levels)
        if levels:
            lacks.append(f"{levels} more level{'s' if levels > 1 else ''} of foreign settlements "
                         f"(has {check.foreign_levels} of {EMPIRE_MIN_FOREIGN_LEVELS})")
        notes.append(f"{EMPIRE} ({EMPIRE_AP} AP, WOK-ACH-3): needs " + "; ".join(lacks) + ".")
    forts = fort_levels(state, kingdom)
    if forts < FORTIFIED_THRESHOLD:
        notes.append(f"{HEAVILY_FORTIFIED} ({FORTIFIED_AP} AP, WOK-ACH-4): needs "
                     f"{FORTIFIED_THRESHOLD - forts} more fortification level"
                     f"{'s' if FORTIFIED_THRESHOLD - forts > 1 else ''} (has {forts} of "
                     f"{FORTIFIED_THRESHOLD}).")
    for name, holder, values, threshold, unit, value_ap, rule in (
        (MASTER_MERCHANT, holders.master_merchant, _merchant_table(state),
         MERCHANT_THRESHOLD, "gold per round", options.merchant_ap, "WOK-ACH-5"),
        (WARLORD, holders.warlord, _warlord_table(state), WARLORD_THRESHOLD, "territories",
         options.warlord_ap, "WOK-ACH-6"),
    ):
        if holder == kingdom:
            continue
        mine = values.get(kingdom, 0)
        goal = threshold if holder is None else max(threshold, values.get(holder, 0) + 1)
        if holder is None:
            best = _best_rival(state, name, values, kingdom)
            goal = best + 1 if best is not None and best >= threshold else threshold
            whose = "and be alone on top"
        else:
            whose = f"to pass {holder} ({values.get(holder, 0)})"
        notes.append(f"{name} ({value_ap} AP, {rule}): needs {goal} {unit} {whose}; has {mine}, "
                     f"{max(0, goal - mine)} more.")
    total = score(state, kingdom, holders, options).total
    notes.append(f"Victory (WOK-WIN-1): {total} of {options.ap_target} AP, "
                 f"{max(0, options.ap_target - total)} more, counted at the end of a round.")
    return tuple(notes)



@dataclass(frozen=True)
class PublicLine:
    """What every player may see of a kingdom (WOK-TURN-7): stockpile, gold per round,
    territories and AP; never its Event Cards."""

    kingdom: str
    stock: Stock
    gold_per_round: int
    territories: int
    ap: int


def public_standings(state: GameState, holders: Holders,
                     options: Options = DEFAULTS) -> tuple[PublicLine, ...]:
    """WOK-TURN-7: the public figures of every active kingdom, in seating order."""
    return tuple(PublicLine(k, state.stock(k), gold_generation(state, k),
                            territory_count(state, k), score(state, k, holders, options).total)
                 for k in state.kingdoms)
