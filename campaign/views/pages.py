"""Home, creating a campaign, its overview and its settings."""

from __future__ import annotations

from html import escape

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET, require_http_methods

from battles.models import Army
from campaign import notes, notifications, services, tile_versions
from campaign.access import Access, get_campaign_for
from campaign.forms import CampaignCreateForm, CampaignSettingsForm
from campaign.kept_sql import kept_rows
from campaign.models import Campaign, Kingdom, Membership, Photo, Role
from campaign.once import applies_once
from campaign.templatetags.links import addresses
from campaign.views.common import tabs_context


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The viewer's campaigns: role, kingdoms and members (counted as Members lists them), and
    whose turn it is, flagged when it is the viewer's kingdom. The same number of queries
    however many campaigns (``notifications.turn_now``)."""
    if not request.user.is_authenticated:
        return render(request, "campaign/landing.html")
    mine = Membership.objects.filter(user=request.user)
    campaigns = Campaign.objects.all()
    if not request.user.is_superuser:
        campaigns = campaigns.filter(pk__in=mine.values("campaign_id"))

    def count(model: type[Membership] | type[Kingdom]) -> Coalesce:
        # A subquery each: a count over the join the filter above would also use counts only
        # the viewer's own membership (every campaign said "1 member").
        rows = (model.objects.filter(campaign=OuterRef("pk")).order_by().values("campaign")
                .annotate(n=Count("pk")).values("n"))
        return Coalesce(Subquery(rows), 0)

    campaigns = notifications.with_told_turn(campaigns.annotate(
        n_members=count(Membership), n_kingdoms=count(Kingdom),
        my_role=Subquery(mine.filter(campaign=OuterRef("pk")).values("role")[:1]),
    ).order_by("name"))
    campaigns = list(campaigns)
    own = dict(Kingdom.objects.filter(player__user=request.user).values_list("campaign_id", "pk"))
    turns = {c.pk: notifications.turn_now(c) for c in campaigns}
    names = dict(Kingdom.objects.filter(pk__in={pk for t in turns.values() for pk in t})
                 .values_list("pk", "name"))
    rows = [{
        "campaign": c,
        "role": Role(c.my_role).label if c.my_role else "Site admin",
        "my_turn": own.get(c.pk) in turns[c.pk],
        "to_act": [names[pk] for pk in turns[c.pk] if pk in names and pk != own.get(c.pk)],
    } for c in campaigns]
    return render(request, "campaign/home.html", {"rows": rows})


@login_required
@require_http_methods(["GET", "POST"])
@applies_once
def create(request: HttpRequest) -> HttpResponse:
    form = CampaignCreateForm(request.POST if request.method == "POST" else None)
    conflict = False
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        seed = None
        if data["random_map"]:
            seed = data["seed"] if data["seed"] is not None else services.random_seed()
        try:
            campaign = services.create_campaign(
                request.user,
                name=data["name"],
                slug=data["slug"],
                rule_system=data["rule_system"],
                description=data["description"],
                width=data["width"],
                height=data["height"],
                orientation=data["orientation"],
                seed=seed,
            )
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
            # Someone took the slug a moment earlier (or just before): 409, the form kept.
            conflict = isinstance(exc, services.ConflictError)
        else:
            messages.success(request, f"{campaign.name} is ready. Invite your players next.")
            return redirect("campaign:members", campaign.slug)
    status = 409 if conflict else 400 if request.method == "POST" else 200
    return render(request, "campaign/create.html", {"form": form}, status=status)


def _kingdom_rows(campaign: Campaign, kingdoms: list[Kingdom]) -> SafeString:
    """The overview's table of kingdoms, a row each: built here rather than in the template,
    where a campaign of 64 kingdoms spent 3 ms on the rows' template nodes (each value escaped
    as ``format_html`` would, with ``html.escape`` straight away)."""
    rows = []
    slug = campaign.slug
    hrefs = addresses("campaign:kingdom", [(slug, k.pk) for k in kingdoms])
    for k, href in zip(kingdoms, hrefs, strict=True):
        crest = (f'<img class="crest-sm" src="{escape(k.crest_thumb.url)}" alt="">'
                 if k.crest_thumb else "")
        player = (escape(k.player.user.get_username()) if k.player
                  else '<span class="muted">unclaimed</span>')
        rows.append(
            f'<tr role="row"><th scope="row" role="rowheader"><span class="swatch" '
            f'data-c="{escape(k.colour)}"></span>\n          {crest}'
            f'<a href="{escape(href)}">'
            f'{escape(k.name)}</a></th>\n'
            f'          <td role="cell" data-label="Player">{player}</td>\n'
            f'          <td role="cell" class="num" data-label="Tiles">{k.n_tiles:d}</td>'
            f'<td role="cell" class="num" data-label="Settlements">{k.n_settlements:d}</td>'
            f'<td role="cell" class="num" data-label="Armies">{k.n_armies:d}</td></tr>\n')
    return mark_safe("".join(rows))  # every value above escaped


def _overview_kingdoms(campaign_id: int) -> QuerySet[Kingdom]:
    """The campaign's kingdoms by number, each with its player and its armies in play counted
    by a subquery (named by the campaign too, so that PostgreSQL looks them up by the
    campaign's index: a grouped join of the kingdoms and their armies took 0.9 ms to run and
    2 ms to plan at 16x, the subquery 0.4 and 0.3). Their tiles are counted apart
    (``tile_versions.holdings``), again only after a tile was written."""
    armies = (Army.objects.filter(kingdom=OuterRef("pk"), campaign_id=OuterRef("campaign_id"))
              # Armies taken off for good keep their rows (data["removed"]); count those in play.
              .exclude(data__has_key="removed")
              .order_by().values("kingdom").annotate(n=Count("pk")).values("n"))
    return (
        Kingdom.objects.filter(campaign_id=campaign_id)
        .select_related("player__user")
        # Times no page of the overview shows, each a parse of text (up to four a kingdom).
        .defer("created_at", "player__joined_at", "player__user__last_login",
               "player__user__date_joined")
        .annotate(n_armies=Coalesce(Subquery(armies), 0))
        .order_by("pk")
    )


def counted_kingdoms(campaign: Campaign) -> tuple[list[Kingdom], dict[int, dict[str, int]]]:
    """The overview's kingdoms (``_overview_kingdoms``), each with its tiles and settlements
    counted (``n_tiles``, ``n_settlements``), and the tiles each holds by settlement
    (``tile_versions.holdings``: two queries)."""
    kingdoms = kept_rows(("overview", "kingdoms"), _overview_kingdoms, campaign.pk,
                         known={"campaign": campaign})
    held = tile_versions.holdings(campaign.pk)
    for k in kingdoms:
        counts = held.get(k.pk, {})
        k.n_tiles = sum(counts.values())
        k.n_settlements = k.n_tiles - counts.get("", 0)
    return kingdoms, held


def _photos(campaign_id: int) -> QuerySet[Photo]:
    return Photo.objects.filter(campaign_id=campaign_id)[:6]


@login_required
@require_GET
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    access = get_campaign_for(request, slug)
    campaign = access.campaign
    kingdoms, held = counted_kingdoms(campaign)
    access.memo["kingdoms"] = kingdoms
    access.memo["holdings"] = held
    context = {
        **tabs_context(access, "overview"),
        "kingdoms": kingdoms,
        "kingdom_rows": _kingdom_rows(campaign, kingdoms),
        "events": notes.latest_events(access, 8),
        "photos": kept_rows(("overview", "photos"), _photos, campaign.pk,
                            known={"campaign": campaign}),
        "unclaimed": [k for k in kingdoms if k.player_id is None],
        "overview_template": campaign.system.template("overview"),
    }
    overview_context = campaign.system.hook("overview_context")
    if overview_context is not None:
        context.update(overview_context(access))
    return render(request, "campaign/detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def settings_view(request: HttpRequest, slug: str) -> HttpResponse:
    access: Access = get_campaign_for(request, slug, role=Role.GM)
    campaign = access.campaign
    form = CampaignSettingsForm(
        request.POST if request.method == "POST" else None, system=campaign.system,
        initial=CampaignSettingsForm.initial_for(campaign),
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_campaign(
                campaign, request.user, name=data["name"], description=data["description"],
                options=form.options(), paper_size=data["paper_size"], eco_print=data["eco_print"],
            )
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, "Settings saved.")
            return redirect("campaign:settings", campaign.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "campaign/settings.html",
                  {**tabs_context(access, "settings"), "form": form}, status=status)


@login_required
@require_GET
def moved(request: HttpRequest, slug: str, rest: str) -> HttpResponse:
    """Pages that moved under their rule system's own prefix (/c/<slug>/armies/... is now
    /c/<slug>/<prefix>/armies/...): printed sheets carry QR codes and links to the old place."""
    access = get_campaign_for(request, slug)
    target = f"/c/{access.campaign.slug}/{access.campaign.system.url_prefix}/armies/{rest}"
    query = request.META.get("QUERY_STRING", "")
    return redirect(target + (f"?{query}" if query else ""), permanent=True)
