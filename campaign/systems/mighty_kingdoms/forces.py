"""Army lists, units and Unit Strength (Mighty Kingdoms, Kings of War mode): every write.

Each function loads what it needs, asks the rules (``battles/rules/mighty_kingdoms.py``) and writes
the result in one transaction, through a chronicle ``Recorder`` so a GM can undo it exactly.
Refusals raise ``ServiceError`` (``ListRefused`` when a whole list breaks the rules, with every
problem) and change nothing.

A list is a draft while its player builds it unit by unit (or pastes it); fixing it checks the
whole list and locks it (MK-SETUP-6, MK-RECRUIT-4..6). From then on only losses change it: Unit
Strength steps after Kings of War battles (MK-US-1..4) and units destroyed at Reform
(MK-REFORM-5..7). Lists are secret to their kingdom and the GMs until a battle reveals them to
every player (MK-SETUP-7); ``roster_visible`` decides, for pages and printed sheets alike.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from battles.models import Army, ArmyList, Battle, Unit, UnitStrengthEvent
from campaign import words
from campaign.access import Access
from campaign.chronicle import Recorder
from campaign.locking import lock_campaign
from campaign.models import Campaign, Kingdom, Tile, Visibility
from campaign.services import ServiceError
from campaign.systems.mighty_kingdoms.models import Artefact, Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from campaign.systems.mighty_kingdoms.rules import campaign as mk
from ledger.services import link_to_event

MAX_UNIT_POINTS = 2000
MAX_BASE_US = 10
NAME_LENGTH = 100
TYPE_LENGTH = 60


class ListRefused(ServiceError):
    """A list that breaks the campaign's list rules; ``problems`` holds every reason."""

    def __init__(self, army: Army, problems: Sequence[mkb.ListProblem]) -> None:
        self.problems = tuple(problems)
        reasons = " ".join(f"{p.message} ({p.rule})" for p in self.problems)
        super().__init__(f"The list of army #{army.number} cannot be fixed: {reasons}")


# -- reading ----------------------------------------------------------------------------------


def lists_in_use(campaign: Campaign) -> bool:
    """MK-CFG-1, MK-AMB-30: armies have Kings of War lists unless every battle is Simple."""
    options = mk.MKOptions.from_dict(campaign.options)
    return options.battle_mode == "kow" or options.allow_mode_per_battle


def simple_rosters(campaign: Campaign) -> bool:
    """MK-CFG-1, MK-AMB-30: armies carry Simple-battle roster points."""
    options = mk.MKOptions.from_dict(campaign.options)
    return options.battle_mode == "simple" or options.allow_mode_per_battle


def is_removed(army: Army) -> bool:
    """An army taken off for good keeps its row (and number) with ``data["removed"]``."""
    return bool((army.data or {}).get("removed"))


def is_allied_list(army_list: ArmyList | None) -> bool:
    """MK-RECRUIT-5: a fixed list marked allied makes its army the kingdom's allied army."""
    return army_list is not None and army_list.is_fixed and army_list.allied


def list_of(army: Army) -> ArmyList | None:
    """The army's list, or None (no query when loaded with ``select_related("army_list")``)."""
    try:
        return army.army_list
    except ArmyList.DoesNotExist:
        return None


def roster_visible(access: Access, army: Army) -> bool:
    """DESIGN 6, MK-SETUP-7: may this viewer read ``army``'s list (or Simple roster points)?

    The GMs always; the army's own player always; another player once a battle the army fought
    in has revealed its list; observers never (they see the map, not the lists).
    """
    if army.campaign_id != access.campaign.pk:
        return False
    if access.is_gm:
        return True
    if not access.is_player or access.kingdom is None:
        return False
    if army.kingdom_id == access.kingdom.pk:
        return True
    army_list = list_of(army)
    return army_list is not None and army_list.revealed_at_battle_id is not None


def entry_of(unit: Unit) -> mkb.UnitEntry:
    """The rules' view of a unit row."""
    return mkb.UnitEntry(
        name=unit.name,
        unit_type=unit.unit_type,
        points=unit.points,
        base_us=unit.base_us,
        keywords=frozenset(unit.keywords or ()),
        magic_item=unit.magic_item or None,
        living_legend=unit.living_legend,
        allied=unit.allied,
        stats=unit.stats,
        special_rules=unit.special_rules,
    )


@dataclass(frozen=True)
class HistoryStep:
    """One pencil mark on a unit (MK-US-4): where it came from, the change and the new total."""

    label: str
    delta: int
    total: int | None
    reason: str


@dataclass(frozen=True)
class UnitStatus:
    """A unit as its list shows it: base and total Unit Strength, the clamped value it fights
    at in its next battle (MK-US-5/6) and every change since the list was written."""

    unit: Unit
    total: int | None
    in_battle: int | None
    history: tuple[HistoryStep, ...]

    @property
    def destroyed(self) -> bool:
        return self.unit.destroyed


def _event_label(event: UnitStrengthEvent) -> str:
    if event.battle_id is not None and event.battle is not None:
        battle = event.battle
        return f"Battle at {battle.tile.label}, year {battle.year} month {battle.month}"
    where = f"Year {event.year} {event.season}".strip()
    return f"{where} ({event.get_reason_display()})"


def unit_statuses(units: Sequence[Unit]) -> list[UnitStatus]:
    """MK-US-4..6 for ``units``: totals, clamped values and pencil history, in two queries at
    most (the units' events with their battles' tiles)."""
    events: dict[int, list[UnitStrengthEvent]] = defaultdict(list)
    if units:
        for event in (UnitStrengthEvent.objects.filter(unit__in=[u.pk for u in units])
                      .select_related("battle__tile").order_by("pk")):
            events[event.unit_id].append(event)
    statuses = []
    for unit in units:
        steps = []
        total = unit.base_us
        for event in events[unit.pk]:
            total = None if total is None else total + event.delta
            steps.append(HistoryStep(_event_label(event), event.delta, total,
                                     event.get_reason_display()))
        if unit.base_us is not None:
            total = mkb.unit_strength_total(unit.base_us, [e.delta for e in events[unit.pk]])
        statuses.append(UnitStatus(
            unit=unit,
            total=total,
            in_battle=mkb.battle_unit_strength(total) if total is not None else None,
            history=tuple(steps),
        ))
    return statuses


def army_units(army: Army) -> list[dict[str, Any]]:
    """The units of an army's list in list order, as plain dicts for the printed rosters:
    ``name``, ``unit_type``, ``points``, ``unit_strength`` (total now, MK-US-5), ``us_history``
    (the totals after each change, oldest first), ``magic_item``, ``in_battle`` (MK-US-6),
    ``base_us``, ``living_legend``, ``artefact`` and ``destroyed``."""
    army_list = list_of(army)
    if army_list is None:
        return []
    rows = []
    for status in unit_statuses(list(army_list.units.all())):
        unit = status.unit
        rows.append({
            "name": unit.name,
            "unit_type": unit.unit_type,
            "points": unit.points,
            "unit_strength": status.total,
            "us_history": [step.total for step in status.history if step.total is not None],
            "magic_item": unit.magic_item,
            "in_battle": status.in_battle,
            "base_us": unit.base_us,
            "living_legend": unit.living_legend,
            "artefact": unit.artefact,
            "destroyed": unit.destroyed,
            "stats": unit.stats,
            "special_rules": unit.special_rules,
        })
    return rows


def battle_armies(battle: Battle) -> list[Army]:
    """The armies that fought ``battle``: its fighting tokens as chosen (an army, or the army of
    a ship/army pair), else every army of the two kingdoms standing on its tile."""
    data = battle.data or {}
    keys = list(data.get("chooser_fighters") or []) + list(data.get("opponent_fighters") or [])
    armies = Army.objects.filter(campaign_id=battle.campaign_id,
                                 kingdom_id__in=[battle.chooser_id, battle.opponent_id])
    if not keys:
        return list(armies.filter(tile_id=battle.tile_id).select_related("kingdom", "army_list")
                    .order_by("kingdom_id", "number"))
    army_ids: list[int] = []
    ship_ids: list[int] = []
    for key in keys:
        kind, _, raw = str(key).partition(":")
        if not raw.isdigit():
            continue
        if kind == "army":
            army_ids.append(int(raw))
        elif kind == "pair":
            ship_ids.append(int(raw))
    if ship_ids:
        army_ids += [pk for pk in Ship.objects.filter(pk__in=ship_ids)
                     .values_list("paired_army_id", flat=True) if pk is not None]
    return list(armies.filter(pk__in=army_ids).select_related("kingdom", "army_list")
                .order_by("kingdom_id", "number"))


# -- checks -----------------------------------------------------------------------------------


def check_entry(entry: mkb.UnitEntry) -> list[str]:
    """What is wrong with one unit as typed (before any list rule): empty or overlong fields,
    points or Unit Strength out of range."""
    problems = []
    if not entry.name.strip():
        problems.append("Give the unit a name.")
    elif len(entry.name) > NAME_LENGTH:
        problems.append(f"A unit name has at most {NAME_LENGTH} characters.")
    if not entry.unit_type.strip():
        problems.append("Say what type of unit it is.")
    elif len(entry.unit_type) > TYPE_LENGTH:
        problems.append(f"A unit type has at most {TYPE_LENGTH} characters.")
    points = entry.points
    if isinstance(points, bool) or not isinstance(points, int) or not 0 < points <= MAX_UNIT_POINTS:
        problems.append(f"Points are a whole number from 1 to {MAX_UNIT_POINTS}.")
    base = entry.base_us
    if base is not None and (isinstance(base, bool) or not isinstance(base, int)
                             or not 0 <= base <= MAX_BASE_US):
        problems.append(f"Base Unit Strength is a whole number from 0 to {MAX_BASE_US} (MK-US-5).")
    if entry.magic_item and len(entry.magic_item) > NAME_LENGTH:
        problems.append(f"A magic item's name has at most {NAME_LENGTH} characters.")
    return problems


def _alive_units(queryset: Any) -> Any:
    return queryset.filter(destroyed_reason="")


def _kingdom_context(army: Army) -> tuple[list[mkb.ArmyList], int]:
    """The kingdom's other armies still in play, as the rules' ``ArmyList`` (their living units),
    and how many of them are not allied (MK-RECRUIT-4/5)."""
    others = [a for a in Army.objects.filter(kingdom_id=army.kingdom_id).exclude(pk=army.pk)
              .select_related("army_list") if not is_removed(a)]
    units: dict[int, list[mkb.UnitEntry]] = defaultdict(list)
    for unit in _alive_units(Unit.objects.filter(army_list__army__in=[a.pk for a in others])
                             .select_related("army_list")).order_by("position", "pk"):
        units[unit.army_list.army_id].append(entry_of(unit))
    lists = []
    non_allied = 0
    for other in others:
        # A draft's allied mark is only a plan: it counts once the list is fixed (or the army
        # was recruited as the allied army, MK-RECRUIT-5).
        allied = other.is_allied or is_allied_list(list_of(other))
        non_allied += not allied
        lists.append(mkb.ArmyList(f"#{other.number}", tuple(units[other.pk]), allied))
    return lists, non_allied


def _terrain_allowance(army: Army, starting: bool) -> tuple[bool, bool, bool]:
    """MK-ADV-2..4, MK-AMB-24: (module applies, monsters allowed, war machines allowed) for a
    winter recruit written where it was raised (its fortress)."""
    options = mk.MKOptions.from_dict(army.campaign.options)
    if not options.module_terrain_recruit or starting:
        return False, True, True
    from campaign.systems.mighty_kingdoms.state import load_state

    state = load_state(army.campaign)
    label = (army.data or {}).get("recruited_at") or (army.tile.label if army.tile else "")
    try:
        allowance = mk.recruit_allowance(label, army.kingdom_id, state.map, options)
    except (mk.RuleViolation, KeyError):
        # Not standing on a fortress of its own any more: nothing lifts the restrictions.
        return True, False, False
    return True, allowance.monsters, allowance.war_machines


def list_problems(army: Army, entries: Sequence[mkb.UnitEntry], *,
                  allied: bool) -> tuple[mkb.ListProblem, ...]:
    """Every reason the list ``entries`` may not be fixed for ``army`` (empty when it may):
    MK-SETUP-6 (500 points, no allies, army #1 is the starting army), MK-RECRUIT-4/5 (Living
    Legends and magic items once per kingdom, the allied army), MK-ADV-2..5 when the module is
    on (winter recruits only, MK-RECRUIT-9, MK-AMB-24), and a base Unit Strength for every unit
    so it can be tracked (MK-US-5)."""
    starting = army.number == 1
    others, non_allied = _kingdom_context(army)
    advanced, monsters, war_machines = _terrain_allowance(army, starting)
    problems = list(mkb.validate_army_list(
        entries,
        starting=starting,
        kingdom_other_lists=others,
        allied_army=allied,
        non_allied_army_count=non_allied,
        advanced_module=advanced,
        terrain_allows_monsters=monsters,
        terrain_allows_war_machines=war_machines,
    ))
    for index, entry in enumerate(entries):
        if entry.base_us is None:
            problems.append(mkb.ListProblem(
                "MK-US-5", f"{entry.name or f'unit {index + 1}'}: give its base Unit Strength "
                "from its Kings of War profile.", index))
    return tuple(problems)


# -- writing a list ---------------------------------------------------------------------------


def _clock(campaign: Campaign) -> dict[str, Any]:
    return {"year": campaign.year, "season": campaign.season, "month": campaign.month,
            "phase": campaign.phase}


def _title(army: Army) -> str:
    return f"{army.kingdom.name}'s army #{army.number}"


def _lock(army: Army) -> tuple[Campaign, Army]:
    """Lock the campaign (list checks read the whole kingdom, artefacts the whole campaign),
    then reload the army as it is now."""
    campaign = lock_campaign(army.campaign_id)
    fresh = Army.objects.select_related("kingdom", "tile", "army_list").get(pk=army.pk)
    fresh.campaign = campaign
    return campaign, fresh


def _editable_list(campaign: Campaign, army: Army) -> ArmyList | None:
    """The army's draft list (None before its first unit), or a refusal: a fixed list, and a
    list a battle has revealed, change only through losses (MK-SETUP-6/7, MK-RECRUIT-6)."""
    if not lists_in_use(campaign):
        raise ServiceError("This campaign fights Simple battles: armies have points rosters, "
                           "not army lists (MK-SETUP-6).")
    if is_removed(army):
        raise ServiceError(f"Army #{army.number} has left play; its list cannot change.")
    army_list = list_of(army)
    if army_list is not None and army_list.revealed_at_battle_id is not None:
        raise ServiceError(f"Army #{army.number} has fought: its list was revealed and fixed "
                           "with the battle, and only losses change it now (MK-SETUP-7, "
                           "MK-RECRUIT-6).")
    if army_list is not None and army_list.is_fixed:
        raise ServiceError(f"The list of army #{army.number} is fixed: only losses change it "
                           "now (MK-SETUP-6, MK-RECRUIT-6).")
    return army_list


def _draft(rec: Recorder, campaign: Campaign, army: Army) -> ArmyList:
    army_list = list_of(army)
    if army_list is None:
        army_list = ArmyList(army=army, allied=army.is_allied, **_clock(campaign))
        rec.create(army_list)
        army.army_list = army_list
    return army_list


def _unit_row(army_list: ArmyList, position: int, entry: mkb.UnitEntry) -> Unit:
    return Unit(
        army_list=army_list,
        position=position,
        name=entry.name.strip(),
        unit_type=entry.unit_type.strip(),
        points=entry.points,
        base_us=entry.base_us,
        keywords=sorted(entry.keywords),
        magic_item=(entry.magic_item or "").strip(),
        living_legend=entry.living_legend,
        allied=entry.allied,
        stats=entry.stats.strip(),
        special_rules=entry.special_rules.strip(),
    )


def _refuse_entry(entry: mkb.UnitEntry) -> None:
    problems = check_entry(entry)
    if problems:
        raise ServiceError(" ".join(problems))


def _describe(entry: mkb.UnitEntry | Unit) -> str:
    return f"{entry.name} ({entry.unit_type}, {entry.points} pts)"


def _list_event(campaign: Campaign, user: Any, army: Army, kind: str, summary: str) -> Recorder:
    """Draft and fixing events are the kingdom's secret (MK-SETUP-7)."""
    return Recorder(campaign, user, kind, summary, visibility=Visibility.KINGDOM,
                    kingdom=army.kingdom, data={"army": army.pk})


def _next_position(army_list: ArmyList) -> int:
    last = army_list.units.aggregate(n=Max("position"))["n"]
    return 1 if last is None else last + 1


def add_unit(army: Army, entry: mkb.UnitEntry, user: Any) -> Unit:
    """Add one unit at the end of the army's draft list (started if need be)."""
    _refuse_entry(entry)
    with transaction.atomic():
        campaign, army = _lock(army)
        _editable_list(campaign, army)
        with _list_event(campaign, user, army, "army_list.unit",
                         f"{army.kingdom.name} adds {_describe(entry)} to the draft list of "
                         f"army #{army.number}.") as rec:
            army_list = _draft(rec, campaign, army)
            unit = _unit_row(army_list, _next_position(army_list), entry)
            rec.create(unit)
    return unit


def _draft_unit(unit: Unit) -> tuple[Campaign, Army, Unit]:
    campaign, army = _lock(unit.army_list.army)
    _editable_list(campaign, army)
    fresh = Unit.objects.filter(pk=unit.pk, army_list__army=army).first()
    if fresh is None:
        raise ServiceError("That unit is no longer on the list.")
    return campaign, army, fresh


def update_unit(unit: Unit, entry: mkb.UnitEntry, user: Any) -> Unit:
    """Change a unit of a draft list."""
    _refuse_entry(entry)
    with transaction.atomic():
        campaign, army, unit = _draft_unit(unit)
        new = _unit_row(unit.army_list, unit.position, entry)
        values = {f: getattr(new, f) for f in ("name", "unit_type", "points", "base_us",
                                               "keywords", "magic_item", "living_legend",
                                               "allied", "stats", "special_rules")}
        with _list_event(campaign, user, army, "army_list.unit",
                         f"{army.kingdom.name} changes {unit.name} to {_describe(entry)} in the "
                         f"draft list of army #{army.number}.") as rec:
            rec.update(unit, **values)
    return unit


def copy_unit(unit: Unit, user: Any) -> Unit:
    """Add a copy of a unit at the end of its draft list; the copy carries no magic item, since
    magic items are unique across the kingdom (MK-RECRUIT-4)."""
    with transaction.atomic():
        campaign, army, unit = _draft_unit(unit)
        copy = Unit(army_list=unit.army_list, position=_next_position(unit.army_list),
                    name=unit.name, unit_type=unit.unit_type, points=unit.points,
                    base_us=unit.base_us, keywords=list(unit.keywords or []), magic_item="",
                    living_legend=unit.living_legend, allied=unit.allied, stats=unit.stats,
                    special_rules=unit.special_rules)
        with _list_event(campaign, user, army, "army_list.unit",
                         f"{army.kingdom.name} copies {unit.name} in the draft list of army "
                         f"#{army.number}.") as rec:
            rec.create(copy)
    return copy


def remove_unit(unit: Unit, user: Any) -> None:
    """Take a unit off a draft list (a fixed list loses units only through the rules)."""
    with transaction.atomic():
        campaign, army, unit = _draft_unit(unit)
        with _list_event(campaign, user, army, "army_list.unit",
                         f"{army.kingdom.name} removes {unit.name} from the draft list of army "
                         f"#{army.number}.") as rec:
            rec.delete(unit)


def _set_details(rec: Recorder, army: Army, army_list: ArmyList, race: str | None,
                 allied: bool | None, **extra: Any) -> None:
    """The list's name and allied mark (and ``extra`` fields). The army token becomes the
    kingdom's allied army only when the list is fixed (``fixed_at`` in ``extra``): a draft's
    mark is a plan that counts for nothing yet (MK-RECRUIT-5)."""
    values: dict[str, Any] = dict(extra)
    if race is not None and race.strip() != army_list.race:
        values["race"] = race.strip()[:80]
    if allied is not None and allied != army_list.allied:
        values["allied"] = allied
    if values:
        rec.update(army_list, **values)
    if army_list.is_fixed and army_list.allied != army.is_allied:
        rec.update(army, is_allied=army_list.allied)


def _fix(rec: Recorder, army: Army, army_list: ArmyList, entries: Sequence[mkb.UnitEntry],
         race: str | None, allied: bool | None) -> None:
    is_allied = army_list.allied if allied is None else allied
    problems = list_problems(army, entries, allied=is_allied)
    if problems:
        raise ListRefused(army, problems)
    _set_details(rec, army, army_list, race, allied, fixed_at=timezone.now())


def write_army_list(army: Army, entries: Sequence[mkb.UnitEntry], user: Any, *,
                    race: str | None = None, allied: bool | None = None,
                    fix: bool = False) -> ArmyList:
    """Replace the units of the army's draft list with ``entries`` (a pasted list, say).

    With ``fix`` the whole list is checked first (``list_problems``) and locked; any problem
    refuses it with every problem listed, and nothing is written.
    """
    entries = list(entries)
    for number, entry in enumerate(entries, start=1):
        problems = check_entry(entry)
        if problems:
            raise ServiceError(f"Unit {number}: {' '.join(problems)}")
    if not entries:
        raise ServiceError("The list has no units.")
    with transaction.atomic():
        campaign, army = _lock(army)
        _editable_list(campaign, army)
        points = mkb.list_points(entries)
        verb = "writes and fixes" if fix else "writes"
        summary = (f"{army.kingdom.name} {verb} the list of army #{army.number}: "
                   f"{words.counted(len(entries), 'unit')}, {points} points"
                   + ((" (MK-SETUP-6)." if army.number == 1 else " (MK-RECRUIT-4).")
                      if fix else "."))
        with _list_event(campaign, user, army,
                         "army_list.fixed" if fix else "army_list.written", summary) as rec:
            army_list = _draft(rec, campaign, army)
            if fix:
                # Check before writing anything, so a refusal leaves the draft as it was.
                is_allied = army_list.allied if allied is None else allied
                problems = list_problems(army, entries, allied=is_allied)
                if problems:
                    raise ListRefused(army, problems)
            old = list(army_list.units.all())
            if old:
                rec.delete_many(Unit.objects.filter(pk__in=[u.pk for u in old]))
            for position, entry in enumerate(entries, start=1):
                rec.create(_unit_row(army_list, position, entry))
            if fix:
                _set_details(rec, army, army_list, race, allied, fixed_at=timezone.now())
            else:
                _set_details(rec, army, army_list, race, allied)
    return army_list


def fix_army_list(army: Army, user: Any, *, race: str | None = None,
                  allied: bool | None = None) -> ArmyList:
    """MK-SETUP-6, MK-RECRUIT-4..6: check the draft as a whole and lock it.

    Refused with every problem (``ListRefused``) when the list breaks a campaign rule.
    """
    with transaction.atomic():
        campaign, army = _lock(army)
        army_list = _editable_list(campaign, army)
        units = list(army_list.units.all()) if army_list is not None else []
        entries = [entry_of(u) for u in units]
        if army_list is None:
            raise ListRefused(army, mkb.validate_army_list((), starting=army.number == 1))
        points = mkb.list_points(entries)
        with _list_event(campaign, user, army, "army_list.fixed",
                         f"{army.kingdom.name} fixes the list of army #{army.number}: "
                         f"{words.counted(len(units), 'unit')}, {points} points "
                         "(MK-SETUP-6).") as rec:
            _fix(rec, army, army_list, entries, race, allied)
    return army_list


def set_list_details(army: Army, user: Any, *, race: str, allied: bool) -> ArmyList:
    """The draft's race (list name) and whether it is the kingdom's allied army."""
    with transaction.atomic():
        campaign, army = _lock(army)
        _editable_list(campaign, army)
        with _list_event(campaign, user, army, "army_list.written",
                         f"{army.kingdom.name} names the list of army #{army.number}"
                         f"{' (allied)' if allied else ''}.") as rec:
            army_list = _draft(rec, campaign, army)
            _set_details(rec, army, army_list, race, allied)
    return army_list


def paste_army_list(army: Army, text: str, user: Any, *, race: str | None = None,
                    fix: bool = False) -> ArmyList:
    """MK-SETUP-6: a plain-text list, one unit per line (``parse_plain_list``'s format).

    A malformed line refuses the whole text with its line number (``PasteRefused``).
    """
    parsed = mkb.parse_plain_list(text)
    if not parsed.ok:
        raise PasteRefused(parsed.errors)
    return write_army_list(army, parsed.units, user, race=race, fix=fix)


class PasteRefused(ServiceError):
    """A pasted list with malformed lines; ``errors`` holds (line number, message) pairs."""

    def __init__(self, errors: Sequence[tuple[int, str]]) -> None:
        self.errors = tuple(errors)
        lines = " ".join(f"Line {n}: {m}" if n else m for n, m in self.errors)
        super().__init__(f"Nothing was saved. {lines}")


# -- artefacts --------------------------------------------------------------------------------


def assign_artefact(unit: Unit, name: str, user: Any) -> Unit:
    """MK-ART-1/2: give a unit a magical artefact (an empty name takes it away). An artefact is
    unique across the whole campaign; its points never count (MK-ART-4)."""
    name = " ".join(name.split())[:100]
    with transaction.atomic():
        campaign, army = _lock(unit.army_list.army)
        if not mk.MKOptions.from_dict(campaign.options).module_artefacts:
            raise ServiceError("Magical artefacts are not used in this campaign (MK-CFG-3).")
        if Artefact.objects.filter(campaign=campaign).exists():
            raise ServiceError("This campaign's artefacts come from its pool: give them to units "
                               "at winter D) Deploy on the quests and artefacts page (MK-ART-2).")
        unit = Unit.objects.filter(pk=unit.pk, army_list__army=army).first()
        if unit is None or unit.destroyed or is_removed(army):
            raise ServiceError("That unit is no longer in play.")
        holdings = [
            (held.artefact.casefold(), mkb.ArtefactHolder(held.army_list.army.kingdom_id,
                                                          str(held.pk)))
            for held in _alive_units(Unit.objects.filter(army_list__army__campaign=campaign)
                                     .exclude(artefact="").exclude(pk=unit.pk)
                                     .select_related("army_list__army"))
            if not is_removed(held.army_list.army)
        ]
        if name:
            holdings.append((name.casefold(), mkb.ArtefactHolder(army.kingdom_id, str(unit.pk))))
        try:
            mkb.validate_artefact_holdings(holdings)
        except mkb.BattleError:
            raise ServiceError(f"{name} is already held by another unit; each artefact is "
                               "unique across the campaign (MK-ART-1).") from None
        what = f"gives {name} to {unit.name}" if name else f"takes {unit.artefact} from {unit.name}"
        with _list_event(campaign, user, army, "army_list.artefact",
                         f"{army.kingdom.name} {what} in army #{army.number} (MK-ART-2).") as rec:
            rec.update(unit, artefact=name)
    return unit


def holds_capital(kingdom: Kingdom) -> bool:
    """MK-GLOSS-8, MK-AMB-8: the kingdom holds its Capital City now (a city it controls)."""
    if kingdom.capital_tile_id is None:
        return False
    return Tile.objects.filter(pk=kingdom.capital_tile_id, controller_id=kingdom.pk,
                               settlement=mk.CITY).exists()


def sync_artefact_names(rec: Recorder, units: Iterable[Unit]) -> None:
    """Write the names of the artefacts each unit carries onto its row, so the army page, the
    revealed lists and the printed rosters show them (MK-ART-3)."""
    for unit in {u.pk: u for u in units}.values():
        names = "; ".join(Artefact.objects.filter(holder_unit=unit).order_by("name")
                          .values_list("name", flat=True))[:100]
        if unit.artefact != names:
            rec.update(unit, artefact=names)


def move_artefact(rec: Recorder, artefact: Artefact, holder: mkb.ArtefactHolder,
                  captured_in: Battle | None = None) -> None:
    """Put ``artefact`` where the rules sent it (MK-ART-1/2/5..8): a unit, a kingdom's Capital
    City or the pool, keeping the carriers' rows in step."""
    before = artefact.holder_unit
    if holder.in_pool:
        rec.update(artefact, in_pool=True, holder_unit=None, held_by_capital_of=None,
                   captured_in=None)
    elif holder.unit_id is None:
        rec.update(artefact, in_pool=False, holder_unit=None,
                   held_by_capital_of_id=holder.kingdom, captured_in=captured_in)
    else:
        rec.update(artefact, in_pool=False, holder_unit_id=int(holder.unit_id),
                   held_by_capital_of=None, captured_in=captured_in)
    carriers = [u for u in (before, artefact.holder_unit) if u is not None]
    sync_artefact_names(rec, carriers)


def capture_artefacts(rec: Recorder, battle: Battle, results: dict[int, str],
                      routed: Iterable[int]) -> list[str]:
    """MK-ART-5..7, MK-AMB-37: once a battle has both its result and its routed units, every
    artefact on a routed unit of the losing side goes to the winner: held by the winner's
    Capital City until the winner gives it to a suitable unit of the winning army, or back to
    the pool when the winner holds no capital. Returns the sentences for the chronicle."""
    if not mk.MKOptions.from_dict(battle.campaign.options).module_artefacts:
        return []
    winner = next((pk for pk, result in results.items() if result == mkb.Result.WIN.value), None)
    loser = next((pk for pk, result in results.items() if result == mkb.Result.LOSS.value), None)
    if winner is None or loser is None:
        return []
    carried = list(Artefact.objects.filter(
        campaign=battle.campaign, holder_unit__in=list(routed),
        holder_unit__army_list__army__kingdom_id=loser,
    ).select_related("holder_unit"))
    if not carried:
        return []
    winner_row = Kingdom.objects.get(pk=winner)
    capital = holds_capital(winner_row)
    notes = []
    for artefact in carried:
        unit = artefact.holder_unit
        assert unit is not None
        holder = mkb.capture_artefact(
            mkb.ArtefactHolder(loser, str(unit.pk)), carrier_routed=True,
            carrier_result=mkb.Result.LOSS, winner=winner, winner_unit=None,
            winner_holds_capital=capital)
        move_artefact(rec, artefact, holder, captured_in=battle)
        if holder.in_pool:
            notes.append(f"{unit.name} was routed: {artefact.name} is lost on the field, since "
                         f"{winner_row.name} holds no Capital City, and goes back to the pool "
                         "(MK-ART-5/7).")
        else:
            notes.append(f"{unit.name} was routed: {winner_row.name} captures {artefact.name}, "
                         f"kept in its Capital City until given to a unit of the winning army "
                         "(MK-ART-5/6, MK-AMB-37).")
    return notes


def capital_artefacts_taken(rec: Recorder, battle: Battle, tile: Tile, before: int | None,
                            after: int | None) -> list[str]:
    """MK-ART-8, MK-AMB-37: a battle that takes a Capital City (see ``capital_changes_hands``)."""
    return capital_changes_hands(rec, battle.campaign, tile.pk, before, after, battle=battle)


def capital_changes_hands(rec: Recorder, campaign: Campaign, tile_id: int,
                          before: int | None, after: int | None, *,
                          battle: Battle | None = None) -> list[str]:
    """MK-ART-8, MK-AMB-37: when an enemy takes a Capital City (by battle, by marching into it
    at Resolution, or as its sole army at Reform), the artefacts it keeps pass to the taker:
    kept in the taker's own capital (until given to a unit of an army that took part) or,
    without one, back to the pool. Returns the sentences for the chronicle."""
    if before is None or after is None or before == after:
        return []
    if not mk.MKOptions.from_dict(campaign.options).module_artefacts:
        return []
    loser = Kingdom.objects.get(pk=before)
    if loser.capital_tile_id != tile_id:
        return []
    kept = list(Artefact.objects.filter(campaign=campaign, held_by_capital_of=loser))
    if not kept:
        return []
    taker = Kingdom.objects.get(pk=after)
    capital = holds_capital(taker)
    for artefact in kept:
        holder = mkb.capital_taken(mkb.ArtefactHolder(loser.pk), taker=taker.pk, taker_unit=None,
                                   taker_holds_own_capital=capital)
        move_artefact(rec, artefact, holder, captured_in=battle)
    count = f"{len(kept)} artefact{'s' if len(kept) > 1 else ''}"
    if capital:
        return [f"{taker.name} takes {loser.name}'s Capital City and the {count} kept there, "
                f"now in {taker.name}'s own capital (MK-ART-8, MK-AMB-37)."]
    return [f"{taker.name} takes {loser.name}'s Capital City; the {count} kept there go back "
            "to the pool, since it holds no capital of its own (MK-ART-8, MK-AMB-37)."]


def artefacts_after_result(rec: Recorder, battle: Battle, results: dict[int, str],
                           control: tuple[int | None, int | None]) -> list[str]:
    """MK-ART-5..8 when a battle's result is entered: captures from units already recorded as
    routed (``unit_results``), and the artefacts of a Capital City the battle took."""
    routed = [pk for pk, v in unit_results_of(battle).items() if v["routed"]]
    return (capture_artefacts(rec, battle, results, routed)
            + capital_artefacts_taken(rec, battle, battle.tile, *control))


def artefacts_of_removed(rec: Recorder, battle: Battle, army_ids: Iterable[int],
                         results: dict[int, str]) -> list[str]:
    """MK-ART-5..7, MK-AMB-37: the artefacts still carried by units of the armies ``battle``
    took off the map (``mkb.destroyed_carrier_artefact`` says where each goes). Returns the
    sentences for the chronicle."""
    if not mk.MKOptions.from_dict(battle.campaign.options).module_artefacts:
        return []
    carried = list(Artefact.objects.filter(
        campaign=battle.campaign, holder_unit__army_list__army__in=list(army_ids),
    ).select_related("holder_unit__army_list__army").order_by("name"))
    if not carried:
        return []
    winner = next((pk for pk, result in results.items() if result == mkb.Result.WIN.value), None)
    kingdoms = {k.pk: k for k in Kingdom.objects.filter(campaign=battle.campaign)}
    capitals = {pk: holds_capital(k) for pk, k in kingdoms.items()}
    notes = []
    for artefact in carried:
        unit = artefact.holder_unit
        assert unit is not None
        owner = unit.army_list.army.kingdom_id
        holder, captured = mkb.destroyed_carrier_artefact(
            mkb.ArtefactHolder(owner, str(unit.pk)),
            carrier_result=mkb.Result(results.get(owner, mkb.Result.DRAW.value)),
            winner=winner, winner_holds_capital=capitals.get(winner, False),
            owner_holds_capital=capitals[owner])
        move_artefact(rec, artefact, holder, captured_in=battle if captured else None)
        lost = f"{unit.name} falls with {_title(unit.army_list.army)}"
        if captured and holder.in_pool:
            notes.append(f"{lost}: {artefact.name} is lost on the field, since "
                         f"{kingdoms[winner].name} holds no Capital City, and goes back to the "
                         "pool (MK-ART-5/7).")
        elif captured:
            notes.append(f"{lost}: {kingdoms[winner].name} captures {artefact.name}, kept in "
                         "its Capital City until given to a unit of the winning army "
                         "(MK-ART-5/6, MK-AMB-37).")
        elif holder.in_pool:
            notes.append(f"{lost}: {artefact.name} goes back to the pool, since "
                         f"{kingdoms[owner].name} holds no Capital City (MK-ART-7).")
        else:
            notes.append(f"{lost}: {artefact.name} returns to {kingdoms[owner].name}'s Capital "
                         "City until next winter (MK-ART-6).")
    return notes


# -- battles: revealing lists and Unit Strength -----------------------------------------------


def reveal_lists(battle: Battle, rec: Recorder,
                 story: list[str] | None = None) -> list[ArmyList]:
    """MK-SETUP-7, MK-RECRUIT-6: every list of an army fighting ``battle`` becomes readable by
    every player, and fixed: a draft is fixed as it stands, since its army now fights (a
    player cannot leave a list open to change it after seeing the enemy's).

    An army without a list gets an empty one, marked revealed (a Simple army's roster points).
    Lists already revealed by an earlier battle keep that battle. Written through ``rec``; a
    sentence for each draft fixed this way is added to ``story``.
    """
    revealed = []
    fixed_now = []
    now = timezone.now()
    for army in battle_armies(battle):
        army_list = list_of(army)
        if army_list is None:
            army_list = ArmyList(army=army, allied=army.is_allied, revealed_at_battle=battle,
                                 fixed_at=now, **_clock(battle.campaign))
            rec.create(army_list)
            army.army_list = army_list
        elif army_list.revealed_at_battle_id is None:
            values: dict[str, Any] = {"revealed_at_battle": battle}
            if not army_list.is_fixed:
                # Fixed unchecked, so a draft's allied mark (never checked against MK-RECRUIT-5)
                # gives way to what the token was recruited as.
                values.update(fixed_at=now, allied=army.is_allied)
                if army_list.units.exists():
                    fixed_now.append(army)
            rec.update(army_list, **values)
        else:
            continue
        revealed.append(army_list)
    if story is not None and fixed_now:
        story.append(f"The draft list{'s' if len(fixed_now) > 1 else ''} of {_names(fixed_now)} "
                     f"{'are' if len(fixed_now) > 1 else 'is'} fixed as written, since the "
                     "army now fights (MK-RECRUIT-6).")
    return revealed


def reveal_battle_lists(battle: Battle, user: Any) -> list[ArmyList]:
    """MK-SETUP-7 as an event of its own (a GM reveals the lists when the battle starts)."""
    with transaction.atomic():
        lock_campaign(battle.campaign_id)
        battle = Battle.objects.select_related("campaign", "tile", "chooser", "opponent").get(
            pk=battle.pk)
        armies = battle_armies(battle)
        if not armies:
            raise ServiceError(f"No army fights the battle at {battle.tile.label}.")
        with Recorder(battle.campaign, user, "army_list.revealed", "") as rec:
            lists = reveal_lists(battle, rec)
            if not lists:
                raise ServiceError("The lists of this battle are already revealed.")
            rec.summary = (f"The battle at {battle.tile.label} reveals the lists of "
                           f"{_names(a for a in armies)} to every player (MK-SETUP-7).")
    return lists


def _names(armies: Iterable[Army]) -> str:
    titles = [_title(a) for a in armies]
    return titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " and " + titles[-1]


def is_kow_battle(battle: Battle) -> bool:
    """MK-US-8: only Kings of War land battles change Unit Strength."""
    return battle.kind == mkb.BattleKind.LAND.value and battle.mode == "kow"


def battle_units(battle: Battle) -> list[tuple[Army, list[Unit]]]:
    """The living units of every army fighting ``battle``, army by army (two queries)."""
    armies = battle_armies(battle)
    by_list: dict[int, list[Unit]] = defaultdict(list)
    for unit in _alive_units(Unit.objects.filter(army_list__army__in=[a.pk for a in armies])):
        by_list[unit.army_list_id].append(unit)
    result = []
    for army in armies:
        army_list = list_of(army)
        result.append((army, by_list[army_list.pk] if army_list else []))
    return result


def unit_results_of(battle: Battle) -> dict[int, dict[str, bool]]:
    """What was entered for each unit of ``battle`` (unit id -> routed_enemy, routed)."""
    raw = (battle.data or {}).get("unit_results") or {}
    return {int(pk): {"routed_enemy": bool(v.get("routed_enemy")), "routed": bool(v.get("routed"))}
            for pk, v in raw.items() if str(pk).isdigit() and isinstance(v, dict)}


def require_pending(battle: Battle, campaign: Campaign) -> None:
    """Results go only to a battle of this month's Battle phase that has none yet."""
    where = f"The battle at {battle.tile.label}"
    if battle.result_chooser or battle.status != Battle.Status.PENDING:
        raise ServiceError(f"{where} is over: its result is in, so nothing more can be entered "
                           "for it (undo the result to enter it again).")
    if (campaign.season, campaign.phase) != ("summer", "C") or (
            battle.year, battle.month) != (campaign.year, campaign.month):
        raise ServiceError(f"{where} belongs to year {battle.year}, month {battle.month}; "
                           "results are entered only for this month's battles, in C) Battle.")


def parse_unit_results(post: Any) -> list[mkb.UnitBattleRecord]:
    """The per-unit part of a Kings of War result form: ``units`` (unit ids) with
    ``routed_<id>`` and ``routed_enemy_<id>`` ticked or not. A malformed id is refused."""
    records = []
    from campaign.parsing import parse_id

    for raw in post.getlist("units"):
        if str(parse_id(raw)) != raw:  # an id, written as the form writes it
            raise ServiceError("The form names a unit that is not in this battle.")
        records.append(mkb.UnitBattleRecord(
            raw, routed_enemy=post.get(f"routed_enemy_{raw}") == "on",
            routed=post.get(f"routed_{raw}") == "on"))
    return records


def apply_unit_results(rec: Recorder, battle: Battle,
                       results: Iterable[mkb.UnitBattleRecord]) -> list[str]:
    """MK-US-1..4, MK-AMB-31: each unit's +1 (first to damage and rout an enemy) and -1
    (routed), pencilled at once and effective from its next battle, written through ``rec``.

    ``results`` holds one ``UnitBattleRecord`` per unit (``unit_id`` is the unit's primary key
    as a string); units left out neither gained nor lost. No side may be credited with more
    routed enemies than the other side had units routed (MK-US-3). A unit not in the battle, a
    unit named twice or a second entry for the battle is refused. Returns the sentence for the
    chronicle; ``battle.data["unit_results"]`` keeps what was entered (for MK-ART-5 captures).
    """
    records = list(results)
    if not is_kow_battle(battle):
        if records:
            raise ServiceError("Only Kings of War land battles change Unit Strength (MK-US-8).")
        return []
    if "unit_results" in (battle.data or {}):
        raise ServiceError("This battle's unit results are already in; undo them to enter "
                           "them again.")
    fielded = battle_units(battle)
    units = {str(u.pk): (army, u) for army, us in fielded for u in us}
    if any(r.unit_id not in units for r in records):
        raise ServiceError("Only units of the armies that fought this battle can be entered.")
    if len({r.unit_id for r in records}) != len(records):
        raise ServiceError("Each unit is entered once.")
    names = {k.pk: k.name for k in Kingdom.objects.filter(
        pk__in=[battle.chooser_id, battle.opponent_id])}
    by_kingdom: dict[int, list[mkb.UnitBattleRecord]] = defaultdict(list)
    for record in records:
        by_kingdom[units[record.unit_id][0].kingdom_id].append(record)
    deltas: dict[str, tuple[int, ...]] = {}
    for kingdom_id in (battle.chooser_id, battle.opponent_id):
        enemy = battle.opponent_id if kingdom_id == battle.chooser_id else battle.chooser_id
        routed = sum(1 for r in by_kingdom[enemy] if r.routed)
        try:
            deltas.update(mkb.battle_unit_strength_deltas(by_kingdom[kingdom_id],
                                                          enemy_units_routed=routed))
        except mkb.BattleError as exc:
            raise ServiceError(f"{names.get(kingdom_id, '')}: {exc}") from None
    statuses = {str(s.unit.pk): s for s in unit_statuses([u for _, u in units.values()])}
    story = []
    for key, changes in deltas.items():
        army, unit = units[key]
        total = statuses[key].total
        after = None if total is None else total + sum(changes)
        signs = " and ".join(f"{d:+d}" for d in changes)
        story.append(f"{names[army.kingdom_id]}'s {unit.name} {signs}"
                     + (f" (now {after})" if after is not None else ""))
    created = [
        UnitStrengthEvent(unit=units[key][1], battle=battle, delta=delta,
                          reason=(UnitStrengthEvent.Reason.ROUTED_ENEMY if delta > 0
                                  else UnitStrengthEvent.Reason.ROUTED),
                          **_clock(battle.campaign))
        for key, changes in deltas.items() for delta in changes
    ]
    for row in created:
        rec.create(row)
    entered = {r.unit_id: {"routed_enemy": r.routed_enemy, "routed": r.routed} for r in records}
    rec.update(battle, data={**(battle.data or {}), "unit_results": entered})
    link_to_event(rec, created)
    return [f"Unit Strength after the battle at {battle.tile.label} (MK-US-1/2): "
            + ("; ".join(story) + "." if story else "no unit gains or loses.")]


def record_unit_results(battle: Battle, results: Iterable[mkb.UnitBattleRecord],
                        user: Any) -> list[UnitStrengthEvent]:
    """``apply_unit_results`` as an event of its own, for a pending battle before its result
    (the battle page enters both at once, as one event: ``summer_battles.enter_result``).
    Entering them also reveals the battle's lists (MK-SETUP-7). Refused for a battle that is
    not pending (its result in, or another month's), changing nothing."""
    records = list(results)
    with transaction.atomic():
        campaign = lock_campaign(battle.campaign_id)
        battle = Battle.objects.select_related("tile", "chooser", "opponent").get(pk=battle.pk)
        battle.campaign = campaign
        if not is_kow_battle(battle):
            raise ServiceError("Only Kings of War land battles change Unit Strength (MK-US-8).")
        require_pending(battle, campaign)
        with Recorder(campaign, user, "unit_strength.battle", "",
                      data={"battle": battle.pk}) as rec:
            reveal_lists(battle, rec)
            rec.summary = " ".join(apply_unit_results(rec, battle, records))
            created = [row for row in UnitStrengthEvent.objects.filter(battle=battle)
                       .select_related("unit").order_by("pk")]
    return created


# -- Reform -----------------------------------------------------------------------------------


def _note(rec: Recorder, text: str) -> None:
    # The phase-change event joins these sentences into its summary.
    rec.data.setdefault("notes", []).append(text)


def removed_mark(campaign: Campaign, reason: str, rule_id: str) -> dict[str, Any]:
    """Why and when a token left play, kept in its ``data["removed"]``."""
    return {"year": campaign.year, "season": campaign.season, "month": campaign.month,
            "phase": campaign.phase, "sub_phase": campaign.sub_phase, "reason": reason,
            "rule": rule_id}


def remove_army_for_good(rec: Recorder, army: Army, reason: str, rule_id: str) -> None:
    """Take an army out of play, keeping its row (so its number is never reused) and its list
    with its Unit Strength history; a ship carrying it sails on alone."""
    for ship in Ship.objects.filter(paired_army=army):
        rec.update(ship, paired_army=None)
    rec.update(army, tile=None, on_side=False, defending=False,
               data={**(army.data or {}), "removed": removed_mark(army.campaign, reason,
                                                                  rule_id)})


def remove_ship_for_good(rec: Recorder, ship: Ship, reason: str, rule_id: str) -> None:
    """Take a ship out of play, keeping its row (its number is never reused)."""
    rec.update(ship, tile=None, on_side=False, paired_army=None,
               data={**(ship.data or {}), "removed": removed_mark(ship.campaign, reason,
                                                                  rule_id)})


def reform_unit_strength(campaign: Campaign, rec: Recorder) -> list[str]:
    """MK-REFORM-5..7, MK-US-7: at Reform, every unit at Unit Strength -2 or lower is destroyed
    (crossed off its list); an army left without units is removed. Simple mode has no unit steps
    (MK-REFORM-8). Written through the caller's ``rec`` (the Reform close); each loss is a
    sentence in ``rec.data["notes"]``, and the sentences are returned.
    """
    if not lists_in_use(campaign):
        return []
    campaign = Campaign.objects.get(pk=campaign.pk)
    # Every list in use: a draft is fixed when its army first fights, but a quest may have
    # hurt one of its Heroes before that.
    armies = {a.pk: a for a in Army.objects.filter(campaign=campaign, army_list__isnull=False)
              .select_related("kingdom", "army_list") if not is_removed(a)}
    units = list(_alive_units(Unit.objects.filter(army_list__army__in=list(armies)))
                 .select_related("army_list"))
    by_army: dict[int, list[UnitStatus]] = defaultdict(list)
    for status in unit_statuses(units):
        by_army[status.unit.army_list.army_id].append(status)
    notes = []
    clock = {"destroyed_year": campaign.year, "destroyed_season": campaign.season,
             "destroyed_month": campaign.month, "destroyed_phase": campaign.phase}
    for army_id in sorted(by_army, key=lambda pk: (armies[pk].kingdom.name, armies[pk].number)):
        army = armies[army_id]
        army.campaign = campaign
        known = [s for s in by_army[army_id] if s.total is not None]
        check = mkb.reform_unit_strength([
            mkb.UnitStrength(str(s.unit.pk), s.unit.base_us or 0,
                             tuple(step.delta for step in s.history)) for s in known
        ])
        if not check.destroyed:
            continue
        gone = set(check.destroyed)
        for status in known:
            if str(status.unit.pk) in gone:
                rec.update(status.unit, destroyed_reason=Unit.Reason.REFORM, **clock)
                notes.append(f"{_title(army)} loses {status.unit.name}: Unit Strength "
                             f"{status.total} (MK-REFORM-5).")
        if len(gone) == len(by_army[army_id]):
            remove_army_for_good(rec, army, "reform", "MK-REFORM-7")
            notes.append(f"{_title(army)} has no unit left and is removed (MK-REFORM-7).")
    for text in notes:
        _note(rec, text)
    return notes
