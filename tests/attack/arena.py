"""The arena the route attacks play in: the summer scene of the Mighty Kingdoms tests with every
persona seated, a second campaign whose ids a request may name, and the helpers that send a
request, judge its answer and compare every row of every table before and after.

Each request runs in a savepoint that is rolled back afterwards, so every odd value meets the
campaign exactly as the route's ``prepare`` left it.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from django.apps import apps
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse

from battles.models import Army, Battle, Unit
from campaign.models import Campaign, Invitation, Kingdom, Membership, PrintJob, Role
from campaign.systems.mighty_kingdoms import forces
from campaign.systems.mighty_kingdoms.models import Artefact, Ship
from campaign.systems.mighty_kingdoms.rules import battles as mkb
from tests.conftest import add_member, make_campaign, make_user
from tests.mk.test_mk_access import People

PERSONAS = ("anonymous", "outsider", "observer", "player", "other", "gm")
# Those who get past the access checks of most routes get every odd value in every field.
DEEP = ("player", "gm")

LONG = "7" * 100_000
# One value set per field: what a fat finger, a script or a hostile client may send.
ODD_VALUES: dict[str, Any] = {
    "empty": "",
    "negative": "-1",
    "zero": "0",
    "huge": "9" * 30,
    "superscript two": "²",
    "arabic-indic three": "٣",
    "fraction": "1.5",
    "word": "abc",
    "100k characters": LONG,
}
# Asked of every persona: the few values that broke pages before.
SHALLOW_VALUES = ("superscript two", "arabic-indic three", "100k characters")

# Fields that name a row by its id: another campaign's id there must be refused.
ID_FIELDS = {"kingdom", "receiver", "opponent", "order", "hero", "artefact", "player",
             "controller"}

Prepared = tuple[list[Any], dict[str, Any]]


@dataclass
class Foreign:
    """Rows of another campaign, whose ids a request may name."""

    campaign: Campaign
    kingdom: Kingdom
    membership: Membership
    invitation: Invitation
    army: Army
    ship: Ship
    battle: Battle
    unit: Unit
    artefact: Artefact
    job: PrintJob

    def id_for(self, name: str) -> int | str | None:
        """The foreign id for a form field or URL argument called ``name``."""
        table: dict[str, Any] = {
            "kingdom": self.kingdom, "receiver": self.kingdom, "opponent": self.kingdom,
            "controller": self.kingdom, "kingdom_id": self.kingdom, "pk": self.kingdom,
            "player": self.membership, "membership_id": self.membership,
            "invitation_id": self.invitation, "army": self.army, "army_id": self.army,
            "ship": self.ship, "battle_id": self.battle, "unit": self.unit, "hero": self.unit,
            "unit_id": self.unit, "artefact": self.artefact, "artefact_id": self.artefact,
            "job_id": self.job, "fed": self.army, "units": self.unit,
        }
        row = table.get(name)
        return None if row is None else row.pk


def make_foreign() -> Foreign:
    stranger = make_user("stranger")
    campaign = make_campaign(stranger, slug="elsewhere", seed=None, width=4, height=4)
    far = make_user("far-player")
    membership = add_member(campaign, far, Role.PLAYER)
    kingdom = Kingdom.objects.create(campaign=campaign, name="Far", player=membership)
    invitation = Invitation.objects.create(campaign=campaign, role=Role.PLAYER,
                                           created_by=stranger)
    tile = campaign.map.tiles.get(label="0101")
    army = Army.objects.create(campaign=campaign, kingdom=kingdom, number=1, tile=tile)
    ship = Ship.objects.create(campaign=campaign, kingdom=kingdom, number=1, tile=tile)
    other = Kingdom.objects.create(campaign=campaign, name="Near")
    battle = Battle.objects.create(campaign=campaign, year=1, month=1, seq=1, tile=tile,
                                   kind="land", mode="kow", chooser=kingdom, opponent=other)
    forces.write_army_list(army, [mkb.UnitEntry(name="Spears", unit_type="regiment",
                                                points=100, base_us=2)], far, fix=False)
    unit = Unit.objects.get(army_list__army=army)
    artefact = Artefact.objects.create(campaign=campaign, name="Far Crown", points=25)
    job = PrintJob.objects.create(campaign=campaign, requested_by=stranger)
    return Foreign(campaign, kingdom, membership, invitation, army, ship, battle, unit,
                   artefact, job)


# -- the whole database ----------------------------------------------------------------------

# Sessions, content types and the sign-in guard's log of logins and failed attempts (axes) are
# bookkeeping: logging a test client in writes them.
SKIPPED_APPS = {"sessions", "contenttypes", "axes"}


def _tables() -> list[str]:
    return sorted({model._meta.db_table for model in apps.get_models(include_auto_created=True)
                   if model._meta.app_label not in SKIPPED_APPS
                   and model._meta.label != "auth.Permission"})


def dump() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the project (sessions and Django's own bookkeeping aside),
    as the database stores them, in primary-key order; users without their last login, which
    logging a test client in stamps."""
    rows = {}
    with connection.cursor() as cursor:
        for table in _tables():
            columns = "*" if table != "auth_user" else ", ".join(
                f'"{f.column}"' for f in User._meta.concrete_fields if f.name != "last_login")
            cursor.execute(f'SELECT {columns} FROM "{table}" ORDER BY 1')
            rows[table] = cursor.fetchall()
    return rows


# -- the route table -------------------------------------------------------------------------


def route_names() -> set[str]:
    """Every route of the project's URL table by name (``namespace:name``), Django's admin
    aside; a route without a name by its pattern."""
    found: set[str] = set()

    def walk(patterns: Any, namespaces: list[str], prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                if pattern.namespace == "admin":
                    continue
                walk(pattern.url_patterns,
                     namespaces + [pattern.namespace] if pattern.namespace else namespaces,
                     prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                name = pattern.name
                found.add(":".join(namespaces + [name]) if name else
                          prefix + str(pattern.pattern))

    walk(get_resolver().url_patterns, [], "")
    return found


_FIELD_PATTERNS = (
    re.compile(r"request\.(?:POST|GET)\.get(?:list)?\(\s*[\"']([A-Za-z_]\w*)[\"']"),
    re.compile(r"\(\s*request\s*,\s*[\"']([A-Za-z_]\w*)[\"']"),
)


def fields_read_by(view: Callable[..., Any]) -> set[str]:
    """The request fields a view's own source reads by name (``request.POST.get("x")``,
    ``request.GET.getlist("x")``, ``_number(request, "x")``)."""
    try:
        source = inspect.getsource(inspect.unwrap(view))
    except (OSError, TypeError):
        return set()
    return {name for pattern in _FIELD_PATTERNS for name in pattern.findall(source)}


# -- one attack ------------------------------------------------------------------------------


@dataclass
class Arena:
    people: People
    foreign: Foreign
    clients: dict[str, Client] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    requests: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    # Every row as the route's ``prepare`` left them: each request starts from there again.
    baseline: dict[str, list[dict[str, Any]]] | None = None

    @property
    def campaign(self) -> Campaign:
        return self.people.scene.campaign

    def user(self, persona: str) -> User | None:
        return self.people.user(persona)

    def client(self, persona: str, *, fresh: bool = False) -> Client:
        if fresh or persona not in self.clients:
            client = Client(raise_request_exception=False)
            user = self.user(persona)
            if user is not None:
                client.force_login(user)
            self.clients[persona] = client
        return self.clients[persona]

    def send(self, persona: str, method: str, url: str, data: dict[str, Any] | None = None,
             *, label: str, times: int = 1, before: Callable[[], None] | None = None,
             must_refuse: bool = False, relogin: bool = False) -> None:
        """Send one request (``times`` times in a row) in a savepoint rolled back afterwards;
        note a 5xx, and a 4xx (or an anonymous visitor's redirect to log in) that changed any
        row, as findings. ``must_refuse``: anything but a 4xx is a finding too."""
        client = self.client(persona, fresh=relogin)
        login_page = reverse("login")
        with transaction.atomic():
            if before is not None:
                before()
                rows = dump()
            else:
                if self.baseline is None:
                    self.baseline = dump()
                rows = self.baseline
            for attempt in range(times):
                self.requests += 1
                if method == "get":
                    response = client.get(url, data or {})
                else:
                    response = client.post(url, data or {})
                status = response.status_code
                self.statuses[status] = self.statuses.get(status, 0) + 1
                where = f"{persona} {method.upper()} {label}" + (
                    f" (sent {attempt + 1} times)" if times > 1 else "")
                if status >= 500:
                    self.findings.append(f"{where}: {status}")
                    break
                if must_refuse and not 400 <= status < 500:
                    self.findings.append(f"{where}: {status}, not refused")
                sent_to_login = status == 302 and response["Location"].startswith(login_page)
                if sent_to_login and persona != "anonymous" and not relogin:
                    self.findings.append(f"{where}: a member was sent to log in")
                if status >= 400 or sent_to_login:
                    if dump() != rows:
                        self.findings.append(f"{where}: {status} but the database changed")
                elif attempt + 1 < times:
                    rows = dump()  # the next attempt starts from what this one did
            transaction.set_rollback(True)


def url_for(name: str, slug: str, args: list[Any]) -> str:
    if "<" in name:  # an unnamed route, by its pattern
        return "/" + name.split("<", 1)[0] + "/".join(str(a) for a in args)
    if name in ("signup", "login", "logout", "password_change", "password_change_done",
                "password_reset", "password_reset_done", "password_reset_complete", "home",
                "campaign:create", "campaign:import"):
        return reverse(name)
    if name in ("join", "password_reset_confirm"):
        return reverse(name, args=args)
    return reverse(name, args=[slug, *args])


def url_kwargs(url: str) -> dict[str, Any]:
    return dict(resolve(url).kwargs)


def view_of(url: str) -> Callable[..., Any]:
    return resolve(url).func


MIGHTY_KINGDOMS = "mighty-kingdoms"


def system_routes() -> list[tuple[str, str, str]]:
    """(system slug, route name, its pattern) for every route of a rule system other than
    Mighty Kingdoms, found in the URL table by the system's namespace (its ``url_prefix``)."""
    from campaign.rulesystems import REGISTRY, get_system

    prefixes = {get_system(slug).url_prefix: slug for slug in REGISTRY if slug != MIGHTY_KINGDOMS}
    found = []

    def walk(patterns: Any, namespace: str | None, prefix: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace,
                     prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern) and namespace in prefixes and pattern.name:
                found.append((prefixes[namespace], f"{namespace}:{pattern.name}",
                              prefix + str(pattern.pattern)))

    walk(get_resolver().url_patterns, None, "")
    return sorted(found)
