"""Pages that follow the game, and the member's notification settings.

Every campaign page carries a small poller (``templates/includes/live.html``, driven by
``static/js/live.js`` through htmx): every few seconds it asks ``version`` whether the campaign
changed for this viewer. The version is the number of the latest chronicle event the viewer may
read (``access.visible_events``), so a secret event of one kingdom moves the version of that
kingdom's player and the GMs and of nobody else. An unchanged version is answered ``304 Not
Modified`` with no body; an idle table costs one read of the session and one query per poll,
and on PostgreSQL one query in all once the process has served that session
(``read_with_session``: the session's row and the viewer's version in one statement).
When it changed, the page fetches itself again (rendered for this viewer, as on a reload) and
swaps its campaign header and main region, leaving in place any form that has the focus or
input not yet sent.

``version`` deliberately skips ``request.user``: it reads the user row in the same query as the
version and checks the session's password hash itself, the way ``django.contrib.auth.get_user``
does (a changed password still signs the session out).

The same version makes the phone's pages cheap (``PageCache``): a page of a campaign changes for
a viewer only when an event they may read is written, so the play, overview, kingdom and map
pages are kept, rendered, under a key made of everything that page depends on besides the
campaign's rows: the campaign, the viewer (user, role), their version, the address with its
query, the htmx headers, the session's data and the CSRF secret the page's forms carry. Asking
again with the same key answers from the cache in two queries (the session and the version;
one on PostgreSQL, as for the poll).
A page with a message to show, a session that the page's rendering changed, a request without
a CSRF cookie yet, and any answer but a plain 200 are never kept. See docs/performance.md.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
import zlib
from collections import OrderedDict
from datetime import UTC, datetime
from typing import Any, Callable, Sequence

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection, transaction
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseNotModified,
)
from django.shortcuts import redirect, render
from django.urls import path
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_http_methods

from campaign import notifications, prepared
from campaign.access import get_campaign_for
from campaign.chronicle import Recorder
from campaign.locking import lock_campaign
from campaign.models import (
    Campaign,
    CampaignNotifications,
    Event,
    Kingdom,
    Membership,
    NotificationPreference,
    Role,
    Visibility,
)
from campaign.parsing import parse_moment

VERSION_HEADER = "X-Live-Version"
CHANGED_HEADER = "X-Live-Changed"


_VERSION_COLUMNS = ("role", "all_seq", "all_at", "public_seq", "public_at", "own_seq", "own_at")


def _user_fields() -> list[Any]:
    return list(get_user_model()._meta.concrete_fields)


@functools.cache
def _version_sql() -> str:
    """The version query, written once: it runs on every poll and every kept page, where
    building it through the ORM took longer than running it. The visibilities are written in,
    not sent as values, so that PostgreSQL's kept plan (``campaign/prepared.py``) can use the
    chronicle's partial indexes of public and of kingdom events (``Event.Meta``): the latest of
    each is the last entry of its index, however many events of other kinds came after it. On
    PostgreSQL each latest event is read once with its number and time (a lateral join); SQLite
    has no lateral join and reads each column by itself."""
    user = get_user_model()._meta.db_table
    campaign, event = Campaign._meta.db_table, Event._meta.db_table
    kingdom, membership = Kingdom._meta.db_table, Membership._meta.db_table
    own_kingdom = (f"(SELECT k.id FROM {kingdom} k JOIN {membership} m ON k.player_id = m.id "
                   "WHERE k.campaign_id = c.id AND m.user_id = u.id ORDER BY k.id LIMIT 1)")
    wheres = ("e.campaign_id = c.id",
              f"e.campaign_id = c.id AND e.visibility = '{Visibility.PUBLIC.value}'",
              f"e.kingdom_id = {own_kingdom} AND e.visibility = '{Visibility.KINGDOM.value}'")
    columns = ", ".join(f"u.{connection.ops.quote_name(f.column)}" for f in _user_fields())
    role = f"(SELECT m.role FROM {membership} m WHERE m.campaign_id = c.id AND m.user_id = u.id)"
    if connection.vendor == "postgresql":
        joins = "".join(f" LEFT JOIN LATERAL (SELECT e.seq, e.created_at FROM {event} e "
                        f"WHERE {where} ORDER BY e.seq DESC LIMIT 1) e{i} ON TRUE"
                        for i, where in enumerate(wheres))
        latest = ", ".join(f"e{i}.seq, e{i}.created_at" for i in range(len(wheres)))
        return (f"SELECT {columns}, {role}, {latest} FROM {user} u CROSS JOIN {campaign} c"
                f"{joins} WHERE u.id = %s AND c.slug = %s")
    latest = ", ".join(f"(SELECT e.{column} FROM {event} e WHERE {where} "
                       "ORDER BY e.seq DESC LIMIT 1)"
                       for where in wheres for column in ("seq", "created_at"))
    return (f"SELECT {columns}, {role}, {latest} "
            f"FROM {user} u CROSS JOIN {campaign} c WHERE u.id = %s AND c.slug = %s")


def _version_params(slug: str, user_pk: int) -> list[Any]:
    return [user_pk, slug]


def _viewer_version(slug: str, user_id: Any) -> dict[str, Any] | None:
    """The user (``user``, the whole row, as ``request.user`` would read it) and the latest
    events of campaign ``slug`` they might read, in one query: every event, the public ones
    and their own kingdom's secret ones (those by their kingdom's index, so a kingdom without
    any costs a lookup, not a walk through the whole chronicle). None when there is no such
    user or campaign."""
    try:
        user_pk = int(user_id)
    except (TypeError, ValueError):
        return None
    with prepared.cursor() as cursor:
        cursor.execute(_version_sql(), _version_params(slug, user_pk))
        row = cursor.fetchone()
    return _viewer_row(row) if row is not None else None


def _viewer_row(row: Sequence[Any]) -> dict[str, Any]:
    """What ``_viewer_version`` makes of its query's row."""
    fields = _user_fields()
    values = []
    for field, value in zip(fields, row, strict=False):
        # What the ORM does to a value read (SQLite's text times and 0/1 booleans).
        column = field.get_col(field.model._meta.db_table)
        for convert in [*connection.ops.get_db_converters(column),
                        *column.get_db_converters(connection)]:
            value = convert(value, column, connection)
        values.append(value)
    user = get_user_model().from_db(connection.alias, [f.attname for f in fields], values)
    result: dict[str, Any] = dict(zip(_VERSION_COLUMNS, row[len(fields):], strict=True))
    result.update(user=user, pk=user.pk, password=user.password, is_active=user.is_active,
                  is_superuser=user.is_superuser)
    return result


def _session_valid(request: HttpRequest, row: dict[str, Any]) -> bool:
    """The session's password hash against the user's, as ``auth.get_user`` checks it."""
    user = get_user_model()(pk=row["pk"], password=row["password"], is_active=row["is_active"])
    stored = request.session.get(HASH_SESSION_KEY) or ""
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return bool(stored) and row["is_active"] and any(
        constant_time_compare(stored, h) for h in hashes)


def _as_time(value: Any) -> datetime | None:
    """A time read by the raw version query: SQLite hands back its UTC text, PostgreSQL a time."""
    if value is None:
        return None
    moment = value if isinstance(value, datetime) else parse_datetime(str(value))
    if moment is not None and timezone.is_naive(moment):
        moment = moment.replace(tzinfo=UTC)
    return moment


# Whose each session key was when this process last served it: a hint for reading the session
# and the viewer's version in one statement (``read_with_session``), never trusted. At most
# ``_SEEN_MOST`` keys, the least recently served forgotten first.
_SEEN: OrderedDict[str, int] = OrderedDict()
_SEEN_MOST = 10_000
_SEEN_LOCK = threading.Lock()


@functools.cache
def _session_version_sql() -> str:
    """The session row of a key with, beside it, ``_version_sql``'s row for a user and a
    campaign (blank where there is no such user or campaign)."""
    table = connection.ops.quote_name(Session._meta.db_table)
    return (f"SELECT s.session_key, s.session_data, s.expire_date, v.* FROM {table} s "
            f"LEFT JOIN LATERAL ({_version_sql()}) v ON TRUE WHERE s.session_key = %s")


def read_with_session(request: HttpRequest, slug: str) -> None:
    """Read the request's session and the viewer's version of campaign ``slug`` in one query
    (PostgreSQL), before the session is first looked at, when this process has served the
    session's key before: its user then is the likely viewer. The session row goes to the
    session store, which checks and decodes it as if it had read it itself; the version waits
    for ``_viewer``, which uses it only if the session turns out to be that user's (else it
    reads the version for the session's user as usual). Nothing is decided here: an unknown
    key, another database, a session already read, a store of another kind all leave the two
    reads as they were."""
    session = request.session
    read_with = getattr(session, "read_with", None)
    key = getattr(session, "session_key", None)
    if (connection.vendor != "postgresql" or read_with is None or not isinstance(key, str)
            or hasattr(session, "_session_cache")):
        return
    with _SEEN_LOCK:
        user_pk = _SEEN.get(key)
    if user_pk is None:
        return
    with prepared.cursor() as cursor:
        cursor.execute(_session_version_sql(), [*_version_params(slug, user_pk), key])
        found = cursor.fetchone()
    if found is None:
        read_with(key, None)
        return
    read_with(key, Session(session_key=found[0], session_data=found[1], expire_date=found[2]))
    viewer = found[3:]
    request._viewer_read = (slug, user_pk,  # type: ignore[attr-defined]
                            _viewer_row(viewer) if viewer[0] is not None else None)


def _seen(key: str | None, user_pk: int) -> None:
    if not isinstance(key, str):
        return
    with _SEEN_LOCK:
        _SEEN[key] = user_pk
        _SEEN.move_to_end(key)
        while len(_SEEN) > _SEEN_MOST:
            _SEEN.popitem(last=False)


def _viewer(request: HttpRequest, slug: str) -> tuple[dict[str, Any], int, datetime | None]:
    """The viewer's row and the latest event they may read (number and time), or 404 as for
    any page of a campaign they may not see."""
    user_id = request.session.get(SESSION_KEY)
    if user_id is None or not request.session.get(BACKEND_SESSION_KEY):
        raise Http404("No such campaign.")
    read = getattr(request, "_viewer_read", None)
    if read is not None and read[0] == slug and str(read[1]) == str(user_id):
        row = read[2]
    else:
        row = _viewer_version(slug, user_id)
    if row is None or not _session_valid(request, row):
        raise Http404("No such campaign.")
    _seen(request.session.session_key, row["pk"])
    if row["is_superuser"] or row["role"] == Role.GM:
        return row, row["all_seq"] or 0, _as_time(row["all_at"])
    if row["role"] is None:
        raise Http404("No such campaign.")
    seen = [(row["public_seq"] or 0, _as_time(row["public_at"])),
            (row["own_seq"] or 0, _as_time(row["own_at"]))]
    seq, at = max(seen, key=lambda pair: pair[0])
    return row, seq, at


def viewer_version(request: HttpRequest, slug: str) -> tuple[int, datetime | None]:
    """The latest event this viewer may read (its number and time), or 404 as for any page of
    a campaign they may not see."""
    _, seq, at = _viewer(request, slug)
    return seq, at


def version(request: HttpRequest, slug: str) -> HttpResponse:
    """The poll: 304 when the viewer's version is the one they sent (``If-None-Match``), else
    200 with the version; ``since`` (the time the page was made, on the first poll) says
    whether something the viewer may read happened after it. Like every campaign page, it
    sends a visitor who is not signed in to sign in (read from the session alone)."""
    read_with_session(request, slug)
    if request.session.get(SESSION_KEY) is None:
        return redirect_to_login(request.get_full_path())
    if request.method != "GET":
        return HttpResponseNotAllowed(["GET"])
    seq, at = viewer_version(request, slug)
    etag = f'"{seq}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(status=200)
        since = parse_moment(request.GET.get("since"))  # no moment: nothing is news
        response[CHANGED_HEADER] = "1" if since and at and at > since else "0"
    response["ETag"] = etag
    response[VERSION_HEADER] = str(seq)
    response["Cache-Control"] = "private, no-store"  # the page sends its version itself
    return response


# --- the page cache ---------------------------------------------------------------------------

# The pages kept per viewer and version (URL names); every other page is rendered each time.
CACHED_PAGES = frozenset({"campaign:play", "campaign:detail", "campaign:kingdom",
                          "campaign:map"})
# The htmx request headers a page may answer differently to (a fragment instead of the page).
_HTMX_HEADERS = ("HX-Request", "HX-Target", "HX-Trigger", "HX-Trigger-Name", "HX-Boosted",
                 "HX-History-Restore-Request")


def page_key(request: HttpRequest, slug: str) -> str | None:
    """The cache key of this request's page, or None when it must be rendered (not signed in,
    not a member, no CSRF secret yet, a message waiting). Costs the version's one query."""
    # The secret CsrfViewMiddleware read from the cookie (a malformed one is replaced by a
    # new secret, which never repeats); a kept page's forms carry a token masking it.
    csrf_secret = request.META.get("CSRF_COOKIE")
    if not csrf_secret:
        return None
    read_with_session(request, slug)
    if request.session.get(SESSION_KEY) is None:
        return None
    if len(messages.get_messages(request)):  # counted, not shown: they stay for the page
        return None
    try:
        row, seq, _ = _viewer(request, slug)
    except Http404:
        return None  # the view answers as it answers anyone who may not see the campaign
    if request.session.get(BACKEND_SESSION_KEY) in settings.AUTHENTICATION_BACKENDS:
        # The user row just read and checked as ``auth.get_user`` checks it: a page rendered
        # after a miss does not read it again.
        request.user = row["user"]
    session = json.dumps(dict(request.session.items()), sort_keys=True, default=str)
    parts = [slug, str(row["pk"]), str(row["role"]), str(row["is_superuser"]), str(seq),
             request.get_full_path(), csrf_secret, session,
             *(request.headers.get(h, "") for h in _HTMX_HEADERS)]
    return "page:" + hashlib.sha256("\x00".join(parts).encode()).hexdigest()


# Large parts of pages (a map's drawing) kept encoded, and compressed once a page holding them is
# kept, for every page they appear in: by the text itself (its identity, the text held with it),
# the few most recently used.
_BLOCKS: OrderedDict[int, list[Any]] = OrderedDict()
_BLOCKS_MOST = 4
_BLOCKS_LOCK = threading.Lock()


def _block(text: str) -> list[Any]:
    """[text, its UTF-8 bytes, those compressed as pages are kept (None until needed)]."""
    key = id(text)
    with _BLOCKS_LOCK:
        kept = _BLOCKS.get(key)
        if kept is not None and kept[0] is text:
            _BLOCKS.move_to_end(key)
            return kept
    kept = [text, text.encode(), None]
    with _BLOCKS_LOCK:
        _BLOCKS[key] = kept
        _BLOCKS.move_to_end(key)
        while len(_BLOCKS) > _BLOCKS_MOST:
            _BLOCKS.popitem(last=False)
    return kept


def encoded_block(text: str) -> bytes:
    """``text`` in UTF-8, encoded once for the pages that hold it (see ``shared_block``)."""
    return _block(text)[1]


def shared_block(response: HttpResponse, text: str, at: int) -> None:
    """Say that the page in ``response`` holds ``text`` (``encoded_block``) from byte ``at``:
    a large part that other pages hold too (the map's drawing, the same for every viewer).
    ``PageCache`` then compresses it once, not once for every page it keeps; the page kept is
    the same, byte for byte."""
    response._page_cache_block = (text, at)  # type: ignore[attr-defined]


def _compressed(response: HttpResponse) -> tuple[bytes, ...]:
    """The page's content as the cache keeps it: compressed, in parts. A part named with
    ``shared_block`` is compressed once for every page holding it; the parts around it are
    compressed with each page."""
    content = response.content
    shared = getattr(response, "_page_cache_block", None)
    if shared is not None:
        text, at = shared
        block = _block(text)
        encoded = block[1]
        if content.startswith(encoded, at):
            if block[2] is None:
                block[2] = zlib.compress(encoded, 1)
            return (zlib.compress(content[:at], 1), block[2],
                    zlib.compress(content[at + len(encoded):], 1))
    return (zlib.compress(content, 1),)


class PageCache:
    """Middleware (last in ``MIDDLEWARE``): answers the pages of ``CACHED_PAGES`` from the
    ``pages`` cache when the viewer's key is there, and keeps what the view rendered otherwise.
    On when ``settings.PAGE_CACHE`` is (by default when DEBUG is off)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        key = getattr(request, "_page_cache_key", None)
        if key is not None and self._keep(request, response):
            headers = {k: v for k, v in response.items()}
            # Kept compressed: a page is mostly repeated markup (a large map's SVG shrinks
            # about tenfold), and level 1 costs well under a millisecond per 100 KB.
            caches["pages"].set(key, (_compressed(response), headers))
        return response

    @staticmethod
    def _keep(request: HttpRequest, response: HttpResponse) -> bool:
        return (response.status_code == 200 and not response.streaming
                and not response.cookies and not request.session.modified
                and not len(messages.get_messages(request)))

    def process_view(self, request: HttpRequest, view: Any, args: Any,
                     kwargs: dict[str, Any]) -> HttpResponse | None:
        match = request.resolver_match
        if (not getattr(settings, "PAGE_CACHE", False) or request.method != "GET"
                or match is None or match.view_name not in CACHED_PAGES
                or "slug" not in kwargs):
            return None
        key = page_key(request, kwargs["slug"])
        if key is None:
            return None
        kept = caches["pages"].get(key)
        if kept is None:
            request._page_cache_key = key  # type: ignore[attr-defined]
            return None
        parts, headers = kept
        response = HttpResponse(b"".join([zlib.decompress(part) for part in parts]))
        for name, value in headers.items():
            response[name] = value
        return response


# --- notification settings ------------------------------------------------------------------


class PreferenceForm(forms.Form):
    on_turn = forms.BooleanField(required=False, label="when it is my turn")
    on_battle = forms.BooleanField(required=False, label="when a battle of my kingdom is chosen")
    on_phase = forms.BooleanField(required=False, label="when a phase closes")
    daily_digest = forms.BooleanField(required=False, label="a daily digest of the chronicle")


class WebhookForm(forms.Form):
    webhook_url = forms.CharField(required=False, max_length=500, label="Webhook address",
                                  help_text="A Discord (or compatible) webhook; empty: none.")

    def clean_webhook_url(self) -> str:
        try:
            return notifications.check_webhook_url(self.cleaned_data["webhook_url"])
        except notifications.WebhookRefused as exc:
            raise forms.ValidationError(str(exc)) from exc


def set_webhook(access: Any, user: Any, url: str) -> None:
    """A GM sets the campaign's webhook: one event (for GMs only; the address is not written in
    it, since a webhook address lets anyone post), undoable."""
    campaign = access.campaign
    with transaction.atomic():
        campaign = lock_campaign(campaign)
        state = CampaignNotifications.objects.filter(campaign=campaign).first()
        with Recorder(campaign, user, "campaign.webhook",
                      "A GM set the campaign's webhook." if url else
                      "A GM removed the campaign's webhook.",
                      visibility=Visibility.GM) as rec:
            if state is None:
                latest = Event.objects.filter(campaign=campaign).order_by("-seq").values_list(
                    "seq", flat=True).first() or 0
                rec.create(CampaignNotifications(
                    campaign=campaign, webhook_url=url, seen_seq=latest,
                    clock=campaign.clock_label(), turn=notifications.whose_turn(campaign)))
            else:
                rec.update(state, webhook_url=url)


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Each member's e-mail choices for this campaign; GMs also set the campaign's webhook."""
    access = get_campaign_for(request, slug)
    membership = access.membership
    # Read, not made: a refused form leaves no row behind; saving the form makes it.
    pref = None
    if membership is not None:
        pref = (NotificationPreference.objects.filter(membership=membership).first()
                or NotificationPreference(membership=membership))
    post = request.POST if request.method == "POST" else None
    which = request.POST.get("form") if post is not None else None
    initial = {f: getattr(pref, f) for f in PreferenceForm.base_fields} if pref else {}
    form = PreferenceForm(post if which == "mine" else None, initial=initial)
    state = CampaignNotifications.objects.filter(campaign=access.campaign).first()
    hook_form = WebhookForm(post if which == "webhook" else None,
                            initial={"webhook_url": state.webhook_url if state else ""})
    status = 200
    if which == "mine" and pref is not None:
        if form.is_valid():
            data = form.cleaned_data
            if data["daily_digest"] and not pref.daily_digest:
                # The first digest starts from today, not from the campaign's first day.
                latest = Event.objects.filter(campaign=access.campaign).order_by(
                    "-seq").values_list("seq", flat=True).first() or 0
                pref.digest_seq = latest
            for name, value in data.items():
                setattr(pref, name, value)
            notifications.start_state(access.campaign)
            pref.save()
            messages.success(request, "Your notifications are saved.")
            return redirect("campaign:notifications", slug)
        status = 400
    elif which == "webhook":
        if not access.is_gm:
            return render(request, "refused.html",
                          {"message": "Only a GM may set the campaign's webhook."}, status=403)
        if hook_form.is_valid():
            set_webhook(access, request.user, hook_form.cleaned_data["webhook_url"])
            messages.success(request, "The webhook is saved.")
            return redirect("campaign:notifications", slug)
        status = 400
    elif post is not None:
        status = 400
        messages.error(request, "Say which settings to save.")
    email = getattr(request.user, "email", "")
    return render(request, "campaign/notifications.html", {
        "access": access, "campaign": access.campaign, "tab": "notifications",
        "form": form, "hook_form": hook_form, "email": email, "member": membership is not None,
        "last_post": notifications.last_webhook_post(state.webhook_url)
        if access.is_gm and state else None,
    }, status=status)


urlpatterns = [
    path("", version, name="live"),
    path("notifications/", settings_page, name="notifications"),
]
