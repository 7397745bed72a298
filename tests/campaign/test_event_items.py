"""A list of events (``{% event_items %}``, the overview's latest events and each page of the
chronicle) is built in Python: its markup must be the template's it replaced, byte for byte,
for every kind of event a viewer may meet (a chronicle entry with or without a title and photo,
an undone event, GM-only and kingdom-only events, dice, no actor) and every viewer."""

from __future__ import annotations

import pytest
from django.template import engines

from campaign import notes
from campaign.chronicle import Recorder, undo_latest
from campaign.models import Event, Visibility
from tests.campaign.conftest import World, image_bytes, member_requests
from tests.conftest import MIGHTY_KINGDOMS

pytestmark = pytest.mark.system(MIGHTY_KINGDOMS)

# The template the tag replaced (campaign/includes/event_list.html as it was).
REFERENCE = """{% load gm_words %}
{% if events %}{% chronicle_entries events as entries %}
<ol class="chronicle">
  {% for e in events %}{% with entry=entries|entry_for:e.pk %}
  <li id="event-{{ e.seq }}" class="{% if e.undone_at %}undone{% endif %}{% if entry %} story{% endif %}">
    <small class="muted">#{{ e.seq }} · {{ e.clock_label }} · {{ e.created_at|date:"j M Y H:i" }}{% if e.actor %} · {{ e.actor.get_username }}{% endif %}{% if e.visibility != "public" %} · <span class="badge">{% if e.visibility == "gm" %}GM only{% else %}{{ e.kingdom.name }} only{% endif %}</span>{% endif %}</small>
    {% if entry %}
    <article class="story-entry" aria-label="{{ entry.title|default:'Chronicle entry' }}">
      {% if entry.title %}<h3 class="story-title">{{ entry.title }}</h3>{% endif %}
      {% if entry.thumbnail %}<a href="{{ entry.image.url }}"><img class="story-photo" src="{{ entry.thumbnail.url }}" alt="Photo for {{ entry.title|default:'this chronicle entry' }}" loading="lazy"></a>{% endif %}
      <div class="story-text">{{ entry.text|linebreaks }}</div>
      {% if access.is_gm %}<a class="small" href="{% url 'campaign:entry_edit' campaign.slug entry.pk %}">Change or remove this entry</a>{% endif %}
    </article>
    {% else %}
    <span class="summary">{{ e.summary }}</span>
    {% endif %}
    {% if e.dice %}<span class="dice">{% for roll in e.dice %}{% for v in roll.values %}<span class="die" title="{{ roll.purpose }} ({{ roll.source }})">{{ v }}</span>{% endfor %}{% endfor %}</span>{% endif %}
    {% if e.undone_at %}<small class="muted">undone {{ e.undone_at|date:"j M H:i" }}</small>{% endif %}
  </li>
  {% endwith %}{% endfor %}
</ol>
{% else %}<p class="muted">Nothing has happened yet.</p>{% endif %}
"""  # noqa: E501


def _every_kind_of_event(world: World) -> None:
    campaign = world.campaign
    notes.add_entry(campaign, world.gm, title="Spring <thaw> & \"rain\"",
                    text="The thaw came.\n\nThen <b>rain</b>.", upload=image_bytes())
    notes.add_entry(campaign, world.gm, title="", text="A quiet month.")
    notes.add_note(campaign, world.gm, text="The spy is in Red.", shared=False, kingdom=world.red)
    with Recorder(campaign, world.player, "test.rolled", "Red rolls <dice> & more.",
                  visibility=Visibility.KINGDOM, kingdom=world.red) as rec:
        rec.roll("Morale", [3, 6])
        rec.roll("Rout", [1], source="table")
    with Recorder(campaign, None, "test.odd", "Odd dice.") as rec:
        rec.dice.extend([{"purpose": "No values"}, {"values": [2], "purpose": None}, [4]])
    notes.add_entry(campaign, world.gm, title="Taken back", text="Soon undone.")
    undo_latest(campaign, world.gm)
    seq = campaign.events.order_by("-seq").first().seq + 1
    Event.objects.create(campaign=campaign, seq=seq, kind="test.orphan", summary="Whose?",
                         visibility=Visibility.KINGDOM, kingdom=None)


@pytest.mark.parametrize("localized", [True, False])
def test_the_list_is_the_templates_for_every_viewer(world: World, localized: bool) -> None:
    _every_kind_of_event(world)
    engine = engines["django"]
    wrap = ("{% load l10n %}{% localize off %}", "{% endlocalize %}") if localized else ("", "")
    old = engine.from_string(wrap[0] + REFERENCE + wrap[1])
    new = engine.from_string(
        wrap[0] + '{% include "campaign/includes/event_list.html" %}' + wrap[1])
    url = world.campaign.get_absolute_url()
    for persona, request, access in member_requests(world, url):
        for events in (list(notes.latest_events(access, 50)),
                       list(notes.latest_events(access, 3)), []):
            context = {"events": events, "access": access, "campaign": access.campaign}
            assert new.render(context, request) == old.render(context, request), persona
    shown = new.render({"events": list(notes.latest_events(access, 50)), "access": access,
                        "campaign": access.campaign}, request)
    for sign in ("story-photo", "class=\"undone", "GM only", " only</span>",
                 "Change or remove this entry", "&lt;b&gt;rain&lt;/b&gt;", "class=\"die\""):
        assert sign in shown, sign
