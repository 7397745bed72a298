"""What a worker keeps in memory under the exact things it was made from, a bounded number.

Pages keep what they work out of rows (a map of territories, a contested tile's list item, a
tile's record) in plain dicts, keyed by everything the value is made of, so that a changed row
is a new key and nothing needs forgetting. Only their size needs bounding: ``keep`` stores a
value and, beyond the store's limit, forgets the oldest first (a dict keeps the order keys came
in). Two threads may trim one store at once: one that finds the oldest gone moves on.
"""

from __future__ import annotations

from typing import Any, TypeVar

V = TypeVar("V")


def keep(store: dict[Any, Any], limit: int, key: Any, value: V) -> V:
    """Keep ``value`` under ``key`` in ``store`` and give it back, forgetting the oldest entries
    beyond ``limit`` (none when ``key`` is there already: its value is replaced)."""
    while key not in store and len(store) >= limit:
        try:
            del store[next(iter(store))]
        except (KeyError, RuntimeError, StopIteration):  # another thread got there first
            break
    store[key] = value
    return value
