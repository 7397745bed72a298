"""Campaign files that would break the site later are refused at import, with a message that
names the problem and where it is, and nothing is written.

Each refusal here was a file the importer used to accept: a clock the rule system cannot be at,
a missing map, tiles off their map or labelled unlike their position, edges keyed as another kind
of map keys them, one-way borders, values a database cannot store, nesting deep enough to crash
the reader. The fuzz test at the end changes a real file at random and checks that every page of
the result opens, or that the file is refused cleanly.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any, Callable

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from battles.models import Army
from campaign import services, transfer
from campaign.models import Campaign, Event, Kingdom, Membership, Tile
from tests.campaign.conftest import error_text, media_files
from tests.conftest import MIGHTY_KINGDOMS, make_campaign, make_png

COUNTED = (Campaign, Membership, Kingdom, Tile, Event, Army)

# Files of Mighty Kingdoms campaigns: the sections in them are that system's.
pytestmark = pytest.mark.system(MIGHTY_KINGDOMS)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


@pytest.fixture
def doc(gm: User) -> dict[str, Any]:
    """A small exported campaign: a 4 x 3 hex map, two kingdoms, an army, a few events."""
    campaign = make_campaign(gm, slug="source", width=4, height=3, seed=5)
    services.create_kingdom(campaign, gm, name="Blue", colour="#0000aa", player=None,
                            crest=make_png())
    tile = Tile.objects.get(map__campaign=campaign, label="0201")
    services.edit_tile(tile, gm, changes={"settlement": "city"}, edges={"1": ["river"]})
    Army.objects.create(campaign=campaign, kingdom=Kingdom.objects.get(campaign=campaign,
                                                                       name="Blue"),
                        number=1, tile=tile, points=500)
    return json.loads(transfer.dumps(transfer.export_campaign(campaign)))


def tiles(d: dict[str, Any]) -> list[dict[str, Any]]:
    return d["campaign"]["map"]["tiles"]


def tile(d: dict[str, Any], label: str) -> dict[str, Any]:
    return next(t for t in tiles(d) if t["label"] == label)


def territories(d: dict[str, Any]) -> None:
    """Turn the map into a (made-up) territory map of three territories, A - B - C."""
    d["campaign"]["map"] = {"kind": "territory", "width": 0, "height": 0, "tiles": [
        {"q": 0, "r": 0, "label": "A", "terrain": "plain", "adjacent": ["B"]},
        {"q": 2, "r": 0, "label": "B", "terrain": "plain", "adjacent": ["A", "C"]},
        {"q": 4, "r": 0, "label": "C", "terrain": "plain", "adjacent": ["B"]},
    ]}
    d["campaign"]["armies"] = []


Change = Callable[[dict[str, Any]], Any]

REFUSALS: list[tuple[str, Change, str]] = [
    # -- the clock must be one the rule system can be at
    ("clock without season", lambda d: d["campaign"].update(clock={"year": 1}),
     "campaign.clock: a Mighty Kingdoms campaign cannot be at this point: Phase '' does not "
     "exist: phases are A to D (MK-YEAR-2)."),
    ("summer month 9", lambda d: d["campaign"].update(
        clock={"year": 2, "season": "summer", "month": 9, "phase": "A"}),
     "campaign.clock: a Mighty Kingdoms campaign cannot be at this point: A summer has months "
     "1 to 6 (MK-YEAR-1)."),
    ("winter with a month", lambda d: d["campaign"].update(
        clock={"year": 2, "season": "winter", "month": 3, "phase": "B"}),
     "Winter has no months (MK-YEAR-3)."),
    ("unknown setup step", lambda d: d["campaign"]["clock"].update(phase="feast"),
     "campaign.clock: a Mighty Kingdoms campaign cannot be at this point: Setup step 'feast' "
     "does not exist: the steps are race, order, capital, settle, army (MK-SETUP-1..5)."),
    ("year 0", lambda d: d["campaign"].update(
        clock={"year": 0, "season": "summer", "month": 1, "phase": "A"}),
     "The campaign starts in year 1 (MK-YEAR-1)."),
    # -- the map
    ("no map", lambda d: d["campaign"].update(map=None),
     "campaign.map: a Mighty Kingdoms campaign needs its map (a hex grid), and this file has "
     "none."),
    ("territory map", territories,
     "campaign.map.kind: Mighty Kingdoms is played on a hex grid, not on territories."),
    ("square map", lambda d: d["campaign"]["map"].update(kind="square"),
     "campaign.map.kind: Mighty Kingdoms is played on a hex grid, not on square grid."),
    ("width 0", lambda d: d["campaign"]["map"].update(width=0),
     "campaign.map.width: must be at least 1, got 0."),
    ("width 1000", lambda d: d["campaign"]["map"].update(width=1000),
     "campaign.map.width: must be at most 999, got 1000."),
    ("tile off the map", lambda d: tile(d, "0403").update(q=7, label="0803"),
     "campaign.map.tiles[11]: position (7, 1) is off the 4 x 3 hex map."),
    ("label unlike its position", lambda d: tile(d, "0101").update(label="0909"),
     "campaign.map.tiles[0].label: '0909' is not the label of position (0, 0), which is "
     "'0101' on this 4 x 3 hex map."),
    ("positions swapped", lambda d: (tile(d, "0101").update(q=1, r=0),
                                     tile(d, "0201").update(q=0, r=0)),
     "campaign.map.tiles[0].label: '0101' is not the label of position (1, 0), which is "
     "'0201' on this 4 x 3 hex map."),
    ("label with a slash", lambda d: (tile(d, "0101").update(label="01/01"),),
     "campaign.map.tiles[0].label: '01/01' cannot be a tile label: labels are used in "
     "addresses, so they hold no /, \\, ?, # or %, no control characters, and no spaces at "
     "either end."),
    ("label ..", lambda d: tile(d, "0101").update(label=".."),
     "campaign.map.tiles[0].label: '..' cannot be a tile label"),
    ("edge 6 on a hex", lambda d: tile(d, "0101").update(edges={"6": ["river"]}),
     "campaign.map.tiles[0].edges.6: '6' is not an edge of a hex tile (the edges are 0 to 5)."),
    ("edge keyed by a label on a hex", lambda d: tile(d, "0101").update(edges={"0201": []}),
     "campaign.map.tiles[0].edges.0201: '0201' is not an edge of a hex tile"),
    ("edge feature unknown", lambda d: tile(d, "0101").update(edges={"2": ["lava"]}),
     "campaign.map.tiles[0].edges.2[0]: 'lava' is not an edge feature of Mighty Kingdoms "
     "(coast, forest, mountain, river, water)."),
    ("edge features not a list", lambda d: tile(d, "0101").update(edges={"2": "river"}),
     "campaign.map.tiles[0].edges.2: expected a list of edge features, got the string 'river'."),
    ("edge feature an object", lambda d: tile(d, "0101").update(edges={"2": [{"a": 1}]}),
     "campaign.map.tiles[0].edges.2[0]: an object is not an edge feature"),
    ("tile feature unknown", lambda d: tile(d, "0101").update(features=["volcano"]),
     "campaign.map.tiles[0].features[0]: 'volcano' is not a tile feature of Mighty Kingdoms"),
    ("tile feature a list", lambda d: tile(d, "0101").update(features=[["river"]]),
     "campaign.map.tiles[0].features[0]: a list is not a tile feature"),
    ("neighbours on a hex map", lambda d: tile(d, "0101").update(adjacent=["0201"]),
     "campaign.map.tiles[0].adjacent: only territory maps list their neighbours; on a hex map "
     "they follow from the grid."),
    # -- kingdoms and events
    ("colour not #rrggbb", lambda d: d["campaign"]["kingdoms"][0].update(colour="red"),
     "campaign.kingdoms[0].colour: 'red' is not a colour as #rrggbb."),
    ("colour with CSS", lambda d: d["campaign"]["kingdoms"][0].update(colour="#a;b:c"),
     "campaign.kingdoms[0].colour: '#a;b:c' is not a colour as #rrggbb."),
    ("dice values a number", lambda d: d["campaign"]["events"][0].update(
        dice=[{"purpose": "x", "values": 5, "source": "server"}]),
     "campaign.events[0].dice[0].values: expected a list of whole numbers."),
    ("dice a string", lambda d: d["campaign"]["events"][0].update(dice=["6"]),
     "campaign.events[0].dice[0]: expected a roll (an object), got the string '6'."),
    # -- values no database stores
    ("NUL in a name", lambda d: d["campaign"].update(name="Bad\x00Name"),
     "campaign.name: holds a character that cannot be stored (a NUL or an unpaired surrogate)."),
    ("NUL in a data key", lambda d: tile(d, "0101").update(data={"a\x00": 1}),
     "campaign.map.tiles[0].data: the key 'a\\x00' holds a character that cannot be stored"),
    ("lone surrogate", lambda d: d["campaign"]["kingdoms"][0].update(name="\ud800"),
     "campaign.kingdoms[0].name: holds a character that cannot be stored"),
    ("infinite number", lambda d: d["campaign"]["state"].update(x=float("inf")),
     "campaign.state.x: inf is not a finite number."),
    ("deep state", lambda d: d["campaign"].update(state=json.loads("[" * 70 + "]" * 70)),
     "campaign.state" + "[0]" * 63 + ": nested more than 64 levels deep."),
]


@pytest.mark.parametrize(("change", "expected"), [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_refused_files_write_nothing(doc: dict[str, Any], gm: User, change: Change,
                                     expected: str) -> None:
    change(doc)
    before = counts()
    files = media_files()
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.import_campaign(doc, gm, slug="copy")
    assert expected in str(info.value)
    assert counts() == before
    assert media_files() == files


def test_the_unchanged_file_imports(doc: dict[str, Any], gm: User) -> None:
    copy_ = transfer.import_campaign(doc, gm, slug="copy")
    assert Tile.objects.filter(map__campaign=copy_).count() == 12
    assert Tile.objects.get(map__campaign=copy_, label="0201").edges == {"1": ["river"]}


# -- reading the text -------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("[" * 5000 + "]" * 5000,
     "The file is nested too deeply to be a campaign file (more than 64 levels)."),
    ('{"a": NaN}', "This is not a JSON file (NaN is not a JSON number)."),
    ('{"a": -Infinity}', "This is not a JSON file (-Infinity is not a JSON number)."),
    ('{"a": ' + "9" * 5000 + "}", "This is not a JSON file (Exceeds the limit"),
    ("{", "This is not a JSON file (Expecting property name enclosed in double quotes"),
    (b"\xff\xfe{}", "This is not a JSON file (it is not UTF-8 text"),
])
def test_loads_refuses_what_is_not_plain_json(text: str | bytes, expected: str) -> None:
    with pytest.raises(transfer.ImportRefused) as info:
        transfer.loads(text)
    assert expected in str(info.value)


def deep_file() -> bytes:
    return ('{"format": "hexkeep-campaign", "version": 2, "campaign": '
            + "[" * 100_000 + "]" * 100_000 + "}").encode()


def test_import_page_refuses_a_deeply_nested_file(gm: User) -> None:
    client = Client()
    client.force_login(gm)
    before = counts()
    response = client.post(reverse("campaign:import"),
                           {"file": SimpleUploadedFile("deep.json", deep_file())})
    assert response.status_code == 400
    assert ("The file is nested too deeply to be a campaign file (more than 64 levels)."
            in error_text(response))
    assert counts() == before


def test_import_command_refuses_a_deeply_nested_file(gm: User, tmp_path: Path) -> None:
    source = tmp_path / "deep.json"
    source.write_bytes(deep_file())
    before = counts()
    with pytest.raises(CommandError) as info:
        call_command("import_campaign", str(source), "--user", "gm", stdout=io.StringIO())
    assert str(info.value) == (f"{source}: The file is nested too deeply to be a campaign file "
                               "(more than 64 levels).")
    assert counts() == before


def test_import_command_refuses_nan(gm: User, tmp_path: Path) -> None:
    source = tmp_path / "nan.json"
    source.write_text('{"format": "hexkeep-campaign", "version": 2, "campaign": {"x": NaN}}')
    with pytest.raises(CommandError, match=r"nan.json: This is not a JSON file \(NaN is not"):
        call_command("import_campaign", str(source), "--user", "gm", stdout=io.StringIO())


# -- fuzzing: a changed file is refused, or every page of what it made opens ------------------


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, path + (i,))
    return found


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["", "0101", "0201", "Blue", "river", "summer", "gm", "#00ff00", "A"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6,
)


def pages_of(campaign: Campaign) -> list[str]:
    slug = campaign.slug
    urls = [reverse(f"campaign:{name}", args=[slug]) for name in (
        "detail", "settings", "members", "map", "map_svg", "map_edit", "chronicle", "photos",
        "play", "export")]
    urls += [reverse("campaign:ledger:index", args=[slug]),
             reverse("mk:armies:index", args=[slug])]
    for kingdom in Kingdom.objects.filter(campaign=campaign):
        urls += [reverse("campaign:kingdom", args=[slug, kingdom.pk]),
                 reverse("campaign:ledger:kingdom", args=[slug, kingdom.pk])]
    for label in Tile.objects.filter(map__campaign=campaign).values_list("label", flat=True)[:3]:
        urls.append(reverse("campaign:tile", args=[slug, label]))
    return urls


@hyp_settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
@given(data=st.data())
def test_a_changed_file_is_refused_or_works(doc: dict[str, Any], gm: User, data: Any) -> None:
    from django.db import transaction

    changed = copy.deepcopy(doc)
    paths = [p for p in _paths(changed["campaign"]) if p]
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths))
        parent = changed["campaign"]
        for part in path[:-1]:
            parent = parent[part]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            parent.pop(path[-1], None)
        else:
            parent[path[-1]] = data.draw(JSON_VALUES)
        paths = [p for p in _paths(changed["campaign"]) if p]
    client = Client()
    client.force_login(gm)
    with transaction.atomic():
        try:
            campaign = transfer.import_campaign(changed, gm, slug="fuzzed")
        except transfer.ImportRefused:
            event("refused")
            assert not Campaign.objects.filter(slug="fuzzed").exists()
        else:
            event("imported")
            for url in pages_of(campaign):
                response = client.get(url)
                assert response.status_code in (200, 302, 404), (url, response.status_code)
        transaction.set_rollback(True)
