"""The ``{% static %}`` tag, remembering each file's address.

Installed as a template builtin (settings.TEMPLATES) beside ``links``: a template that does not
``{% load static %}`` gets this tag, with Django's syntax and output. Django's tag asks the
static files storage each time, which looks the name up in the manifest, joins it to
``STATIC_URL`` and quotes it: about 40 microseconds a file, and ``base.html`` names seven on
every page. Here each address is kept once worked out, under the file's path and the storage's
manifest as loaded (so a ``collectstatic`` in the same process, as a test may run, is seen), in a
table of at most ``LIMIT`` addresses per process, emptied whole when full and whenever a setting
that decides static addresses changes.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.templatetags.static import StaticNode

register = template.Library()

LIMIT = 1_000
_known: dict[tuple[str, int], str] = {}
_SETTINGS = frozenset({"STATIC_URL", "STATIC_ROOT", "STATICFILES_DIRS", "STORAGES",
                       "INSTALLED_APPS", "DEBUG", "FORCE_SCRIPT_NAME"})


@receiver(setting_changed)
def _forget(setting: str, **kwargs: Any) -> None:
    if setting in _SETTINGS:
        _known.clear()


def _manifest() -> int:
    """Which manifest the storage holds now (its table's identity: ``collectstatic`` makes a
    new one); 0 for a storage without one."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    return id(getattr(staticfiles_storage, "hashed_files", None))


class KeptStaticNode(StaticNode):
    def url(self, context: template.Context) -> str:
        path = self.path.resolve(context)
        key = (path, _manifest())
        found = _known.get(key)
        if found is None:
            found = self.handle_simple(path)
            if len(_known) >= LIMIT:
                _known.clear()
            _known[key] = found
        return found


@register.tag
def static(parser: template.base.Parser, token: template.base.Token) -> KeptStaticNode:
    """Django's ``{% static %}`` (same syntax, same output), answered from the table above."""
    return KeptStaticNode.handle_token(parser, token)  # type: ignore[return-value]
