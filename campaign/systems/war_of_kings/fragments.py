"""Parts of the War of Kings pages built in Python: the rows a page repeats once per kingdom.

A game grown to dozens of kingdoms made the template loops the slowest part of the play page and
the overview (each row a ``{% url %}`` and a dozen lookups), so these rows are written here as
plain strings, every value escaped as the template's ``{{ }}`` escapes it. The markup is the
same the templates wrote before, byte for byte.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape as _html_escape
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from campaign.templatetags.links import address


def escape(value: Any) -> str:
    """``value`` as text with ``& < > " '`` escaped: what ``django.utils.html.escape`` (and so
    the template's ``{{ }}``) gives, without making a safe string of each piece (the joined
    fragment is marked safe once)."""
    return _html_escape(str(value))


def ledger_prefix(slug: str) -> str:
    """The ledger address of a kingdom without its id: ``/c/<slug>/wok/ledger/``."""
    url = address("wok:ledger", (slug, 0), {}, None)
    return url[:-len("0/")]


def standings_html(rows: Sequence[dict[str, Any]], slug: str) -> SafeString:
    """The standings table and where each kingdom's AP come from (``reading.standings`` rows):
    what ``war_of_kings/standings.html`` showed."""
    return standings_table(rows, ledger_prefix(slug))


def standings_table(rows: Sequence[dict[str, Any]], ledger: str) -> SafeString:
    """:func:`standings_html` with the ledger address (``ledger_prefix``) worked out."""
    out = ['\n\n<div class="standings-box"><div class="table-wrap">'
           '<table class="wok-standings standings-table" role="table">\n'
           '  <thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">Kingdom'
           '</th><th scope="col" role="columnheader" class="num">Achievement points</th>'
           '<th scope="col" role="columnheader" class="num">Gold a round</th>'
           '<th scope="col" role="columnheader" class="num">Territories</th></tr></thead>\n'
           '  <tbody role="rowgroup">']
    muted = ' class="muted"'
    for row in rows:
        kingdom = row["kingdom"]
        badges = "".join(f' <span class="badge">{escape(h)}</span>' for h in row["holds"])
        out.append(
            f'<tr role="row"{muted if row["out"] else ""}>\n'
            f'    <th scope="row" role="rowheader"><span class="swatch" '
            f'data-c="{escape(kingdom.colour)}"></span><a href="{ledger}{kingdom.pk}/">'
            f'{escape(kingdom.name)}</a>{badges}</th>\n'
            f'    <td role="cell" class="num" data-label="Achievement points"><strong>'
            f'{row["score"].total}</strong></td><td role="cell" class="num" '
            f'data-label="Gold a round">{row["gold"]}</td><td role="cell" class="num" '
            f'data-label="Territories">{row["territories"]}</td>\n'
            '  </tr>')
    out.append('</tbody>\n</table></div></div>\n'
               '<p class="muted small standings-key">AP: achievement points, checked against the '
               'target at the end of each round (WOK-WIN-1).</p>\n'
               '<details><summary class="small">Where the achievement points come from, and what '
               'each kingdom needs next</summary>\n  ')
    for row in rows:
        score = row["score"]
        parts = [f'<p class="small"><strong>{escape(row["kingdom"].name)}</strong>: '
                 f'{score.settlements} for settlements']
        if score.empire:
            parts.append(", 2 Empire")
        if score.fortified:
            parts.append(", 2 Heavily Fortified")
        if score.merchant:
            parts.append(f", {score.merchant} Master Merchant")
        if score.warlord:
            parts.append(f", {score.warlord} Warlord")
        if row["projected"] != score.total:
            parts.append(f"; {row['projected']} if the round ended now")
        parts.append('.</p>\n  <ul class="small">')
        parts.extend(f"<li>{escape(n)}</li>" for n in row["needs"])
        parts.append("</ul>")
        out.append("".join(parts))
    out.append("\n</details>\n")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def turn_order_html(order: Sequence[Any], active: Any) -> SafeString:
    """The turn order: each kingdom's swatch and name, the active one in bold, joined by
    arrows."""
    active_pk = active.pk if active else None
    return mark_safe(" → ".join(  # noqa: S308 - every value is escaped
        f'<span class="swatch" data-c="{escape(k.colour)}"></span>'
        + (f"<strong>{escape(k.name)}</strong>" if active_pk is not None and k.pk == active_pk
           else escape(k.name))
        for k in order))


def field_html(field: Sequence[dict[str, Any]]) -> SafeString:
    """The armies in the field (the play page's ``field`` rows), one ``<li>`` each: the owner's
    swatch, who commands it, where it stands, readiness and damage."""
    e = escape
    return mark_safe("".join(  # noqa: S308 - every value is escaped
        f'<li>{swatch}{e(a["owner"])} army {e(a["number"])} in {e(a["where_name"])}: '
        f'{"ready" if a["ready"] else "unready"}, {e(a["damage"])} of 3 damage</li>'
        for a in field
        for swatch in ((f'<span class="swatch" data-c="{e(a["kingdom"].colour)}"></span>'
                        if a["kingdom"] else ""),)))


def kingdom_options(kingdoms: Sequence[Any]) -> SafeString:
    """One ``<option>`` per kingdom, its id as the value and its name as the text."""
    return mark_safe("".join(  # noqa: S308 - every value is escaped
        f'<option value="{k.pk}">{escape(k.name)}</option>' for k in kingdoms))


def economy_html(kingdom: Any, eco: dict[str, Any], ledger: str | None = None) -> SafeString:
    """A kingdom's stockpile, ledger, gold lines, AP and armies (``reading.kingdom_economy``):
    what ``war_of_kings/economy.html`` showed. ``ledger`` is :func:`economy_ledger_html` of the
    same figures when it has been made already."""
    from campaign.words import counted

    e = escape
    out = ['\n<section class="card stack wok-economy">\n'
           f'  <h2><span class="swatch" data-c="{e(kingdom.colour)}"></span>{e(kingdom.name)}: '
           'stockpile and ledger</h2>\n  <p class="row wok-stock">']
    out.extend(f"<span><strong>{e(n)}</strong> {e(str(name).lower())}</span>"
               for name, n in eco["stock"])
    out.append("</p>")
    out.append(economy_ledger_html(eco) if ledger is None else ledger)
    support = eco["support"]
    out.append(f'  <p class="small">{e(eco["score"].total)} AP · '
               f'{e(counted(eco["territories"], "territory"))} · fortification levels '
               f'{e(eco["fort_levels"])} · armies {e(support.armies)} ({e(support.supported)} '
               "supported)</p>\n  ")
    if eco["armies"]:
        out.append('<ul class="small wok-armies">')
        out.extend(f"<li>Army {e(a['number'])} in {e(a['where'])}: "
                   f"{'ready' if a['ready'] else 'unready'}, {e(a['damage'])} of 3 damage</li>"
                   for a in eco["armies"])
        out.append("</ul>")
    out.append("\n</section>\n")
    return mark_safe("".join(out))  # noqa: S308 - every value is escaped


def economy_ledger_html(eco: dict[str, Any]) -> str:
    """The part of :func:`economy_html` the board alone gives: the ledger by colour, where each
    colour comes from, the last Resource Dice's income and the gold lines."""
    e = escape
    columns = eco["ledger_columns"]
    out = ['\n  <div class="table-wrap"><table class="wok-ledger">\n'
           '    <caption class="small">Collected each time a Resource Die shows the colour '
           '(WOK-LEDGER-3)</caption>\n    <thead><tr><th></th>']
    out.extend(f'<th class="num wok-{e(c["colour"])}">{e(c["colour"])}</th>' for c in columns)
    out.append("</tr></thead>\n    <tbody>")
    for row in eco["ledger_rows"]:
        out.append(f"<tr><th>{e(row['resource'])}</th>")
        out.extend(f'<td class="num">{e(n) if n else "·"}</td>' for n in row["cells"])
        out.append("</tr>")
    out.append('</tbody>\n  </table></div>\n  <details><summary class="small">Where each colour '
               'comes from</summary><ul class="small">')
    for c in columns:
        colour = str(c["colour"])
        out.extend(f"<li>{e(colour[:1].upper() + colour[1:])}: {e(s['code'])} ({e(s['level'])}) "
                   f"gives {e(s['out'])}</li>" for s in c["sources"])
    out.append("</ul></details>\n  ")
    if eco["last_income"]:
        dice = ", ".join(e(d) for d in eco["last_dice"])
        out.append(f'<p class="small">Last Resource Dice {dice}: {e(eco["last_income"])} from '
                   "this board.</p>")
    out.append(f'\n  <details open><summary><strong>{e(eco["gold"])} gold per round</strong> '
               f'(trade revenue to the capital {e(eco["capital"])}, WOK-ECON-4)</summary>\n'
               '    <ul class="small wok-gold">')
    lines = eco["gold_lines"]
    for line in lines:
        out.append(f'<li{"" if line.connected else " class=" + chr(34) + "muted" + chr(34)}>'
                   f'{"+" + e(line.gold) if line.connected else "0"} · {e(line.settlement)} in '
                   f"{e(line.territory)}: {e(line.reason)}</li>")
    if not lines:
        out.append("<li>No settlements.</li>")
    out.append("</ul>\n  </details>\n")
    return "".join(out)
