"""axe-core in the browser tests: WCAG 2.1 A and AA checks of the page as it stands.

axe-core comes inside the ``axe-playwright-python`` wheel (requirements-dev.txt), so nothing is
fetched at run time. It is injected through the DevTools protocol, which the page's
Content-Security-Policy does not govern, and run on the page as the test left it (a menu open, a
form refused), so states a person reaches are checked too, not only the first paint.
"""

from __future__ import annotations

from typing import Any

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_violations(page: Any, context: str | None = None) -> list[str]:
    """The WCAG 2.1 A/AA violations axe-core finds on ``page`` (within the CSS selector
    ``context`` when given), one line each: rule id, impact, and the first offending nodes."""
    from axe_playwright_python.base import AXE_SCRIPT

    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE_SCRIPT)
    options = {"runOnly": {"type": "tag", "values": WCAG_AA}, "resultTypes": ["violations"]}
    results = page.evaluate(
        "([context, options]) => axe.run(context || document, options)", [context, options])
    lines = []
    for violation in results["violations"]:
        targets = ", ".join(" ".join(node["target"]) for node in violation["nodes"][:3])
        lines.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return lines


def assert_accessible(page: Any, context: str | None = None) -> None:
    """Fail with axe-core's findings when the page has any WCAG 2.1 A/AA violation."""
    found = axe_violations(page, context)
    assert found == [], "axe-core: " + "; ".join(found)
