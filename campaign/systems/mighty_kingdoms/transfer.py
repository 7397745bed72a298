"""Mighty Kingdoms' section of a campaign file (campaign.transfer.sections describes the hook).

The section holds the tables of this system's app: ships, the orders of summer months, winter
tithes and purchases, and the advanced modules' artefacts and Wizard's quests. In the file it is
``campaign.systems["mighty-kingdoms"]``; files before version 3 kept the same lists at the top
level of ``campaign``, and are read as section version 1. docs/campaign-file.md describes every
field.

Version 1 (the only one so far): ``ships``, ``orders``, ``tithes``, ``purchases``, ``artefacts``
and ``quests``, each optional (an empty list when left out).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from campaign.models import Campaign
from campaign.systems.mighty_kingdoms.models import (
    Artefact,
    Order,
    Purchase,
    Ship,
    Tithe,
    WizardQuest,
)
from campaign.transfer.base import (
    UNIT_PATH,
    ImportRefused,
    Node,
    RefRule,
    Refs,
    RefSpec,
    army_ref,
    battle_key,
    bulk_create,
    max_length,
    ref_spec,
    row_unit_ref,
    split_ref,
    unique,
)
from campaign.transfer.sections import PlanContext, WriteContext

SECTION_VERSION = 1

_PLAY_KINGDOMS = RefRule(("play", "sides", "*", "kingdom"), "kingdom")

# Where this system's JSON values hold database ids (campaign.transfer.base.JsonRefs): the core's
# fields, and "order.outcome" of this section's orders.
JSON_REFS: dict[str, Any] = {
    "campaign.state": RefSpec((
        RefRule((), "kingdom", keys=True, prefix="settled:"),
        RefRule(("winter", "recall"), "kingdom", keys=True),
        RefRule(("winter", "cycles", "*", "*", 0), "kingdom"),
        RefRule(("winter", "fed"), "kingdom", keys=True),
        RefRule(("winter", "deploy", "order", "*"), "kingdom"),
        RefRule(("winter", "deploy", "rolls"), "kingdom", keys=True),
        RefRule(("winter", "deploy", "placed"), "army", keys=True),
        RefRule(("winter", "deploy", "last"), "kingdom"),
        RefRule(("winter", "deploy", "done", "*"), "kingdom"),
    )),
    "order.outcome": RefSpec((RefRule(("control", "*"), "kingdom"),), tokens=True),
    "battle.data": RefSpec((
        RefRule(("defended", "kingdom"), "kingdom"),
        RefRule(("retreats", "*", "kingdom"), "kingdom"),
        RefRule(("control", "*"), "kingdom"),
        RefRule(("winner_move", "kingdom"), "kingdom"),
        RefRule(("unit_results",), "unit", keys=True),
        _PLAY_KINGDOMS,
    ), tokens=True),
    "event.data": {
        "winter.tithe": RefSpec((RefRule(("giver",), "kingdom"),
                                 RefRule(("receiver",), "kingdom"))),
        "army_list.": RefSpec((RefRule(("army",), "army"),)),
        "unit_strength.": RefSpec((RefRule(("battle",), "battle"),)),
        "winter.quest": RefSpec((RefRule(("hero",), "unit"),)),
        "summer.battle_result": RefSpec((RefRule(("battle",), "battle"), _PLAY_KINGDOMS),
                                        tokens=True),
    },
}

_ARTEFACT_RESULTS = (
    WizardQuest.Result.ARTEFACT,
    WizardQuest.Result.GREAT_ARTEFACT,
    WizardQuest.Result.RARE_ARTEFACT,
)


# == export =======================================================================================


def export_refs(campaign: Campaign) -> dict[str, dict[int, str]]:
    """Ships, the one kind of reference this section defines: "<kingdom>#<number>"."""
    return {"ship": {
        pk: army_ref(name, number)
        for pk, name, number in Ship.objects.filter(campaign=campaign)
        .values_list("pk", "kingdom__name", "number")
    }}


def export_section(campaign: Campaign, refs: Refs) -> dict[str, Any]:
    """Ships, orders, tithes, purchases, artefacts and quests, each list sorted."""
    return {
        "ships": _export_ships(campaign),
        "orders": _export_orders(campaign, refs),
        "tithes": _export_tithes(campaign),
        "purchases": _export_purchases(campaign),
        "artefacts": _export_artefacts(campaign),
        "quests": _export_quests(campaign),
    }


def _export_ships(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Ship.objects.filter(campaign=campaign).values(
        "kingdom__name", "number", "tile__label", "on_side", "paired_army__number",
        "paired_army__kingdom__name", "data",
    )
    ships = []
    for row in rows:
        ship = {
            "kingdom": row["kingdom__name"],
            "number": row["number"],
            "tile": row["tile__label"],
            "on_side": row["on_side"],
            "paired_army": row["paired_army__number"],
            "data": row["data"],
        }
        army_kingdom = row["paired_army__kingdom__name"]
        if army_kingdom is not None and army_kingdom != row["kingdom__name"]:
            # Only written for the (unusual) ship carrying another kingdom's army.
            ship["paired_army_kingdom"] = army_kingdom
        ships.append(ship)
    return sorted(ships, key=lambda s: (s["kingdom"], s["number"]))




def _export_orders(campaign: Campaign, refs: Refs) -> list[dict[str, Any]]:
    spec = ref_spec(JSON_REFS, "order.outcome")
    rows = Order.objects.filter(campaign=campaign).values(
        "kingdom__name", "year", "month", "token", "army__kingdom__name", "army__number",
        "ship__kingdom__name", "ship__number", "kind", "from_tile__label", "target__label",
        "given_seq", "resolved_seq", "outcome",
    )
    orders = []
    for row in rows:
        army, ship = row["army__number"], row["ship__number"]
        orders.append(
            {
                "kingdom": row["kingdom__name"],
                "year": row["year"],
                "month": row["month"],
                "token": refs.token(row["token"], "token"),
                "army": None if army is None else army_ref(row["army__kingdom__name"], army),
                "ship": None if ship is None else army_ref(row["ship__kingdom__name"], ship),
                "kind": row["kind"],
                "from_tile": row["from_tile__label"],
                "target": row["target__label"],
                "given_seq": row["given_seq"],
                "resolved_seq": row["resolved_seq"],
                "outcome": refs.convert(row["outcome"], spec, "outcome"),
            }
        )
    return sorted(
        orders, key=lambda o: (o["year"], o["month"], o["given_seq"], o["kingdom"],
                               o["token"] or "")
    )


def _export_tithes(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Tithe.objects.filter(campaign=campaign).values(
        "year", "giver__name", "receiver__name", "gold", "food", "event__seq",
    )
    tithes = [
        {
            "year": row["year"],
            "giver": row["giver__name"],
            "receiver": row["receiver__name"],
            "gold": row["gold"],
            "food": row["food"],
            "event": row["event__seq"],
        }
        for row in rows
    ]
    return sorted(tithes, key=lambda t: (t["year"], t["giver"], t["receiver"]))


def _export_purchases(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Purchase.objects.filter(campaign=campaign).values(
        "year", "kingdom__name", "kind", "tile_label", "from_state", "to_state", "gold", "food",
        "seq", "event__seq",
    )
    purchases = [
        {
            "year": row["year"],
            "kingdom": row["kingdom__name"],
            "kind": row["kind"],
            "tile_label": row["tile_label"],
            "from_state": row["from_state"],
            "to_state": row["to_state"],
            "gold": row["gold"],
            "food": row["food"],
            "seq": row["seq"],
            "event": row["event__seq"],
        }
        for row in rows
    ]
    return sorted(purchases, key=lambda p: (p["year"], p["seq"], p["kingdom"], p["kind"],
                                            p["tile_label"], p["event"] or 0))




def _export_artefacts(campaign: Campaign) -> list[dict[str, Any]]:
    rows = Artefact.objects.filter(campaign=campaign).values(
        "name", "points", "in_pool", *(f"holder_unit__{p}" for p in UNIT_PATH),
        "held_by_capital_of__name", "captured_in__year", "captured_in__month",
        "captured_in__seq",
    )
    artefacts = [
        {
            "name": row["name"],
            "points": row["points"],
            "in_pool": row["in_pool"],
            "holder_unit": row_unit_ref(row, "holder_unit"),
            "held_by_capital_of": row["held_by_capital_of__name"],
            "captured_in": battle_key(row, "captured_in"),
        }
        for row in rows
    ]
    return sorted(artefacts, key=lambda a: (a["name"].casefold(), a["name"]))


def _export_quests(campaign: Campaign) -> list[dict[str, Any]]:
    rows = WizardQuest.objects.filter(campaign=campaign).values(
        "year", "kingdom__name", *(f"hero__{p}" for p in UNIT_PATH), "tower__label", "die",
        "modifier", "total", "result", "artefact__name", "event__seq",
    )
    quests = [
        {
            "year": row["year"],
            "kingdom": row["kingdom__name"],
            "hero": row_unit_ref(row, "hero"),
            "tower": row["tower__label"],
            "die": row["die"],
            "modifier": row["modifier"],
            "total": row["total"],
            "result": row["result"],
            "artefact": row["artefact__name"],
            "event": row["event__seq"],
        }
        for row in rows
    ]
    return sorted(quests, key=lambda q: (q["year"], q["event"] or 0, q["kingdom"], q["tower"]))






# == import =======================================================================================


@dataclass
class SectionPlan:
    """The section, checked, with references still as natural keys."""

    ships: list[dict[str, Any]] = field(default_factory=list)
    orders: list[dict[str, Any]] = field(default_factory=list)
    tithes: list[dict[str, Any]] = field(default_factory=list)
    purchases: list[dict[str, Any]] = field(default_factory=list)
    artefacts: list[dict[str, Any]] = field(default_factory=list)
    quests: list[dict[str, Any]] = field(default_factory=list)


def _small(node: Node, key: str, minimum: int = 0, **kwargs: Any) -> Any:
    return node.integer(key, minimum=minimum, maximum=32767, **kwargs)


def _big(node: Node, key: str, **kwargs: Any) -> Any:
    return node.integer(key, minimum=0, maximum=2**31 - 1, **kwargs)


def plan_section(node: Node, context: PlanContext) -> SectionPlan:
    """Check the section against the file's core and the rules of Mighty Kingdoms: ships carry
    armies of the file, one each; one order per token and month; one tithe per giver, receiver
    and winter; artefacts held in exactly one place; quests by a kingdom's own Heroes, with
    totals that add up and artefacts only for the artefact results."""
    plan = SectionPlan()
    plan.ships = _plan_ships(node, context)
    context.define("ship", (army_ref(s["kingdom"], s["number"]) for s in plan.ships))
    plan.orders = _plan_orders(node, context)
    plan.tithes, plan.purchases = _plan_winter(node, context)
    plan.artefacts = _plan_artefacts(node, context)
    plan.quests = _plan_quests(node, context, {a["name"] for a in plan.artefacts})
    return plan


def _plan_ships(root: Node, context: PlanContext) -> list[dict[str, Any]]:
    ships: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    carried: dict[Any, str] = {}
    for node in root.nodes("ships", default=[]):
        kingdom = context.kingdom(node, "kingdom")
        number = _small(node, "number")
        unique(seen, (kingdom, number), node.path, f"ship #{number} of {kingdom}")
        paired = _small(node, "paired_army", default=None, null=True)
        army_kingdom = context.kingdom(node, "paired_army_kingdom", null=True) or kingdom
        if paired is not None:
            if (army_kingdom, paired) not in context.armies:
                raise ImportRefused(
                    f"{node.at('paired_army')}: {army_kingdom} has no army #{paired}."
                )
            unique(carried, (army_kingdom, paired), node.at("paired_army"),
                   f"army #{paired} of {army_kingdom} (on a ship)")
        ships.append(
            {
                "kingdom": kingdom,
                "number": number,
                "tile": context.tile(node, "tile", null=True),
                "on_side": node.boolean("on_side", default=False),
                "paired_army": (army_kingdom, paired) if paired is not None else None,
                "data": node.obj("data", default={}),
            }
        )
    return ships


def _plan_orders(root: Node, context: PlanContext) -> list[dict[str, Any]]:
    orders: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("orders", default=[]):
        year, month = _big(node, "year"), _small(node, "month")
        token = node.text("token", blank=False)
        unique(seen, (year, month, token), node.at("token"),
               f"the order for {token} in year {year}, month {month}")
        order = {
            "kingdom": context.kingdom(node, "kingdom"),
            "year": year,
            "month": month,
            "token": token,
            "token_path": node.at("token"),
            "army": context.ref(node, "army", "army"),
            "ship": context.ref(node, "ship", "ship"),
            "kind": node.choice("kind", Order.Kind.values),
            "from_tile": context.tile(node, "from_tile", null=True),
            "target": context.tile(node, "target", null=True),
            "given_seq": _big(node, "given_seq"),
            "resolved_seq": _big(node, "resolved_seq", default=None, null=True),
            "outcome": node.obj("outcome", default={}),
        }
        orders.append(order)
    # Tokens and outcomes name armies and ships: checked once every ship is known.
    for node, order in zip(root.nodes("orders", default=[]), orders):
        context.check_token(order["token"], order["token_path"])
        context.check_refs(order["outcome"], "order.outcome", node.at("outcome"))
    return orders


def _plan_winter(
    root: Node, context: PlanContext
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    tithes: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("tithes", default=[]):
        year = _big(node, "year")
        giver, receiver = context.kingdom(node, "giver"), context.kingdom(node, "receiver")
        unique(seen, (year, giver, receiver), node.path,
               f"the tithe of {giver} to {receiver} in year {year}")
        tithes.append(
            {
                "year": year,
                "giver": giver,
                "receiver": receiver,
                "gold": _small(node, "gold", default=0),
                "food": _small(node, "food", default=0),
                "event": context.event(node, "event"),
            }
        )
    purchases: list[dict[str, Any]] = []
    for node in root.nodes("purchases", default=[]):
        purchases.append(
            {
                "year": _big(node, "year"),
                "kingdom": context.kingdom(node, "kingdom"),
                "kind": node.text("kind", max_length=max_length(Purchase, "kind"), blank=False),
                "tile_label": node.text(
                    "tile_label", max_length=max_length(Purchase, "tile_label"), default=""
                ),
                "from_state": node.text(
                    "from_state", max_length=max_length(Purchase, "from_state"), default=""
                ),
                "to_state": node.text(
                    "to_state", max_length=max_length(Purchase, "to_state"), default=""
                ),
                "gold": _small(node, "gold", default=0),
                "food": _small(node, "food", default=0),
                "seq": _big(node, "seq"),
                "event": context.event(node, "event"),
            }
        )
    return tithes, purchases


def _plan_artefacts(root: Node, context: PlanContext) -> list[dict[str, Any]]:
    """The pool of artefacts, and who holds each (MK advanced module)."""
    artefacts: list[dict[str, Any]] = []
    seen: dict[Any, str] = {}
    for node in root.nodes("artefacts", default=[]):
        name = node.text("name", max_length=max_length(Artefact, "name"), blank=False)
        # Names are unique ignoring case, as the database's index on lower(name) has them.
        unique(seen, name.lower(), node.at("name"), f"artefact {name!r}")
        unit = context.ref(node, "holder_unit", "unit")
        capital = context.kingdom(node, "held_by_capital_of", null=True)
        in_pool = node.boolean("in_pool", default=unit is None and capital is None)
        if in_pool and (unit is not None or capital is not None):
            raise ImportRefused(
                f"{node.at('in_pool')}: an artefact in the pool is held by nobody "
                "(holder_unit and held_by_capital_of must be null)."
            )
        if not in_pool and (unit is None) == (capital is None):
            raise ImportRefused(
                f"{node.path}: an artefact out of the pool is held by exactly one unit "
                "(holder_unit) or one capital (held_by_capital_of)."
            )
        artefacts.append(
            {
                "name": name,
                "points": _small(node, "points"),
                "in_pool": in_pool,
                "holder_unit": unit,
                "held_by_capital_of": capital,
                "captured_in": context.ref(node, "captured_in", "battle"),
            }
        )
    return artefacts


def _plan_quests(root: Node, context: PlanContext, names: set[str]) -> list[dict[str, Any]]:
    """Wizard's quests (MK advanced module): a Hero of the questing kingdom, one quest per Hero
    and winter and per kingdom, tower and winter, a d6 plus its modifier."""
    quests: list[dict[str, Any]] = []
    heroes: dict[Any, str] = {}
    towers: dict[Any, str] = {}
    for node in root.nodes("quests", default=[]):
        year = _big(node, "year")
        owner = context.kingdom(node, "kingdom")
        hero = context.ref(node, "hero", "unit", null=False)
        assert hero is not None
        if context.units[hero] != owner:
            raise ImportRefused(f"{node.at('hero')}: {hero!r} is not a unit of {owner}.")
        unique(heroes, (year, hero), node.at("hero"),
               f"the quest of unit {hero} in year {year}")
        tower = context.tile(node, "tower")
        unique(towers, (year, owner, tower), node.at("tower"),
               f"the quest of {owner} to the tower at {tower} in year {year}")
        die = _small(node, "die", minimum=1)
        if die > 6:
            raise ImportRefused(f"{node.at('die')}: a die shows 1 to 6, got {die}.")
        modifier, total = _small(node, "modifier"), _small(node, "total")
        if total != die + modifier:
            raise ImportRefused(
                f"{node.at('total')}: must be die + modifier ({die} + {modifier}), got {total}."
            )
        result = node.choice("result", WizardQuest.Result.values)
        artefact = node.optional_text("artefact")
        if artefact is not None and artefact not in names:
            raise ImportRefused(
                f"{node.at('artefact')}: no artefact {artefact!r} in this file."
            )
        if artefact is not None and result not in _ARTEFACT_RESULTS:
            raise ImportRefused(
                f"{node.at('artefact')}: a quest with the result {result!r} brings back no "
                "artefact."
            )
        quests.append(
            {
                "year": year,
                "kingdom": owner,
                "hero": hero,
                "tower": tower,
                "die": die,
                "modifier": modifier,
                "total": total,
                "result": result,
                "artefact": artefact,
                "event": context.event(node, "event"),
            }
        )
    return quests


def write_section(plan: SectionPlan, context: WriteContext) -> None:
    """Write ships, orders, tithes, purchases, artefacts and quests, in that order (orders name
    ships, quests name artefacts)."""
    campaign, kingdoms, tiles = context.campaign, context.kingdoms, context.tiles
    ships = {
        (spec["kingdom"], spec["number"]): Ship(
            campaign=campaign,
            kingdom=kingdoms[spec["kingdom"]],
            number=spec["number"],
            tile=tiles[spec["tile"]] if spec["tile"] else None,
            on_side=spec["on_side"],
            paired_army=context.armies[spec["paired_army"]] if spec["paired_army"] else None,
            data=spec["data"],
        )
        for spec in plan.ships
    }
    bulk_create(Ship, list(ships.values()))
    context.define("ship", {army_ref(*key): ship.pk for key, ship in ships.items()})

    bulk_create(Tithe, [
        Tithe(campaign=campaign, year=spec["year"], giver=kingdoms[spec["giver"]],
              receiver=kingdoms[spec["receiver"]], gold=spec["gold"], food=spec["food"],
              event=context.event(spec["event"]))
        for spec in plan.tithes
    ])
    bulk_create(Purchase, [
        Purchase(campaign=campaign, kingdom=kingdoms[spec["kingdom"]],
                 event=context.event(spec["event"]),
                 **{k: v for k, v in spec.items() if k not in ("kingdom", "event")})
        for spec in plan.purchases
    ])
    bulk_create(Order, [
        Order(
            campaign=campaign,
            kingdom=kingdoms[spec["kingdom"]],
            year=spec["year"],
            month=spec["month"],
            token=context.token(spec["token"], spec["token_path"]),
            army=context.armies[split_ref(spec["army"])] if spec["army"] else None,
            ship=ships[split_ref(spec["ship"])] if spec["ship"] else None,
            kind=spec["kind"],
            from_tile=tiles[spec["from_tile"]] if spec["from_tile"] else None,
            target=tiles[spec["target"]] if spec["target"] else None,
            given_seq=spec["given_seq"],
            resolved_seq=spec["resolved_seq"],
            outcome=context.json(spec["outcome"], "order.outcome"),
        )
        for spec in plan.orders
    ])

    # The advanced modules: the pool of artefacts with their holders, and the Wizard's quests.
    units, battles = context.units, context.battles
    artefacts = {
        spec["name"]: Artefact(
            campaign=campaign,
            name=spec["name"],
            points=spec["points"],
            in_pool=spec["in_pool"],
            holder_unit=units[spec["holder_unit"]] if spec["holder_unit"] else None,
            held_by_capital_of=(kingdoms[spec["held_by_capital_of"]]
                                if spec["held_by_capital_of"] else None),
            captured_in=battles[spec["captured_in"]] if spec["captured_in"] else None,
        )
        for spec in plan.artefacts
    }
    bulk_create(Artefact, list(artefacts.values()))
    bulk_create(WizardQuest, [
        WizardQuest(
            campaign=campaign,
            year=spec["year"],
            kingdom=kingdoms[spec["kingdom"]],
            hero=units[spec["hero"]],
            tower=tiles[spec["tower"]],
            die=spec["die"],
            modifier=spec["modifier"],
            total=spec["total"],
            result=spec["result"],
            artefact=artefacts[spec["artefact"]] if spec["artefact"] else None,
            event=context.event(spec["event"]),
        )
        for spec in plan.quests
    ])
