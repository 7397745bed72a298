"""Swords & Stones' section of a campaign file (campaign.transfer.sections describes the hook).

The section holds this system's tables: Kings (every reign), games with their participants,
set-ups and post-game reports, Titles, Mystery Crate items, points spends and each Territory's
history. Territories themselves are the core's tiles, and Victory and Vengeance points the core's
ledger, so they travel with the core. Rows are named by natural keys: kingdoms by name, Kings by
(kingdom, reign), games by number, events by ``seq``; lists keep the order the rows were made in.

Version 1: ``kings``, ``games`` (each with ``participants``), ``titles``, ``crate_items``,
``spends``, ``territory_records``, ``cost_types`` (the campaign's resource types for costs
whose symbols the source lost, SNS-AMB-30), ``trades`` between two kingdoms of a game
(SNS-ECON-57) and ``battles`` auto-resolved step by step (SNS-AR-1..7), each optional (an empty
list when left out). A seat's
``table`` holds its Stockpile state at the table: turn and phase, units, buildings and
foundations (``works``), upgrades, Sites and die timers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign.models import Campaign
from campaign.systems.swords_and_stones import costs, reports
from campaign.systems.swords_and_stones.models import (
    AutoBattle,
    CostType,
    CrateItem,
    Game,
    King,
    Participant,
    Spend,
    TerritoryRecord,
    TitleAward,
    Trade,
)
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.transfer.base import ImportRefused, Node, Refs
from campaign.transfer.sections import PlanContext, WriteContext

SECTION_VERSION = 1

_STATES = gc.STATES
_RESULTS = ("", *gc.RESULTS)
_OUTCOMES = ("", *gc.KING_OUTCOMES)


# == export =======================================================================================


def export_section(campaign: Campaign, refs: Refs) -> dict[str, Any]:
    """Every row of the system's tables for ``campaign``, in the order they were made."""
    kings = list(King.objects.filter(campaign=campaign).select_related("kingdom", "died_in")
                 .order_by("pk"))
    games = list(Game.objects.filter(campaign=campaign).select_related(
        "challenger", "defender", "before_owner").order_by("number"))
    parts: dict[int, list[Participant]] = {}
    for p in Participant.objects.filter(game__campaign=campaign).select_related(
            "kingdom", "king", "declared_crate").order_by("pk"):
        parts.setdefault(p.game_id, []).append(p)
    return {
        "kings": [{
            "kingdom": k.kingdom.name, "name": k.name, "reign": k.reign,
            "crowned_before": k.crowned_before,
            "died_in": k.died_in.number if k.died_in else None, "current": k.current,
        } for k in kings],
        "games": [{
            "number": g.number, "challenger": g.challenger.name,
            "defender": g.defender.name if g.defender else None, "ai_name": g.ai_name,
            "territory": g.territory, "territory_name": g.territory_name,
            "before_state": g.before_state,
            "before_owner": g.before_owner.name if g.before_owner else None,
            "row": g.row, "capital_advantage": g.capital_advantage,
            "map_type_played": g.map_type_played, "game_mode": g.game_mode,
            "status": g.status, "result": g.result, "declined": g.declined,
            "pending": g.pending, "notes": g.notes,
            "participants": [{
                "kingdom": p.kingdom.name, "king_reign": p.king.reign if p.king else None,
                "side": p.side, "faction": p.faction, "supply": p.supply,
                "declared_title": p.declared_title, "title_variant": p.title_variant,
                "declared_crate": p.declared_crate.name if p.declared_crate else None,
                "result": p.result, "king_outcome": p.king_outcome, "report": p.report,
                "report_status": p.report_status, "gm_yes": p.gm_yes,
                "titles_taken": p.titles_taken, "table": p.table,
            } for p in parts.get(g.pk, [])],
        } for g in games],
        "titles": [{
            "kingdom": t.king.kingdom.name, "reign": t.king.reign, "code": t.code,
            "game": t.game.number if t.game else None,
        } for t in TitleAward.objects.filter(king__campaign=campaign).select_related(
            "king__kingdom", "game").order_by("pk")],
        "crate_items": [{
            "kingdom": i.king.kingdom.name, "reign": i.king.reign, "name": i.name,
            "kind": i.kind, "effect": i.effect, "status": i.status,
            "game": i.game.number if i.game else None,
        } for i in CrateItem.objects.filter(king__campaign=campaign).select_related(
            "king__kingdom", "game").order_by("pk")],
        "spends": [{
            "kingdom": s.kingdom.name, "code": s.code,
            "game": s.game.number if s.game else None, "bought_before": s.bought_before,
            "target": s.target, "contested": s.contested, "roll": s.roll,
        } for s in Spend.objects.filter(campaign=campaign).select_related(
            "kingdom", "game").order_by("pk")],
        "territory_records": [{
            "territory": r.territory, "game": r.game.number if r.game else None,
            "before_state": r.before_state,
            "before_owner": r.before_owner.name if r.before_owner else None,
            "after_state": r.after_state,
            "after_owner": r.after_owner.name if r.after_owner else None,
            "cause": r.cause, "rule_id": r.rule_id, "event": r.event.seq if r.event else None,
        } for r in TerritoryRecord.objects.filter(campaign=campaign).select_related(
            "game", "before_owner", "after_owner", "event").order_by("pk")],
        "cost_types": [{"cost": c.rule_id, "types": list(c.types)}
                       for c in CostType.objects.filter(campaign=campaign).order_by("pk")],
        "trades": [{
            "game": t.game.number, "offerer": t.offerer.name, "receiver": t.receiver.name,
            "gives": t.gives, "gets": t.gets, "zones_touch": t.zones_touch, "ransom": t.ransom,
            "turn": t.turn, "status": t.status,
        } for t in Trade.objects.filter(game__campaign=campaign).select_related(
            "game", "offerer", "receiver").order_by("pk")],
        "battles": [{
            "game": b.game.number, "attacker": b.attacker.name, "defender": b.defender.name,
            "turn": b.turn, "step": b.step, "data": b.data,
        } for b in AutoBattle.objects.filter(game__campaign=campaign).select_related(
            "game", "attacker", "defender").order_by("pk")],
    }


# == import =======================================================================================


@dataclass
class SectionPlan:
    kings: list[dict[str, Any]] = field(default_factory=list)
    games: list[dict[str, Any]] = field(default_factory=list)
    titles: list[dict[str, Any]] = field(default_factory=list)
    crate_items: list[dict[str, Any]] = field(default_factory=list)
    spends: list[dict[str, Any]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    cost_types: list[dict[str, Any]] = field(default_factory=list)
    trades: list[dict[str, Any]] = field(default_factory=list)
    battles: list[dict[str, Any]] = field(default_factory=list)


def _game_ref(node: Node, key: str, numbers: set[int]) -> int | None:
    number = node.integer(key, minimum=1, default=None, null=True)
    if number is not None and number not in numbers:
        raise ImportRefused(f"{node.at(key)}: there is no game {number}.")
    return number


def _played_in(node: Node, numbers: set[int]) -> int:
    """The game a trade or a battle belongs to: one of the file's games, never empty."""
    number = _game_ref(node, "game", numbers)
    if number is None:
        raise ImportRefused(f"{node.at('game')}: say which game.")
    return number


def _king_ref(node: Node, kingdom: str, key: str, reigns: set[tuple[str, int]],
              null: bool = False) -> int | None:
    if null:
        reign = node.integer(key, minimum=1, maximum=999, default=None, null=True)
    else:
        reign = node.integer(key, minimum=1, maximum=999)
    if reign is not None and (kingdom, reign) not in reigns:
        raise ImportRefused(f"{node.at(key)}: {kingdom} has no King of reign {reign}.")
    return reign


def plan_section(node: Node, context: PlanContext) -> SectionPlan:
    """Check the section against the file's kingdoms and events and the Grand Campaign's
    rules: one King per reign and at most one reigning per kingdom, one game per number, legal
    Territory states, results and King's fates, known Titles and points options, reports whose
    answers are the report's own questions."""
    plan = SectionPlan()
    reigns: set[tuple[str, int]] = set()
    current: set[str] = set()
    numbers = {n.integer("number", minimum=1) for n in node.nodes("games", default=[])}
    for n in node.nodes("kings", default=[]):
        kingdom = context.kingdom(n, "kingdom")
        reign = n.integer("reign", minimum=1, maximum=999)
        if (kingdom, reign) in reigns:
            raise ImportRefused(f"{n.path}: {kingdom} has two Kings of reign {reign}.")
        reigns.add((kingdom, reign))  # type: ignore[arg-type]
        is_current = n.boolean("current", default=True)
        if is_current:
            if kingdom in current:
                raise ImportRefused(f"{n.path}: {kingdom} has two reigning Kings.")
            current.add(kingdom)  # type: ignore[arg-type]
        plan.kings.append({
            "kingdom": kingdom, "name": n.text("name", max_length=60, blank=False),
            "reign": reign, "crowned_before": n.integer("crowned_before", minimum=1, default=1),
            "died_in": _game_ref(n, "died_in", numbers), "current": is_current,
        })
    seen: set[int] = set()
    for n in node.nodes("games", default=[]):
        number = n.integer("number", minimum=1)
        if number in seen:
            raise ImportRefused(f"{n.at('number')}: two games numbered {number}.")
        seen.add(number)  # type: ignore[arg-type]
        game = {
            "number": number, "challenger": context.kingdom(n, "challenger"),
            "defender": context.kingdom(n, "defender", null=True),
            "ai_name": n.text("ai_name", max_length=60, default=""),
            "territory": n.text("territory", max_length=40, blank=False),
            "territory_name": n.text("territory_name", max_length=80, default=""),
            "before_state": n.choice("before_state", _STATES),
            "before_owner": context.kingdom(n, "before_owner", null=True),
            "row": n.text("row", max_length=12),
            "capital_advantage": n.boolean("capital_advantage", default=False),
            "map_type_played": n.text("map_type_played", max_length=40, default=""),
            "game_mode": n.text("game_mode", max_length=40, default=""),
            "status": n.choice("status", [s for s, _ in Game.Status.choices]),
            "result": n.choice("result", _RESULTS, default=""),
            "declined": n.boolean("declined", default=False),
            "pending": n.obj("pending", default={}),
            "notes": n.text("notes", max_length=200, default=""),
            "participants": [],
        }
        sides: set[str] = set()
        for p in n.nodes("participants", default=[]):
            kingdom = context.kingdom(p, "kingdom")
            if kingdom in sides:
                raise ImportRefused(f"{p.path}: {kingdom} plays game {number} twice.")
            sides.add(kingdom)  # type: ignore[arg-type]
            report = p.obj("report", default={})
            try:
                reports.clean(report)
            except tt.RuleViolation as exc:
                raise ImportRefused(f"{p.at('report')}: {exc}") from None
            supply = p.array("supply", default=[])
            if not all(isinstance(s, list) and len(s) == 2 and all(isinstance(x, str) for x in s)
                       for s in supply):
                raise ImportRefused(f"{p.at('supply')}: expected [territory, option] pairs.")
            title = p.text("declared_title", max_length=20, default="")
            if title and title not in tt.TITLE_BY_CODE:
                raise ImportRefused(f"{p.at('declared_title')}: no Title {title!r}.")
            taken = p.array("titles_taken", default=[])
            yes = p.array("gm_yes", default=[])
            for key, codes in (("titles_taken", taken), ("gm_yes", yes)):
                if any(c not in tt.TITLE_BY_CODE for c in codes):
                    raise ImportRefused(f"{p.at(key)}: unknown Title.")
            game["participants"].append({
                "kingdom": kingdom,
                "king_reign": _king_ref(p, kingdom, "king_reign", reigns, null=True),  # type: ignore[arg-type]
                "side": p.text("side", max_length=12),
                "faction": p.choice("faction", gc.FACTIONS),
                "supply": supply, "declared_title": title,
                "title_variant": p.text("title_variant", max_length=20, default=""),
                "declared_crate": p.optional_text("declared_crate", max_length=60),
                "result": p.choice("result", _RESULTS, default=""),
                "king_outcome": p.choice("king_outcome", _OUTCOMES, default=""),
                "report": report,
                "report_status": p.choice("report_status", ("", "filed", "confirmed"),
                                          default=""),
                "gm_yes": yes, "titles_taken": taken, "table": p.obj("table", default={}),
            })
        plan.games.append(game)
    for n in node.nodes("titles", default=[]):
        kingdom = context.kingdom(n, "kingdom")
        plan.titles.append({
            "kingdom": kingdom, "reign": _king_ref(n, kingdom, "reign", reigns),  # type: ignore[arg-type]
            "code": n.choice("code", tt.TITLE_BY_CODE), "game": _game_ref(n, "game", numbers),
        })
    for n in node.nodes("crate_items", default=[]):
        kingdom = context.kingdom(n, "kingdom")
        plan.crate_items.append({
            "kingdom": kingdom, "reign": _king_ref(n, kingdom, "reign", reigns),  # type: ignore[arg-type]
            "name": n.text("name", max_length=60, blank=False),
            "kind": n.choice("kind", tt.CRATE_ITEM_KINDS, default=tt.GENERAL),
            "effect": n.text("effect", max_length=200, default=""),
            "status": n.choice("status", [s for s, _ in CrateItem.Status.choices]),
            "game": _game_ref(n, "game", numbers),
        })
    for n in node.nodes("spends", default=[]):
        plan.spends.append({
            "kingdom": context.kingdom(n, "kingdom"),
            "code": n.choice("code", pts.SPEND_BY_CODE),
            "game": _game_ref(n, "game", numbers),
            "bought_before": n.integer("bought_before", minimum=1, default=1),
            "target": n.text("target", max_length=40, default=""),
            "contested": n.text("contested", max_length=40, default=""),
            "roll": n.integer("roll", minimum=1, maximum=6, default=None, null=True),
        })
    for n in node.nodes("territory_records", default=[]):
        plan.records.append({
            "territory": n.text("territory", max_length=40, blank=False),
            "game": _game_ref(n, "game", numbers),
            "before_state": n.choice("before_state", _STATES),
            "before_owner": context.kingdom(n, "before_owner", null=True),
            "after_state": n.choice("after_state", _STATES),
            "after_owner": context.kingdom(n, "after_owner", null=True),
            "cause": n.text("cause", max_length=30),
            "rule_id": n.text("rule_id", max_length=20),
            "event": context.event(n, "event"),
        })
    for n in node.nodes("cost_types", default=[]):
        key = n.choice("cost", costs.ENTRIES)
        kinds = n.raw("types")
        amounts = len(costs.ENTRIES[key].cost.amounts)
        if (not isinstance(kinds, list) or len(kinds) != amounts
                or any(k is not None and k not in costs.RESOURCES for k in kinds)):
            raise ImportRefused(f"{n.path}: {key} needs {amounts} types, each a resource or "
                                "null (SNS-AMB-30).")
        if any(c["cost"] == key for c in plan.cost_types):
            raise ImportRefused(f"{n.path}: {key} is listed twice.")
        plan.cost_types.append({"cost": key, "types": kinds})
    for n in node.nodes("trades", default=[]):
        bundles = {}
        for key in ("gives", "gets"):
            bundle = n.obj(key, default={})
            if any(r not in costs.RESOURCES or not isinstance(a, int) or isinstance(a, bool)
                   or not 0 <= a <= 999 for r, a in bundle.items()):
                raise ImportRefused(f"{n.at(key)}: resources and amounts of 0 to 999 "
                                    "(SNS-ECON-57).")
            bundles[key] = bundle
        plan.trades.append({
            "game": _played_in(n, numbers), "offerer": context.kingdom(n, "offerer"),
            "receiver": context.kingdom(n, "receiver"), **bundles,
            "zones_touch": n.boolean("zones_touch", default=False),
            "ransom": n.boolean("ransom", default=False),
            "turn": n.integer("turn", minimum=0, default=1),
            "status": n.choice("status", [s for s, _ in Trade.Status.choices]),
        })
    for n in node.nodes("battles", default=[]):
        plan.battles.append({
            "game": _played_in(n, numbers), "attacker": context.kingdom(n, "attacker"),
            "defender": context.kingdom(n, "defender"),
            "turn": n.integer("turn", minimum=0, default=1),
            "step": n.choice("step", ("defences", "commit", "buy_back", "dice", "done")),
            "data": n.obj("data", default={}),
        })
    return plan


def write_section(plan: SectionPlan, context: WriteContext) -> None:
    """Write the rows in the file's order, pointing at the core's new rows."""
    campaign = context.campaign
    k = context.kingdoms
    games: dict[int, Game] = {}
    for g in plan.games:
        games[g["number"]] = Game.objects.create(
            campaign=campaign, number=g["number"], challenger=k[g["challenger"]],
            defender=k[g["defender"]] if g["defender"] else None, ai_name=g["ai_name"],
            territory=g["territory"], territory_name=g["territory_name"],
            before_state=g["before_state"],
            before_owner=k[g["before_owner"]] if g["before_owner"] else None, row=g["row"],
            capital_advantage=g["capital_advantage"], map_type_played=g["map_type_played"],
            game_mode=g["game_mode"], status=g["status"], result=g["result"],
            declined=g["declined"], pending=g["pending"], notes=g["notes"])
    kings: dict[tuple[str, int], King] = {}
    for row in plan.kings:
        kings[(row["kingdom"], row["reign"])] = King.objects.create(
            campaign=campaign, kingdom=k[row["kingdom"]], name=row["name"], reign=row["reign"],
            crowned_before=row["crowned_before"],
            died_in=games.get(row["died_in"]) if row["died_in"] else None,
            current=row["current"])
    TitleAward.objects.bulk_create([
        TitleAward(king=kings[(t["kingdom"], t["reign"])], code=t["code"],
                   game=games.get(t["game"]) if t["game"] else None) for t in plan.titles])
    items: dict[tuple[str, str], CrateItem] = {}
    for i in plan.crate_items:
        item = CrateItem.objects.create(
            king=kings[(i["kingdom"], i["reign"])], name=i["name"], kind=i["kind"],
            effect=i["effect"], status=i["status"],
            game=games.get(i["game"]) if i["game"] else None)
        items.setdefault((i["kingdom"], i["name"]), item)
    for g in plan.games:
        for p in g["participants"]:
            Participant.objects.create(
                game=games[g["number"]], kingdom=k[p["kingdom"]],
                king=kings.get((p["kingdom"], p["king_reign"])) if p["king_reign"] else None,
                side=p["side"], faction=p["faction"], supply=p["supply"],
                declared_title=p["declared_title"], title_variant=p["title_variant"],
                declared_crate=items.get((p["kingdom"], p["declared_crate"]))
                if p["declared_crate"] else None,
                result=p["result"], king_outcome=p["king_outcome"], report=p["report"],
                report_status=p["report_status"], gm_yes=p["gm_yes"],
                titles_taken=p["titles_taken"], table=p["table"])
    Spend.objects.bulk_create([
        Spend(campaign=campaign, kingdom=k[s["kingdom"]], code=s["code"],
              game=games.get(s["game"]) if s["game"] else None,
              bought_before=s["bought_before"], target=s["target"],
              contested=s["contested"], roll=s["roll"]) for s in plan.spends])
    TerritoryRecord.objects.bulk_create([
        TerritoryRecord(
            campaign=campaign, territory=r["territory"],
            game=games.get(r["game"]) if r["game"] else None, before_state=r["before_state"],
            before_owner=k[r["before_owner"]] if r["before_owner"] else None,
            after_state=r["after_state"],
            after_owner=k[r["after_owner"]] if r["after_owner"] else None,
            cause=r["cause"], rule_id=r["rule_id"], event=context.event(r["event"]))
        for r in plan.records])
    CostType.objects.bulk_create([
        CostType(campaign=campaign, rule_id=c["cost"], types=c["types"])
        for c in plan.cost_types])
    Trade.objects.bulk_create([
        Trade(game=games[t["game"]], offerer=k[t["offerer"]], receiver=k[t["receiver"]],
              gives=t["gives"], gets=t["gets"], zones_touch=t["zones_touch"],
              ransom=t["ransom"], turn=t["turn"], status=t["status"]) for t in plan.trades])
    AutoBattle.objects.bulk_create([
        AutoBattle(game=games[b["game"]], attacker=k[b["attacker"]], defender=k[b["defender"]],
                   turn=b["turn"], step=b["step"], data=b["data"]) for b in plan.battles])
