"""``{% once_field %}``: the hidden one-time token of a form that creates something
(``campaign.once``)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from campaign.once import FIELD, new_token

register = template.Library()


@register.simple_tag
def once_field() -> SafeString:
    """A fresh token each time the form is rendered."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
