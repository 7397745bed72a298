"""Parts of the Grand Campaign's pages written in Python or kept between requests: the same HTML
as the template nodes they replaced, and every change shown at once.

The points to spend of a kingdom (the play page) are written by ``{% sns_spend_items %}``, held
here byte for byte to the template it replaced; the standings' rows are kept under everything
they show; the Kings of a read are made into rows only when asked for, and are the rows a
locked read makes.
"""

from __future__ import annotations

import re
from typing import Any

from django.template import Context, Template
from django.test import RequestFactory

from campaign.systems.swords_and_stones import pages
from campaign.systems.swords_and_stones.models import King
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.state import load
from campaign.systems.swords_and_stones.templatetags import sns as tags
from tests.sns.conftest import Avalon, at, undo

# The list items as the play page's template wrote them before {% sns_spend_items %}.
_SPEND_ITEMS_BEFORE = """{% load once %}{% for c in choices %}<li>
    <strong>{{ c.option.name }}</strong> · {{ c.option.cost }} {{ c.option.currency|upper }} · <span class="small">{{ c.option.timing|lower }}</span><br><span class="small">{{ c.option.effect }}</span>
    {% if c.allowed %}
    <form method="post" action="{% url 'sns:spend' campaign.slug %}" hx-post="{% url 'sns:spend' campaign.slug %}" hx-target="#phase" hx-disabled-elt="find button" class="row">{% csrf_token %}{% once_field %}
      <input type="hidden" name="kingdom" value="{{ k.pk }}"><input type="hidden" name="code" value="{{ c.option.code }}">
      {% if c.targets %}<select name="target" aria-label="Territory">{% for t in c.targets %}<option value="{{ t }}">{{ t }}</option>{% endfor %}</select>{% endif %}
      <button type="submit">Buy</button>
    </form>
    {% else %}<br><span class="small muted">{{ c.reason }}</span>{% endif %}
  </li>{% endfor %}"""  # noqa: E501


def _without_tokens(html: str) -> str:
    return re.sub(r'name="once" value="[^"]+"', 'name="once" value=""', html)


def _spend_items(choices: list[pts.SpendChoice], avalon: Avalon, csrf: str) -> tuple[str, str]:
    context: dict[str, Any] = {"choices": choices, "k": avalon.red,
                               "campaign": avalon.campaign, "csrf_token": csrf}
    before = Template(_SPEND_ITEMS_BEFORE).render(Context(context))
    after = Template("{% load sns %}{% sns_spend_items k choices campaign %}").render(
        Context(context))
    return _without_tokens(before), _without_tokens(after)


def test_the_points_to_spend_are_the_html_the_template_wrote(avalon: Avalon) -> None:
    """SNS-PTS-3: every option, bought or refused, with and without Territories to choose, names
    that need escaping, with a CSRF token and without one."""
    st = load(avalon.campaign)
    points = {pts.VP: 9, pts.VEN: 9}
    entries = [pts.PointsEntry(k.name, cur, points[cur], pts.GM_ADJUST)
               for k in st.kingdoms.values() for cur in (pts.VP, pts.VEN)]
    choices = list(pts.spend_choices(st.state, entries, avalon.red.name, pts.BETWEEN_GAMES))
    assert any(c.allowed and c.targets for c in choices)
    assert any(not c.allowed for c in choices) and any(c.allowed for c in choices)
    odd = pts.SpendOption("O<&>", "SNS-X", 'Odd "<name>" & co', "v<p", 3, "Start<",
                          "An <effect> & more")
    choices += [pts.SpendChoice(odd, True, "", ('<t>', 'a"b')),
                pts.SpendChoice(odd, False, "SNS-X: <not> & never"),
                pts.SpendChoice(odd, True)]
    before, after = _spend_items(choices, avalon, "tok<en>")
    assert after == before
    assert after.count('name="csrfmiddlewaretoken" value="tok&lt;en&gt;"') == sum(
        c.allowed for c in choices)
    assert '<option value="&lt;t&gt;">&lt;t&gt;</option>' in after


def test_the_points_to_spend_on_the_play_page_give_each_form_its_own_token(
        avalon: Avalon, player: Any, settings: Any) -> None:
    from django.test import Client
    from django.urls import reverse

    settings.PAGE_CACHE = False
    avalon.play(avalon.red, at(2, 2), None, "win", ai_name="Bandits")  # a Victory Point
    client = Client()
    client.force_login(player)
    html = client.get(reverse("campaign:play", args=[avalon.campaign.slug])).content.decode()
    tokens = re.findall(r'name="once" value="([^"]+)"', html)
    forms = html.count('name="code" value=')
    assert forms and len(set(tokens)) == len(tokens) >= forms


def _rows_html(avalon: Avalon, **kw: Any) -> tuple[str, str]:
    """The standings' rows as kept, and as written anew."""
    st = load(avalon.campaign, **kw)
    rows = pages.standings(st)
    request = RequestFactory().get("/")
    context = Context({"rows": rows, "campaign": avalon.campaign})
    context.request = request  # type: ignore[attr-defined]
    kept = Template("{% load sns %}{% sns_standings_rows rows campaign %}").render(context)
    return kept, str(tags._standings_rows(rows, avalon.campaign, None))


def test_kept_standings_rows_show_every_change_at_once(avalon: Avalon) -> None:
    """SNS-GC-5: points, land, Titles, a King, a name, a colour and the artificial mark each
    show at once, and an undo too; unchanged standings are the rows written before."""
    kept, fresh = _rows_html(avalon)
    assert kept == fresh and "Red" in kept and "Aldous" in kept
    again, _ = _rows_html(avalon)
    assert again == kept
    key_count = len(tags._ROWS)
    _rows_html(avalon)
    assert len(tags._ROWS) == key_count  # the same rows: nothing written again

    avalon.play(avalon.red, at(2, 2), avalon.blue, "win")
    changed, fresh = _rows_html(avalon)
    assert changed == fresh and changed != kept
    undo(avalon)
    undone, fresh = _rows_html(avalon, crates=False, held_only=True)
    assert undone == fresh and undone != changed

    for field, value in (("name", "Crimson <Crown>"), ("colour", "#123456")):
        setattr(avalon.red, field, value)
        avalon.red.save()
        shown, fresh = _rows_html(avalon)
        assert shown == fresh
    assert "Crimson &lt;Crown&gt;" in shown and 'data-c="#123456"' in shown
    avalon.red.data = {**avalon.red.data, "is_ai": True}
    avalon.red.save()
    shown, fresh = _rows_html(avalon)
    assert shown == fresh and '<span class="badge">AI</span>' in shown


def test_the_kings_of_a_read_are_made_when_asked_for_as_a_locked_read_makes_them(
        avalon: Avalon) -> None:
    """SNS-KING-1, SNS-KING-3: the current and past Kings of each kingdom, whether a kingdom has
    one, and the players' Kings, as the rows say, for a read and a locked read alike."""
    from django.db import transaction

    avalon.play(avalon.red, at(2, 2), avalon.blue, "win", {avalon.blue.pk: "dead"})
    from campaign.systems.swords_and_stones import services as sns

    sns.name_king(avalon.campaign, avalon.gm, avalon.blue, "Heir")
    read = load(avalon.campaign)
    with transaction.atomic():
        locked = load(avalon.campaign, lock=True)
    rows = {k.pk: k for k in King.objects.filter(campaign=avalon.campaign)}

    def as_rows(kings: dict[int, Any]) -> dict[int, Any]:
        return {pk: [(k.pk, k.name, k.reign, k.current, k.died_in_id) for k in
                     (v if isinstance(v, list) else [v])] for pk, v in kings.items()}

    for st in (read, locked):
        assert as_rows(st.kings) == {
            pk: [(k.pk, k.name, k.reign, True, None)] for pk, k in
            ((k.kingdom_id, k) for k in rows.values() if k.current)}
        assert as_rows(st.past_kings) == {avalon.blue.pk: [
            (k.pk, "Morwen", 1, False, k.died_in_id) for k in rows.values() if not k.current]}
        assert all(isinstance(k, King) and k._state.db == "default"
                   for k in st.kings.values())
        assert st.has_king(avalon.red.pk) and st.has_king(avalon.blue.pk)
        assert st.had_kings(avalon.blue.pk) and not st.had_kings(avalon.red.pk)
        assert st.state.player(avalon.blue.name).king.name == "Heir"
        assert st.state.player(avalon.blue.name).past_kings == ("Morwen",)
    assert read.kings is read.kings  # made once
    assert [k.pk for k in pages.kingdoms_with_points(avalon.campaign)] == list(read.kingdoms)
