"""``campaign.bounded.keep``: a store of kept values never holds more than its limit, forgets
the oldest first and gives back what it keeps."""

from __future__ import annotations

from campaign.bounded import keep


def test_a_store_keeps_its_limit_forgetting_the_oldest_first() -> None:
    store: dict[str, int] = {}
    for n in range(7):
        assert keep(store, 3, f"k{n}", n) == n
        assert len(store) == min(n + 1, 3)
    assert store == {"k4": 4, "k5": 5, "k6": 6}
    keep(store, 3, "k5", 50)  # a key kept again is replaced: nothing else is forgotten
    assert store == {"k4": 4, "k5": 50, "k6": 6}
    keep(store, 1, "only", 1)
    assert store == {"only": 1}
