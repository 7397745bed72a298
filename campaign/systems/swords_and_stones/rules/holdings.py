"""Swords & Stones: what a kingdom holds on the table during one game, as plain data.

Its buildings and foundations (SNS-ECON-41, SNS-ECON-53..56, SNS-CBT-5/6/8), the upgrades it
owns (SNS-ECON-56), its Resource Sites (SNS-ECON-21..24, SNS-STATE-5) and its die timers
(SNS-ECON-40, SNS-STATE-3). A seat at the table keeps them as JSON-ready dicts in its state; the
functions here read those dicts and return new ones, and tell what is operational
(SNS-ECON-55). The rules they apply (paying, Build Points, damage, harvests) are the economy's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from campaign.systems.swords_and_stones.rules import econ_harvest as harvest
from campaign.systems.swords_and_stones.rules.catalogue import (
    DEFAULT_CATALOGUE,
    DEFENSIVE,
    Catalogue,
    Cost,
)
from campaign.systems.swords_and_stones.rules.econ_turn import (
    Foundation,
    Timer,
    tick_timers,
    work_foundation,
)
from campaign.systems.swords_and_stones.rules.economy import RESOURCES

# --- buildings and foundations -----------------------------------------------------------------


@dataclass(frozen=True)
class Work:
    """A building of the kingdom, standing or still a foundation (``bp`` > 0 Build Points left,
    SNS-ECON-41). ``paid`` is what its foundation cost (refunded in full when it is cancelled,
    SNS-ECON-58); ``fire_turn`` the turn a fire hit it (SNS-CBT-8); ``destroyed_turn`` the turn
    it fell (SNS-CBT-5); ``staffed`` whether its staff is in it (SNS-ECON-54)."""

    id: int
    code: str
    bp: int = 0
    bp_full: int = 0
    paid: Mapping[str, int] = field(default_factory=dict)
    wounds: int = 0
    fire_turn: int | None = None
    destroyed_turn: int | None = None
    staffed: bool = True
    in_own_section: bool = True
    laid_turn: int = 0

    @property
    def complete(self) -> bool:
        return self.bp <= 0

    @property
    def standing(self) -> bool:
        """SNS-CBT-5: complete and not destroyed."""
        return self.complete and self.destroyed_turn is None

    def foundation(self) -> Foundation:
        return Foundation(self.code, self.bp, self.bp_full, self.in_own_section)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["paid"] = dict(self.paid)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Work:
        return cls(**{k: v for k, v in data.items() if k in _WORK_FIELDS})


_WORK_FIELDS = frozenset(Work.__dataclass_fields__)


def works_of(state: Mapping[str, Any]) -> list[Work]:
    """The kingdom's buildings and foundations. A seat opened before buildings were kept one by
    one has only its counts: each counted building stands, complete and staffed."""
    if "works" in state:
        return [Work.from_dict(w) for w in state["works"]]
    found: list[Work] = []
    for code, count in sorted(dict(state.get("buildings", {})).items()):
        for _ in range(int(count)):
            found.append(Work(len(found) + 1, code))
    return found


def opening_works(buildings: Mapping[str, int]) -> list[dict[str, Any]]:
    """SNS-ECON-5, SNS-ECON-9: the buildings a game starts with, standing and staffed."""
    out: list[dict[str, Any]] = []
    for code, count in buildings.items():
        for _ in range(int(count)):
            out.append(Work(len(out) + 1, code).as_dict())
    return out


def next_id(items: Sequence[Mapping[str, Any]] | Sequence[Work]) -> int:
    ids = [w.id if isinstance(w, Work) else int(w["id"]) for w in items]
    return max(ids, default=0) + 1


def standing_counts(works: Sequence[Work]) -> dict[str, int]:
    """Buildings standing by code: complete and not destroyed (prerequisites, SNS-ECON-53)."""
    counts: dict[str, int] = {}
    for work in works:
        if work.standing:
            counts[work.code] = counts.get(work.code, 0) + 1
    return counts


def fire_blocks(work: Work, turn: int) -> bool:
    """SNS-CBT-8, SNS-ECON-55: a building hit by fire is out of work the whole next turn."""
    return work.fire_turn is not None and turn == work.fire_turn + 1


def on_fire(work: Work, turn: int) -> bool:
    """The fire token lies on the building from the hit to the end of the next turn."""
    return (work.fire_turn is not None and work.destroyed_turn is None
            and work.fire_turn <= turn <= work.fire_turn + 1)


def needs_staff(code: str, catalogue: Catalogue = DEFAULT_CATALOGUE) -> bool:
    return catalogue.building(code).staffed and code != "STOCKPILE"


def working(work: Work, turn: int, idle: Collection[int] = (),
            catalogue: Catalogue = DEFAULT_CATALOGUE) -> bool:
    """SNS-ECON-55: operational unless a foundation, destroyed, unstaffed where it needs staff,
    out of work after a fire, or idle by the table's word (an enemy touching it)."""
    if not work.standing or work.id in idle or fire_blocks(work, turn):
        return False
    return work.staffed or not needs_staff(work.code, catalogue)


def operational_counts(works: Sequence[Work], turn: int, idle: Collection[int] = (),
                       catalogue: Catalogue = DEFAULT_CATALOGUE) -> dict[str, int]:
    """SNS-ECON-55: operational buildings by code, what upkeep and growth count (SNS-ECON-42,
    SNS-ECON-44)."""
    counts: dict[str, int] = {}
    for work in works:
        if working(work, turn, idle, catalogue):
            counts[work.code] = counts.get(work.code, 0) + 1
    return counts


def status(work: Work, turn: int, catalogue: Catalogue = DEFAULT_CATALOGUE) -> str:
    """A building's state in a few words, for the page."""
    building = catalogue.building(work.code)
    if work.destroyed_turn is not None:
        return f"destroyed in turn {work.destroyed_turn}"
    if not work.complete:
        return f"foundation: {work.bp} of {work.bp_full} BP left"
    words: list[str] = []
    if work.wounds and building.hp:
        words.append(f"{building.hp - work.wounds} of {building.hp} HP")
    if fire_blocks(work, turn):
        words.append("out of work this turn after a fire (SNS-CBT-8)")
    elif on_fire(work, turn):
        words.append("on fire: out of work next turn (SNS-CBT-8)")
    if needs_staff(work.code, catalogue) and not work.staffed:
        words.append("unstaffed (SNS-ECON-54)")
    return ", ".join(words) or "working"


def fire_leaves_token(code: str, catalogue: Catalogue = DEFAULT_CATALOGUE) -> bool:
    """SNS-CBT-8: defensive buildings keep working after a fire."""
    return catalogue.building(code).category != DEFENSIVE


# --- upgrades ---------------------------------------------------------------------------------


def owned_upgrades(state: Mapping[str, Any]) -> frozenset[str]:
    """SNS-ECON-56: the upgrades the kingdom owns (they stay when their building falls)."""
    return frozenset(str(u["code"]) for u in state.get("upgrades", ()))


# --- the campaign's cost types (SNS-AMB-30) ---------------------------------------------------

#: Prices paid at each use whose resource the source lost, as cost keys of their own.
USE_KEY = "{rule_id}/use"


def campaign_catalogue(types: Mapping[str, Sequence[str | None]]) -> Catalogue:
    """SNS-AMB-30: the default catalogue with the campaign's resource types (per-use prices,
    keyed ``SNS-UPG-X/use``, are not catalogue costs and are left out here)."""
    return DEFAULT_CATALOGUE.with_cost_types(
        {k: v for k, v in types.items() if "/" not in k})


@dataclass(frozen=True)
class CostNote:
    """What a page says of a cost whose types the source lost (SNS-AMB-30)."""

    rule_id: str
    amounts: tuple[int, ...]
    types: tuple[str | None, ...]
    source_types: tuple[str | None, ...]
    overridden: bool

    @property
    def unknown(self) -> int:
        return sum(1 for kind in self.types if kind is None)

    def text(self) -> str:
        parts = [f"{a} {k or '?'}" for a, k in zip(self.amounts, self.types)]
        if self.unknown:
            return (f"Cost type uncertain in the source; {self.unknown} of its amounts have no "
                    f"type yet: name them when you pay ({', '.join(parts)}; SNS-AMB-30).")
        return (f"Cost type uncertain in the source; this campaign uses {', '.join(parts)} "
                "(SNS-AMB-30).")


def cost_note(rule_id: str, cost: Cost, source: Cost,
              types: Mapping[str, Sequence[str | None]]) -> CostNote | None:
    """SNS-AMB-30: the note for ``cost`` (the campaign's) when the source's was uncertain."""
    if not source.types_uncertain or not cost.amounts:
        return None
    return CostNote(rule_id, cost.amounts, cost.types, source.types, rule_id in types)


def check_types(kinds: Sequence[str | None], amounts: int) -> tuple[str | None, ...]:
    """The types a GM gives one cost: one per printed amount, each a resource or unknown."""
    if len(kinds) != amounts:
        raise ValueError(f"This cost has {amounts} amounts; {len(kinds)} types were given "
                         "(SNS-AMB-30).")
    for kind in kinds:
        if kind is not None and kind not in RESOURCES:
            raise ValueError(f"{kind!r} is not a resource (SNS-ECON-1).")
    return tuple(kinds)


# --- Sites ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SiteRow:
    """A Resource Site the kingdom's units work (SNS-STATE-5): ``label`` as the table calls it,
    ``grows_to`` the level a planted Forest comes up at when its timer runs out
    (SNS-UPG-REFORESTATION; ``level`` is 0 while it grows)."""

    id: int
    label: str
    kind: str
    level: int
    set_name: str = "A"
    scarcity: int = 0
    secondary: str | None = None
    threshold: int | None = None
    unlimited: bool = False
    depleted: bool = False
    reforested: bool = False
    grows_to: int = 0

    @property
    def growing(self) -> bool:
        return self.grows_to > 0

    def site(self) -> harvest.Site:
        return harvest.Site(self.kind, self.level, self.label, self.set_name, self.scarcity,
                            self.secondary, self.threshold, reforested=self.reforested,
                            unlimited=self.unlimited, depleted=self.depleted)

    def with_site(self, site: harvest.Site) -> SiteRow:
        return replace(self, scarcity=site.scarcity, depleted=site.depleted)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SiteRow:
        return cls(**{k: v for k, v in data.items() if k in _SITE_FIELDS})

    def describe(self) -> str:
        if self.growing:
            return f"planted Forest, growing (comes up at level {self.grows_to})"
        words = [f"{self.kind.title()}, set {self.set_name}, level {self.level}"]
        if self.secondary:
            words.append(f"{self.secondary} on {self.threshold}+")
        if self.unlimited:
            words.append("stone never runs out")
        elif self.scarcity:
            words.append(f"{self.scarcity} scarcity")
        if self.reforested:
            words.append("events are Idle Villagers")
        if self.depleted:
            words.append("depleted, out of play")
        return ", ".join(words)


_SITE_FIELDS = frozenset(SiteRow.__dataclass_fields__)


def sites_of(state: Mapping[str, Any]) -> list[SiteRow]:
    return [SiteRow.from_dict(s) for s in state.get("sites", ())]


def new_site(sites: Sequence[SiteRow], label: str, kind: str, level: int, *,
             set_name: str = "A", secondary: str | None = None, threshold: int | None = None,
             map_type: str | None = None, middle_island: bool = False,
             at_mountain: bool = False) -> SiteRow:
    """SNS-ECON-21, SNS-STATE-5, SNS-ECON-6 with the maps' Site rules (SNS-MAP-2/3/6/8/9): a
    Site whose hidden face a unit has looked at, recorded with its level and, for an Outcrop
    holding gold or iron, the threshold of its secondary resource (SNS-ECON-23)."""
    if not 1 <= level <= 12:
        raise ValueError("A Site's level is from 1 to 12 (SNS-ECON-21).")
    if any(s.label == label for s in sites):
        raise ValueError(f"There is already a Site called {label!r}.")
    site = harvest.place_site(kind, level, code=label, secondary=secondary, threshold=threshold,
                              map_type=map_type, middle_island=middle_island,
                              at_mountain=at_mountain)
    return SiteRow(next_id([s.as_dict() for s in sites]), label, site.kind, site.level, set_name,
                   site.scarcity, site.secondary, site.threshold, site.unlimited)


# --- die timers -------------------------------------------------------------------------------


#: SNS-ECON-44, SNS-STATE-3: growth that lasts while a die timer runs (Plague -1 for 4 turns,
#: Public Executions +1 for 3, Refugees let in +2 for 5).
TIMER_GROWTH: Mapping[str, int] = {"Plague": -1, "Public Executions": 1, "Refugees": 2}


def timer_growth(state: Mapping[str, Any], turn: int) -> list[tuple[int, str]]:
    """SNS-ECON-44: the growth of the timers still running in this turn's compulsory phase
    (after they ticked), from the turn their growth starts counting (``growth_from``)."""
    out: list[tuple[int, str]] = []
    for t in state.get("timers", ()):
        amount = int(t.get("growth", 0))
        if amount and int(t["remaining"]) > 0 and turn >= int(t.get("growth_from", 0)):
            out.append((amount, f"{t['name']} (die timer, {t['remaining']} left)"))
    return out


def timers_of(state: Mapping[str, Any]) -> list[tuple[int, Timer]]:
    return [(int(t["id"]), Timer(t["name"], int(t["remaining"]), t.get("rule_id", "SNS-STATE-3"),
                                 t.get("subject", "")))
            for t in state.get("timers", ())]


def timer_dict(timer_id: int, timer: Timer, growth_from: int | None = None) -> dict[str, Any]:
    """A timer as the seat keeps it; one of ``TIMER_GROWTH`` carries its growth from the turn
    ``growth_from`` on."""
    out: dict[str, Any] = {"id": timer_id, "name": timer.name, "remaining": timer.remaining,
                           "rule_id": timer.rule_id, "subject": timer.subject}
    if timer.name in TIMER_GROWTH and growth_from is not None:
        out.update(growth=TIMER_GROWTH[timer.name], growth_from=growth_from)
    return out


def site_subject(site_id: int) -> str:
    return f"site:{site_id}"


# --- the compulsory phase's first steps -------------------------------------------------------


def work_foundations(works: Sequence[Work], workers: Mapping[int, int],
                     units: Mapping[str, int], treadmill: bool, catalogue: Catalogue,
                     name: str) -> tuple[list[Work], dict[str, int], list[str]]:
    """SNS-ECON-41, SNS-ECON-54, SNS-UPG-TREADMILL: each unit working a foundation removes 1 BP;
    a finished building that needs staff takes a Villager as its staff if there is one."""
    by_id = {w.id: w for w in works}
    for work_id, count in workers.items():
        work = by_id.get(work_id)
        if work is None or work.complete:
            raise ValueError(f"SNS-ECON-41: {name} has no foundation {work_id}.")
        if count < 0:
            raise ValueError("SNS-ECON-41: workers are 0 or more.")
    out: list[Work] = []
    units = dict(units)
    done: list[str] = []
    for work in works:
        count = workers.get(work.id, 0)
        if work.complete or not count:
            out.append(work)
            continue
        after = work_foundation(work.foundation(), count, treadmill_crane=treadmill)
        staffed = work.staffed
        if after.complete:
            name_b = catalogue.building(work.code).name
            staffed = not needs_staff(work.code, catalogue)
            if not staffed and units.get("VILLAGER", 0) > 0:
                units["VILLAGER"] -= 1
                staffed = True
            done.append(name_b + ("" if staffed else " (no Villager to staff it)"))
        out.append(Work(**{**work.as_dict(), "bp": after.bp_remaining,
                                "staffed": staffed}))
    return out, units, done


def tick(state: Mapping[str, Any], treadmill: bool, workers: Mapping[int, int],
         catalogue: Catalogue, name: str) -> tuple[dict[str, Any], list[str]]:
    """SNS-ECON-40, SNS-ECON-41, SNS-UPG-REFORESTATION: the compulsory phase's first two steps.
    Every timer ticks down by 1 and those at 0 expire (a planted Forest comes up at its level);
    then the units working foundations remove their Build Points."""
    new_state = dict(state)
    words: list[str] = []
    running: list[dict[str, Any]] = []
    sites = {s.id: s for s in sites_of(state)}
    for timer_id, timer in timers_of(state):
        kept, expired = tick_timers([timer])
        if kept:
            old = next(t for t in state["timers"] if int(t["id"]) == timer_id)
            running.append({**old, "remaining": kept[0].remaining})
            continue
        words.append(f"{timer.name} ran out")
        if timer.subject.startswith("site:"):
            site = sites.get(int(timer.subject[5:]))
            if site is not None and site.growing:
                sites[site.id] = SiteRow(**{**site.as_dict(), "level": site.grows_to,
                                                 "grows_to": 0, "reforested": True})
                words.append(f"{site.label} comes up at level {site.grows_to}")
    if "timers" in state or running:
        new_state["timers"] = running
    if sites:
        new_state["sites"] = [s.as_dict() for s in sites.values()]
    works, units, done = work_foundations(works_of(state), workers,
                                          state.get("units", {}), treadmill, catalogue, name)
    if workers:
        new_state["works"] = [w.as_dict() for w in works]
        new_state["units"] = units
        worked = sum(workers.values())
        words.append(f"{worked} units worked foundations")
    words += [f"{b} complete" for b in done]
    return new_state, words
