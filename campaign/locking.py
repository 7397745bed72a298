"""Row locks in one order, so two writers of a campaign queue instead of deadlocking.

Every writing service takes its locks in this order (docs/architecture.md, "Locking order"):

1. the campaign row (``lock_campaign``), first and always, even when the service then writes
   only one tile or one kingdom;
2. kingdoms, by ascending id (``lock_kingdoms``);
3. what they own: tiles, armies and their lists, ships, battles, balances (ascending id within
   one table).

Because every writer holds the campaign lock before anything else, writers of one campaign run
one after the other and the later locks are never contended by another writer; the order of the
later locks matters for code that runs outside a campaign's writers (management commands,
imports), which follows it too.

The campaign is locked ``FOR NO KEY UPDATE``: inserting a row that points to the campaign (an
event, an entry) takes a key-share lock on it, which a no-key lock lets through, so a writer that
inserted something before taking the lock can still take it without a lock upgrade. SQLite
ignores row locks; its IMMEDIATE transactions queue writers as a whole.
"""

from __future__ import annotations

from collections.abc import Iterable

from campaign.models import Campaign, Kingdom


def lock_campaign(campaign: Campaign | int, *, only: Iterable[str] | None = None) -> Campaign:
    """Lock the campaign row (first of every writer's locks) and return it fresh from the
    database. ``only`` reads just those fields (the lock is the same)."""
    pk = campaign.pk if isinstance(campaign, Campaign) else campaign
    rows = Campaign.objects.select_for_update(no_key=True)
    if only is not None:
        rows = rows.only(*only)
    return rows.get(pk=pk)


def lock_kingdoms(campaign: Campaign | int,
                  ids: Iterable[int] | None = None) -> dict[int, Kingdom]:
    """Lock kingdoms of a campaign whose row is already locked, by ascending id (every kingdom
    when ``ids`` is None); returns them by id."""
    pk = campaign.pk if isinstance(campaign, Campaign) else campaign
    rows = Kingdom.objects.select_for_update(no_key=True).filter(campaign_id=pk)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return {k.pk: k for k in rows.order_by("pk")}


def lock_kingdom(kingdom: Kingdom | int,
                 campaign_id: int | None = None) -> tuple[Campaign, Kingdom]:
    """The campaign, then one kingdom: the usual pair of a service that changes one kingdom.
    Raises ``Kingdom.DoesNotExist`` if the kingdom is gone."""
    pk = kingdom.pk if isinstance(kingdom, Kingdom) else kingdom
    if campaign_id is None:
        campaign_id = (kingdom.campaign_id if isinstance(kingdom, Kingdom)
                       else Kingdom.objects.values_list("campaign_id", flat=True).get(pk=pk))
    campaign = lock_campaign(campaign_id)
    row = Kingdom.objects.select_for_update(no_key=True).get(pk=pk, campaign_id=campaign.pk)
    row.campaign = campaign
    return campaign, row
