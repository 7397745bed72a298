"""The ``{% url %}`` of every template (campaign/templatetags/links.py): Django's addresses,
worked out once per process."""

from __future__ import annotations

from typing import Any

import pytest
from django.template import Context, Template
from django.test import override_settings
from django.urls import NoReverseMatch, reverse, set_script_prefix

from campaign.templatetags import links


def _render(text: str, **context: Any) -> str:
    return Template(text).render(Context(context))


def test_the_tag_gives_djangos_address_and_keeps_it() -> None:
    links._known.clear()
    html = _render("{% url 'campaign:kingdom' slug pk %}", slug="shattered-coast", pk=7)
    assert html == reverse("campaign:kingdom", args=["shattered-coast", 7])
    assert len(links._known) == 1
    # Asked again with the same arguments: the kept address, and nothing new kept.
    assert _render("{% url 'campaign:kingdom' 'shattered-coast' 7 %}") == html
    assert len(links._known) == 1
    assert _render("{% url 'campaign:kingdom' 'shattered-coast' 8 %}").endswith("/8/")
    assert len(links._known) == 2


def test_keyword_arguments_as_var_and_escaping_work_as_djangos() -> None:
    url = reverse("campaign:detail", kwargs={"slug": "a-b"})
    assert _render("{% url 'campaign:detail' slug='a-b' as there %}[{{ there }}]") == f"[{url}]"
    assert _render("{% url 'campaign:detail' slug=s %}", s="a-b") == url


def test_an_address_that_cannot_be_worked_out_raises_and_is_not_kept() -> None:
    links._known.clear()
    with pytest.raises(NoReverseMatch):
        _render("{% url 'campaign:kingdom' 'x' 'not-a-number' %}")
    assert links._known == {}
    assert _render("{% url 'no-such-view' as missing %}[{{ missing }}]") == "[]"


def test_a_changed_url_configuration_forgets_what_was_kept() -> None:
    links._known.clear()
    _render("{% url 'home' %}")
    assert links._known
    with override_settings(ROOT_URLCONF="campaign.urls_root_for_tests"):
        assert links._known == {}


def test_the_table_is_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    links._known.clear()
    monkeypatch.setattr(links, "LIMIT", 2)
    for pk in (1, 2, 3):
        _render("{% url 'campaign:kingdom' 's' pk %}", pk=pk)
    assert list(links._known.values()) == [reverse("campaign:kingdom", args=["s", 3])]


def test_a_tables_addresses_are_the_tags_under_the_same_keys() -> None:
    links._known.clear()
    found = links.addresses("campaign:kingdom", [("s", 1), ("s", 2), ("t", 1)])
    assert found == [reverse("campaign:kingdom", args=list(a)) for a in [("s", 1), ("s", 2),
                                                                       ("t", 1)]]
    assert len(links._known) == 3
    # The tag finds what the table kept, and the table what the tag kept.
    assert _render("{% url 'campaign:kingdom' 's' 2 %}") == found[1]
    assert len(links._known) == 3
    assert links.addresses("campaign:kingdom", []) == []
    with override_settings(FORCE_SCRIPT_NAME="/hexkeep/"):
        set_script_prefix("/hexkeep/")
        try:
            assert links.addresses("campaign:kingdom", [("s", 1)]) == ["/hexkeep" + found[0]]
        finally:
            set_script_prefix("/")
