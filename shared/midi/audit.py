"""Replay a shoe's card sequence coup by coup, as the regulation deals it.

The sequence is the whole shoe in dealing order, starting with the burn card (Art. 8 §2)
and ending with the cards below the cut card (``cut`` of them, 7 by Art. 8 §1). The coup
during which the cut card appears is the last; a coup the cards cannot finish is NULO
(Art. 9 §3). Positions in messages are 1-based, as a person counts the cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from shared.baccarat import CoupResult, cards_needed, resolve_coup
from shared.cards import Rank, parse_baccarat_card
from shared.errors import ConsoleError, InputError, RuleViolation
from shared.messages import Msg
from shared.record import record

REGULAR_CUT = 7
"""Art. 8 §1: seven cards lie below the cut card."""


@record
class AuditCoup:
    coup: int
    first_position: int
    """1-based position of the coup's first card in the sequence."""
    ranks: tuple[Rank, ...]
    result: CoupResult | None
    """None: the coup could not be finished (NULO)."""

    def to_dict(self) -> dict[str, Any]:
        if self.result is None:
            return {"coup": self.coup, "nulo": True, "cards": [r.label for r in self.ranks]}
        r = self.result
        return {
            "coup": self.coup,
            "punto": [Rank(c).label for c in r.punto_cards],
            "banca": [Rank(c).label for c in r.banca_cards],
            "punto_total": r.punto_total,
            "banca_total": r.banca_total,
            "winner": r.winner.value,
            "natural": r.natural,
            "banca_six": r.banca_six,
        }


@record
class AuditReport:
    decks: int
    burn_card: Rank
    burned: int
    cut_position: int
    """Cards above the cut card."""
    coups: list[AuditCoup]
    cards_used: int
    cards_total: int

    @property
    def nulo(self) -> bool:
        return bool(self.coups) and self.coups[-1].result is None

    @property
    def cut(self) -> int:
        """Cards below the cut card."""
        return self.cards_total - self.cut_position

    @property
    def irregular_cut(self) -> bool:
        """Art. 8 §1 places the cut card with 7 cards below it; any other cut is flagged."""
        return self.cut != REGULAR_CUT


def audit_shoe(tokens: Sequence[str], *, cut: int = REGULAR_CUT, decks: int = 8) -> AuditReport:
    """Deal every coup of a shoe from its cards; InputError/RuleViolation name the position.
    A cut other than 7 is audited and flagged (``irregular_cut``); one that leaves no card
    below the cut card, or no card above it, is refused."""
    if decks not in (6, 8):
        raise RuleViolation("Art. 2 §1", Msg.of("audit.decks"))
    if isinstance(cut, bool) or not isinstance(cut, int) or cut <= 0:
        raise InputError(Msg.of("audit.cut_none_below", cut=cut, regular=REGULAR_CUT))
    ranks: list[Rank] = []
    seen: Counter[Rank] = Counter()
    for i, token in enumerate(tokens, start=1):
        try:
            rank, _ = parse_baccarat_card(token)
        except ConsoleError as exc:
            raise InputError(Msg.of("audit.at_position", position=i, refusal=exc)) from None
        seen[rank] += 1
        if seen[rank] > 4 * decks:
            raise RuleViolation("Art. 2 §1", Msg.of("audit.too_many_of_rank", position=i, most=4 * decks,
                                                    rank=rank.label, decks=decks))
        ranks.append(rank)
    if not ranks:
        raise InputError(Msg.of("audit.no_cards"))
    if cut >= len(ranks):
        raise InputError(Msg.of("audit.cut_none_above", cut=cut, cards=len(ranks), regular=REGULAR_CUT))
    burned = ranks[0].burn_count
    cut_position = len(ranks) - cut
    if 1 + burned > cut_position:
        raise InputError(Msg.of("audit.burn_past_cut", position=len(ranks), burned=burned))
    pos = 1 + burned
    coups: list[AuditCoup] = []
    cut_out = False
    while not cut_out:
        start = pos
        hand: list[Rank] = []
        while len(hand) < cards_needed(hand):
            if pos >= len(ranks):
                coups.append(AuditCoup(len(coups) + 1, start + 1, tuple(hand), None))  # Art. 9 §3
                return AuditReport(decks, ranks[0], burned, cut_position, coups, pos, len(ranks))
            if pos == cut_position:
                cut_out = True  # Art. 8 §1: this coup is finished and is the last
            hand.append(ranks[pos])
            pos += 1
        coups.append(AuditCoup(len(coups) + 1, start + 1, tuple(hand), resolve_coup(hand)))
    return AuditReport(decks, ranks[0], burned, cut_position, coups, pos, len(ranks))
