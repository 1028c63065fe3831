"""Many hands evaluated at once, straight from their text, as NumPy arrays.

``evaluate_texts`` reads hands written the plain way (two characters a card, rank then
suit, one space between cards: ``"Ah Kd 5c 4s 2h"``) as one block of bytes: each card's
two letters are looked up as one 16-bit number, the card codes of ``cards`` summed per
hand, and each sum's strength read from tables made once from ``ranking.tables``, with
no Python loop per hand. A hand written any other way (lower-case ranks, symbols,
commas, ``10``) is read by ``cards.parse_cards`` instead, so every notation gives the
same strength as ``evaluate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from .cards import RANK_CHARS, SUIT_CHARS, make_card, parse_cards
from .errors import ScoreError
from .ranking import Wheel, tables

Strengths = npt.NDArray[np.int64]

# Each card's two letters read as one little-endian 16-bit number (the suit byte high) ->
# its index in DECK order (0..51), or -1 for two bytes that are no card; and its code
# (``cards.make_card``), or _NO_CARD, whose sum over five cards stays above every real sum.
_NO_CARD: Final = 1 << 58
_CARD_AT: Final = np.full(1 << 16, -1, dtype=np.int8)
_CODE_AT: Final = np.full(1 << 16, _NO_CARD, dtype=np.int64)
for _r, _rank in enumerate(RANK_CHARS):
    for _s, _suit in enumerate(SUIT_CHARS):
        _CARD_AT[ord(_suit) << 8 | ord(_rank)] = 4 * _r + _s
        _CODE_AT[ord(_suit) << 8 | ord(_rank)] = make_card(_r, _s)
_INDEX_OF: Final = {make_card(r, s): 4 * r + s for r in range(13) for s in range(4)}

# A hand's rank part (its code sum above bit 24: the sum of 5 ** rank) split in two: the
# low digits (ranks 2 to 8) and the high ones (9 to ace), each mapped to a small id, so
# that the strength is one lookup in a table of low id x high id, with no search.
_LOW: Final = 5**7
_FLUSH_BITS: Final = sum(32 << (6 * suit) for suit in range(4))


class _Lookup(NamedTuple):
    low_id: npt.NDArray[np.int32]  # by low digits
    high_id: npt.NDArray[np.int32]  # by high digits
    plain: npt.NDArray[np.int64]  # [low id, high id] -> strength; -1: no such hand
    flush: npt.NDArray[np.int64]  # the same, all five cards of one suit


_LOOKUPS: dict[tuple[Wheel, int], _Lookup] = {}


def _lookup(wheel: Wheel, size: int) -> _Lookup:
    """The tables for ``size`` cards under ``wheel``, made once from ``ranking.tables``."""
    if (wheel, size) not in _LOOKUPS:
        five, three = tables(wheel)
        if size == 5:
            entries = [(key >> 24, bool(key & _FLUSH_BITS), v) for key, v in five.items()]
        else:
            entries = [(key, False, v) for key, v in three.items()]
        lows = sorted({ranks % _LOW for ranks, _, _ in entries})
        highs = sorted({ranks // _LOW for ranks, _, _ in entries})
        low_id = np.full(_LOW, -1, dtype=np.int32)
        low_id[lows] = np.arange(len(lows), dtype=np.int32)
        high_id = np.full(5 ** (13 - 7), -1, dtype=np.int32)
        high_id[highs] = np.arange(len(highs), dtype=np.int32)
        plain = np.full((len(lows), len(highs)), -1, dtype=np.int64)
        flush = plain.copy()
        for ranks, suited, value in entries:
            (flush if suited else plain)[low_id[ranks % _LOW], high_id[ranks // _LOW]] = value
        _LOOKUPS[wheel, size] = _Lookup(low_id, high_id, plain, flush)
    return _LOOKUPS[wheel, size]


def evaluate_texts(hands: Sequence[str], wheel: Wheel = "low") -> Strengths:
    """The strength of each hand (all of three cards, or all of five), as ``evaluate``
    gives it, in one array. A ScoreError names the first hand that is not one of that many
    different cards (``hands[k]``)."""
    if not hands:
        return np.zeros(0, dtype=np.int64)
    size = 5 if len(hands[0]) > 9 else 3
    read = _read_plain(hands, size) or _read_one_by_one(hands, size)
    return _strengths(*read, wheel, hands)


Read = tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]


def _read_plain(hands: Sequence[str], size: int) -> Read | None:
    """Each hand's cards (DECK indices, a row per card) and the sum of their codes, when
    every hand is written the plain way; None otherwise. The hands are read as one block
    of bytes, ``3 * size`` a hand with the newline between them, each card's two letters
    looked up as one 16-bit number."""
    count, width = len(hands), 3 * size
    block = "\n".join(hands)
    if len(block) != width * count - 1 or not block.isascii():
        return None
    data = block.encode()

    def column(dtype: str, offset: int, rows: int, length: int = count) -> npt.NDArray[Any]:
        # Byte ``offset`` of every hand, each of ``rows`` rows three bytes further on.
        return np.ndarray((rows, length), dtype, data, offset, (3, width))

    spaces = column("u1", 2, size - 1)
    newlines = column("u1", width - 1, 1, count - 1)
    if not ((spaces == ord(" ")).all() and (newlines == ord("\n")).all()):
        return None
    letters = column("<u2", 0, size).astype(np.intp, order="C")
    total = _CODE_AT[letters].sum(axis=0)
    if (total >= _NO_CARD).any():
        return None
    return _CARD_AT[letters], total


def _read_one_by_one(hands: Sequence[str], size: int) -> Read:
    """The same, each hand read by ``cards.parse_cards`` (any notation it takes)."""
    cards = np.zeros((size, len(hands)), dtype=np.int8)
    total = np.zeros(len(hands), dtype=np.int64)
    for k, text in enumerate(hands):
        codes = parse_cards(text, f"hands[{k}]", f"hands[{k}]")
        if len(codes) != size:
            raise ScoreError.refused(
                "batch_size", f"hands[{k}]", index=k, size=size, count=len(codes)
            )
        cards[:, k] = [_INDEX_OF[code] for code in codes]
        total[k] = sum(codes)
    return cards, total


def _strengths(
    cards: npt.NDArray[np.int8], total: npt.NDArray[np.int64], wheel: Wheel, hands: Sequence[str]
) -> Strengths:
    """The hands' strengths from their cards (a row per card) and their code sums."""
    twice = np.zeros(len(total), dtype=bool)
    for k, card in enumerate(cards):
        for other in cards[k + 1 :]:
            twice |= card == other
    if twice.any():
        k = int(np.argmax(twice))
        raise ScoreError.refused("batch_twice", f"hands[{k}]", index=k, hand=repr(hands[k]))
    size = len(cards)
    table = _lookup(wheel if size == 5 else "low", size)
    high, low = np.divmod(total >> 24, _LOW)
    low, high = table.low_id[low], table.high_id[high]
    found: Strengths = table.plain[low, high]
    if size == 5:
        flush = np.flatnonzero(total & _FLUSH_BITS)
        found[flush] = table.flush[low[flush], high[flush]]
    return found
