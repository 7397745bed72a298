"""War of Kings' section of a campaign file (campaign.transfer.sections describes the hook).

In the file it is ``campaign.systems["war-of-kings"]``. Version 1 holds:

- ``armies``: army tokens, by ``number``, with ``owner`` and ``culture`` (kingdom names; null
  for the Malador), ``tile``, ``damage`` (0 to 3), ``ready``, ``raised_round`` and
  ``came_from`` (a tile label or null);
- ``battles``: offers of battle, by ``number``, with ``tile``, ``attacker`` (a kingdom name or
  null for the Malador), ``round``, ``status`` and ``data`` (army numbers and kingdom names
  only, never database ids);
- ``cards``: Event Cards in hands and played, with ``holder`` (a kingdom name), ``name``,
  ``effect``, ``drawn_round`` and ``played_round`` (null while in the hand);
The board is in the core's tiles: a settlement's culture in a tile's ``data`` is the seat
number of its kingdom (the core's kingdom ``order_position``) or ``"malador"``, never an id.

Kingdom ids in the campaign's running state (lead, active player, the exclusive achievement
holders, the winner) are references the core rewrites (``JSON_REFS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign.models import Campaign
from campaign.systems.war_of_kings.models import Army, Battle, Card
from campaign.transfer.base import ImportRefused, Node, RefRule, Refs, RefSpec, bulk_create, unique
from campaign.transfer.sections import PlanContext, WriteContext

SECTION_VERSION = 1

JSON_REFS: dict[str, Any] = {
    "campaign.state": RefSpec((
        RefRule(("lead",), "kingdom"),
        RefRule(("active",), "kingdom"),
        RefRule(("winner",), "kingdom"),
        RefRule(("tied", "*"), "kingdom"),
        RefRule(("holders", "master_merchant"), "kingdom"),
        RefRule(("holders", "warlord"), "kingdom"),
    )),
}


def export_section(campaign: Campaign, refs: Refs) -> dict[str, Any]:
    """Armies, battles and Event Cards, each list in order."""
    armies = [
        {"number": a.number, "owner": a.owner.name if a.owner else None,
         "culture": a.culture.name if a.culture else None, "tile": a.tile.label,
         "damage": a.damage, "ready": a.ready, "raised_round": a.raised_round,
         "came_from": a.came_from.label if a.came_from else None}
        for a in Army.objects.filter(campaign=campaign).select_related(
            "owner", "culture", "tile", "came_from").order_by("number")
    ]
    battles = [
        {"number": b.number, "tile": b.tile.label,
         "attacker": b.attacker.name if b.attacker else None, "round": b.round,
         "status": b.status, "data": b.data}
        for b in Battle.objects.filter(campaign=campaign).select_related(
            "tile", "attacker").order_by("number")
    ]
    cards = [
        {"holder": c.holder.name, "name": c.name, "effect": c.effect,
         "drawn_round": c.drawn_round, "played_round": c.played_round}
        for c in Card.objects.filter(campaign=campaign).select_related("holder").order_by("pk")
    ]
    return {"armies": armies, "battles": battles, "cards": cards}


@dataclass
class SectionPlan:
    armies: list[dict[str, Any]] = field(default_factory=list)
    battles: list[dict[str, Any]] = field(default_factory=list)
    cards: list[dict[str, Any]] = field(default_factory=list)


def plan_section(node: Node, context: PlanContext) -> SectionPlan:
    """Check armies (unique numbers, damage 0 to 3, tiles and kingdoms of the file) and battles
    (unique numbers, tiles and kingdoms of the file)."""
    plan = SectionPlan()
    seen: dict[Any, str] = {}
    for item in node.nodes("armies", default=[]):
        number = item.integer("number", minimum=1, maximum=2**31 - 1)
        unique(seen, number, item.path, f"army {number}")
        plan.armies.append({
            "number": number,
            "owner": context.kingdom(item, "owner", null=True),
            "culture": context.kingdom(item, "culture", null=True),
            "tile": context.tile(item, "tile"),
            "damage": item.integer("damage", minimum=0, maximum=3, default=0),
            "ready": item.boolean("ready", default=True),
            "raised_round": item.integer("raised_round", minimum=1, maximum=2**31 - 1,
                                         default=None, null=True),
            "came_from": context.tile(item, "came_from", null=True),
        })
    seen = {}
    for item in node.nodes("battles", default=[]):
        number = item.integer("number", minimum=1, maximum=2**31 - 1)
        unique(seen, number, item.path, f"battle {number}")
        plan.battles.append({
            "number": number, "tile": context.tile(item, "tile"),
            "attacker": context.kingdom(item, "attacker", null=True),
            "round": item.integer("round", minimum=1, maximum=2**31 - 1),
            "status": item.choice("status", [s.value for s in Battle.Status]),
            "data": item.obj("data", default={}),
        })
    for item in node.nodes("cards", default=[]):
        plan.cards.append({
            "holder": context.kingdom(item, "holder"),
            "name": item.text("name", max_length=60),
            "effect": item.text("effect", max_length=300, default=""),
            "drawn_round": item.integer("drawn_round", minimum=1, maximum=2**31 - 1),
            "played_round": item.integer("played_round", minimum=1, maximum=2**31 - 1,
                                         default=None, null=True),
        })
    if len(plan.armies) > 100_000 or len(plan.battles) > 100_000 or len(plan.cards) > 100_000:
        raise ImportRefused("campaign.systems.war-of-kings: too many rows.")
    return plan


def write_section(plan: SectionPlan, context: WriteContext) -> None:
    """Write armies, battles and cards."""
    campaign, kingdoms, tiles = context.campaign, context.kingdoms, context.tiles
    bulk_create(Army, [
        Army(campaign=campaign, number=a["number"],
             owner=kingdoms[a["owner"]] if a["owner"] else None,
             culture=kingdoms[a["culture"]] if a["culture"] else None,
             tile=tiles[a["tile"]], damage=a["damage"], ready=a["ready"],
             raised_round=a["raised_round"],
             came_from=tiles[a["came_from"]] if a["came_from"] else None)
        for a in plan.armies
    ])
    bulk_create(Battle, [
        Battle(campaign=campaign, number=b["number"], tile=tiles[b["tile"]],
               attacker=kingdoms[b["attacker"]] if b["attacker"] else None, round=b["round"],
               status=b["status"], data=b["data"])
        for b in plan.battles
    ])
    bulk_create(Card, [
        Card(campaign=campaign, holder=kingdoms[c["holder"]], name=c["name"], effect=c["effect"],
             drawn_round=c["drawn_round"], played_round=c["played_round"])
        for c in plan.cards
    ])
