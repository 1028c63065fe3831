"""Settlement: the fewest transfers, checked against brute force, and pair by pair."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.settlement import (
    fewest_transfers,
    net_from_pairs,
    pair_settlement,
)

D = Decimal


def _apply(
    net: dict[str, Decimal], transfers: list[tuple[str, str, Decimal]]
) -> dict[str, Decimal]:
    left = dict(net)
    for payer, payee, amount in transfers:
        assert amount > 0
        left[payer] += amount
        left[payee] -= amount
    return left


def _partitions(items: list[str]) -> Iterator[list[list[str]]]:
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _partitions(rest):
        for k in range(len(partition)):
            yield [*partition[:k], [first, *partition[k]], *partition[k + 1 :]]
        yield [[first], *partition]


def _fewest_by_brute_force(net: dict[str, Decimal]) -> int:
    people = [n for n, v in net.items() if v]
    groups = max(
        (
            len(p)
            for p in _partitions(people)
            if all(sum((net[n] for n in g), D(0)) == 0 for g in p)
        ),
        default=0,
    )
    return len(people) - groups


@pytest.mark.parametrize(
    ("net", "expected"),
    [
        # Ann is owed 12 by three losers: three transfers, all to Ann.
        (
            {"Ann": D(12), "Bob": D(-5), "Cy": D(-4), "Di": D(-3)},
            [("Bob", "Ann", D(5)), ("Cy", "Ann", D(4)), ("Di", "Ann", D(3))],
        ),
        # Two separate pairs that cancel: two transfers, not three.
        (
            {"Ann": D(10), "Bob": D(-10), "Cy": D(5), "Di": D(-5)},
            [("Bob", "Ann", D(10)), ("Di", "Cy", D(5))],
        ),
        ({"Ann": D("2.5"), "Bob": D("-2.5"), "Cy": D(0)}, [("Bob", "Ann", D("2.5"))]),
        ({"Ann": D(0), "Bob": D(0)}, []),
    ],
)
def test_fewest_transfers_by_hand(net: dict[str, Decimal], expected: list[object]) -> None:
    assert fewest_transfers(net) == expected


def test_balances_must_sum_to_zero() -> None:
    with pytest.raises(ValueError, match="sum to zero"):
        fewest_transfers({"Ann": D(1), "Bob": D(0)})


amounts = st.integers(-40, 40).map(lambda n: D(n) / 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(amounts, min_size=1, max_size=6))
def test_fewest_transfers_settle_everyone_in_the_fewest_steps(values: list[Decimal]) -> None:
    names = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"]
    net = dict(zip(names, values, strict=False))
    net[names[len(values)]] = -sum(values, D(0))
    transfers = fewest_transfers(net)
    assert all(v == 0 for v in _apply(net, transfers).values())
    assert len(transfers) <= max(0, sum(1 for v in net.values() if v) - 1)
    assert len(transfers) == _fewest_by_brute_force(net)


def test_pair_by_pair() -> None:
    pairs = {("Ann", "Bob"): D(6), ("Ann", "Cy"): D(-3), ("Bob", "Cy"): D(0)}
    assert pair_settlement(pairs) == [("Bob", "Ann", D(6)), ("Ann", "Cy", D(3))]
    assert net_from_pairs(pairs) == {"Ann": D(3), "Bob": D(-6), "Cy": D(3)}
