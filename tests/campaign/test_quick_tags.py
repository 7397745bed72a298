"""Tags on every page that answer as Django's own do, more cheaply: ``{% static %}`` keeping each
file's address (campaign/templatetags/assets.py), ``{% live_since %}`` for ``{% now 'c' %}``
(header.py), and the event list's dates (gm_words.py) for the ``date`` filter."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template import Context, Template
from django.template.defaultfilters import date
from django.test import override_settings
from django.utils import timezone, translation

from campaign.templatetags import assets, gm_words, header


def _render(text: str, **context: Any) -> str:
    return Template(text).render(Context(context))


def test_static_gives_djangos_address_and_keeps_it() -> None:
    assets._known.clear()
    django_tag = "{% load static %}{% static 'css/hexkeep.css' %}"
    assert _render("{% static 'css/hexkeep.css' %}") == _render(django_tag)
    assert _render("{% static 'css/hexkeep.css' %}") == staticfiles_storage.url("css/hexkeep.css")
    assert len(assets._known) == 1
    assert _render("{% static p as there %}[{{ there }}]", p="js/live.js") == (
        f"[{staticfiles_storage.url('js/live.js')}]")
    django_odd = _render("{% load static %}{% static 'a b&c.css' %}")
    assert _render("{% static 'a b&c.css' %}") == django_odd
    assert len(assets._known) == 3


def test_static_forgets_its_addresses_when_a_static_setting_changes() -> None:
    assets._known.clear()
    _render("{% static 'css/hexkeep.css' %}")
    assert assets._known
    with override_settings(STATIC_URL="/assets/"):
        assert assets._known == {}
        assert _render("{% static 'x.css' %}") == _render("{% load static %}{% static 'x.css' %}")


def test_static_table_is_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    assets._known.clear()
    monkeypatch.setattr(assets, "LIMIT", 2)
    for name in ("a.css", "b.css", "c.css"):
        _render("{% static n %}", n=name)
    assert [key[0] for key in assets._known] == ["c.css"]


@pytest.mark.parametrize("zone", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_live_since_writes_what_now_c_writes(zone: str) -> None:
    with timezone.override(zone):
        before = _render("{% now 'c' %}")
        ours = [header.live_since(), _render("{% load header %}{% live_since %}")]
        after = _render("{% now 'c' %}")
    first, last = dt.datetime.fromisoformat(before), dt.datetime.fromisoformat(after)
    for text in ours:
        moment = dt.datetime.fromisoformat(text)
        assert first <= moment <= last
        # The same shape: the zone's own offset written the same way.
        assert moment.utcoffset() == first.utcoffset()
        assert text[19:].lstrip(".0123456789") == before[19:].lstrip(".0123456789")


MOMENTS = [dt.datetime(2026, month, day, hour, minute, tzinfo=dt.UTC)
           for month, day, hour, minute in ((1, 1, 0, 0), (2, 9, 7, 5), (5, 31, 23, 59),
                                             (9, 10, 12, 30), (12, 25, 9, 1))]


@pytest.mark.parametrize("year", [True, False])
@pytest.mark.parametrize("language", ["en", "de"])
def test_event_dates_are_the_date_filters(year: bool, language: str) -> None:
    fmt = "j M Y H:i" if year else "j M H:i"
    with translation.override(language):
        for moment in [*MOMENTS, dt.datetime(987, 3, 4, 5, 6)]:
            assert gm_words._stamp(moment, year) == date(moment, fmt), moment
