"""The campaign's unit catalogue: the GM adds, changes, removes and imports unit profiles, each
write one chronicle event the GM can undo. Players read it and pick from it when they write a
list (a picked profile fills the unit's fields, which stay theirs to change).

The catalogue is public to the campaign's members: profiles are the printed rules of units,
not anyone's secret. Its events are public for the same reason.
"""

from __future__ import annotations

from typing import Any, Iterable

from django.db import transaction

from battles.models import UnitProfile
from battles.rules.catalogue import ProfileEntry, as_line
from campaign.chronicle import Recorder
from campaign.locking import lock_campaign
from campaign.models import Campaign
from campaign.services import ServiceError


def entry_of(profile: UnitProfile) -> ProfileEntry:
    return ProfileEntry(name=profile.name, unit_type=profile.unit_type, points=profile.points,
                        base_us=profile.base_us, stats=profile.stats,
                        special_rules=profile.special_rules)


def _fields(entry: ProfileEntry) -> dict[str, Any]:
    return {"name": entry.name, "unit_type": entry.unit_type, "points": entry.points,
            "base_us": entry.base_us, "stats": entry.stats,
            "special_rules": entry.special_rules}


def _same(campaign: Campaign, entry: ProfileEntry,
          exclude: int | None = None) -> UnitProfile | None:
    rows = UnitProfile.objects.filter(campaign=campaign, name__iexact=entry.name,
                                      unit_type__iexact=entry.unit_type)
    if exclude is not None:
        rows = rows.exclude(pk=exclude)
    return rows.first()


def _taken(entry: ProfileEntry) -> ServiceError:
    return ServiceError(f"The catalogue already has {entry.name} ({entry.unit_type}): change "
                        "that profile, or give this one another name or type.")


def add_profile(campaign: Campaign, entry: ProfileEntry, user: Any) -> UnitProfile:
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        if _same(campaign, entry) is not None:
            raise _taken(entry)
        with Recorder(campaign, user, "catalogue.added",
                      f"Unit profile added to the catalogue: {as_line(entry)}.") as rec:
            profile = UnitProfile(campaign=campaign, **_fields(entry))
            rec.create(profile)
    return profile


def update_profile(profile: UnitProfile, entry: ProfileEntry, user: Any) -> UnitProfile:
    with transaction.atomic():
        campaign = lock_campaign(profile.campaign)
        profile = UnitProfile.objects.select_for_update().get(pk=profile.pk)
        if _same(campaign, entry, exclude=profile.pk) is not None:
            raise _taken(entry)
        if entry_of(profile) == entry:
            raise ServiceError("Nothing to change: the profile already reads so.")
        with Recorder(campaign, user, "catalogue.changed",
                      f"Unit profile {profile.name} ({profile.unit_type}) changed: "
                      f"{as_line(entry)}.") as rec:
            rec.update(profile, **_fields(entry))
    return profile


def remove_profile(profile: UnitProfile, user: Any) -> None:
    with transaction.atomic():
        campaign = lock_campaign(profile.campaign)
        profile = UnitProfile.objects.select_for_update().filter(pk=profile.pk).first()
        if profile is None:
            raise ServiceError("That profile is no longer in the catalogue.")
        with Recorder(campaign, user, "catalogue.removed",
                      f"Unit profile {profile.name} ({profile.unit_type}) removed from the "
                      "catalogue. Lists that used it keep their units.") as rec:
            rec.delete(profile)


def import_profiles(campaign: Campaign, entries: Iterable[ProfileEntry],
                    user: Any) -> tuple[int, int, int]:
    """Add the profiles that are new and change those the catalogue holds under the same name
    and type, in one event. Returns (added, changed, unchanged)."""
    entries = list(entries)
    if not entries:
        raise ServiceError("There is no profile to import: every line is empty or a comment.")
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        existing = {entry_of(p).key: p for p in
                    UnitProfile.objects.select_for_update().filter(campaign=campaign)
                    .order_by("pk")}
        new = [e for e in entries if e.key not in existing]
        different = [e for e in entries if e.key in existing and entry_of(existing[e.key]) != e]
        unchanged = len(entries) - len(new) - len(different)
        if not new and not different:
            raise ServiceError("Nothing to import: every profile is in the catalogue already, "
                               "as given.")
        parts = [f"{len(new)} added", f"{len(different)} changed"]
        if unchanged:
            parts.append(f"{unchanged} already as given")
        with Recorder(campaign, user, "catalogue.imported",
                      "Unit catalogue imported: " + ", ".join(parts) + ".") as rec:
            for entry in different:
                rec.update(existing[entry.key], **_fields(entry))
            if new:
                rec.create_many(UnitProfile, [UnitProfile(campaign=campaign, **_fields(e))
                                              for e in new])
        added, changed = len(new), len(different)
    return added, changed, unchanged


def profiles_of(campaign: Campaign) -> list[UnitProfile]:
    return list(UnitProfile.objects.filter(campaign=campaign).order_by("name", "unit_type", "pk"))
