"""Every route attacked: odd values in every field and query parameter, another campaign's ids,
the form sent twice and in the wrong phase, as every role. No answer may be a 5xx, and a refusal
(4xx, or the anonymous visitor's redirect to log in) must leave every row of every table as it
was.

The routes come from the project's own URL table: ``test_every_route_is_attacked`` fails when a
route is added that no row here attacks. Each POST row puts the campaign where its form makes
sense (the Mighty Kingdoms rows reuse the access table's ``prep_*`` of tests/mk/test_mk_access.py)
and gives a valid form; the fields attacked are the form's and every field the view's source
reads by name. The player and the GM, who get past the access checks, get every odd value in
every field one at a time; every other role gets the valid form and the form with every field
odd at once. Each request runs in a savepoint rolled back afterwards.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, Callable

import pytest
from django.urls import reverse

from campaign import pdf
from campaign.models import Campaign, Invitation, Kingdom, Membership, PrintJob, Role
from tests.attack.arena import (
    DEEP,
    ID_FIELDS,
    LONG,
    ODD_VALUES,
    PERSONAS,
    SHALLOW_VALUES,
    Arena,
    Prepared,
    fields_read_by,
    make_foreign,
    route_names,
    system_routes,
    url_for,
    url_kwargs,
    view_of,
)
from tests.mk import test_mk_access as access_table
from tests.mk.test_mk_access import People, people  # noqa: F401
from tests.mk.test_summer_scene import campaign, scene  # noqa: F401

# -- the rows ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Attack:
    name: str
    method: str
    prepare: Callable[[People], Prepared]
    # Fields the view reads that neither the prepared form nor its source name (a helper reads
    # them).
    extra: tuple[str, ...] = ()
    # Query parameters of a GET route.
    query: tuple[str, ...] = ()
    # Routes that log the visitor in or out get a freshly logged-in client per request.
    auth: bool = False


def _png() -> io.BytesIO:
    from tests.conftest import make_png

    return make_png()


def _invitation(p: People) -> Invitation:
    return Invitation.objects.create(campaign=p.scene.campaign, role=Role.PLAYER,
                                     created_by=p.scene.gm)


def _observer_seat(p: People) -> Membership:
    return Membership.objects.get(campaign=p.scene.campaign, user=p.observer)


def _green(p: People) -> Kingdom:
    return Kingdom.objects.create(campaign=p.scene.campaign, name="Green", colour="#00aa00")


def _none(p: People) -> Prepared:
    return [], {}


def _sheet(p: People, per_object: bool) -> str:
    return next(s.slug for s in pdf.system_sheets(p.scene.campaign)
                if s.per_object == per_object and s.applies(p.scene.campaign))


def _job(p: People) -> PrintJob:
    return PrintJob.objects.create(campaign=p.scene.campaign, requested_by=p.scene.player,
                                   status=PrintJob.Status.DONE)


def _profile(p: People) -> Any:
    from battles.catalogue import add_profile
    from battles.rules.catalogue import ProfileEntry

    return add_profile(p.scene.campaign, ProfileEntry("Ironguard", "regiment", 145, 2),
                       p.scene.gm)


def _note(p: People) -> Any:
    from campaign.notes import add_note

    return add_note(p.scene.campaign, p.scene.gm, text="Bandits here.", shared=False,
                    kingdom=p.scene.red)


def _entry(p: People) -> Any:
    from campaign.notes import add_entry

    return add_entry(p.scene.campaign, p.scene.gm, title="Spring", text="The thaw came.")


PROFILE_FORM = {"name": "Spears", "unit_type": "horde", "points": "200", "base_us": "3",
                "stats": "Sp 4", "special_rules": "Phalanx"}


def _export(p: People) -> bytes:
    from django.test import Client

    client = Client()
    client.force_login(p.scene.gm)
    return client.get(reverse("campaign:export", args=[p.scene.campaign.slug])).content


CORE_POSTS: list[Attack] = [
    Attack("signup", "post", lambda p: ([], {
        "username": "newcomer", "email": "", "password1": "A-long-pass-9031",
        "password2": "A-long-pass-9031", "next": "/c/summer/"}), auth=True),
    Attack("login", "post", lambda p: ([], {"username": "player", "password": "pw-player",
                                            "next": "/c/summer/"}), auth=True),
    Attack("logout", "post", _none, auth=True),
    Attack("password_change", "post", lambda p: ([], {
        "old_password": "pw-player", "new_password1": "A-long-pass-9031",
        "new_password2": "A-long-pass-9031"}), auth=True),
    Attack("password_reset", "post", lambda p: ([], {"email": "player@example.com"})),
    Attack("password_reset_confirm", "post", lambda p: (["MQ", "set-password"], {
        "new_password1": "A-long-pass-9031", "new_password2": "A-long-pass-9031"}),
           auth=True),
    Attack("join", "post", lambda p: ([_invitation(p).token], {})),
    Attack("campaign:create", "post", lambda p: ([], {
        "name": "New Realm", "rule_system": "mighty-kingdoms", "width": "5", "height": "5",
        "orientation": "flat", "seed": "3"})),
    Attack("campaign:import", "post", lambda p: ([], {
        "file": io.BytesIO(_export(p)), "slug": "imported"})),
    Attack("campaign:settings", "post", lambda p: ([], {"name": "Summer", "paper_size": "a4"})),
    Attack("campaign:invite", "post", lambda p: ([], {"role": "player", "note": "for Ann"})),
    Attack("campaign:revoke_invitation", "post", lambda p: ([_invitation(p).pk], {})),
    Attack("campaign:change_role", "post", lambda p: ([_observer_seat(p).pk],
                                                      {"role": "player"})),
    Attack("campaign:remove_member", "post", lambda p: ([_observer_seat(p).pk], {})),
    Attack("campaign:kingdom_create", "post", lambda p: ([], {
        "name": "Gold", "colour": "#ccaa00", "crest": _png()})),
    Attack("campaign:kingdom_edit", "post", lambda p: ([p.scene.red.pk], {
        "name": "Red", "colour": "#aa0000"})),
    Attack("campaign:kingdom_claim", "post", lambda p: ([_green(p).pk], {})),
    Attack("campaign:kingdom_assign", "post", lambda p: ([_green(p).pk], {
        "player": str(_observer_seat(p).pk)})),
    Attack("campaign:map_paint", "post", lambda p: ([], {
        "tile": "0101", "tool": "terrain", "value": "hills"}), extra=("x", "y")),
    Attack("campaign:map_generate", "post", lambda p: ([], {
        "width": "6", "height": "5", "orientation": "flat", "seed": "4"})),
    Attack("campaign:tile_edit", "post", lambda p: (["0101"], {
        "terrain": "hills", "settlement": "village", "name": "Ford"})),
    Attack("campaign:tile_act", "post", lambda p: (["0203"], {
        "action": f"move:army:{p.scene.get_army(p.scene.red, 1).pk}"})),
    Attack("campaign:advance", "post", lambda p: ([], {
        "clock": p.scene.campaign.clock_label()}), extra=("tiebreak_1",)),
    Attack("campaign:undo", "post", lambda p: ([], {
        "seq": str(p.scene.campaign.events.order_by("-seq").first().seq)})),
    Attack("campaign:take_back", "post", lambda p: ([], {
        "seq": str(p.scene.campaign.events.order_by("-seq").first().seq)})),
    Attack("campaign:photos", "post", lambda p: ([], {"image": _png(), "caption": "Turn 1"})),
    Attack("campaign:print_book", "post", lambda p: ([], {"paper": "a4", "eco": "1",
                                                          "landscape": "0"})),
    Attack("campaign:notifications", "post", lambda p: ([], {"form": "mine"})),
    Attack("campaign:kingdom_note_add", "post", lambda p: ([p.scene.red.pk], {
        "text": "Red plots.", "shared": "on"})),
    Attack("campaign:tile_note_add", "post", lambda p: (["0101"], {"text": "Bandits."})),
    Attack("campaign:note_edit", "post", lambda p: ([_note(p).pk], {
        "text": "Bandits left.", "shared": "on"})),
    Attack("campaign:note_remove", "post", lambda p: ([_note(p).pk], {})),
    Attack("campaign:entry_write", "post", lambda p: ([], {
        "title": "Spring", "text": "The thaw came.", "photo": _png()})),
    Attack("campaign:entry_edit", "post", lambda p: ([_entry(p).pk], {
        "title": "Spring", "text": "The thaw came late.", "photo": _png()}),
           extra=("drop_photo",)),
    Attack("campaign:entry_remove", "post", lambda p: ([_entry(p).pk], {})),
    Attack("campaign:catalogue:add", "post", lambda p: ([], PROFILE_FORM)),
    Attack("campaign:catalogue:edit", "post", lambda p: ([_profile(p).pk], PROFILE_FORM)),
    Attack("campaign:catalogue:remove", "post", lambda p: ([_profile(p).pk], {})),
    Attack("campaign:catalogue:import", "post", lambda p: ([], {
        "text": "Spears, horde, 200; US 3\nScouts, troop, 60"}), extra=("file",)),
]

# Extra fields the Mighty Kingdoms views read through helpers their source does not show.
MK_EXTRA = {
    "mk:summer_battle_result": ("units", "unit_results", "removed", "slaughtered"),
    "mk:battle_kow_result": ("units", "removed"),
    "mk:winter_buy": ("disband", "allied", "to"),
    "mk:winter_recall": ("ships",),
    "mk:setup_order": ("order",),
}
MK_POSTS: list[Attack] = [
    Attack(r.name, "post", r.prepare, extra=MK_EXTRA.get(r.name, ()))
    for r in access_table.ROWS if r.method == "post"
]

PRINT_QUERY = ("paper", "landscape", "eco")
GETS: list[Attack] = [
    Attack("home", "get", _none),
    Attack("signup", "get", _none, query=("next",)),
    Attack("login", "get", _none, query=("next",)),
    Attack("password_change", "get", _none),
    Attack("password_change_done", "get", _none),
    Attack("password_reset", "get", _none),
    Attack("password_reset_done", "get", _none),
    Attack("password_reset_confirm", "get", lambda p: (["MQ", "x" * 300], {})),
    Attack("password_reset_complete", "get", _none),
    Attack("join", "get", lambda p: ([_invitation(p).token], {})),
    Attack("campaign:create", "get", _none),
    Attack("campaign:import", "get", _none),
    Attack("campaign:detail", "get", _none),
    Attack("campaign:settings", "get", _none),
    Attack("campaign:export", "get", _none),
    Attack("campaign:members", "get", _none),
    Attack("campaign:kingdom_create", "get", _none),
    Attack("campaign:kingdom", "get", lambda p: ([p.scene.red.pk], {})),
    Attack("campaign:kingdom_edit", "get", lambda p: ([p.scene.red.pk], {})),
    Attack("campaign:map", "get", _none, query=("tile",)),
    Attack("campaign:map_svg", "get", _none, query=("tile", "eco")),
    Attack("campaign:map_edit", "get", _none),
    Attack("campaign:tile", "get", lambda p: (["0101"], {})),
    Attack("campaign:play", "get", _none),
    Attack("campaign:chronicle", "get", _none, query=("kind", "year", "page")),
    Attack("campaign:photos", "get", _none),
    Attack("campaign:notifications", "get", _none),
    Attack("campaign:note_edit", "get", lambda p: ([_note(p).pk], {})),
    Attack("campaign:entry_write", "get", _none),
    Attack("campaign:entry_edit", "get", lambda p: ([_entry(p).pk], {})),
    Attack("campaign:catalogue:index", "get", _none),
    Attack("campaign:catalogue:edit", "get", lambda p: ([_profile(p).pk], {})),
    Attack("campaign:catalogue:import", "get", _none),
    # The pages' poll: ``since`` also as a date that looks right and is none.
    Attack("campaign:live", "get", _none, query=("since",)),
    Attack("campaign:print", "get", _none, query=PRINT_QUERY),
    Attack("campaign:print_book_status", "get", lambda p: ([_job(p).pk], {})),
    Attack("campaign:print_book_pdf", "get", lambda p: ([_job(p).pk], {})),
    Attack("campaign:print_sheet", "get", lambda p: ([_sheet(p, False)], {}), query=PRINT_QUERY),
    Attack("campaign:print_sheet_obj", "get",
           lambda p: ([_sheet(p, True), p.scene.red.pk], {}), query=PRINT_QUERY),
    Attack("media/<path:path>", "get", lambda p: (["crests/none.png"], {})),
    # The old address of the army pages, kept for printed QR codes: a redirect built from the
    # rest of the path and the query string.
    Attack("campaign:moved_armies", "get",
           lambda p: ([f"{p.scene.get_army(p.scene.red, 1).pk}/"], {}), query=("unit",)),
    *[Attack(r.name, "get", r.prepare,
             query=("unit", "profile") if r.name == "mk:armies:edit" else
             ("year",) if r.name == "campaign:ledger:kingdom" else ())
      for r in access_table.ROWS if r.method == "get"],
]
# PDF downloads render with WeasyPrint: each is attacked through its preview (same views, same
# options), and downloaded once with odd options by the GM (``test_pdf_downloads``).
PDF_ROUTES = {"campaign:print_sheet_pdf", "campaign:print_sheet_obj_pdf"}

POSTS = CORE_POSTS + MK_POSTS
ROUTES = POSTS + GETS


def test_every_route_is_attacked() -> None:
    """The route table, Django's admin aside (staff only, its own forms), is covered; the
    routes of the other rule systems are attacked by tests/attack/test_system_routes.py."""
    attacked = ({a.name for a in ROUTES} | PDF_ROUTES
                | {name for _, name, _ in system_routes()})
    assert route_names() - attacked == set()
    assert len({(a.name, a.method) for a in ROUTES}) == len(ROUTES)


# -- the attacks -----------------------------------------------------------------------------


@pytest.fixture
def arena(people: People, monkeypatch: pytest.MonkeyPatch) -> Arena:
    monkeypatch.setattr(pdf, "start_worker", lambda job_id, token: None)
    return Arena(people, make_foreign())


def _label(a: Attack, field: str, value_name: str) -> str:
    return f"{a.name} {field}={value_name}"


def _wrong_phase(c: Campaign) -> Callable[[], None]:
    def move() -> None:
        if c.season == "winter":
            Campaign.objects.filter(pk=c.pk).update(season="summer", phase="A", month=1,
                                                    sub_phase="")
        else:
            Campaign.objects.filter(pk=c.pk).update(season="winter", phase="B", month=None,
                                                    sub_phase="")
    return move


def _fresh(data: dict[str, Any]) -> dict[str, Any]:
    """The form again, with uploads rewound (a file can be read once per request)."""
    for value in data.values():
        if hasattr(value, "seek"):
            value.seek(0)
    return dict(data)


def attack_post(arena: Arena, a: Attack) -> None:
    args, data = a.prepare(arena.people)
    url = url_for(a.name, arena.campaign.slug, args)
    fields = sorted(set(data) | fields_read_by(view_of(url)) | set(a.extra))
    for persona in PERSONAS:
        send = arena.send
        # The valid form, once and twice; and in the wrong phase.
        send(persona, "post", url, _fresh(data), label=f"{a.name} valid form",
             times=2 if persona in (*DEEP, "other") else 1, relogin=a.auth)
        send(persona, "post", url, _fresh(data), label=f"{a.name} in the wrong phase",
             before=_wrong_phase(arena.campaign), relogin=a.auth)
        values = ODD_VALUES if persona == "gm" else {k: ODD_VALUES[k] for k in SHALLOW_VALUES}
        if persona in DEEP:
            for field in fields:
                for value_name, value in values.items():
                    send(persona, "post", url, {**_fresh(data), field: value},
                         label=_label(a, field, value_name), relogin=a.auth)
                # The field twice, a good value and an odd one.
                if field in data and isinstance(data[field], str):
                    send(persona, "post", url, {**_fresh(data), field: [data[field], "²"]},
                         label=_label(a, field, "listed twice"), relogin=a.auth)
                foreign = arena.foreign.id_for(field)
                if foreign is not None:
                    send(persona, "post", url, {**_fresh(data), field: str(foreign)},
                         label=_label(a, field, "another campaign's id"), relogin=a.auth,
                         must_refuse=field in ID_FIELDS and persona == "gm")
        else:
            for value_name, value in values.items():
                send(persona, "post", url, {f: value for f in fields},
                     label=f"{a.name} every field {value_name}", relogin=a.auth)
    # A NUL anywhere is refused before any view runs.
    arena.send("gm", "post", url, {**_fresh(data), "note\x00": "a\x00b"},
               label=f"{a.name} NUL", must_refuse=True, relogin=a.auth)
    attack_url_ids(arena, a, url, _fresh(data))


def attack_url_ids(arena: Arena, a: Attack, url: str, data: dict[str, Any]) -> None:
    """Each id in the URL replaced by another campaign's and by a number beyond any id."""
    kwargs = url_kwargs(url)
    for key, value in kwargs.items():
        if key == "slug" or not isinstance(value, int):
            continue
        for value_name, replacement in (("another campaign's id", arena.foreign.id_for(key)),
                                        ("huge", 10**30)):
            if replacement is None:
                continue
            other = reverse(a.name, kwargs={**kwargs, key: replacement})
            for persona in ("player", "gm"):
                arena.send(persona, a.method, other, _fresh(data),
                           label=f"{a.name} {key}={value_name}", must_refuse=True)


def attack_get(arena: Arena, a: Attack) -> None:
    args, _data = a.prepare(arena.people)
    url = url_for(a.name, arena.campaign.slug, args)
    read = fields_read_by(view_of(url))
    query = sorted(set(a.query) | read | {"junk"})
    for persona in PERSONAS:
        arena.send(persona, "get", url, {}, label=f"{a.name} plain", relogin=a.auth)
        values = ODD_VALUES if persona == "gm" else {k: ODD_VALUES[k] for k in SHALLOW_VALUES}
        if persona in DEEP:
            for param in query:
                for value_name, value in values.items():
                    arena.send(persona, "get", url, {param: value},
                               label=f"{a.name} ?{param}={value_name}")
                foreign = arena.foreign.id_for(param)
                if foreign is not None:
                    arena.send(persona, "get", url, {param: str(foreign)},
                               label=f"{a.name} ?{param}=another campaign's id",
                               must_refuse=param in (ID_FIELDS | {"unit"}) & read)
        else:
            for value_name, value in values.items():
                arena.send(persona, "get", url, {p: value for p in query},
                           label=f"{a.name} every parameter {value_name}")
    arena.send("gm", "get", url, {"q": "a\x00b"}, label=f"{a.name} NUL", must_refuse=True)
    if ":" in a.name:
        attack_url_ids(arena, a, url, {})


def _report(arena: Arena) -> str:
    return "\n".join(arena.findings[:40])


@pytest.mark.parametrize("a", POSTS, ids=[f"{a.name}-post" for a in POSTS])
def test_post_route_survives_odd_input(arena: Arena, a: Attack) -> None:
    attack_post(arena, a)
    assert arena.requests > 0
    assert arena.findings == [], _report(arena)


@pytest.mark.parametrize("a", GETS, ids=[f"{a.name}-get" for a in GETS])
def test_get_route_survives_odd_input(arena: Arena, a: Attack) -> None:
    attack_get(arena, a)
    assert arena.requests > 0
    assert arena.findings == [], _report(arena)


@pytest.mark.parametrize("name", sorted(PDF_ROUTES))
def test_pdf_downloads_with_odd_options(arena: Arena, name: str) -> None:
    """A PDF download with every option odd at once falls back to the campaign's options; as an
    outsider or anonymous it is refused without rendering."""
    per_object = name.endswith("obj_pdf")
    args = [_sheet(arena.people, per_object)] + ([arena.people.scene.red.pk] if per_object
                                                  else [])
    url = url_for(name, arena.campaign.slug, args)
    odd = {p: LONG for p in PRINT_QUERY}
    for persona in ("anonymous", "outsider", "gm"):
        arena.send(persona, "get", url, odd, label=f"{name} every option 100k characters")
    arena.send("gm", "get", url, {"landscape": "²", "paper": "٣", "eco": "-1"},
               label=f"{name} odd digits")
    assert arena.findings == [], _report(arena)


@pytest.mark.parametrize("since", ["2026-13-45T99:99:99", "2026-02-30T10:00:00+99:00",
                                   "9999-12-31T23:59:59", "0000-01-01"])
def test_live_poll_with_an_impossible_date(arena: Arena, since: str) -> None:
    url = reverse("campaign:live", args=[arena.campaign.slug])
    for persona in PERSONAS:
        arena.send(persona, "get", url, {"since": since}, label=f"campaign:live ?since={since}")
    assert arena.findings == [], _report(arena)
