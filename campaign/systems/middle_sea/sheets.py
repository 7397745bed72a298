"""The Middle Sea's printed sheets on the print framework (campaign/pdf.py), A4 or Letter:

- the board: the table as it stands, with the stacks;
- a player board per kingdom: its continent, leaders, goods, gold and unrest, and the
  numbers the rules derive (control total, dominance, calculated score);
- the score sheet: every player's calculated score (MS-WIN-2) and the victory checks, with
  empty rows for the rounds to come;
- the reference card: the round, the costs and the conflicts, in our own words.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.safestring import mark_safe

from campaign.access import Access
from campaign.models import Kingdom
from campaign.pdf import (
    PdfSheet,
    PrintOptions,
    download_name,
    fit_style,
    running_title,
    text_area_mm,
)
from campaign.systems.middle_sea import boardsvg
from campaign.systems.middle_sea.game import read_game
from campaign.systems.middle_sea.pages import REASONS, clock_label_of, rows
from campaign.systems.middle_sea.rules.board import CITY_POSITIONS, SUITS, City, space
from campaign.systems.middle_sea.rules.state import (
    MSOptions,
    city_at,
    controller,
    get_player,
    leader_at,
    port_at,
    provincial_cities,
    stack,
)

GROUP = "Middle Sea"
PRINT = "campaign/systems/middle_sea/print/"


def _base(access: Access, title: str, options: PrintOptions, heading: str) -> dict[str, Any]:
    campaign = access.campaign
    width = text_area_mm(options)[0]
    return {
        "campaign": campaign, "access": access, "sheet_title": title, "heading": heading,
        "heading_style": fit_style(heading, width, size_pt=16, min_pt=10, bold=True),
        "running_title": running_title(heading, options), "clock": campaign.clock_label(),
    }


def board_context(access: Access, obj: None, options: PrintOptions, *,
                  base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    loaded = read_game(access.campaign)
    state = loaded.state if loaded is not None else None
    colours = ({n: k.colour for n, k in loaded.kingdoms.items()} if loaded is not None else {})
    context = _base(access, "The board", options, f"The board of {access.campaign.name}")
    context["board"] = mark_safe(boardsvg.board_svg(state, colours, eco=options.eco))
    context["stacks"] = ([(suit, [City(suit, v).label for v in stack(state, suit)])
                          for suit in SUITS] if state is not None else [])
    context["rows"] = rows(loaded) if loaded is not None else []
    return context


def player_context(access: Access, kingdom: Kingdom, options: PrintOptions, *,
                   base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    loaded = read_game(access.campaign)
    context = _base(access, f"Player board: {kingdom.name}", options,
                    f"{kingdom.name}: player board")
    name = loaded.name_of(kingdom) if loaded is not None else None
    if loaded is None or name is None:
        context["seated"] = False
        return context
    state = loaded.state
    p = get_player(state, name)
    spaces = []
    for pos in CITY_POSITIONS:
        where = space(p.continent, pos)
        city = city_at(state, where)
        governor = leader_at(state, where)
        harbour = port_at(state, where)
        spaces.append({
            "space": where, "city": city.label if city else "empty",
            "controller": controller(state, where) or "" if city else "",
            "leader": (f"{governor[0]}'s {governor[1].value}"
                       + ("" if governor[1].active else " (inactive)")) if governor else "",
            "port": harbour.piers if harbour else "",
        })
    colours = {n: k.colour for n, k in loaded.kingdoms.items()}
    context.update({
        "board": mark_safe(boardsvg.board_svg(state, colours, eco=options.eco,
                                              title=f"The table of {access.campaign.name}")),
        "seated": True, "player": p, "row": next(r for r in rows(loaded) if r.name == name),
        "spaces": spaces,
        "leaders": sorted(p.leaders, key=lambda item: item.value),
        "provincial": [(c, (city_at(state, c) or City("arms", 1)).label)
                       for c in provincial_cities(state, name)],
    })
    return context


def score_context(access: Access, obj: None, options: PrintOptions, *,
                  base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    loaded = read_game(access.campaign)
    context = _base(access, "Score sheet", options, f"Score sheet of {access.campaign.name}")
    context["rows"] = rows(loaded) if loaded is not None else []
    context["state"] = loaded.state if loaded is not None else None
    context["reason"] = REASONS.get(loaded.state.end_reason, "") if loaded is not None else ""
    context["blank_rounds"] = range(1, 13)
    return context


def reference_context(access: Access, obj: None, options: PrintOptions, *,
                      base_url: str | None = None, in_book: bool = False) -> dict[str, Any]:
    context = _base(access, "Reference card", options, "Kingdoms of the Middle Sea: reference")
    context["options"] = MSOptions.from_dict(access.campaign.options)
    loaded = read_game(access.campaign)
    context["round_label"] = (clock_label_of(loaded.state.round, loaded.state.phase)
                              if loaded is not None else "Not set up yet")
    return context


def _kingdoms(access: Access) -> list[Kingdom]:
    return list(Kingdom.objects.filter(campaign=access.campaign).order_by("pk"))


def _get_kingdom(access: Access, pk: int) -> Kingdom:
    kingdom = Kingdom.objects.filter(campaign=access.campaign, pk=pk).first()
    if kingdom is None:
        raise Http404("No such kingdom in this campaign.")
    return kingdom


BOARD = PdfSheet(
    slug="board", title="The board", template=PRINT + "board.html",
    context=board_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "board",
                                               f"round-{access.campaign.year}"),
    description="The table as it stands: continents, cities, leaders, roads, ports, stacks.",
    group=GROUP,
)
PLAYER_BOARD = PdfSheet(
    slug="player-board", title="Player board", template=PRINT + "player.html",
    context=player_context, objects=_kingdoms, get=_get_kingdom, label=lambda k: k.name,
    filename=lambda access, k: download_name(access.campaign.slug, "player-board", k.name),
    description="A kingdom's continent, leaders, goods, gold and unrest (all public).",
    group="Kingdoms",
)
SCORE = PdfSheet(
    slug="score", title="Score sheet", template=PRINT + "score.html",
    context=score_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "score-sheet"),
    description="The calculated score of every player, the victory checks and rows per round.",
    group=GROUP,
)
REFERENCE = PdfSheet(
    slug="reference", title="Reference card", template=PRINT + "reference.html",
    context=reference_context,
    filename=lambda access, obj: download_name(access.campaign.slug, "reference"),
    description="The round, every cost and the conflicts in short, with this game's options.",
    group=GROUP,
)

SHEETS: list[PdfSheet] = [BOARD, PLAYER_BOARD, SCORE, REFERENCE]
