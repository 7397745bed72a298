"""The sheets of the game at the table: the economy reference (phases, harvest dice, upkeep and
growth, costs with a ? where the source lost the type, trade rates, auto-resolve scores), the
game-start sheet of every seat (a seat beside a party says whose side it is on) and the turn
ledger pad, as previews and as PDFs."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.sns.fourway import Four, four  # noqa: F401

pytestmark = pytest.mark.django_db


def text(body: bytes) -> str:
    return html.unescape(" ".join(re.sub(r"<[^>]+>", " ", body.decode()).split()))


def test_sns_econ_42_the_economy_reference_sheet(four: Four) -> None:
    """SNS-ECON-11, SNS-ECON-42..44, SNS-ECON-57, SNS-AR-5..7, SNS-AMB-30, D.8."""
    client = four.client("Red")
    slug = four.campaign.slug
    page = text(client.get(reverse("campaign:print_sheet", args=[slug, "economy"])).content)
    for words in ("1. Harvest SNS-ECON-20", "4. Move & combat SNS-ECON-11",
                  "Farm one die per Farm 2+ 1 food (+1 Heavy Plough)",
                  "Tavern +1 1", "Stockpile +1 0", "Commune 0 −1 from the total",
                  "upkeep 3 − 1 = 2, 1 paid and 1 short; growth 1 + 3 − 1 = 3",
                  "Villager Stockpile 1 food", "Swords Barracks 1 food + 2 ? (types guessed)",
                  "Farm 3 wood 2 1 yes", "Market 4 of one 1 of another",
                  "Shipping Routes (Dock) 10 of one 6 of another",
                  "0.4 Villager, Zombie", "3 Caster, Chariot, Knights",
                  "Completed Stone Wall 12", "Castle, each 10", "Favor spent, each (at most 10) 1",
                  "halved (rounded down) for the next 3 turns",
                  "equal totals go to the defender"):
        assert words in page, words
    pdf = client.get(reverse("campaign:print_sheet_pdf", args=[slug, "economy"]))
    assert pdf.status_code == 200
    assert b"".join(pdf.streaming_content if pdf.streaming else [pdf.content])[:5] == b"%PDF-"


def test_sns_econ_10_game_start_sheets_of_every_seat_and_the_ledger_pad(four: Four) -> None:
    """SNS-ECON-10, SNS-RES-3, SNS-ECON-11: Gold, seated beside Blue, opens with 2 iron and
    3 Villagers; the pad has a row per turn and a column per resource."""
    client = four.client("Gold")
    slug = four.campaign.slug
    index = text(client.get(reverse("campaign:print", args=[slug])).content)
    for name in ("Red", "Blue", "Green", "Gold"):
        assert name in index
    page = text(client.get(reverse("campaign:print_sheet_obj",
                                   args=[slug, "game-start", four.kingdoms["Gold"].pk])).content)
    assert "Gold: start of game 1" in page and "on Blue's side SNS-RES-3" in page
    assert "Total +2 iron, +3 villagers" in page
    red = text(client.get(reverse("campaign:print_sheet_obj",
                                  args=[slug, "game-start", four.kingdoms["Red"].pk])).content)
    assert "Total +3 wood, +3 villagers" in red and "side SNS-RES-3" not in red
    pad = text(client.get(reverse("campaign:print_sheet", args=[slug, "ledger-pad"])).content)
    assert "Turn Food Wood Stone Iron Gold Favor Upkeep Growth Trained" in pad
    assert pad.endswith("Trained " + " ".join(str(t) for t in range(1, 26)))
