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
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from .cards import RANK_CHARS, SUIT_CHARS, make_card, parse_cards
from .errors import ScoreError
from .ranking import Wheel, tables

Strengths = npt.NDArray[np.int64]

# Each card's two letters, read as one 16-bit number (rank byte high), -> its index in
# DECK order (0..51), or -1 for two bytes that are no card.
_CARD_AT: Final = np.full(1 << 16, -1, dtype=np.intp)
for _r, _rank in enumerate(RANK_CHARS):
    for _s, _suit in enumerate(SUIT_CHARS):
        _CARD_AT[ord(_rank) << 8 | ord(_suit)] = 4 * _r + _s
# By that index: the card code (cards.make_card) and a bit of its own, whose sum over a
# hand has as many bits set as the hand has different cards.
_CODE: Final = np.array([make_card(r, s) for r in range(13) for s in range(4)], dtype=np.int64)
_BIT: Final = np.left_shift(np.int64(1), np.arange(52, dtype=np.int64))

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
    width = 3 * size  # "Ah Kd 5c 4s 2h" and its newline
    block = "\n".join(hands)
    if len(block) == width * len(hands) - 1 and block.isascii():
        grid = np.frombuffer(block.encode() + b"\n", dtype=np.uint8).reshape(-1, width)
        pairs = grid[:, 0::3].astype(np.uint16) << 8 | grid[:, 1::3]
        at = _CARD_AT[pairs]
        if (grid[:, 2 : width - 1 : 3] == ord(" ")).all() and (at >= 0).all():
            return _strengths(_CODE[at.T], _BIT[at.T], wheel, hands)
    codes = _codes_one_by_one(hands, size).T
    bits = np.vectorize(_BIT_OF.__getitem__, otypes=[np.int64])(codes)
    return _strengths(codes, bits, wheel, hands)


_BIT_OF: Final = {int(code): int(bit) for code, bit in zip(_CODE, _BIT, strict=True)}


def _codes_one_by_one(hands: Sequence[str], size: int) -> npt.NDArray[np.int64]:
    codes = np.zeros((len(hands), size), dtype=np.int64)
    for k, text in enumerate(hands):
        cards = parse_cards(text, f"hands[{k}]", f"hands[{k}]")
        if len(cards) != size:
            raise ScoreError(
                f"hands[{k}]: {size} cards are needed, got {len(cards)}", f"hands[{k}]"
            )
        codes[k] = cards
    return codes


def _strengths(
    codes: npt.NDArray[np.int64], bits: npt.NDArray[np.int64], wheel: Wheel, hands: Sequence[str]
) -> Strengths:
    """``codes`` and ``bits``: a row per card of the hands (cards x hands)."""
    size = codes.shape[0]
    # A card given twice carries into another bit: fewer bits set than cards.
    twice = np.bitwise_count(_rows_added(bits)) != size
    if twice.any():
        k = int(np.argmax(twice))
        raise ScoreError(f"hands[{k}]: a card is given twice in {hands[k]!r}", f"hands[{k}]")
    total = _rows_added(codes)
    table = _lookup(wheel if size == 5 else "low", size)
    ranks = total >> 24
    low, high = table.low_id[ranks % _LOW], table.high_id[ranks // _LOW]
    if size == 5:
        suited = (total & _FLUSH_BITS) != 0
        found = np.where(suited, table.flush[low, high], table.plain[low, high])
    else:
        found = table.plain[low, high]
    return np.asarray(found, dtype=np.int64)


def _rows_added(rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The rows' sum, row by row (faster than ``sum(axis=0)`` over a few long rows)."""
    total: npt.NDArray[np.int64] = rows[0].copy()
    for row in rows[1:]:
        total += row
    return total
