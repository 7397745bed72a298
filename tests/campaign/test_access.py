"""Who may open and use every campaign page.

One table lists each URL of the campaign namespace with its method and the lowest role allowed;
each row runs for every persona: anonymous (sent to log in), an outsider (404: the campaign's
existence is not revealed), the observer, a player, another player, the GM and a site admin (who
acts as GM everywhere). A refused request changes nothing at all.
"""

from __future__ import annotations

from typing import Any, Callable
from urllib.parse import quote

import pytest
from django.urls import reverse

from campaign.models import Event, Role
from tests.campaign.conftest import PERSONAS, World, dump, image_bytes
from tests.conftest import MIGHTY_KINGDOMS

RANK = {"observer": 0, "player": 1, "other_player": 1, "gm": 2, "admin": 2}
ROLE_RANK = {"observer": 0, "player": 1, "owner": 1, "gm": 2}


def settings_payload(world: World) -> dict[str, Any]:
    data: dict[str, Any] = {"name": "Renamed", "description": "", "paper_size": "letter"}
    for spec in world.campaign.system.options:
        key = f"opt_{spec.name}"
        if spec.kind == "bool":
            if spec.default:
                data[key] = "on"
        elif spec.default is None:
            data[key] = ""
        else:
            data[key] = str(spec.default)
    return data


Builder = Callable[[World], tuple[list[Any], dict[str, Any] | None]]


def _slug(world: World) -> list[Any]:
    return [world.campaign.slug]


REQUESTS: dict[tuple[str, str], Builder] = {
    ("detail", "get"): lambda w: (_slug(w), None),
    ("settings", "get"): lambda w: (_slug(w), None),
    ("settings", "post"): lambda w: (_slug(w), settings_payload(w)),
    ("members", "get"): lambda w: (_slug(w), None),
    ("invite", "post"): lambda w: (_slug(w), {"role": "player", "single_use": "on"}),
    ("revoke_invitation", "post"): lambda w: (_slug(w) + [w.invitation.pk], {}),
    ("change_role", "post"): lambda w: (
        _slug(w) + [w.membership(w.observer).pk], {"role": "player"}
    ),
    ("remove_member", "post"): lambda w: (_slug(w) + [w.membership(w.observer).pk], {}),
    ("kingdom_create", "get"): lambda w: (_slug(w), None),
    ("kingdom_create", "post"): lambda w: (_slug(w), {"name": "Gold", "colour": "#ccaa00"}),
    ("kingdom", "get"): lambda w: (_slug(w) + [w.red.pk], None),
    ("kingdom_edit", "get"): lambda w: (_slug(w) + [w.red.pk], None),
    ("kingdom_edit", "post"): lambda w: (
        _slug(w) + [w.red.pk], {"name": "Crimson", "colour": "#990000"}
    ),
    ("kingdom_claim", "post"): lambda w: (_slug(w) + [w.green.pk], {}),
    ("kingdom_assign", "post"): lambda w: (_slug(w) + [w.green.pk], {"player": ""}),
    ("map", "get"): lambda w: (_slug(w), None),
    ("map_svg", "get"): lambda w: (_slug(w), None),
    ("map_edit", "get"): lambda w: (_slug(w), None),
    ("map_paint", "post"): lambda w: (
        _slug(w), {"tile": "0101", "tool": "settlement", "value": "village"}
    ),
    ("map_generate", "post"): lambda w: (
        _slug(w), {"width": "5", "height": "4", "orientation": "flat", "seed": "3"}
    ),
    ("tile", "get"): lambda w: (_slug(w) + ["0101"], None),
    ("tile_edit", "post"): lambda w: (
        _slug(w) + ["0101"], {"terrain": "hills", "settlement": "city", "controller": str(w.red.pk)}
    ),
    ("chronicle", "get"): lambda w: (_slug(w), None),
    ("moved_armies", "get"): lambda w: ([*_slug(w), ""], None),
    ("undo", "post"): lambda w: (_slug(w), {"seq": str(w.undoable.seq)}),
    ("photos", "get"): lambda w: (_slug(w), None),
    ("photos", "post"): lambda w: (_slug(w), {"image": image_bytes(), "caption": "Turn 1"}),
    ("play", "get"): lambda w: (_slug(w), None),
    ("advance", "post"): lambda w: (_slug(w), {}),
    # An action the panel does not offer and an action that is nobody's: every member reaches
    # the view and is told why not (409); the refusals themselves are tested with the features.
    ("tile_act", "post"): lambda w: (_slug(w) + ["0101"], {"action": "no-such-action"}),
    ("take_back", "post"): lambda w: (_slug(w), {"seq": "999999"}),
    ("entry_write", "get"): lambda w: (_slug(w), None),
    ("entry_write", "post"): lambda w: (_slug(w), {"title": "Spring", "text": "Rain fell."}),
    ("entry_edit", "get"): lambda w: (_slug(w) + [_entry(w)], None),
    ("entry_edit", "post"): lambda w: (_slug(w) + [_entry(w)],
                                       {"title": "Summer", "text": "The sun came out."}),
    ("entry_remove", "post"): lambda w: (_slug(w) + [_entry(w)], {}),
    ("kingdom_note_add", "post"): lambda w: (_slug(w) + [w.red.pk], {"text": "Watch the river"}),
    ("tile_note_add", "post"): lambda w: (_slug(w) + ["0101"], {"text": "A hidden ford"}),
    ("note_edit", "get"): lambda w: (_slug(w) + [_note(w)], None),
    ("note_edit", "post"): lambda w: (_slug(w) + [_note(w)], {"text": "Two fords"}),
    ("note_remove", "post"): lambda w: (_slug(w) + [_note(w)], {}),
}


def _entry(world: World) -> int:
    from campaign import notes

    return notes.add_entry(world.campaign, world.gm, title="Winter", text="Snow fell.").pk


def _note(world: World) -> int:
    from campaign import notes

    return notes.add_note(world.campaign, world.gm, text="A ford", shared=False,
                          kingdom=world.red).pk

# (url name, method, lowest role). "owner" is the kingdom's own player (or a GM).
TABLE: list[tuple[str, str, str]] = [
    ("detail", "get", "observer"),
    ("settings", "get", "gm"),
    ("settings", "post", "gm"),
    ("members", "get", "observer"),
    ("invite", "post", "gm"),
    ("revoke_invitation", "post", "gm"),
    ("change_role", "post", "gm"),
    ("remove_member", "post", "gm"),
    ("kingdom_create", "get", "player"),
    ("kingdom_create", "post", "player"),
    ("kingdom", "get", "observer"),
    ("kingdom_edit", "get", "owner"),
    ("kingdom_edit", "post", "owner"),
    ("kingdom_claim", "post", "player"),
    ("kingdom_assign", "post", "gm"),
    ("map", "get", "observer"),
    ("map_svg", "get", "observer"),
    ("map_edit", "get", "gm"),
    ("map_paint", "post", "gm"),
    ("map_generate", "post", "gm"),
    ("tile", "get", "observer"),
    ("tile_edit", "post", "gm"),
    ("chronicle", "get", "observer"),
    ("moved_armies", "get", "observer"),
    ("undo", "post", "gm"),
    ("photos", "get", "observer"),
    ("photos", "post", "player"),
    ("play", "get", "observer"),
    ("advance", "post", "gm"),
    ("tile_act", "post", "observer"),
    ("take_back", "post", "observer"),
    ("entry_write", "get", "gm"),
    ("entry_write", "post", "gm"),
    ("entry_edit", "get", "gm"),
    ("entry_edit", "post", "gm"),
    ("entry_remove", "post", "gm"),
    ("kingdom_note_add", "post", "gm"),
    ("tile_note_add", "post", "gm"),
    ("note_edit", "get", "gm"),
    ("note_edit", "post", "gm"),
    ("note_remove", "post", "gm"),
]

# Where the answer for an allowed role is not the plain 200 (GET) or redirect (POST).
OVERRIDES: dict[tuple[str, str, str], int] = {
    # Both players already rule a kingdom: founding a second is refused (409).
    ("kingdom_create", "get", "player"): 409,
    ("kingdom_create", "get", "other_player"): 409,
    ("kingdom_create", "post", "player"): 409,
    ("kingdom_create", "post", "other_player"): 409,
    # Claiming: both players already rule a kingdom; GMs assign instead of claiming.
    ("kingdom_claim", "post", "player"): 409,
    ("kingdom_claim", "post", "other_player"): 409,
    ("kingdom_claim", "post", "gm"): 403,
    ("kingdom_claim", "post", "admin"): 403,
    # The GM may advance the phase, but setup waits for every kingdom's race first.
    ("advance", "post", "gm"): 409,
    ("advance", "post", "admin"): 409,
    # Nothing to do there, nothing to take back: told why, nothing changed.
    **{(name, "post", persona): 409 for name in ("tile_act", "take_back")
       for persona in ("observer", "player", "other_player", "gm", "admin")},
    # The army pages' old address sends every member on to the system's own (a permanent move).
    **{("moved_armies", "get", persona): 301
       for persona in ("observer", "player", "other_player", "gm", "admin")},
}


def expected_status(name: str, method: str, minimum: str, persona: str) -> int:
    if persona == "anonymous":
        return 302
    if persona == "outsider":
        return 404
    if minimum == "owner" and persona == "other_player":
        return 403
    if (name, method, persona) in OVERRIDES:
        return OVERRIDES[(name, method, persona)]
    if RANK[persona] < ROLE_RANK[minimum]:
        return 403
    return 200 if method == "get" else 302


def test_table_covers_every_campaign_url() -> None:
    from django.urls import URLPattern

    from campaign.urls import campaign_patterns

    names = {p.name for p in campaign_patterns if isinstance(p, URLPattern)}
    names -= {"export", "import", "create"}
    assert {name for name, _, _ in TABLE} == names
    assert {(name, method) for name, method, _ in TABLE} == set(REQUESTS)


@pytest.mark.parametrize("persona", PERSONAS)
@pytest.mark.parametrize(("name", "method", "minimum"), TABLE,
                         ids=[f"{n}-{m}" for n, m, _ in TABLE])
@pytest.mark.system(MIGHTY_KINGDOMS)
def test_access(world: World, name: str, method: str, minimum: str, persona: str) -> None:
    args, data = REQUESTS[(name, method)](world)
    url = reverse(f"campaign:{name}", args=args)
    client = world.client(persona)
    before = dump()
    events_before = Event.objects.count()

    response = client.get(url) if method == "get" else client.post(url, data or {})

    expected = expected_status(name, method, minimum, persona)
    assert response.status_code == expected, response.content[:500]
    if persona == "anonymous":
        assert response["Location"] == f"{reverse('login')}?next={quote(url)}"
    if expected == 302 and method == "post" and persona != "anonymous":
        assert Event.objects.count() == events_before + 1
    else:
        assert dump() == before
    if expected == 404:
        # The page says nothing about the campaign.
        assert world.campaign.name.encode() not in response.content
    if expected == 403:
        message = "Observers cannot add photos." if name == "photos" else "Not allowed"
        assert message.encode() in response.content


@pytest.mark.parametrize("persona", ["observer", "player", "gm", "admin"])
def test_unknown_campaign_is_404_for_everyone(world: World, persona: str) -> None:
    for name in ("detail", "map", "chronicle", "members", "settings"):
        response = world.client(persona).get(reverse(f"campaign:{name}", args=["no-such-thing"]))
        assert response.status_code == 404


def test_member_of_one_campaign_is_an_outsider_of_another(world: World) -> None:
    response = world.client("player").get(reverse("campaign:detail", args=["elsewhere"]))
    assert response.status_code == 404
    assert b"Elsewhere" not in response.content


@pytest.mark.parametrize("persona", PERSONAS)
def test_home_page(world: World, persona: str) -> None:
    response = world.client(persona).get(reverse("home"))
    assert response.status_code == 200
    body = response.content.decode()
    if persona == "anonymous":
        assert "Create an account" in body
        assert world.campaign.name not in body
    elif persona == "outsider":
        assert world.campaign.name not in body
        assert "You are not in any campaign yet" in body
    elif persona == "admin":
        # A site admin sees every campaign.
        assert world.campaign.name in body and "Elsewhere" in body
        assert "Site admin" in body
    else:
        assert world.campaign.name in body
        assert "Elsewhere" not in body
        label = Role(world.membership(world.user(persona)).role).label
        assert label in body


@pytest.mark.parametrize("persona", PERSONAS)
def test_new_campaign_page(world: World, persona: str) -> None:
    url = reverse("campaign:create")
    response = world.client(persona).get(url)
    if persona == "anonymous":
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={quote(url)}"
    else:
        # Anyone with an account may start a campaign of their own.
        assert response.status_code == 200


def test_create_campaign_makes_creator_gm(world: World) -> None:
    client = world.client("outsider")
    response = client.post(reverse("campaign:create"), {
        "name": "Autumn League", "slug": "", "rule_system": "mighty-kingdoms",
        "description": "", "width": "6", "height": "5", "orientation": "flat",
        "random_map": "on", "seed": "11",
    })
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:members", args=["autumn-league"])
    from campaign.models import Campaign, Membership, Tile

    created = Campaign.objects.get(slug="autumn-league")
    members = Membership.objects.filter(campaign=created)
    assert list(members.values_list("user__username", "role")) == [("outsider", "gm")]
    assert Tile.objects.filter(map__campaign=created).count() == 30
    assert created.map.seed == 11


@pytest.mark.parametrize("slug", ["new", "import", "test-campaign"])
def test_create_campaign_refuses_reserved_or_taken_slug(world: World, slug: str) -> None:
    before = dump()
    response = world.client("outsider").post(reverse("campaign:create"), {
        "name": "X", "slug": slug, "rule_system": "mighty-kingdoms", "width": "6",
        "height": "5", "orientation": "flat",
    })
    assert response.status_code == 400
    assert b"choose another" in response.content
    assert dump() == before


def test_create_campaign_refuses_unknown_system(world: World) -> None:
    before = dump()
    response = world.client("outsider").post(reverse("campaign:create"), {
        "name": "X", "slug": "x", "rule_system": "warhammer", "width": "6",
        "height": "5", "orientation": "flat",
    })
    assert response.status_code == 400
    assert b"Select a valid choice" in response.content
    assert dump() == before


@pytest.mark.parametrize("persona", PERSONAS)
def test_join_page_is_open_and_joining_needs_login(world: World, persona: str) -> None:
    """Whoever holds a working link sees the campaign before signing up; joining (a POST) still
    needs an account."""
    url = reverse("join", args=[world.invitation.token])
    response = world.client(persona).get(url)
    assert response.status_code == 200
    assert world.campaign.name.encode() in response.content
    if persona == "anonymous":
        assert f'href="{reverse("signup")}?next={quote(url)}"'.encode() in (
            response.content)
        before = dump()
        response = world.client(persona).post(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={quote(url)}"
        assert dump() == before


def test_admin_site_is_for_superusers_only(world: World) -> None:
    assert world.client("gm").get("/admin/").status_code == 302
    assert world.client("anonymous").get("/admin/").status_code == 302
    assert world.client("admin").get("/admin/").status_code == 200


def test_admin_lists_every_model_of_every_app(world: World) -> None:
    from django.apps import apps
    from django.contrib import admin
    from django.urls import reverse

    ours = [m for label in ("campaign", "ledger", "battles")
            for m in apps.get_app_config(label).get_models()]
    missing = [m.__name__ for m in ours if m not in admin.site._registry]
    assert missing == []
    client = world.client("admin")
    for model in ours:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, model.__name__


# -- every campaign-scoped URL, including those of the ledger and of each rule system ---------


def _campaign_routes() -> list[tuple[str, str]]:
    """(namespaced name, route) of every URL under /c/<slug>/, however deeply included."""
    from django.urls import URLPattern, URLResolver, get_resolver

    found: list[tuple[str, str]] = []

    def walk(patterns: Any, prefix: str, namespaces: list[str]) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                ns = namespaces + [pattern.namespace] if pattern.namespace else namespaces
                walk(pattern.url_patterns, prefix + str(pattern.pattern), ns)
            elif isinstance(pattern, URLPattern) and pattern.name:
                found.append((":".join(namespaces + [pattern.name]), prefix + str(pattern.pattern)))

    walk(get_resolver().url_patterns, "", [])
    return sorted((name, route) for name, route in found
                  if route.startswith("c/<slug:slug>/")
                  and name not in ("campaign:export", "campaign:import"))


CAMPAIGN_ROUTES = _campaign_routes()


def _url_for(world: World, name: str, route: str, slug: str) -> str:
    import re

    kwargs: dict[str, Any] = {}
    for converter, key in re.findall(r"<(?:(\w+):)?(\w+)>", route):
        if key == "slug":
            kwargs[key] = slug
        elif key == "label":
            kwargs[key] = "0101"
        elif key == "kingdom_id":
            kwargs[key] = world.red.pk
        elif key == "membership_id":
            kwargs[key] = world.membership(world.observer).pk
        elif key == "invitation_id":
            kwargs[key] = world.invitation.pk
        elif converter == "int":
            kwargs[key] = 1
        else:
            kwargs[key] = "x"
    return reverse(name, kwargs=kwargs)


def test_every_campaign_route_is_swept() -> None:
    names = {name for name, _ in CAMPAIGN_ROUTES}
    assert {f"campaign:{name}" for name, _, _ in TABLE} <= names


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(("name", "route"), CAMPAIGN_ROUTES, ids=[n for n, _ in CAMPAIGN_ROUTES])
def test_anonymous_is_sent_to_log_in_everywhere(world: World, name: str, route: str,
                                                method: str) -> None:
    url = _url_for(world, name, route, world.campaign.slug)
    before = dump()
    response = getattr(world.client("anonymous"), method)(url)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={quote(url)}"
    assert dump() == before


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(("name", "route"), CAMPAIGN_ROUTES, ids=[n for n, _ in CAMPAIGN_ROUTES])
def test_outsider_cannot_tell_the_campaign_exists(world: World, name: str, route: str,
                                                  method: str) -> None:
    """An outsider gets the same answer for this campaign as for one that does not exist."""
    client = world.client("outsider")
    before = dump()
    real = getattr(client, method)(_url_for(world, name, route, world.campaign.slug))
    missing = getattr(client, method)(_url_for(world, name, route, "no-such-campaign"))
    assert real.status_code in (404, 405)
    assert real.status_code == missing.status_code
    assert world.campaign.name.encode() not in real.content
    assert dump() == before
