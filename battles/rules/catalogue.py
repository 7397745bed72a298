"""A campaign's unit catalogue read from text or CSV: pure functions, no Django.

A profile is what a list needs of a unit before the table plays it: name, type, points, base
Unit Strength, stat line and special rules. The catalogue is imported whole or not at all:
``parse_text`` and ``parse_csv`` return every profile they read and every bad line with its
number; a caller writes nothing while ``errors`` is not empty.

Text, one profile per line (blank lines and lines starting with ``#`` are skipped)::

    name, type, points [; option]...

The last two commas end the name, so a name may hold commas. Points may be written ``145``,
``145 pts`` or ``145 points``. Options, each at most once, in any order:

- ``US 2`` (or ``US: 2``, ``US=2``): base Unit Strength, 0 to 5;
- ``stats TEXT``: the stat line (``stats Sp 4 Me 4+ Ra - De 5+ Att 12 Ne 14/16``);
- ``rules A, B`` (or ``special rules: A, B``): the special rules.

Example: ``Ironguard, regiment, 145; US 2; stats Sp 4 Me 3+ De 5+; rules Headstrong``.

CSV: a header row naming the columns, then one profile per row. ``name``, ``type`` and
``points`` are needed; ``us`` (or ``unit strength``, ``base us``), ``stats`` (or ``stat
line``) and ``rules`` (or ``special rules``) may be left out. Column names are read without
regard to case, spaces or underscores.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

NAME_LENGTH = 100
TYPE_LENGTH = 60
STATS_LENGTH = 120
RULES_LENGTH = 300
MAX_POINTS = 2000
MAX_US = 5
MAX_LINES = 1000

_POINTS = re.compile(r"^(\d{1,5})\s*(?:pts?|points?)?$", re.IGNORECASE)
_US = re.compile(r"^(?:us|unit strength)\s*[:=]?\s*(\S+)$", re.IGNORECASE)
_STATS = re.compile(r"^(?:stats|stat line)\s*[:=]?\s*(.*)$", re.IGNORECASE)
_RULES = re.compile(r"^(?:special rules|rules)\s*[:=]?\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class ProfileEntry:
    """One unit profile as written (spaces inside the stat line and rules tidied)."""

    name: str
    unit_type: str
    points: int
    base_us: int | None = None
    stats: str = ""
    special_rules: str = ""

    @property
    def key(self) -> tuple[str, str]:
        """Two profiles with the same key are the same profile (case does not count)."""
        return (self.name.casefold(), self.unit_type.casefold())


@dataclass(frozen=True)
class ParsedCatalogue:
    profiles: tuple[ProfileEntry, ...]
    # (line number, what is wrong), in line order.
    errors: tuple[tuple[int, str], ...]


def _tidy(text: str) -> str:
    return " ".join(text.split())


def _ascii_number(raw: str) -> int | None:
    """A whole number written in ASCII digits, else None (``int`` takes other digits too)."""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 5 else None


def check_entry(name: str, unit_type: str, points_raw: str, us_raw: str, stats: str,
                rules: str) -> tuple[ProfileEntry | None, list[str]]:
    """One profile from its fields as written, or what is wrong with them (every problem)."""
    problems: list[str] = []
    name, unit_type, stats, rules = _tidy(name), _tidy(unit_type), _tidy(stats), _tidy(rules)
    if not name:
        problems.append("the name is missing")
    elif len(name) > NAME_LENGTH:
        problems.append(f"the name is longer than {NAME_LENGTH} characters")
    if not unit_type:
        problems.append("the type is missing")
    elif len(unit_type) > TYPE_LENGTH:
        problems.append(f"the type is longer than {TYPE_LENGTH} characters")
    match = _POINTS.match(points_raw.strip())
    points = _ascii_number(match.group(1)) if match else None
    if points is None:
        problems.append(f"points must be a whole number, not {points_raw.strip()[:20]!r}")
    elif not 1 <= points <= MAX_POINTS:
        problems.append(f"points must be from 1 to {MAX_POINTS}, not {points}")
    base_us = None
    if us_raw.strip():
        base_us = _ascii_number(us_raw.strip())
        if base_us is None or base_us > MAX_US:
            problems.append(f"Unit Strength must be a whole number from 0 to {MAX_US}, "
                            f"not {us_raw.strip()[:20]!r}")
            base_us = None
    if len(stats) > STATS_LENGTH:
        problems.append(f"the stat line is longer than {STATS_LENGTH} characters")
    if len(rules) > RULES_LENGTH:
        problems.append(f"the special rules are longer than {RULES_LENGTH} characters")
    if problems:
        return None, problems
    assert points is not None
    return ProfileEntry(name=name, unit_type=unit_type, points=points, base_us=base_us,
                        stats=stats, special_rules=rules), []


def _parse_line(line: str) -> tuple[ProfileEntry | None, list[str]]:
    head, *options = [part.strip() for part in line.split(";")]
    fields = [part.strip() for part in head.rsplit(",", 2)]
    if len(fields) < 3:
        return None, ["write it as: name, type, points (then ; US 2; stats ...; rules ...)"]
    found: dict[str, str] = {}
    problems: list[str] = []
    for option in options:
        if not option:
            continue
        for kind, pattern in (("us", _US), ("stats", _STATS), ("rules", _RULES)):
            match = pattern.match(option)
            if match:
                if kind in found:
                    problems.append(f"{kind!r} is given twice")
                found[kind] = match.group(1)
                break
        else:
            problems.append(f"{option[:40]!r} is not an option (US, stats or rules)")
    entry, more = check_entry(fields[0], fields[1], fields[2], found.get("us", ""),
                              found.get("stats", ""), found.get("rules", ""))
    problems += more
    return (entry if not problems else None), problems


def _collect(rows: list[tuple[int, ProfileEntry | None, list[str]]]) -> ParsedCatalogue:
    profiles: list[ProfileEntry] = []
    errors: list[tuple[int, str]] = []
    seen: dict[tuple[str, str], int] = {}
    for number, entry, problems in rows:
        if entry is not None and entry.key in seen:
            problems = [f"{entry.name} ({entry.unit_type}) is already on line "
                        f"{seen[entry.key]}"]
        if problems:
            errors.append((number, "; ".join(problems) + "."))
            continue
        assert entry is not None
        seen[entry.key] = number
        profiles.append(entry)
    return ParsedCatalogue(tuple(profiles), tuple(errors))


def _too_long(count: int) -> ParsedCatalogue:
    return ParsedCatalogue((), ((count, f"a catalogue holds at most {MAX_LINES} profiles; "
                                        "import it in parts."),))


def parse_text(text: str) -> ParsedCatalogue:
    """Profiles written one per line (see the module's docstring for the format)."""
    rows = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(rows) >= MAX_LINES:
            return _too_long(number)
        entry, problems = _parse_line(line)
        rows.append((number, entry, problems))
    return _collect(rows)


_COLUMNS = {
    "name": "name", "unitname": "name",
    "type": "type", "unittype": "type",
    "points": "points", "pts": "points", "cost": "points",
    "us": "us", "unitstrength": "us", "baseus": "us", "baseunitstrength": "us",
    "stats": "stats", "statline": "stats",
    "rules": "rules", "specialrules": "rules",
}


def parse_csv(text: str) -> ParsedCatalogue:
    """Profiles as CSV rows under a header row (see the module's docstring)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        return ParsedCatalogue((), ((1, f"this is not readable CSV ({exc})."),))
    if header is None or not any(cell.strip() for cell in header):
        return ParsedCatalogue((), ((1, "the first row must name the columns: name, type, "
                                        "points, and optionally us, stats, rules."),))
    columns: dict[str, int] = {}
    problems = []
    for index, cell in enumerate(header):
        key = re.sub(r"[\s_\-]", "", cell.casefold())
        if not key:
            continue
        wanted = _COLUMNS.get(key)
        if wanted is None:
            problems.append(f"{cell.strip()[:30]!r} is not a column this reads")
        elif wanted in columns:
            problems.append(f"the column {wanted!r} is named twice")
        else:
            columns[wanted] = index
    missing = [c for c in ("name", "type", "points") if c not in columns]
    if missing:
        problems.append("the header lacks " + ", ".join(repr(c) for c in missing))
    if problems:
        return ParsedCatalogue((), ((1, "; ".join(problems) + " (columns: name, type, "
                                        "points, us, stats, rules)."),))
    rows = []
    try:
        for cells in reader:
            number = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(rows) >= MAX_LINES:
                return _too_long(number)

            def cell(name: str, cells: list[str] = cells) -> str:
                index = columns.get(name)
                return cells[index] if index is not None and index < len(cells) else ""

            extra = len(cells) > len(header) and any(c.strip() for c in cells[len(header):])
            entry, found = check_entry(cell("name"), cell("type"), cell("points"), cell("us"),
                                       cell("stats"), cell("rules"))
            if extra:
                found = [f"the row has {len(cells)} cells, the header {len(header)}", *found]
                entry = None
            rows.append((number, entry, found))
    except csv.Error as exc:
        rows.append((reader.line_num, None, [f"this is not readable CSV ({exc})"]))
    return _collect(rows)


def looks_like_csv(text: str) -> bool:
    """Whether pasted text is CSV (a header row naming a ``points`` column) rather than the
    one-profile-per-line format."""
    for raw in text.lstrip("\ufeff").splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            cells = [re.sub(r"[\s_\-\"]", "", c.casefold()) for c in line.split(",")]
            return "name" in cells and ("points" in cells or "pts" in cells)
    return False


def as_line(entry: ProfileEntry) -> str:
    """A profile in the text format, so a catalogue can be copied out and read back."""
    parts = [f"{entry.name}, {entry.unit_type}, {entry.points}"]
    if entry.base_us is not None:
        parts.append(f"US {entry.base_us}")
    if entry.stats:
        parts.append(f"stats {entry.stats}")
    if entry.special_rules:
        parts.append(f"rules {entry.special_rules}")
    return "; ".join(parts)
