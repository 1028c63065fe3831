"""Who pays whom at the end of a night: fewest transfers, or pair by pair."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

Transfer = tuple[str, str, Decimal]  # (payer, payee, amount > 0)

_EXACT_LIMIT = 12  # players with a balance; beyond this the search grows too large


def fewest_transfers(net: Mapping[str, Decimal]) -> list[Transfer]:
    """Transfers that settle every player's net (positive: is owed) in as few steps as possible.

    The fewest transfers is the number of players with a balance minus the most groups
    they split into that each sum to zero; each group then settles within itself. The
    search is exact up to 12 players with a balance (a table seats at most four);
    beyond that, one group. Never more than players - 1 transfers. Raises ValueError when
    the balances do not sum to zero.
    """
    if sum(net.values(), Decimal(0)) != 0:
        raise ValueError("balances must sum to zero")
    people = sorted((name for name, amount in net.items() if amount), key=lambda n: (-net[n], n))
    if len(people) > _EXACT_LIMIT:
        return _settle_group(people, net)
    transfers: list[Transfer] = []
    for group in _zero_sum_groups(people, net):
        transfers.extend(_settle_group(group, net))
    return transfers


def _zero_sum_groups(people: list[str], net: Mapping[str, Decimal]) -> list[list[str]]:
    """The largest number of disjoint zero-sum groups covering ``people`` (bitmask DP)."""
    size = len(people)
    full = (1 << size) - 1
    totals = [Decimal(0)] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        totals[mask] = totals[mask ^ low] + net[people[low.bit_length() - 1]]
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            top = max(top, best[mask ^ bit])
        best[mask] = top + (1 if totals[mask] == 0 else 0)
    # Walk back from everyone, removing one person at a time along an optimal path;
    # each time the remaining set sums to zero, the people removed since form a group.
    groups: list[list[str]] = []
    current: list[str] = []
    mask = full
    while mask:
        closes = 1 if totals[mask] == 0 else 0
        bit = next(
            b
            for b in (1 << i for i in range(size))
            if mask & b and best[mask ^ b] + closes == best[mask]
        )
        if closes and current:
            groups.append(current)
            current = []
        current.append(people[bit.bit_length() - 1])
        mask ^= bit
    if current:
        groups.append(current)
    return groups


def _settle_group(group: list[str], net: Mapping[str, Decimal]) -> list[Transfer]:
    """Settle a zero-sum group in len(group) - 1 transfers: largest debts to largest credits."""
    owed = {name: net[name] for name in group}
    transfers: list[Transfer] = []
    while True:
        creditors = sorted((n for n in owed if owed[n] > 0), key=lambda n: (-owed[n], n))
        debtors = sorted((n for n in owed if owed[n] < 0), key=lambda n: (owed[n], n))
        if not creditors:
            return transfers
        payee, payer = creditors[0], debtors[0]
        amount = min(owed[payee], -owed[payer])
        transfers.append((payer, payee, amount))
        owed[payee] -= amount
        owed[payer] += amount


def pair_settlement(pairs: Mapping[tuple[str, str], Decimal]) -> list[Transfer]:
    """Pair by pair: for each pair, the one who lost pays the other what it lost.

    ``pairs`` maps (A, B) to what A won from B (negative: A lost); pairs that came out
    even are left out.
    """
    transfers: list[Transfer] = []
    for (a, b), won in pairs.items():
        if won > 0:
            transfers.append((b, a, won))
        elif won < 0:
            transfers.append((a, b, -won))
    return transfers


def net_from_pairs(pairs: Mapping[tuple[str, str], Decimal]) -> dict[str, Decimal]:
    """Each player's net from what each pair won (A's gain is B's loss)."""
    net: dict[str, Decimal] = {}
    for (a, b), won in pairs.items():
        net[a] = net.get(a, Decimal(0)) + won
        net[b] = net.get(b, Decimal(0)) - won
    return net
