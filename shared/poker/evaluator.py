"""Poker hand evaluator: the best five of 5, 6 or 7 cards (Madero Art. 5 §17–19).

A hand's value is one integer, ``strength``: greater is better, equal is a tie
("empate"), so comparing two hands is one comparison. Layout::

    category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

where ``category`` is a :class:`Category` (0 high card … 9 royal flush) and the
nibbles are the tie-break ranks of §19 in order of importance (2..14, A = 14):
quads then kicker; trips then pair; flush and high card card by card; straight by
its top card (5 for A-2-3-4-5, the lowest); trips then two kickers; high pair, low
pair, kicker; pair then three kickers. Suits never matter (§6).

Speed (pure Python): each card contributes one precomputed integer key; the keys
are summed. The low bits of the sum count each rank in base 5 (a multiset of
ranks, unique for at most four of a rank), the middle bits count each suit in
4-bit fields pre-loaded with 3 (a field reaches 8, its top bit, exactly when a
suit has five or more cards), the high bits are the cards' own bits (a repeated
card makes a carry, so fewer bits than cards). Without a flush the rank sum
indexes a table of best rank-only values; with one, the flush suit's 13-bit rank
mask indexes a second table. In seven cards a flush excludes quads and a full
house (a suit holding five leaves two cards), so no hand needs both tables.
"""

from __future__ import annotations

import hashlib
import marshal
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import combinations_with_replacement
from pathlib import Path

from shared.cards import Card
from shared.errors import InputError
from shared.messages import DEFAULT_LANG, Msg, catalog, template_fields, text


class Category(IntEnum):
    """The ten combinations of Art. 5 §17, low to high."""

    CARTA_MAYOR = 0
    PAREJA = 1
    DOBLE_PAREJA = 2
    TRIO = 3
    ESCALERA = 4
    COLOR = 5
    FULL = 6
    POKER = 7
    ESCALERA_DE_COLOR = 8
    ESCALERA_REAL = 9

    def render(self, lang: str) -> str:
        """The combination's name in ``lang`` (a ``Localized`` message parameter)."""
        return text(f"category.{self.name.lower()}", lang)

    @property
    def es(self) -> str:
        """The regulation's Spanish name, as the JSON outputs keep it."""
        return self.render("es")


CATEGORY_SHIFT = 20


@dataclass(frozen=True, order=True)
class HandValue:
    """A hand's value; ordering and equality look at ``strength`` only."""

    strength: int
    category: Category = field(compare=False)
    best: tuple[Card, ...] = field(compare=False)
    """The five cards chosen, the combination's cards first (pair, then kickers);
    a straight from its top card down, the wheel as 5 4 3 2 A."""

    @property
    def name(self) -> Msg:
        """The croupier's words for the hand, in the reader's language when shown."""
        return hand_name(self.strength)


def category_of(strength_value: int) -> Category:
    return Category(strength_value >> CATEGORY_SHIFT)


def _pack(category: int, ranks: Sequence[int]) -> int:
    value = category
    for i in range(5):
        value = value << 4 | (ranks[i] if i < len(ranks) else 0)
    return value


# --- tables, built once at import --------------------------------------------------

# Straights as rank masks (bit r-2 for rank r), keyed by their top card; the wheel
# A-2-3-4-5 has top card 5.
_STRAIGHTS = [(top, 0b11111 << (top - 6)) for top in range(14, 5, -1)] + [(5, 0b1000000001111)]


def _straight_top(mask: int) -> int:
    for top, need in _STRAIGHTS:
        if mask & need == need:
            return top
    return 0


def _five_rank_strength(ranks: tuple[int, ...]) -> int:
    """Value of five ranks (2..14) as a non-flush hand."""
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    # Groups by size then rank, biggest first: quads, trips, pairs, singles.
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    order = [r for r, _ in groups]
    shape = [c for _, c in groups]
    if shape[0] == 4:
        return _pack(Category.POKER, order)
    if shape[:2] == [3, 2]:
        return _pack(Category.FULL, order)
    if len(counts) == 5:
        top = _straight_top(sum(1 << (r - 2) for r in ranks))
        if top:
            return _pack(Category.ESCALERA, [top])
        return _pack(Category.CARTA_MAYOR, order)
    if shape[0] == 3:
        return _pack(Category.TRIO, order)
    if shape[:2] == [2, 2]:
        return _pack(Category.DOBLE_PAREJA, order)
    return _pack(Category.PAREJA, order)


def _build_rank_table() -> dict[int, int]:
    """Best non-flush value for every multiset of 5, 6 or 7 ranks, keyed by base-5 sum.

    Five-rank multisets are valued directly; a larger multiset is worth the best of
    itself minus one card (every five-subset lies in some such subset).
    """
    table: dict[int, int] = {}
    for combo in combinations_with_replacement(range(13), 5):
        if combo[0] != combo[4]:  # five of one rank: not in one deck
            table[sum(_RANK_KEY[r] for r in combo)] = _five_rank_strength(
                tuple(r + 2 for r in combo)
            )
    value_of = table.__getitem__
    for size in (6, 7):
        # Keys are increasing in rank, so the combos are sorted multisets of keys.
        for keys in combinations_with_replacement(_RANK_KEY, size):
            if keys[0] == keys[4] or keys[1] == keys[5] or keys[size - 5] == keys[size - 1]:
                continue
            total = sum(keys)
            table[total] = max(map(value_of, map(total.__sub__, keys)))
    return table


def _build_flush_table() -> list[int]:
    """Value of the best flush within each 13-bit rank mask of one suit (0 if < 5 cards)."""
    table = [0] * (1 << 13)
    for mask in range(1 << 13):
        if mask.bit_count() < 5:
            continue
        top = _straight_top(mask)
        if top == 14:
            table[mask] = _pack(Category.ESCALERA_REAL, [14])
        elif top:
            table[mask] = _pack(Category.ESCALERA_DE_COLOR, [top])
        else:
            ranks = [r for r in range(14, 1, -1) if mask >> (r - 2) & 1][:5]
            table[mask] = _pack(Category.COLOR, ranks)
    return table


_RANK_KEY = [5**r for r in range(13)]
_SUIT_SHIFT = 32  # rank sums stay below 5**13 < 2**31
_CARD_SHIFT = 48  # four 4-bit suit fields
_RANK_MASK = (1 << _SUIT_SHIFT) - 1
_SUIT_START = 0x3333 << _SUIT_SHIFT
_FLUSH_BITS = 0x8888 << _SUIT_SHIFT
# Card.index = (rank - 2) * 4 + suit.
_KEY = [
    (1 << (_CARD_SHIFT + i)) | (1 << (_SUIT_SHIFT + 4 * (i & 3))) | _RANK_KEY[i >> 2]
    for i in range(52)
]
TABLES_FILE = Path(__file__).with_name("tables.bin")
"""The two tables, built once and shipped (zlib-compressed marshal): loading them takes
about 15 ms where building them takes about 110 ms, which every launch would pay.
``tests/test_evaluator.py`` proves the file equals a fresh build; after changing the
builders, regenerate it with ``write_tables()`` and update ``TABLES_SHA256``."""
TABLES_SHA256 = "a0aff8c084a39036f6d736cec7369380253426915ae0d5af61258df801c8edb4"
"""A file that is not exactly the tested one is never used: the tables are built instead."""


def build_tables() -> tuple[dict[int, int], list[int]]:
    return _build_rank_table(), _build_flush_table()


def write_tables() -> str:
    """Write ``TABLES_FILE`` from a fresh build; returns its SHA-256 for ``TABLES_SHA256``."""
    data = zlib.compress(marshal.dumps(build_tables()), 6)
    TABLES_FILE.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def _load_tables() -> tuple[dict[int, int], list[int]]:
    try:
        data = TABLES_FILE.read_bytes()
        if hashlib.sha256(data).hexdigest() != TABLES_SHA256:
            return build_tables()
        rank_table, flush_table = marshal.loads(zlib.decompress(data))
    except (OSError, ValueError, EOFError, TypeError, zlib.error):
        return build_tables()  # a missing or unreadable file costs time, never correctness
    return rank_table, flush_table


_RANK_TABLE, _FLUSH_TABLE = _load_tables()


# --- evaluation --------------------------------------------------------------------


def _refuse(cards: Sequence[Card]) -> InputError:
    n = len(cards)
    if not 5 <= n <= 7:
        return InputError(Msg.of("evaluator.card_count", n=n))
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            return InputError(Msg.of("evaluator.card_twice", card=card.display))
        seen.add(card)
    return InputError(Msg.of("evaluator.invalid_hand"))


def _make_strength() -> Callable[[Sequence[Card]], int]:
    # Tables and constants as closure cells: cheaper to load than module globals, and
    # this function is the hot path of every enumeration (about 15 % faster).
    keys, rank_table, flush_table, refuse = _KEY, _RANK_TABLE, _FLUSH_TABLE, _refuse
    suit_start, flush_bits, rank_mask = _SUIT_START, _FLUSH_BITS, _RANK_MASK
    suit_shift, card_shift = _SUIT_SHIFT, _CARD_SHIFT

    def strength(cards: Sequence[Card]) -> int:
        """The hand's value as one integer (see the module docstring); no best-five.

        Raises InputError unless given 5, 6 or 7 distinct cards.
        """
        # Unrolled per size: summing the keys is most of the cost; a loop is slower.
        K = keys
        n = len(cards)
        if n == 7:
            a, b, c, d, e, f, g = cards
            k = (suit_start + K[a.index] + K[b.index] + K[c.index] + K[d.index]
                 + K[e.index] + K[f.index] + K[g.index])
        elif n == 6:
            a, b, c, d, e, f = cards
            k = (suit_start + K[a.index] + K[b.index] + K[c.index] + K[d.index]
                 + K[e.index] + K[f.index])
        elif n == 5:
            a, b, c, d, e = cards
            k = suit_start + K[a.index] + K[b.index] + K[c.index] + K[d.index] + K[e.index]
        else:
            raise refuse(cards)
        if (k >> card_shift).bit_count() != n:
            raise refuse(cards)
        if k & flush_bits:
            suits = k >> suit_shift
            suit = 0
            while not suits & 8:
                suits >>= 4
                suit += 1
            mask = 0
            for c in cards:
                i = c.index
                if i & 3 == suit:
                    mask |= 1 << (i >> 2)
            return flush_table[mask]
        return rank_table[k & rank_mask]

    return strength


strength = _make_strength()

_CATEGORIES = tuple(Category)
_SUITED = frozenset({Category.COLOR, Category.ESCALERA_DE_COLOR, Category.ESCALERA_REAL})
_RUNS = frozenset({Category.ESCALERA, Category.ESCALERA_DE_COLOR, Category.ESCALERA_REAL})
# How many cards each tie-break rank stands for, in order (module docstring).
_GROUP_SIZES = {
    Category.POKER: (4, 1),
    Category.FULL: (3, 2),
    Category.TRIO: (3, 1, 1),
    Category.DOBLE_PAREJA: (2, 2, 1),
    Category.PAREJA: (2, 1, 1, 1),
    Category.COLOR: (1, 1, 1, 1, 1),
    Category.CARTA_MAYOR: (1, 1, 1, 1, 1),
}
# Display order: rank high to low, then the deck's suit order (♠ ♥ ♦ ♣).
_DISPLAY_POSITION = [(12 - (i >> 2)) * 4 + (i & 3) for i in range(52)]


def _display_position(card: Card) -> int:
    return _DISPLAY_POSITION[card.index]


def evaluate(cards: Sequence[Card]) -> HandValue:
    """Best five of 5, 6 or 7 distinct cards, with the cards chosen for display."""
    cards = tuple(cards)
    value = strength(cards)
    category = _CATEGORIES[value >> CATEGORY_SHIFT]
    pool = sorted(cards, key=_display_position)
    if category in _SUITED:
        suits = [c.index & 3 for c in pool]
        suit = max(range(4), key=suits.count)
        pool = [c for c, x in zip(pool, suits, strict=True) if x == suit]
    by_rank: dict[int, list[Card]] = {}
    for c in pool:
        by_rank.setdefault((c.index >> 2) + 2, []).append(c)
    if category in _RUNS:
        top = value >> 16 & 15
        run = (5, 4, 3, 2, 14) if top == 5 else range(top, top - 5, -1)
        return HandValue(value, category, tuple(by_rank[r][0] for r in run))
    best: list[Card] = []
    shift = 16
    for size in _GROUP_SIZES[category]:
        best += by_rank[value >> shift & 15][:size]
        shift -= 4
    return HandValue(value, category, tuple(best))


# --- names for display and announcements ------------------------------------------

def hand_name(value: int) -> Msg:
    """A hand's words as a message (``hand.*`` with its ``rank.*`` words), so a journal can
    keep them as codes: "Pareja de Reyes", "Full de Ases y Reyes" when shown."""
    code = f"hand.{Category(value >> CATEGORY_SHIFT).name.lower()}"
    a, b = value >> 16 & 15, value >> 12 & 15
    words = {"first": f"plural_{a}", "second": f"plural_{b}", "high": f"high_{a}", "card": f"card_{a}"}
    # Only the ranks the template names: the nibbles a category leaves unused are no rank.
    used = template_fields(catalog(DEFAULT_LANG)[code])
    return Msg.of(code, **{name: Msg.of(f"rank.{word}") for name, word in words.items() if name in used})


def describe(hand: HandValue | int, lang: str = "es") -> str:
    """The croupier's words for a hand in ``lang``."""
    return hand_name(hand.strength if isinstance(hand, HandValue) else hand).render(lang)


__all__ = ["Category", "HandValue", "hand_name", "category_of", "describe", "evaluate", "strength"]

