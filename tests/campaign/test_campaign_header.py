"""The top of every campaign page (``{% campaign_header %}``) is built in Python: its markup
must be the template's it replaced, byte for byte, for every tab, every viewer (a kingdom or
none, GM or not), every rule system, and a refusal page that has no viewer's standing."""

from __future__ import annotations

import re

from django.template import engines

from tests.campaign.conftest import World, member_requests

# The template the tag replaced (includes/campaign_header.html as it was), with the rule system's
# own tabs (RuleSystem.tabs) where it named Mighty Kingdoms' armies for every system; the test
# gives it ``under_more``, the names "More" is marked current for.
REFERENCE = """{% load partials %}
{% partialdef more_tabs %}
{% for name, view, label in campaign.system.tabs %}    <li{% if wide %} class="tabs-wide"{% endif %}><a href="{% url view campaign.slug %}" {% if tab == name %}aria-current="page"{% endif %}>{{ label }}</a></li>
{% endfor %}    <li{% if wide %} class="tabs-wide"{% endif %}><a href="{% url 'campaign:print' campaign.slug %}" {% if tab == "print" %}aria-current="page"{% endif %}>Print</a></li>
    <li{% if wide %} class="tabs-wide"{% endif %}><a href="{% url 'campaign:chronicle' campaign.slug %}" {% if tab == "chronicle" %}aria-current="page"{% endif %}>Chronicle</a></li>
    <li{% if wide %} class="tabs-wide"{% endif %}><a href="{% url 'campaign:members' campaign.slug %}" {% if tab == "members" %}aria-current="page"{% endif %}>Members</a></li>
    <li{% if wide %} class="tabs-wide"{% endif %}><a href="{% url 'campaign:notifications' campaign.slug %}" {% if tab == "notifications" %}aria-current="page"{% endif %}>Notifications</a></li>
    {% if access.is_gm %}<li{% if wide %} class="tabs-wide"{% endif %}><a href="{% url 'campaign:settings' campaign.slug %}" {% if tab == "settings" %}aria-current="page"{% endif %}>Settings</a></li>{% endif %}
{% endpartialdef %}
<div class="campaign-header">
  <nav class="breadcrumbs" aria-label="Breadcrumbs"><a href="{% url 'home' %}">Campaigns</a> ›
    <a href="{% url 'campaign:detail' campaign.slug %}">{{ campaign.name }}</a></nav>
  <p class="muted clock">{{ campaign.system.label }} · {{ campaign.clock_label }}
    · <span class="badge badge-{{ access.role }}">{{ access.role|capfirst }}</span></p>
  {# Every tab in one row on a wide screen; on a phone the first ones, then "More" (a disclosure #}
  {# that needs no script) holding the rest, so none is off-screen. Only one of the two copies of #}
  {# the later tabs is displayed at a time, so screen readers meet each tab once. #}
  <nav class="tabs" aria-label="Campaign">
    <ul class="tab-list">
    <li><a href="{% url 'campaign:detail' campaign.slug %}" {% if tab == "overview" %}aria-current="page"{% endif %}>Overview</a></li>
    <li><a href="{% url 'campaign:play' campaign.slug %}" {% if tab == "play" %}aria-current="page"{% endif %}>Play</a></li>
    <li><a href="{% url 'campaign:map' campaign.slug %}" {% if tab == "map" %}aria-current="page"{% endif %}>Map</a></li>
    {% if access.kingdom %}<li><a href="{% url 'campaign:kingdom' campaign.slug access.kingdom.pk %}" {% if tab == "kingdom" %}aria-current="page"{% endif %}>My kingdom</a></li>{% endif %}
    {% with wide=True %}{% partial more_tabs %}{% endwith %}
    <li class="tabs-more">
      <details id="tabs-more">
        {% with here=tab|default:"-" %}<summary{% if here in under_more %} class="current"{% endif %}>More<span class="visually-hidden"> pages{% if here in under_more %}, this page among them{% endif %}</span></summary>{% endwith %}
        <ul class="tabs-more-list">{% partial more_tabs %}</ul>
      </details>
    </li>
    </ul>
  </nav>
  {% include "includes/live.html" %}
</div>
"""  # noqa: E501

TABS = (None, "", "overview", "play", "map", "kingdom", "armies", "print", "chronicle",
        "members", "notifications", "settings", "photos", "-")


def _without_moment(page: str) -> str:
    return re.sub(r'data-live-since="[^"]*"', "", page)


def test_the_header_is_the_templates_for_every_tab_and_viewer(world: World) -> None:
    engine = engines["django"]
    old = engine.from_string(REFERENCE)
    new = engine.from_string('{% include "includes/campaign_header.html" %}')
    under_more = [name for name, _, _ in world.campaign.system.tabs] + [
        "print", "chronicle", "members", "notifications", "settings"]
    for path in ("", "play/", "members/"):
        url = world.campaign.get_absolute_url() + path
        for persona, request, access in member_requests(world, url):
            for tab in TABS:
                context = {"access": access, "campaign": access.campaign, "tab": tab}
                assert _without_moment(new.render(context, request)) == _without_moment(
                    old.render({**context, "under_more": under_more}, request)), (persona, tab)
        # A refusal page shows the header of the campaign without the viewer's standing.
        context = {"campaign": world.campaign}
        assert _without_moment(new.render(context, request)) == _without_moment(
            old.render({**context, "under_more": under_more}, request))


TAB_LINK = re.compile(r'<nav class="tabs" aria-label="Campaign">(.*?)</nav>', re.S)


def test_every_tab_of_every_rule_system_leads_to_a_page_each_member_may_open(
        world: World) -> None:
    """A tab names a page of the campaign's own rule system or of every campaign: none leads
    to a page that is not found (Mighty Kingdoms' armies are its own tab, no other system's)."""
    overview = world.campaign.get_absolute_url()
    for persona in ("gm", "player", "observer"):
        client = world.client(persona)
        header = TAB_LINK.search(client.get(overview).content.decode())
        assert header is not None
        links = sorted(set(re.findall(r'href="([^"]+)"', header.group(1))))
        armies = any("/mk/armies/" in link for link in links)
        assert armies is (world.campaign.rule_system == "mighty-kingdoms"), persona
        for link in links:
            assert client.get(link).status_code == 200, (persona, link)
