"""The Madero Poker Bonus paytables as plain data (Resolución 132/2015, Anexo I).

One source for the engine's settlement, the odds tool and the evaluator's helpers.
No imports from the rest of the package but the message codes, so anything may read it. Hand categories are
the evaluator's ``HandCategory`` integers (CARTA_MAYOR = 0 … ESCALERA_REAL = 9).
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum

from shared.messages import Msg
from shared.record import record

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


@record
class BonusPay:
    line: BonusLine
    odds: int
    """Pays ``odds`` a 1: the winner keeps the stake and is paid odds × stake."""
    optional: bool = False
    """Only the A-A vs A-A line is optional (§67 "(*) Opcional") — a table setting."""

    @property
    def name(self) -> Msg:
        """The line's words, as printed on the paytable."""
        return Msg.of(f"paytable.bonus_{self.line.value}")


BONUS_ARTICLE = "Art. 13 §67"

BONUS_PAYTABLE: tuple[BonusPay, ...] = (
    BonusPay(BonusLine.AA_VS_AA, 1000, optional=True),
    BonusPay(BonusLine.AA, 30),
    BonusPay(BonusLine.AK_SUITED, 25),
    BonusPay(BonusLine.AQ_AJ_SUITED, 20),
    BonusPay(BonusLine.AK_OFFSUIT, 15),
    BonusPay(BonusLine.JJ_QQ_KK, 10),
    BonusPay(BonusLine.AQ_AJ_OFFSUIT, 5),
    BonusPay(BonusLine.PAIR_2_TO_10, 3),
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


@record
class JackpotPay:
    line: JackpotLine
    kind: JackpotPayKind
    amount: Decimal
    """Currency for FIXED / PER_CREDIT; a fraction of the meter for METER_SHARE."""
    category: int | None
    """Evaluator category of the five-card hand (hole cards + flop, §44); None for the
    Carta Mágica and Jugador Afortunado draws, which do not depend on the hand."""
    article: str

    @property
    def name(self) -> Msg:
        """The line's words, as printed on the paytable (a share of the meter says so)."""
        share = "_meter" if self.kind is JackpotPayKind.METER_SHARE else ""
        return Msg.of(f"paytable.jackpot_{self.line.value}{share}")


_HAND_LINES = {
    JackpotLine.POKER: (CAT_POKER, Decimal(500)),
    JackpotLine.FULL: (CAT_FULL, Decimal(100)),
    JackpotLine.COLOR: (CAT_COLOR, Decimal(50)),
    JackpotLine.ESCALERA: (CAT_ESCALERA, Decimal(25)),
}


def _per_credit_lines(article: str) -> tuple[JackpotPay, ...]:
    return tuple(
        JackpotPay(line, JackpotPayKind.PER_CREDIT, amount, cat, article)
        for line, (cat, amount) in _HAND_LINES.items()
    )


def _fixed_paytable() -> tuple[JackpotPay, ...]:
    return (
        JackpotPay(JackpotLine.ESCALERA_REAL, JackpotPayKind.FIXED, Decimal(5000), CAT_ESCALERA_REAL,
                   "Art. 11 §48–49"),
        JackpotPay(JackpotLine.ESCALERA_DE_COLOR, JackpotPayKind.FIXED, Decimal(2000), CAT_ESCALERA_DE_COLOR,
                   "Art. 11 §48–49"),
        *_per_credit_lines("Art. 11 §48"),
    )


def _progressive_paytable() -> tuple[JackpotPay, ...]:
    return (
        JackpotPay(JackpotLine.ESCALERA_REAL, JackpotPayKind.METER_SHARE, Decimal(1), CAT_ESCALERA_REAL,
                   "Art. 11 §50, §52"),
        JackpotPay(JackpotLine.ESCALERA_DE_COLOR, JackpotPayKind.METER_SHARE, Decimal("0.10"), CAT_ESCALERA_DE_COLOR,
                   "Art. 11 §50, §53"),
        *_per_credit_lines("Art. 11 §50"),
        JackpotPay(JackpotLine.CARTA_MAGICA, JackpotPayKind.PER_CREDIT, Decimal(30), None, "Art. 11 §55–56"),
        JackpotPay(JackpotLine.JUGADOR_AFORTUNADO, JackpotPayKind.PER_CREDIT, Decimal(30), None, "Art. 11 §55, §57"),
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

