"""The Madero Poker Bonus paytables as plain data (Resolución 132/2015, Anexo I).

One source for the engine's settlement, the odds tool and the evaluator's helpers.
No imports from the rest of the package so anything may read it. Hand categories are
the evaluator's ``HandCategory`` integers (CARTA_MAYOR = 0 … ESCALERA_REAL = 9).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

# Evaluator category numbers used by the Jackpot lines (shared.poker.evaluator.HandCategory).
CAT_ESCALERA_REAL = 9
CAT_ESCALERA_DE_COLOR = 8
CAT_POKER = 7
CAT_FULL = 6
CAT_COLOR = 5
CAT_ESCALERA = 4

ACE, KING, QUEEN, JACK, TEN = 14, 13, 12, 11, 10


class BonusLine(StrEnum):
    """The Bonus lines of §67, highest first."""

    AA_VS_AA = "aa_vs_aa"
    AA = "aa"
    AK_SUITED = "ak_suited"
    AQ_AJ_SUITED = "aq_aj_suited"
    AK_OFFSUIT = "ak_offsuit"
    JJ_QQ_KK = "jj_qq_kk"
    AQ_AJ_OFFSUIT = "aq_aj_offsuit"
    PAIR_2_TO_10 = "pair_2_to_10"


@dataclass(frozen=True)
class BonusPay:
    line: BonusLine
    odds: int
    """Pays ``odds`` a 1: the winner keeps the stake and is paid odds × stake."""
    es: str
    en: str
    optional: bool = False
    """Only the A-A vs A-A line is optional (§67 "(*) Opcional") — a table setting."""


BONUS_ARTICLE = "Art. 13 §67"

BONUS_PAYTABLE: tuple[BonusPay, ...] = (
    BonusPay(BonusLine.AA_VS_AA, 1000, "A-A del jugador y A-A de la banca",
             "A-A for the player and A-A for the bank", optional=True),
    BonusPay(BonusLine.AA, 30, "A-A", "A-A"),
    BonusPay(BonusLine.AK_SUITED, 25, "A-K del mismo palo", "A-K suited"),
    BonusPay(BonusLine.AQ_AJ_SUITED, 20, "A-Q o A-J del mismo palo", "A-Q or A-J suited"),
    BonusPay(BonusLine.AK_OFFSUIT, 15, "A-K de distinto palo", "A-K offsuit"),
    BonusPay(BonusLine.JJ_QQ_KK, 10, "J-J, Q-Q o K-K", "J-J, Q-Q or K-K"),
    BonusPay(BonusLine.AQ_AJ_OFFSUIT, 5, "A-Q o A-J de distinto palo", "A-Q or A-J offsuit"),
    BonusPay(BonusLine.PAIR_2_TO_10, 3, "pareja de 2-2 a 10-10", "a pair from 2-2 to 10-10"),
)
BONUS_BY_LINE: dict[BonusLine, BonusPay] = {p.line: p for p in BONUS_PAYTABLE}


def bonus_line(player_ranks: tuple[int, int], suited: bool,
               bank_ranks: tuple[int, ...] | None, with_1000_line: bool) -> BonusLine | None:
    """The single Bonus line two hole cards make (§63, §67), or None (the bet loses).

    ``player_ranks``/``bank_ranks`` are rank values (A = 14). The bank's cards count only
    for the optional A-A vs A-A line; when that line is off A-A pays 30 a 1 whatever the
    bank holds (madero-rules.md, Decision).
    """
    hi, lo = max(player_ranks), min(player_ranks)
    if hi == lo:
        if hi == ACE:
            if with_1000_line and bank_ranks is not None and tuple(bank_ranks) == (ACE, ACE):
                return BonusLine.AA_VS_AA
            return BonusLine.AA
        if hi in (JACK, QUEEN, KING):
            return BonusLine.JJ_QQ_KK
        return BonusLine.PAIR_2_TO_10
    if hi != ACE:
        return None
    if lo == KING:
        return BonusLine.AK_SUITED if suited else BonusLine.AK_OFFSUIT
    if lo in (QUEEN, JACK):
        return BonusLine.AQ_AJ_SUITED if suited else BonusLine.AQ_AJ_OFFSUIT
    return None


class JackpotLine(StrEnum):
    """Jackpot lines (§48, §50), highest first."""

    ESCALERA_REAL = "escalera_real"
    ESCALERA_DE_COLOR = "escalera_de_color"
    POKER = "poker"
    FULL = "full"
    COLOR = "color"
    ESCALERA = "escalera"
    CARTA_MAGICA = "carta_magica"
    JUGADOR_AFORTUNADO = "jugador_afortunado"


class JackpotPayKind(StrEnum):
    FIXED = "fixed"
    """A fixed amount in currency whatever the credits (§49)."""
    PER_CREDIT = "per_credit"
    """Amount × credits bet ("se multiplicará por cada seguro apostado", §48, §50)."""
    METER_SHARE = "meter_share"
    """A fraction of the progressive meter (§50, §52, §53)."""


@dataclass(frozen=True)
class JackpotPay:
    line: JackpotLine
    kind: JackpotPayKind
    amount: Decimal
    """Currency for FIXED / PER_CREDIT; a fraction of the meter for METER_SHARE."""
    es: str
    en: str
    category: int | None
    """Evaluator category of the five-card hand (hole cards + flop, §44); None for the
    Carta Mágica and Jugador Afortunado draws, which do not depend on the hand."""
    article: str


_HAND_LINES = {
    JackpotLine.POKER: ("Póker", "Four of a kind", CAT_POKER, Decimal(500)),
    JackpotLine.FULL: ("Full", "Full house", CAT_FULL, Decimal(100)),
    JackpotLine.COLOR: ("Color", "Flush", CAT_COLOR, Decimal(50)),
    JackpotLine.ESCALERA: ("Escalera simple", "Straight", CAT_ESCALERA, Decimal(25)),
}


def _per_credit_lines(article: str) -> tuple[JackpotPay, ...]:
    return tuple(
        JackpotPay(line, JackpotPayKind.PER_CREDIT, amount, es, en, cat, article)
        for line, (es, en, cat, amount) in _HAND_LINES.items()
    )


def _fixed_paytable() -> tuple[JackpotPay, ...]:
    return (
        JackpotPay(JackpotLine.ESCALERA_REAL, JackpotPayKind.FIXED, Decimal(5000),
                   "Escalera real de color", "Royal flush", CAT_ESCALERA_REAL, "Art. 11 §48–49"),
        JackpotPay(JackpotLine.ESCALERA_DE_COLOR, JackpotPayKind.FIXED, Decimal(2000),
                   "Escalera de color", "Straight flush", CAT_ESCALERA_DE_COLOR, "Art. 11 §48–49"),
        *_per_credit_lines("Art. 11 §48"),
    )


def _progressive_paytable() -> tuple[JackpotPay, ...]:
    return (
        JackpotPay(JackpotLine.ESCALERA_REAL, JackpotPayKind.METER_SHARE, Decimal(1),
                   "Escalera real de color (100 % del pozo)", "Royal flush (100 % of the meter)",
                   CAT_ESCALERA_REAL, "Art. 11 §50, §52"),
        JackpotPay(JackpotLine.ESCALERA_DE_COLOR, JackpotPayKind.METER_SHARE, Decimal("0.10"),
                   "Escalera de color (10 % del pozo)", "Straight flush (10 % of the meter)",
                   CAT_ESCALERA_DE_COLOR, "Art. 11 §50, §53"),
        *_per_credit_lines("Art. 11 §50"),
        JackpotPay(JackpotLine.CARTA_MAGICA, JackpotPayKind.PER_CREDIT, Decimal(30),
                   "Carta Mágica", "Magic card", None, "Art. 11 §55–56"),
        JackpotPay(JackpotLine.JUGADOR_AFORTUNADO, JackpotPayKind.PER_CREDIT, Decimal(30),
                   "Jugador Afortunado", "Lucky player", None, "Art. 11 §55, §57"),
    )


def jackpot_paytable(progressive: bool) -> tuple[JackpotPay, ...]:
    """The Jackpot paytable of §48 (fixed) or §50 (progressive), highest line first.

    Built at each call (ten small objects) rather than once at import, so that mutation
    testing (bench/mutation_madero.sh) reaches the code that writes the amounts down.
    """
    return _progressive_paytable() if progressive else _fixed_paytable()


FIXED_JACKPOT_PAYTABLE = jackpot_paytable(progressive=False)
PROGRESSIVE_JACKPOT_PAYTABLE = jackpot_paytable(progressive=True)

JACKPOT_CREDITS_MIN = 1
JACKPOT_CREDITS_MAX = 5
"""§42: 1 to 5 credits, their total value never above the table minimum."""

PROGRESSIVE_SEED_MULTIPLE = 5000
"""§51: the meter starts at no less than 5,000 × the Jackpot minimum bet."""

