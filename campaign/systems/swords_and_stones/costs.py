"""The campaign's resource types for costs whose symbols the source lost (SNS-AMB-30).

The catalogue (``rules.catalogue``) is the default and keeps the printed amounts; a GM may give
each uncertain cost its resource types for the campaign (one row per cost, through the
chronicle, undoable), and set them back to the catalogue's. Prices paid at each use (planting a
Forest, an explorer...) are keyed ``SNS-UPG-X/use``. Every page that shows such a cost says the
source is uncertain and what this campaign uses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from campaign.chronicle import Recorder
from campaign.locking import lock_campaign
from campaign.models import Campaign
from campaign.systems.swords_and_stones.models import CostType
from campaign.systems.swords_and_stones.rules import econ_advance as adv
from campaign.systems.swords_and_stones.rules import holdings as hold
from campaign.systems.swords_and_stones.rules.catalogue import DEFAULT_CATALOGUE, Cost
from campaign.systems.swords_and_stones.rules.economy import RESOURCES
from campaign.systems.swords_and_stones.state import SnsError

__all__ = ["ENTRIES", "RESOURCES", "Entry", "campaign_cost", "cost_types", "note",
           "set_cost_types", "use_type"]


@dataclass(frozen=True)
class Entry:
    """One cost a GM may type (SNS-AMB-30): its key, what it is, and the source's types."""

    key: str
    area: str
    name: str
    cost: Cost


def _entries() -> tuple[Entry, ...]:
    out: list[Entry] = []
    cat = DEFAULT_CATALOGUE
    for area, items in (("Buildings", cat.buildings.values()), ("Upgrades", cat.upgrades.values()),
                        ("Units", cat.units.values())):
        for item in items:
            if item.cost.amounts and item.cost.types_uncertain:
                out.append(Entry(item.rule_id, area, item.name, item.cost))
    for code, (amount, what) in adv.USE_COSTS.items():
        upgrade = cat.upgrade(code)
        out.append(Entry(hold.USE_KEY.format(rule_id=upgrade.rule_id), "Prices per use",
                         f"{upgrade.name}: each {what}", Cost((amount,))))
    return tuple(out)


#: Every cost whose types the source lost, by key.
ENTRIES: Mapping[str, Entry] = {e.key: e for e in _entries()}


def cost_types(campaign: Campaign) -> dict[str, tuple[str | None, ...]]:
    """SNS-AMB-30: the types this campaign gives, by key (none: the catalogue's)."""
    return {key: tuple(kinds) for key, kinds in
            CostType.objects.filter(campaign=campaign).values_list("rule_id", "types")}


def use_type(campaign: Campaign, rule_id: str) -> str | None:
    """The resource this campaign pays a price per use in, if the GM gave one."""
    found = cost_types(campaign).get(hold.USE_KEY.format(rule_id=rule_id))
    return found[0] if found else None


def campaign_cost(entry: Entry, types: Mapping[str, Sequence[str | None]]) -> Cost:
    kinds = types.get(entry.key)
    return Cost(entry.cost.amounts, tuple(kinds)) if kinds else entry.cost


def note(key: str, types: Mapping[str, Sequence[str | None]]) -> str:
    """What a page says beside an uncertain cost (empty for a cost the source kept whole)."""
    entry = ENTRIES.get(key)
    if entry is None:
        return ""
    found = hold.cost_note(key, campaign_cost(entry, types), entry.cost, types)
    return found.text() if found is not None else ""


def set_cost_types(campaign: Campaign, user: Any, key: str,
                   kinds: Sequence[str | None]) -> str:
    """SNS-AMB-30: the GM gives one uncertain cost its resource types for this campaign (the
    catalogue's types again remove the campaign's row)."""
    entry = ENTRIES.get(key)
    if entry is None:
        raise SnsError(f"SNS-AMB-30: {key!r} is not a cost whose types were lost.")
    try:
        checked = hold.check_types(kinds, len(entry.cost.amounts))
    except ValueError as exc:
        raise SnsError(str(exc)) from None
    with transaction.atomic():
        locked = lock_campaign(campaign)
        row = CostType.objects.select_for_update().filter(campaign=locked, rule_id=key).first()
        default = checked == entry.cost.types
        words = ", ".join(f"{a} {k or '?'}" for a, k in zip(entry.cost.amounts, checked))
        summary = (f"{entry.name}: this campaign pays {words}"
                   + (" (the catalogue's types)" if default else "") + " (SNS-AMB-30).")
        if row is None and default:
            raise SnsError("SNS-AMB-30: nothing changes.")
        if row is not None and list(row.types) == list(checked):
            raise SnsError("SNS-AMB-30: nothing changes.")
        with Recorder(locked, user, "sns.costs", summary, data={"cost": key}) as rec:
            if default:
                rec.delete(row)
            elif row is None:
                rec.create(CostType(campaign=locked, rule_id=key, types=list(checked)))
            else:
                rec.update(row, types=list(checked))
        return summary
