"""The ``{% url %}`` tag, remembering each address it has worked out.

Installed as a template builtin (settings.TEMPLATES), so it stands in for Django's own tag in
every template. Working out an address is a pure function of the view name, its arguments, the
current application, the script prefix and the URL configuration, yet Django's ``reverse``
matches the patterns again each time: about 0.15 ms a link, which a standings table of 80
kingdoms with a link each turns into 12 ms of a phone page. Here each address is kept once
worked out, under all of those inputs, in a table of at most ``LIMIT`` addresses per process
(emptied whole when full, and whenever a setting that changes the URL configuration changes, as
tests do). An address that cannot be worked out is not kept: the tag behaves as Django's does.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.defaulttags import URLNode
from django.template.defaulttags import url as django_url
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape

register = template.Library()

LIMIT = 20_000
_known: dict[tuple, str] = {}


@receiver(setting_changed)
def _forget(setting: str, **kwargs: Any) -> None:
    if setting in {"ROOT_URLCONF", "FORCE_SCRIPT_NAME", "INSTALLED_APPS"}:
        _known.clear()


def address(view_name: str, args: tuple, kwargs: dict, current_app: str | None) -> str:
    """``reverse(view_name, args, kwargs, current_app)``, worked out once per process."""
    return _address(view_name, args, kwargs, current_app, get_script_prefix(), get_urlconf())


def addresses(view_name: str, each_args: Iterable[tuple], current_app: str | None = None
              ) -> list[str]:
    """``address`` of ``view_name`` with each of ``each_args``: for a table's links, the script
    prefix and URL configuration (each a look-up in request-local storage, about as costly as
    finding a kept address) read once for all of them."""
    prefix, urlconf = get_script_prefix(), get_urlconf()
    return [_address(view_name, args, {}, current_app, prefix, urlconf) for args in each_args]


def _address(view_name: str, args: tuple, kwargs: dict, current_app: str | None, prefix: str,
             urlconf: Any) -> str:
    try:
        key = (view_name, args, tuple(sorted(kwargs.items())), current_app, prefix, urlconf)
        hash(key)
    except TypeError:  # an argument that is not hashable: work it out each time
        return reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
    found = _known.get(key)
    if found is None:
        found = reverse(view_name, args=args, kwargs=kwargs, current_app=current_app)
        if len(_known) >= LIMIT:
            _known.clear()
        _known[key] = found
    return found


def current_app(context: template.Context) -> str | None:
    """The application a page's links are worked out in, as Django's ``{% url %}`` finds it."""
    try:
        return context.request.current_app
    except AttributeError:
        try:
            return context.request.resolver_match.namespace
        except AttributeError:
            return None


class KeptURLNode(URLNode):
    def render(self, context: template.Context) -> str:
        args = tuple(arg.resolve(context) for arg in self.args)
        kwargs = {k: v.resolve(context) for k, v in self.kwargs.items()}
        view_name = self.view_name.resolve(context)
        url = ""
        try:
            url = address(view_name, args, kwargs, current_app(context))
        except NoReverseMatch:
            if self.asvar is None:
                raise
        if self.asvar:
            context[self.asvar] = url
            return ""
        return conditional_escape(url) if context.autoescape else url


@register.tag
def url(parser: template.base.Parser, token: template.base.Token) -> KeptURLNode:
    """Django's ``{% url %}`` (same syntax, same output), answered from the table above."""
    node = django_url(parser, token)
    return KeptURLNode(node.view_name, node.args, node.kwargs, node.asvar)
