"""``{% campaign_header %}``: the top of every campaign page (breadcrumbs, the campaign's clock,
the viewer's role and the tabs), inside ``includes/campaign_header.html``'s box, before its live
poller. Built here rather than in template nodes: it is on every page, and its forty-odd nodes
took about 0.3 ms of each. The markup is the template's it replaced, byte for byte (tested
against it for every tab, viewer and rule system); each value goes through
``render_value_in_context`` as a template variable does, each address through ``links.address``
as the ``{% url %}`` tag does."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.conf import settings as django_settings
from django.template.base import render_value_in_context
from django.template.defaultfilters import capfirst
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone

from campaign.templatetags.links import address, current_app

register = template.Library()

# The later tabs, after the rule system's own (RuleSystem.tabs): on a wide screen in the row, on
# a phone under "More" (a second copy).
MORE_TABS = (("print", "campaign:print", "Print"),
             ("chronicle", "campaign:chronicle", "Chronicle"),
             ("members", "campaign:members", "Members"),
             ("notifications", "campaign:notifications", "Notifications"))
# What "More" is marked current for, besides the rule system's own tabs.
UNDER_MORE = frozenset({"print", "chronicle", "members", "notifications", "settings"})


@register.simple_tag(takes_context=True)
def campaign_header(context: template.Context) -> SafeString:
    campaign = context.get("campaign")
    access = context.get("access")
    tab = context.get("tab")
    app = current_app(context)
    slug = campaign.slug

    def show(value: Any) -> str:
        return render_value_in_context(value, context)

    def link(name: str, *args: Any) -> str:
        return show(address(name, args, {}, app))

    def current(name: str) -> str:
        return 'aria-current="page"' if tab == name else ""

    role = getattr(access, "role", "")
    kingdom = getattr(access, "kingdom", None)
    is_gm = bool(getattr(access, "is_gm", False))
    overview = link("campaign:detail", slug)
    own = campaign.system.tabs
    more = [(link(view, slug), current(name), label) for name, view, label in own + MORE_TABS]
    settings = (link("campaign:settings", slug), current("settings")) if is_gm else None

    def more_tabs(wide: bool) -> str:
        li = '<li class="tabs-wide">' if wide else "<li>"
        rows = "".join(f'    {li}<a href="{url}" {mark}>{label}</a></li>\n'
                       for url, mark, label in more)
        last = f'{li}<a href="{settings[0]}" {settings[1]}>Settings</a></li>' if settings else ""
        return f"\n{rows}    {last}\n"

    here = tab or "-"
    under_more = here in UNDER_MORE or any(here == name for name, _, _ in own)
    marked = ' class="current"' if under_more else ""
    mine = (f'<li><a href="{link("campaign:kingdom", slug, kingdom.pk)}" {current("kingdom")}>'
            f'My kingdom</a></li>' if kingdom else "")
    return mark_safe(  # every value escaped by show()
        f'  <nav class="breadcrumbs" aria-label="Breadcrumbs"><a href="{link("home")}">'
        f'Campaigns</a> ›\n'
        f'    <a href="{overview}">{show(campaign.name)}</a></nav>\n'
        f'  <p class="muted clock">{show(campaign.system.label)} · '
        f'{show(campaign.clock_label())}\n'
        f'    · <span class="badge badge-{show(role)}">{show(capfirst(role))}</span></p>\n'
        f'  \n  \n  \n'
        f'  <nav class="tabs" aria-label="Campaign">\n'
        f'    <ul class="tab-list">\n'
        f'    <li><a href="{overview}" {current("overview")}>Overview</a></li>\n'
        f'    <li><a href="{link("campaign:play", slug)}" {current("play")}>Play</a></li>\n'
        f'    <li><a href="{link("campaign:map", slug)}" {current("map")}>Map</a></li>\n'
        f'    {mine}\n'
        f'    {more_tabs(True)}\n'
        f'    <li class="tabs-more">\n'
        f'      <details id="tabs-more">\n'
        f'        <summary{marked}>More'
        f'<span class="visually-hidden"> pages'
        f'{", this page among them" if under_more else ""}</span></summary>\n'
        f'        <ul class="tabs-more-list">{more_tabs(False)}</ul>\n'
        f'      </details>\n'
        f'    </li>\n'
        f'    </ul>\n'
        f'  </nav>\n  ')


@register.simple_tag
def live_since() -> str:
    """This moment as ``{% now 'c' %}`` writes it (ISO 8601 in the current time zone), where the
    live poller starts from: Django's tag goes through the ``date`` filter's format lookup, about
    40 microseconds on every page, for what ``isoformat`` gives at once."""
    zone = get_current_timezone() if django_settings.USE_TZ else None
    return datetime.now(tz=zone).isoformat()
