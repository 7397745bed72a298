"""Swords & Stones, Part A: campaign Victory and Vengeance points.

Earning points at each game's end (SNS-PTS-1, -2), the eleven things they buy with their cost,
timing and effect (SNS-PTS-3, -4, SNS-VP-*, SNS-VEN-*), refusals with their reasons, the
starting stockpile a player's campaign brings to a game (supply lines, START spends, the King's
Title: D.4 of the digest) and the campaign standings.

These campaign points are not the end-of-game score also called "Victory Points" (SNS-AMB-26):
that score is ``titles.score_total`` and never touches a balance here.

Balances are derived from ``PointsEntry`` records (a ledger), never stored on their own. Pure
functions only; illegal spends raise ``RuleViolation`` from ``grand_campaign``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from campaign.systems.swords_and_stones.rules.economy import STANDARD as STANDARD_MODE
from campaign.systems.swords_and_stones.rules.economy import base_kit
from campaign.systems.swords_and_stones.rules.grand_campaign import (
    CAPITAL,
    CLAIMED,
    DEFAULT_OPTIONS,
    DRAW_VENGEANCE_TO_ALL,
    NOTHING,
    SETTLED,
    Bundle,
    CampaignState,
    Holding,
    Options,
    PlayerId,
    RuleViolation,
    StartDeclaration,
    SupplyLine,
    TerritoryChange,
    TerritoryId,
    counts_as_settled,
    holding_count,
)
from campaign.systems.swords_and_stones.rules.titles import TITLE_BY_CODE, title_start_bonus

VP = "vp"
VEN = "ven"
CURRENCY_NAMES = {VP: "Victory Points", VEN: "Vengeance Points"}

GAME_WIN = "game_win"
GAME_LOSS = "game_loss"
GAME_DRAW = "game_draw"
SPEND = "spend"
GM_ADJUST = "gm_adjust"


@dataclass(frozen=True)
class PointsEntry:
    """One line of a player's points ledger (SNS-PTS-2): ``delta`` is +1 for a game, minus the
    cost for a spend."""

    player: PlayerId
    currency: str
    delta: int
    reason: str
    option: str | None = None
    target: TerritoryId | None = None
    game: str | None = None
    rule_id: str = "SNS-PTS-1"


def game_points(
    winners: Iterable[PlayerId],
    losers: Iterable[PlayerId],
    drawn: Iterable[PlayerId] = (),
    options: Options = DEFAULT_OPTIONS,
    game: str | None = None,
) -> tuple[PointsEntry, ...]:
    """SNS-PTS-1, SNS-RES-3, SNS-AMB-9, SNS-AMB-10: every winner gains 1 Victory Point and
    every loser 1 Vengeance Point. A draw gives nothing, or 1 Vengeance to every player with the
    ``vengeance_to_all`` house rule."""
    entries = [PointsEntry(p, VP, 1, GAME_WIN, game=game) for p in winners]
    entries += [PointsEntry(p, VEN, 1, GAME_LOSS, game=game) for p in losers]
    if options.draw_policy == DRAW_VENGEANCE_TO_ALL:
        entries += [PointsEntry(p, VEN, 1, GAME_DRAW, game=game, rule_id="SNS-AMB-9")
                    for p in drawn]
    return tuple(entries)


@dataclass(frozen=True)
class Points:
    """A player's balances (SNS-PTS-2)."""

    vp: int = 0
    ven: int = 0

    def of(self, currency: str) -> int:
        return self.vp if currency == VP else self.ven


def balance(entries: Iterable[PointsEntry], player: PlayerId) -> Points:
    """SNS-PTS-2: a player's Victory and Vengeance balances for the whole campaign; a King's
    death does not touch them."""
    vp = ven = 0
    for e in entries:
        if e.player == player:
            if e.currency == VP:
                vp += e.delta
            else:
                ven += e.delta
    return Points(vp, ven)


# --- what points buy (SNS-PTS-3, SNS-PTS-4, SNS-VP-*, SNS-VEN-*) --------------------------------

START = "START"
IN_GAME = "IN_GAME"
MAP = "MAP"

#: When a spend is made (SNS-AMB-15): between two games, while a game is being set up (before
#: its turn 1), or during a game.
BETWEEN_GAMES = "between_games"
SETUP = "setup"
PLAYING = "playing"
PHASES: tuple[str, ...] = (BETWEEN_GAMES, SETUP, PLAYING)
_ALLOWED_PHASES = {
    MAP: (BETWEEN_GAMES,),
    START: (BETWEEN_GAMES, SETUP),
    IN_GAME: (BETWEEN_GAMES, SETUP, PLAYING),
}

#: Target kinds of spends that need one.
OWN_CLAIMED = "own_claimed"
RIVAL_SETTLED = "rival_settled"
CONTESTED = "contested"


@dataclass(frozen=True)
class SpendOption:
    """One thing campaign points buy: its cost, when it may be bought, what it does."""

    code: str
    rule_id: str
    name: str
    currency: str
    cost: int
    timing: str
    effect: str
    bundle: Bundle = NOTHING
    units: tuple[tuple[str, int], ...] = ()
    extra_turn: bool = False
    target: str | None = None


SPEND_OPTIONS: tuple[SpendOption, ...] = (
    SpendOption(
        "EMPIRE", "SNS-VP-EMPIRE", "Empires Advantage", VP, 1, START,
        "One each of food, wood, stone, iron and gold in the starting Stockpile (no favor).",
        bundle=Bundle(food=1, wood=1, stone=1, iron=1, gold=1),
    ),
    SpendOption(
        "FAVOR", "SNS-VP-FAVOR", "Favor of the King", VP, 2, START,
        "10 favor in the starting Stockpile.", bundle=Bundle(favor=10),
    ),
    SpendOption(
        "CAVALRY", "SNS-VP-CAVALRY", "Here comes the Calvary", VP, 1, IN_GAME,
        "2 Knights as soon as you own a Castle, whatever Knights normally require.",
        units=(("Knights", 2),),
    ),
    SpendOption(
        "FRONTLINE", "SNS-VP-FRONTLINE", "Front line Advantage", VP, 3, START,
        "A whole extra turn, turn 0, played by you alone before turn 1 (all four phases; "
        "its events are Idle Villagers). You need settled land bordering the contested "
        "Territory.",
        extra_turn=True, target=CONTESTED,
    ),
    SpendOption(
        "REINFORCE", "SNS-VP-REINFORCE", "Reinforcements", VP, 1, IN_GAME,
        "4 Barracks units as soon as you own a Barracks: any mix of Swords, Spears and "
        "Archers, in their current upgraded form.",
        units=(("Barracks units", 4),),
    ),
    SpendOption(
        "BOLSTER", "SNS-VP-BOLSTER", "Bolster Frontier Outposts", VP, 4, MAP,
        "One of your claimed Territories becomes settled.", target=OWN_CLAIMED,
    ),
    SpendOption(
        "BROTHERS", "SNS-VEN-BROTHERS", "Brothers without Banners", VEN, 1, START,
        "All game long, food and gold that Bandits take from anyone (you included) comes to "
        "you; a Forest Village roll of yours may use the die or the die plus 1.",
    ),
    SpendOption(
        "POLITICS", "SNS-VEN-POLITICS", "Politics", VEN, 3, MAP,
        "One settled Territory (never a Capital) of the rival with the most settled land "
        "becomes yours, still settled.", target=RIVAL_SETTLED,
    ),
    SpendOption(
        "BLACKSHEEP", "SNS-VEN-BLACKSHEEP", "The Black Sheep", VEN, 2, START,
        "Three each of food, wood, stone, iron, gold and favor in the starting Stockpile.",
        bundle=Bundle(food=3, wood=3, stone=3, iron=3, gold=3, favor=3),
    ),
    SpendOption(
        "FIEFDOMS", "SNS-VEN-FIEFDOMS", "Fiefdoms", VEN, 3, MAP,
        "One of your claimed Territories becomes settled.", target=OWN_CLAIMED,
    ),
    SpendOption(
        "GONDOR", "SNS-VEN-GONDOR", "Gondor Calls for Aid!", VEN, 1, IN_GAME,
        "When you need help, roll a die: the units it brings join you in your kingdom zone.",
    ),
)
SPEND_BY_CODE: Mapping[str, SpendOption] = {o.code: o for o in SPEND_OPTIONS}

#: SNS-VEN-GONDOR: units brought by each d6 result.
GONDOR_TABLE: Mapping[int, tuple[tuple[str, int], ...]] = {
    1: (),
    2: (("Swords", 2), ("Archers", 2)),
    3: (("Swords", 5),),
    4: (("Riders", 4),),
    5: (("Archers", 4),),
    6: (("Knights", 4),),
}


def gondor_units(roll: int) -> tuple[tuple[str, int], ...]:
    """SNS-VEN-GONDOR: the units a d6 brings (nobody answers a 1)."""
    if roll not in GONDOR_TABLE:
        raise RuleViolation(f"SNS-VEN-GONDOR: a d6 shows 1 to 6, not {roll}.")
    return GONDOR_TABLE[roll]


REINFORCEMENT_TYPES = ("Swords", "Spears", "Archers")


def reinforcements(mix: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """SNS-VP-REINFORCE, SNS-AMB-18: the buyer's mix of 4 Barracks units (Swords, Spears,
    Archers; their upgraded forms stand in for them)."""
    unknown = sorted(set(mix) - set(REINFORCEMENT_TYPES))
    if unknown:
        raise RuleViolation(
            f"SNS-VP-REINFORCE: {', '.join(unknown)} are not Barracks units; choose Swords, "
            "Spears or Archers."
        )
    if any(n < 0 for n in mix.values()) or sum(mix.values()) != 4:
        raise RuleViolation("SNS-VP-REINFORCE: choose exactly 4 Barracks units.")
    return tuple((t, mix[t]) for t in REINFORCEMENT_TYPES if mix.get(t))


def bandit_loot_goes_to(victim: PlayerId, brothers_buyer: PlayerId | None) -> PlayerId | None:
    """SNS-VEN-BROTHERS, SNS-AMB-28: food and gold Bandits take go to the player who bought
    Brothers without Banners, even when taken from that player; otherwise they are simply lost
    (None)."""
    del victim  # whoever was robbed, the buyer gets it
    return brothers_buyer


def forest_village_rolls(roll: int) -> tuple[int, int]:
    """SNS-VEN-BROTHERS: a Forest Village roll of the buyer may be used as rolled or plus 1."""
    return (roll, roll + 1)


def frontline_allowed(
    state: CampaignState,
    buyer: PlayerId,
    contested: TerritoryId,
    options: Options = DEFAULT_OPTIONS,
) -> bool:
    """SNS-VP-FRONTLINE, SNS-AMB-3, SNS-AMB-16: the buyer holds settled land (the Capital
    counting by default) bordering the contested Territory of the coming game."""
    cmap = state.map
    return any(
        cmap.holding(n).owner == buyer and counts_as_settled(cmap.holding(n), options)
        for n in cmap.neighbours(contested)
    )


def politics_targets(
    state: CampaignState, buyer: PlayerId, options: Options = DEFAULT_OPTIONS
) -> tuple[TerritoryId, ...]:
    """SNS-VEN-POLITICS, SNS-AMB-3, SNS-AMB-19: the settled Territories (never a Capital) of
    the other player or players with the most settled land, the Capital counted by default; on
    a tie the buyer picks among all of them."""
    cmap = state.map
    rivals = [p.id for p in state.active() if p.id != buyer]
    counts = {p: holding_count(cmap, p, options).settled_total for p in rivals}
    top = max(counts.values(), default=0)
    if top == 0:
        return ()
    leaders = {p for p, n in counts.items() if n == top}
    return tuple(
        t for t in cmap.territories
        if cmap.holdings[t].state == SETTLED and cmap.holdings[t].owner in leaders
    )


@dataclass(frozen=True)
class SpendChoice:
    """Whether one option can be bought now, and why not (a refusal's reason cites the rule)."""

    option: SpendOption
    allowed: bool
    reason: str = ""
    targets: tuple[TerritoryId, ...] = ()


def _targets(
    state: CampaignState, buyer: PlayerId, option: SpendOption, options: Options
) -> tuple[TerritoryId, ...]:
    if option.target == OWN_CLAIMED:
        return state.map.owned_by(buyer, CLAIMED)
    if option.target == RIVAL_SETTLED:
        return politics_targets(state, buyer, options)
    return ()


def spend_refusal(
    state: CampaignState,
    entries: Iterable[PointsEntry],
    buyer: PlayerId,
    code: str,
    phase: str,
    target: TerritoryId | None = None,
    contested: TerritoryId | None = None,
    bought: Collection[str] = (),
    options: Options = DEFAULT_OPTIONS,
) -> str | None:
    """SNS-PTS-3, SNS-PTS-4, SNS-AMB-14..16, SNS-AMB-19 and each option's own condition: why
    ``buyer`` cannot buy ``code`` now, or None if they can. ``bought`` lists the codes already
    bought for the same game (or between the same two games); ``target`` is the Territory a
    MAP option changes; ``contested`` the Territory of the coming game (Front line Advantage).
    """
    option = SPEND_BY_CODE.get(code)
    if option is None:
        return f"SNS-PTS-3: there is no points option {code!r}."
    player = state.player(buyer)
    if player.eliminated:
        return f"SNS-CAP-4: {buyer} has left the campaign."
    if phase not in PHASES:
        return f"SNS-PTS-4: unknown moment {phase!r}."
    if phase not in _ALLOWED_PHASES[option.timing]:
        when = {
            MAP: "between games",
            START: "before turn 1 of the game it is for",
        }[option.timing]
        return f"SNS-PTS-4: {option.name} can only be bought {when} (SNS-AMB-15)."
    if not options.spends_repeatable and code in bought:
        return (
            f"SNS-AMB-14: in this campaign {option.name} can be bought only once for the same "
            "game."
        )
    have = balance(entries, buyer).of(option.currency)
    if have < option.cost:
        return (
            f"SNS-PTS-3: {option.name} costs {option.cost} {CURRENCY_NAMES[option.currency]}; "
            f"{buyer} has {have}."
        )
    cmap = state.map
    if option.target == CONTESTED:
        if contested is None:
            return f"{option.rule_id}: name the Territory contested in the coming game."
        if not frontline_allowed(state, buyer, contested, options):
            return (
                f"{option.rule_id}: {buyer} holds no settled Territory bordering "
                f"{cmap.name(contested)}."
            )
    if option.target in (OWN_CLAIMED, RIVAL_SETTLED):
        targets = _targets(state, buyer, option, options)
        if not targets:
            if option.target == OWN_CLAIMED:
                return f"{option.rule_id}: {buyer} has no claimed Territory to settle."
            return (
                f"{option.rule_id}: no rival with the most settled land has a settled "
                "Territory other than a Capital (SNS-AMB-19)."
            )
        if target is not None and target not in targets:
            holding = cmap.holding(target)
            if holding.state == CAPITAL:
                why = "a Capital can never change hands this way (SNS-AMB-3)"
            elif option.target == OWN_CLAIMED:
                why = "it is not one of the buyer's claimed Territories"
            else:
                why = "it is not settled land of the rival with the most settled land"
            return (
                f"{option.rule_id}: {cmap.name(target)} cannot be chosen: {why}; choose one "
                "of " + ", ".join(cmap.name(t) for t in targets) + "."
            )
    return None


def spend_choices(
    state: CampaignState,
    entries: Sequence[PointsEntry],
    buyer: PlayerId,
    phase: str,
    contested: TerritoryId | None = None,
    bought: Collection[str] = (),
    options: Options = DEFAULT_OPTIONS,
) -> tuple[SpendChoice, ...]:
    """SNS-PTS-3, SNS-PTS-4: every option with whether ``buyer`` can buy it now, why not, and
    the Territories it could change."""
    choices = []
    for option in SPEND_OPTIONS:
        reason = spend_refusal(state, entries, buyer, option.code, phase, None, contested,
                               bought, options)
        targets = _targets(state, buyer, option, options) if reason is None else ()
        choices.append(SpendChoice(option, reason is None, reason or "", targets))
    return tuple(choices)


@dataclass(frozen=True)
class Spent:
    """A spend carried out: the ledger entry, the campaign after it (changed only by MAP
    options), and what the buyer receives in the game it is for."""

    entry: PointsEntry
    state: CampaignState
    option: SpendOption
    changes: tuple[TerritoryChange, ...] = ()

    @property
    def bundle(self) -> Bundle:
        return self.option.bundle

    @property
    def extra_turn(self) -> bool:
        return self.option.extra_turn


def apply_spend(
    state: CampaignState,
    entries: Iterable[PointsEntry],
    buyer: PlayerId,
    code: str,
    phase: str,
    target: TerritoryId | None = None,
    contested: TerritoryId | None = None,
    bought: Collection[str] = (),
    options: Options = DEFAULT_OPTIONS,
    game: str | None = None,
) -> Spent:
    """SNS-PTS-3, SNS-PTS-4 and SNS-VP-* / SNS-VEN-*: buy one option. MAP options change the
    map at once: Bolster Frontier Outposts and Fiefdoms settle one of the buyer's claims;
    Politics moves a settled Territory of the leading rival to the buyer. START and IN_GAME
    options only record what the buyer gets in the game (see ``starting_stockpile``,
    ``gondor_units``, ``reinforcements``). A refusal raises ``RuleViolation`` with the reason."""
    entries = tuple(entries)
    reason = spend_refusal(state, entries, buyer, code, phase, target, contested, bought,
                           options)
    if reason is not None:
        raise RuleViolation(reason)
    option = SPEND_BY_CODE[code]
    entry = PointsEntry(buyer, option.currency, -option.cost, SPEND, option=code,
                        target=target if option.target != CONTESTED else contested, game=game,
                        rule_id=option.rule_id)
    if option.target not in (OWN_CLAIMED, RIVAL_SETTLED):
        return Spent(entry, state, option)
    if target is None:
        raise RuleViolation(
            f"{option.rule_id}: choose the Territory: "
            + ", ".join(state.map.name(t) for t in _targets(state, buyer, option, options))
            + "."
        )
    cause = {"BOLSTER": "vp_bolster", "FIEFDOMS": "ven_fiefdoms", "POLITICS": "ven_politics"}
    change = TerritoryChange(target, state.map.holding(target), Holding(SETTLED, buyer),
                             cause[code], option.rule_id)
    new_state = state.with_map(state.map.with_holdings({target: change.after}))
    return Spent(entry, new_state, option, (change,))


# --- the starting stockpile a campaign brings (SNS-ECON-10 steps 1-5, D.4) ----------------------


@dataclass(frozen=True)
class StockLine:
    """One line of a game-start sheet: where it comes from, the rule, what it adds."""

    source: str
    rule_id: str
    bundle: Bundle = NOTHING
    note: str = ""


def kit_bundle(mode: str = STANDARD_MODE) -> Bundle:
    """SNS-ECON-5, SNS-ECON-9: a game mode's kit as a Bundle: its resources and its Villagers.
    The kit itself is the economy's (``economy.base_kit``), the one definition of it."""
    kit = base_kit(mode)
    return Bundle(villagers=kit.units.get("VILLAGER", 0),
                  **{r: n for r, n in kit.resources.items() if r in Bundle().as_dict()})


#: SNS-ECON-5: the standard start has all resources at 0, 3 Villagers and the King.
STANDARD_START = kit_bundle()


@dataclass(frozen=True)
class StartingStockpile:
    """The Stockpile and Villagers a player starts a campaign game with, line by line, and
    whether they play a turn 0 first (SNS-VP-FRONTLINE)."""

    lines: tuple[StockLine, ...]
    extra_turn: bool = False

    @property
    def total(self) -> Bundle:
        total = NOTHING
        for line in self.lines:
            total = total + line.bundle
        return total


def starting_stockpile(
    supply: Sequence[SupplyLine],
    start_spends: Sequence[str] = (),
    declaration: StartDeclaration | None = None,
    title_variant: str | None = None,
    base: Bundle = STANDARD_START,
) -> StartingStockpile:
    """SNS-SUP-1..4, SNS-VP-EMPIRE, SNS-VP-FAVOR, SNS-VP-FRONTLINE, SNS-VEN-BLACKSHEEP,
    SNS-VEN-BROTHERS, SNS-KING-2: the start of a campaign game, in the order of the economy's
    SNS-ECON-10: the game mode's kit (``base``, the standard one by default), one line per
    supply choice, one per START spend, then the King's one Title or crate item. All of it adds
    up; the lines are kept for the printed sheet."""
    lines = [StockLine("Base kit", "SNS-ECON-5", base, "3 Villagers and the King")]
    for s in supply:
        lines.append(StockLine(f"Supply {s.territory} ({s.kind})", "SNS-SUP-1", s.bundle))
    extra_turn = False
    for code in start_spends:
        option = SPEND_BY_CODE.get(code)
        if option is None or option.timing != START:
            raise RuleViolation(f"SNS-PTS-4: {code} is not an option taken at game start.")
        extra_turn = extra_turn or option.extra_turn
        lines.append(StockLine(option.name, option.rule_id, option.bundle,
                               "turn 0 before turn 1" if option.extra_turn else ""))
    if declaration is not None and declaration.title is not None:
        title = TITLE_BY_CODE[declaration.title]
        bundle, note = title_start_bonus(declaration.title, title_variant)
        lines.append(StockLine(f"Title: {title.name}", title.rule_id, bundle, note))
    if declaration is not None and declaration.crate_item is not None:
        lines.append(StockLine(f"Crate item: {declaration.crate_item}", "SNS-CRATE-6",
                               NOTHING, "effect as written on the item"))
    return StartingStockpile(tuple(lines), extra_turn)


# --- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """One player's line of the campaign standings."""

    player: PlayerId
    name: str
    vp: int
    ven: int
    capital: int
    settled: int
    claimed: int
    titles: tuple[str, ...]
    games_played: int
    king: str | None
    eliminated: bool

    @property
    def territories(self) -> int:
        return self.capital + self.settled + self.claimed


def standings(
    state: CampaignState,
    entries: Iterable[PointsEntry],
    games_played: Mapping[PlayerId, int],
    options: Options = DEFAULT_OPTIONS,
) -> tuple[Standing, ...]:
    """SNS-GC-5, SNS-GC-12, SNS-PTS-2, SNS-TITLE-G3: each player's points, land by state, the
    current King's Titles (catalogue order) and games played. The rules crown nobody, so the
    order is only for display: most Victory Points, then most land, then seating order."""
    mine: dict[PlayerId, list[PointsEntry]] = {}
    for e in entries:  # each player's entries, so that every balance reads only its own
        mine.setdefault(e.player, []).append(e)
    rows = []
    for p in state.players:
        count = holding_count(state.map, p.id, options)
        pts = balance(mine.get(p.id, ()), p.id)
        held = p.king.titles if p.king else frozenset()
        rows.append(Standing(
            player=p.id,
            name=p.name or p.id,
            vp=pts.vp,
            ven=pts.ven,
            capital=count.capital,
            settled=count.settled,
            claimed=count.claimed,
            titles=tuple(code for code in TITLE_BY_CODE if code in held),
            games_played=games_played.get(p.id, 0),
            king=p.king.name if p.king else None,
            eliminated=p.eliminated,
        ))
    seat = {p.id: i for i, p in enumerate(state.players)}
    return tuple(sorted(rows, key=lambda r: (-r.vp, -r.territories, seat[r.player])))

