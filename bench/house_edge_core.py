"""The vectorised pieces of the main game's house edge (``bench/house_edge.py``), in numpy.

* ``strength``: the value of many 5-, 6- or 7-card hands at once, the same integer as
  ``shared.poker.evaluator.strength`` (its own tables, read through ``build_tables``): the
  ranks' base-5 key sum is looked up in the sorted keys of the rank table, a flush's 13-bit
  rank mask in the flush table.
* ``dealer_counts``: on one five-card board, for each of the 1081 holdings of the 47 cards
  left, how many of the bank's 990 holdings (the 45 cards left after it) it beats and ties.
  All 1081 holdings are valued once and sorted; the bank cannot hold the player's cards, so
  the 91 holdings sharing a card with the player's are counted apart and taken off.
* ``turn_class`` / ``river_class``: the teachable situations the strategy bets or checks,
  from the player's five cards after the flop or six after the turn.

Cards are ``Card.index`` integers, ``(rank - 2) * 4 + suit``.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from numpy.typing import NDArray

from shared.poker.evaluator import CATEGORY_SHIFT, Category, build_tables

Ints = NDArray[np.int64]

_rank_table, _flush_table = build_tables()
_KEYS = np.array(sorted(_rank_table), dtype=np.int64)
_VALUES = np.array([_rank_table[k] for k in sorted(_rank_table)], dtype=np.int64)
_FLUSH = np.array(_flush_table, dtype=np.int64)
_CARDS = np.arange(52, dtype=np.int64)
_RANK_KEY = 5 ** (_CARDS >> 2)
_SUIT_KEY = 1 << (4 * (_CARDS & 3))
_RANK_BIT = 1 << (_CARDS >> 2)


def strength(cards: Ints) -> Ints:
    """Values of the hands in the rows of ``cards`` (n × 5, 6 or 7 distinct cards)."""
    values = _VALUES[np.searchsorted(_KEYS, _RANK_KEY[cards].sum(axis=1))]
    # Suit counts in 4-bit fields pre-loaded with 3: a field reaches 8 with five of a suit.
    suits = _SUIT_KEY[cards].sum(axis=1) + 0x3333
    flush = np.flatnonzero(suits & 0x8888)
    if flush.size:
        fields = (suits[flush, None] >> np.array([3, 7, 11, 15])) & 1
        suit = fields.argmax(axis=1)
        held = cards[flush]
        mask = np.where((held & 3) == suit[:, None], _RANK_BIT[held], 0).sum(axis=1)
        values[flush] = _FLUSH[mask]
    return values


# The 1081 holdings of the 47 cards a board leaves, as positions in those cards.
HOLD_A, HOLD_B = (np.array(side, dtype=np.int64) for side in zip(*combinations(range(47), 2), strict=True))
_PAIR_OF = np.full((47, 47), -1, dtype=np.int64)
_PAIR_OF[HOLD_A, HOLD_B] = _PAIR_OF[HOLD_B, HOLD_A] = np.arange(HOLD_A.size)
# For each position, the 46 holdings that contain it.
_WITH = np.array([[_PAIR_OF[k, j] for j in range(47) if j != k] for k in range(47)], dtype=np.int64)
BANK_HOLDINGS = 990
_SHIFT = 25  # strengths stay below 2**24: room to offset each row's values apart


def left_after(boards: Ints) -> Ints:
    """The 47 cards each board (rows of 5) leaves, in order."""
    free = np.ones((boards.shape[0], 52), dtype=bool)
    np.put_along_axis(free, boards, False, axis=1)
    return np.broadcast_to(_CARDS, free.shape)[free].reshape(-1, 47)


def _below_and_at(sorted_flat: Ints, queries: Ints) -> tuple[Ints, Ints]:
    return np.searchsorted(sorted_flat, queries, "left"), np.searchsorted(sorted_flat, queries, "right")


def dealer_counts(values: Ints) -> tuple[Ints, Ints]:
    """Per board (row) and player holding (column, ``HOLD_A``/``HOLD_B`` order) of ``values``
    (the 1081 seven-card strengths): the bank holdings it beats, and those it ties."""
    boards = values.shape[0]
    row = np.arange(boards, dtype=np.int64)[:, None]
    shifted = values + (row << _SHIFT)
    below, upto = _below_and_at(np.sort(shifted, axis=1).ravel(), shifted)
    start = row * HOLD_A.size
    less, equal = below - start, upto - below
    # The holdings containing position k, sorted within each (board, k) block.
    block = row * 47 + np.arange(47)
    with_k = np.sort(values[:, _WITH] + (block << _SHIFT)[:, :, None], axis=2).ravel()
    for side in (HOLD_A, HOLD_B):
        query = values + (block[:, side] << _SHIFT)
        b, u = _below_and_at(with_k, query)
        less -= b - block[:, side] * 46
        equal -= u - b
    # The player's own holding lies in both blocks: taken off twice, counted once in equal.
    return less, equal + 1


# --- the strategy's situations -------------------------------------------------------

_CATEGORY_TWO_PAIR = int(Category.DOBLE_PAREJA)
_CATEGORY_PAIR = int(Category.PAREJA)


def _straight_draws() -> Ints:
    """Per 13-bit rank mask: 2 open-ended four-straight, 1 inside (gutshot), 0 neither."""
    table = np.zeros(1 << 13, dtype=np.int64)
    for mask in range(1 << 13):
        low = mask << 1 | mask >> 12  # bit 0 = the ace played low, bits 1..13 = 2..A
        runs = [p for p in range(1, 10) if low >> p & 15 == 15 and not low >> (p - 1) & 1 and not low >> (p + 4) & 1]
        if runs:
            table[mask] = 2
        elif any((low >> w & 31).bit_count() == 4 for w in range(10)):
            table[mask] = 1
    return table


_DRAWS = _straight_draws()


def _board_category(ranks: Ints) -> Ints:
    """The category the board's own three or four cards make (pair, two pair, trips, quads)."""
    same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
    most = same.max(axis=1)
    pairs = (same == 2).sum(axis=1) // 2
    return np.select([most == 4, most == 3, pairs == 2, pairs == 1], [7, 3, 2, 1], 0)


def _situation(hole: Ints, board: Ints, pair_classes: int) -> Ints:
    """The situation number of each player (rows): made hands with a hole card first, by
    the pair's place among the board's ranks, then draws, then the highest hole card (an
    Ace apart on a paired board, where the bank's pair is the board's and the Ace kicks)."""
    cards = np.concatenate([hole, board], axis=1)
    value = strength(cards)
    category = value >> CATEGORY_SHIFT
    board_ranks = board >> 2
    board_category = _board_category(board_ranks)
    improved = category > board_category
    # A pair's rank is the first tie-break nibble; board ranks above it, each counted once.
    pair_rank = (value >> 16 & 15) - 2
    ordered = -np.sort(-board_ranks, axis=1)
    distinct = np.ones_like(ordered, dtype=bool)
    distinct[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    above = (distinct & (ordered > pair_rank[:, None])).sum(axis=1)
    suit_counts = np.stack([((cards & 3) == s).sum(axis=1) for s in range(4)], axis=1)
    suit_hole = np.stack([((hole & 3) == s).sum(axis=1) for s in range(4)], axis=1)
    best = suit_counts.argmax(axis=1)
    in_suit = np.take_along_axis(suit_hole, best[:, None], axis=1)[:, 0]
    four_flush = suit_counts.max(axis=1) >= 4
    mask_all = np.bitwise_or.reduce(_RANK_BIT[cards], axis=1)
    mask_board = np.bitwise_or.reduce(_RANK_BIT[board], axis=1)
    draw, board_draw = _DRAWS[mask_all], _DRAWS[mask_board]
    top_hole = hole.max(axis=1) >> 2
    ace = top_hole == 12
    made = improved & (category >= _CATEGORY_TWO_PAIR)
    paired = improved & (category == _CATEGORY_PAIR)
    conditions = [
        made,
        paired & (above == 0),
        *[paired & (above == k) for k in range(1, pair_classes - 1)],
        paired,
        four_flush & (in_suit == 2),
        four_flush & (in_suit == 1),
        (draw == 2) & (board_draw < 2),
        (draw >= 1) & (board_draw == 0) & ace,
        (draw >= 1) & (board_draw == 0),
        ace & (board_category > 0),
        ace,
        top_hole == 11,
    ]
    return np.select(conditions, list(range(len(conditions))), len(conditions)).astype(np.int64)


TURN_SITUATIONS = (
    "two_pair_or_better", "pair_top", "pair_second", "pair_low",
    "four_flush_two", "four_flush_one", "open_straight_draw", "inside_straight_draw_ace", "inside_straight_draw",
    "ace_high_paired_board", "ace_high", "king_high", "nothing",
)
"""After the flop (5 cards): a hand the hole cards improve (two pair or better; a pair at or
above the flop's top card, at its second, below it), four to a flush with both or one hole
card, an open-ended or inside straight draw (the inside one with an Ace in hand apart), else
the highest hole card (an Ace on a paired flop apart)."""
RIVER_SITUATIONS = (
    "two_pair_or_better", "pair_top", "pair_second", "pair_third", "pair_low",
    "four_flush_two", "four_flush_one", "open_straight_draw", "inside_straight_draw_ace", "inside_straight_draw",
    "ace_high_paired_board", "ace_high", "king_high", "nothing",
)
"""After the turn (6 cards): as after the flop, the pair placed among four board cards."""


def turn_class(hole: Ints, flop: Ints) -> Ints:
    """Indices into ``TURN_SITUATIONS`` of each row's 2 hole cards and 3 flop cards."""
    return _situation(hole, flop, 3)


def river_class(hole: Ints, board: Ints) -> Ints:
    """Indices into ``RIVER_SITUATIONS`` of each row's 2 hole cards and 4 board cards."""
    return _situation(hole, board, 4)


def hole_class(first: Ints, second: Ints) -> Ints:
    """The 169 two-card classes as a 13×13 chart index: ``high * 13 + low`` suited, ``low *
    13 + high`` offsuit, ``r * 13 + r`` a pair (ranks 0 = deuce … 12 = ace)."""
    r1, r2 = first >> 2, second >> 2
    high, low = np.maximum(r1, r2), np.minimum(r1, r2)
    suited = (first & 3) == (second & 3)
    return np.where(suited, high * 13 + low, low * 13 + high)
