"""Template helpers of Swords & Stones pages: a Territory's history in the tile panel, the
standings' rows."""

from __future__ import annotations

from html import escape  # what django.utils.html.escape does, without its lazy wrapper
from typing import Any

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.urls import get_script_prefix, get_urlconf
from django.utils.safestring import SafeString, mark_safe

from campaign.bounded import keep
from campaign.models import Campaign, Kingdom, Tile
from campaign.systems.swords_and_stones.pages import StandingRow, territory_history
from campaign.systems.swords_and_stones.rules import grand_campaign as gc
from campaign.systems.swords_and_stones.rules import points as pts
from campaign.systems.swords_and_stones.rules import titles as tt
from campaign.templatetags.links import address, current_app
from campaign.templatetags.once import once_field

register = template.Library()


@register.simple_tag
def sns_history(tile: Tile) -> list[Any]:
    """The Territory's changes of holding, oldest first (SNS-GC-12)."""
    return territory_history(tile)


@register.filter
def sns_state(state: str) -> str:
    return gc.STATE_NAMES.get(state, state)


@register.filter
def sns_title(code: str) -> str:
    title = tt.TITLE_BY_CODE.get(code)
    return title.name if title is not None else code


# The standings' rows written lately, kept under everything they are written from: each row's
# kingdom (primary key, name, colour), whether it is played by the computer, its Titles' names
# and the rules' line (points, land, King, games played), in order, with the campaign's slug and
# what its links are worked out from (the current application, the script prefix and the URL
# configuration). Any change to one of them makes a new key. At most _ROWS_KEPT, the oldest
# forgotten first (campaign.bounded).
_ROWS: dict[tuple[Any, ...], SafeString] = {}
_ROWS_KEPT = 16


@register.simple_tag(takes_context=True)
def sns_standings_rows(context: template.Context, rows: list[StandingRow],
                       campaign: Campaign) -> SafeString:
    """The standings table's rows (SNS-GC-5), written here rather than as template nodes: the
    same HTML, each value escaped, a tenth of the time for a campaign of 80 kingdoms; written
    again only when something they show has changed (``_ROWS``)."""
    app = current_app(context)
    key = (campaign.slug, app, get_script_prefix(), get_urlconf(),
           tuple((r.kingdom.pk, r.kingdom.name, r.kingdom.colour, r.is_ai, r.title_names, r.row)
                 for r in rows))
    found = _ROWS.get(key)
    if found is None:
        found = _standings_rows(rows, campaign, app)
        keep(_ROWS, _ROWS_KEPT, key, found)
    return found


def _standings_rows(rows: list[StandingRow], campaign: Campaign, app: str | None
                    ) -> SafeString:
    out = []
    for r in rows:
        row = r.row
        kingdom = r.kingdom
        href = address("campaign:kingdom", (campaign.slug, kingdom.pk), {}, app)
        king = f"King {escape(row.king)}" if row.king else "no King on the throne"
        titles = f" · {', '.join(escape(t) for t in r.title_names)}" if r.title_names else ""
        badges = (' <span class="badge">AI</span>' if r.is_ai else "") + (
            ' <span class="badge">out</span>' if row.eliminated else "")
        out.append(
            f'<tr role="row">\n      <th scope="row" role="rowheader"><span class="swatch" '
            f'data-c="{escape(kingdom.colour)}"></span> <a href="{escape(href)}">'
            f'{escape(kingdom.name)}</a>{badges}\n'
            f'        <div class="small muted">{king}{titles}</div></th>\n'
            f'      <td role="cell" class="num" data-label="Victory points">{row.vp}</td>'
            f'<td role="cell" class="num" data-label="Vengeance points">{row.ven}</td>'
            f'<td role="cell" class="num" data-label="★ Capital">{row.capital}</td>'
            f'<td role="cell" class="num" data-label="■ Settled">{row.settled}</td>'
            f'<td role="cell" class="num" data-label="▲ Claimed">{row.claimed}</td>'
            f'<td role="cell" class="num" data-label="Games played">{row.games_played}</td>'
            f'</tr>')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


@register.simple_tag(takes_context=True)
def sns_spend_items(context: template.Context, kingdom: Kingdom,
                    choices: list[pts.SpendChoice], campaign: Campaign) -> SafeString:
    """The items of one kingdom's list of points to spend (SNS-PTS-3): every option with its
    cost and effect, and a form to buy it or the reason it cannot be bought. Written here
    rather than as template nodes (the same HTML, each value escaped): a GM's play page lists
    them for every kingdom."""
    action = escape(address("sns:spend", (campaign.slug,), {}, current_app(context)))
    csrf = CsrfTokenNode().render(context)
    out = []
    for c in choices:
        option = c.option
        out.append(
            f'<li>\n    <strong>{escape(option.name)}</strong> · {option.cost} '
            f'{escape(option.currency.upper())} · <span class="small">'
            f'{escape(option.timing.lower())}</span><br><span class="small">'
            f'{escape(option.effect)}</span>\n    ')
        if c.allowed:
            targets = ""
            if c.targets:
                targets = ('<select name="target" aria-label="Territory">'
                           + "".join(f'<option value="{escape(t)}">{escape(t)}</option>'
                                     for t in c.targets) + "</select>")
            out.append(
                f'\n    <form method="post" action="{action}" hx-post="{action}" '
                f'hx-target="#phase" hx-disabled-elt="find button" class="row">{csrf}'
                f'{once_field()}\n      <input type="hidden" name="kingdom" '
                f'value="{kingdom.pk}"><input type="hidden" name="code" '
                f'value="{escape(option.code)}">\n      {targets}\n      '
                f'<button type="submit">Buy</button>\n    </form>\n    ')
        else:
            out.append(f'<br><span class="small muted">{escape(c.reason)}</span>')
        out.append("\n  </li>")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
