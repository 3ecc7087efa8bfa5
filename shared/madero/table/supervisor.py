"""The supervisor's commands: irregularities of the deal and the community cards (Art. 10 §37–39),
dead hands (§38), collusion (§69), exposed bank cards (§70), arbitration and adjustments (§73)."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from shared.cards import Card
from shared.commands import Authority, Field, Offer, can, cells, command
from shared.desk import Desk
from shared.errors import InputError, RuleViolation
from shared.madero.settlement import (
    BoxStatus,
)
from shared.madero.table.events import (
    Adjustment,
    CardCorrected,
    Collusion,
    CommunityError,
    DeadHand,
    MaderoEvent,
    RoundVoided,
)
from shared.madero.table.state import (
    BETTING_ROUND,
    Phase,
    active_boxes,
    community_street,
    enum_value,
    need_box,
    need_phase,
    voided,
)
from shared.messages import Msg
from shared.money import ZERO, to_money
from shared.actor import Actor
from shared.staff import Credentials

if TYPE_CHECKING:
    from shared.madero.table import MaderoTable


class VoidKind(StrEnum):
    MISDEAL = "misdeal"
    """Wrong number of cards, cards to a box without Ante, a card exposed in the deal (§37)."""
    BANK_CARD_EXPOSED = "bank_card_exposed"
    """A bank card exposed during the deal (§70)."""
    ARBITRATION = "arbitration"
    """After betting began the annex allows no void (§38): only management's arbitration
    (§73), by two supervisors, flagged in recall and the shift report."""


VOID_ARTICLES = {VoidKind.MISDEAL: "Art. 10 §37", VoidKind.BANK_CARD_EXPOSED: "Art. 14 §70",
                 VoidKind.ARBITRATION: "Art. 14 §73"}


class CommunityCase(StrEnum):
    """The community-card errors of Art. 10 §39."""

    EXTRA_EXPOSED = "39.1"
    """Extra community cards exposed: that street is dealt again."""
    FLOP_BURN = "39.2"
    """Flop without a burn or with two: corrected; dealt again if a card was exposed."""
    LATER_BURN = "39.3"
    """Missing or extra burn on a later street: dealt again, that street's bets returned."""
    EXPOSED_EARLY = "39.4"
    """A community card exposed before its betting round closed: not used."""


def box_number(text: str) -> int:
    """A box typed on the panel."""
    try:
        return int(text)
    except ValueError:
        raise InputError(Msg.of("box_input.box_number", text=text)) from None


def exposed_card(text: str) -> list[Card]:
    return [Card.parse(text)]


AFTER_DEAL = (Phase.FIRST, Phase.FLOP, Phase.SECOND, Phase.TURN, Phase.THIRD, Phase.RIVER, Phase.SHOWDOWN)
ONE_THEN_TWO = cells(Authority.SUPERVISOR, *AFTER_DEAL) | cells(Authority.TWO_SUPERVISORS, Phase.SETTLEMENT)
"""After the deal one supervisor; with every card known (the settlement) two: what a box is
paid or collected then changes only by a two-person control (madero-rules.md, §73)."""
BOX = Field("box", "mad_field_box", "1-7", parse=box_number)
EXPOSED = Field("card", "mad_field_exposed", "Qh", arg="exposed", parse=exposed_card)

Signers = tuple[Actor | None, Actor | None]
"""The supervisor signing and, where two are needed, the second one (None while asking)."""

FLOP_ORDER = frozenset({0, 2})
"""§39.2 caught before the flop is turned: the burns the croupier made (none, or two); the
cards are put in the order they should have had (madero-rules.md; the prompt says how)."""



def _flop_order(table: MaderoTable) -> bool:
    return can(table.supervisor.verify_fix_flop_order)


def _not_flop_order(table: MaderoTable) -> bool:
    return not _flop_order(table)


class MaderoSupervisor(Desk["MaderoTable"]):
    """The supervisor's commands: irregularities (Art. 10, Art. 14).

    Each ``verify_x`` checks the rule, then the supervisor's credentials and reason. Asked
    with no reason (``reason=None``, and any other argument left out standing for any value)
    it says whether the command is allowed now, before anyone signs: what the key bar shows."""

    def _signature(self, creds: Credentials | None, reason: str | None) -> Actor | None:
        """The supervisor signing with their reason; None while only asking (no reason)."""
        return None if reason is None else self.table.signers.supervisor(creds, reason)

    def _pay_signatures(self, id: str, creds: Credentials | None, reason: str | None,
                        second: Credentials | None) -> Signers:
        """The signatures command ``id`` needs now, as the command table declares them."""
        return self.table.signers.supervisors(creds, reason, second, two=self.table.signers.two_supervisors_now(id))

    def _signers(self, signers: Signers, creds: Credentials | None, reason: str,
                 second: Credentials | None) -> tuple[Actor, str | None]:
        """The signer ``verify_x`` found and the second supervisor's ID, if one signed."""
        actor, other = signers
        return self._signer(actor, creds, reason), None if other is None else other.staff_id

    def _signer(self, actor: Actor | None, creds: Credentials | None, reason: str) -> Actor:
        """The signer ``verify_x`` found; a command given no reason is refused as the base refuses it."""
        return actor if actor is not None else self.table.signers.supervisor(creds, reason)

    def _verify_after_deal(self) -> None:
        need_phase(self.table, tuple(p for p in Phase if p not in (Phase.IDLE, Phase.BETS)), "Art. 10 §38",
                         Msg.of("madero.no_deal_in_progress"))
        if self.table.r is not None and self.table.r.prize_claimed:
            # The store may already hold the prize's debit: a changed or voided round would
            # leave it taken from the jackpot and never paid.
            raise RuleViolation("Art. 11 §54", Msg.of("carrusel.prize_claimed_settle_only"))

    def verify_void_round(self, creds: Credentials | None = None, kind: VoidKind | str = VoidKind.MISDEAL,
                          reason: str | None = None,
                          second: Credentials | None = None) -> tuple[Actor | None, Actor | None]:
        kind = enum_value(VoidKind, kind)
        self._verify_after_deal()
        if kind is not VoidKind.ARBITRATION:
            if self.table.betting_began():
                raise RuleViolation(
                    "Art. 10 §38",
                    Msg.of("madero.betting_began_no_void"))
            return self._signature(creds, reason), None
        if not self.table.betting_began():
            raise RuleViolation("Art. 14 §73", Msg.of("madero.deal_void_under_37_or_70"))
        actor = self._signature(creds, reason)
        if actor is None:
            return None, None
        return actor, self.table.signers.second_supervisor(actor, second)


    @command("void_round", cells(Authority.SUPERVISOR, Phase.FIRST), "Art. 10 §37, Art. 14 §70", "mad_sup_void_misdeal",
             probe={"kind": VoidKind.MISDEAL},
             offers=(Offer("void_misdeal", "mad_sup_void_misdeal", fixed={"kind": VoidKind.MISDEAL}),
                     Offer("void_bank_card", "mad_sup_void_bank_card", fixed={"kind": VoidKind.BANK_CARD_EXPOSED})))
    @command("arbitrate_void", cells(Authority.TWO_SUPERVISORS, *AFTER_DEAL, Phase.SETTLEMENT), "Art. 14 §73",
             "mad_sup_void_arbitration", probe={"kind": VoidKind.ARBITRATION},
             offers=(Offer("void_arbitration", "mad_sup_void_arbitration", fixed={"kind": VoidKind.ARBITRATION}),))
    def void_round(self, creds: Credentials | None, kind: VoidKind | str, reason: str,
                   second: Credentials | None = None) -> list[MaderoEvent]:
        """Misdeal (§37) or a bank card exposed in the deal (§70), until the first «voy» or
        «me retiro»; after that only as management's arbitration (§73) with ``second``, a
        second supervisor. The round is void, every bet returned."""
        actor, other = self.verify_void_round(creds, kind, reason, second)
        actor = self._signer(actor, creds, reason)
        kind = VoidKind(kind)
        article, reason = VOID_ARTICLES[kind], reason.strip()
        settlement = voided(self.table, article, reason)
        arbitration = (True, other.staff_id) if other is not None else (None, None)
        return self.table.record_events(actor, RoundVoided(kind.value, article, reason, settlement.record(),
                                                           *arbitration))

    def _verify_box_out(self, id: str, creds: Credentials | None, box: int | None, reason: str | None,
                        second: Credentials | None) -> Signers:
        """After the deal, ``box`` (left out: any box) still in play."""
        self._verify_after_deal()
        if box is None:
            if not active_boxes(self.table.r):
                raise RuleViolation("Art. 10 §38", Msg.of("madero.no_box_in_play"))
        elif need_box(self.table, box).status is not BoxStatus.ACTIVE:
            raise RuleViolation("Art. 10 §38", Msg.of("madero.box_already_out", box=box))
        return self._pay_signatures(id, creds, reason, second)

    def verify_dead_hand(self, creds: Credentials | None = None, box: int | None = None,
                         reason: str | None = None, second: Credentials | None = None) -> Signers:
        """§38's dead hand exists once betting began; before the first «voy» or «me retiro» an
        irregular hand is an error of the deal, a void of the whole round (§37)."""
        self._verify_after_deal()
        if not self.table.betting_began():
            raise RuleViolation("Art. 10 §37", Msg.of("madero.dead_hand_before_betting"))
        return self._verify_box_out("dead_hand", creds, box, reason, second)


    @command("dead_hand", ONE_THEN_TWO, "Art. 10 §38", "mad_sup_dead_hand", offers=(Offer("dead_hand", "mad_sup_dead_hand", (BOX,)),))
    def dead_hand(self, creds: Credentials | None, box: int, reason: str,
                  second: Credentials | None = None) -> list[MaderoEvent]:
        """Irregular hand once betting began: no redeal, the box is out and nothing is decided
        on it; its bets, all of them, are returned (§38, Decision)."""
        actor, other = self._signers(self.verify_dead_hand(creds, box, reason, second), creds, reason, second)
        return self.table.record_events(actor, DeadHand(box, "Art. 10 §38", reason.strip(), other))

    def verify_collusion(self, creds: Credentials | None = None, box: int | None = None,
                         reason: str | None = None, second: Credentials | None = None) -> Signers:
        return self._verify_box_out("collusion", creds, box, reason, second)


    @command("collusion", ONE_THEN_TWO, "Art. 14 §69", "mad_sup_collusion", offers=(Offer("collusion", "mad_sup_collusion", (BOX,)),))
    def collusion(self, creds: Credentials | None, box: int, reason: str,
                  second: Credentials | None = None) -> list[MaderoEvent]:
        """Players exchanged information: the hand is void, its bets returned (§69, Decision)."""
        actor, other = self._signers(self.verify_collusion(creds, box, reason, second), creds, reason, second)
        return self.table.record_events(actor, Collusion(box, "Art. 14 §69", reason.strip(), other))

    def verify_community_error(self, creds: Credentials | None = None, case: CommunityCase | str | None = None,
                               reason: str | None = None, exposed: Iterable[Card | str] | None = None,
                               ) -> tuple[Actor | None, CommunityError]:
        """The §39 ``case`` applies now (left out: some case does); ``exposed`` are the cards seen
        by error (left out: any unseen card)."""
        self._verify_after_deal()
        r = self.table.r
        assert r is not None
        if case is None:
            return self._some_community_case(creds, reason, exposed)
        case = enum_value(CommunityCase, case)
        exposed_cards = [Card.parse(c) if isinstance(c, str) else c for c in exposed or ()]
        pool = r.deck_pool()
        for c in exposed_cards:
            pool.verify_take(c)
        shown = tuple(str(c) for c in exposed_cards)
        article = f"Art. 10 §{case.value}"
        text = (reason or "").strip()
        if case is CommunityCase.EXPOSED_EARLY:
            if r.phase not in BETTING_ROUND:
                raise RuleViolation(article, Msg.of("madero.applies_only_during_betting_round"))
            if not exposed_cards and exposed is not None:
                raise InputError(Msg.of("madero.name_exposed_card"))
            body = CommunityError(case.value, article, text, exposed=shown)
        elif case is CommunityCase.FLOP_BURN and r.phase is Phase.FLOP and not r.board:
            # Caught before the flop was turned: only an exposed card makes it be dealt again.
            if not exposed_cards and exposed is not None:
                raise InputError(Msg.of("madero.flop_put_in_order"))
            body = CommunityError(case.value, article, text, exposed=shown)
        else:
            body = self._redealt_street(case, article, text, shown)
        return self._signature(creds, reason), body

    def _some_community_case(self, creds: Credentials | None, reason: str | None,
                             exposed: Iterable[Card | str] | None) -> tuple[Actor | None, CommunityError]:
        """The first §39 case that applies now, or the last one's refusal."""
        cases = list(CommunityCase)
        for case in cases[:-1]:
            if can(self.verify_community_error, creds, case, reason, exposed):
                return self.verify_community_error(creds, case, reason, exposed)
        return self.verify_community_error(creds, cases[-1], reason, exposed)

    def _redealt_street(self, case: CommunityCase, article: str, reason: str, shown: tuple[str, ...]) -> CommunityError:
        """§39.1–39.3: the last street turned goes back into the deck; the bets made since it
        was turned are returned and asked again (§39.3)."""
        r = self.table.r
        assert r is not None
        street = community_street(self.table.r)
        if street is None:
            raise RuleViolation(article, Msg.of("madero.no_community_cards_to_redeal"))
        if case is CommunityCase.FLOP_BURN and street != "flop":
            raise RuleViolation(article, Msg.of("madero.case_39_2_is_the_flops"))
        if case is CommunityCase.LATER_BURN and street == "flop":
            raise RuleViolation(article, Msg.of("madero.flop_uses_39_2"))
        removed = {"flop": r.board[:3], "turn": r.board[3:4], "river": r.board[4:5]}[street]
        reopened = {"flop": 2, "turn": 3, "river": None}[street]
        returned = {}
        if reopened:
            for n, b in sorted(r.boxes.items()):
                amount = b.turn if reopened == 2 else b.river
                if amount:
                    returned[str(n)] = amount
        return CommunityError(case.value, article, reason, street, tuple(str(c) for c in removed), shown,
                              reopened, returned)


    @command("community_error", cells(Authority.SUPERVISOR, *AFTER_DEAL), "Art. 10 §39", "mad_sup_redeal_39_1", offers=(
        Offer("redeal_39_1", "mad_sup_redeal_39_1", fixed={"case": CommunityCase.EXTRA_EXPOSED}, when=_not_flop_order),
        Offer("redeal_39_2", "mad_sup_redeal_39_2", fixed={"case": CommunityCase.FLOP_BURN}, when=_not_flop_order),
        Offer("redeal_39_3", "mad_sup_redeal_39_3", fixed={"case": CommunityCase.LATER_BURN}, when=_not_flop_order),
        Offer("exposed_39_4", "mad_sup_exposed_39_4", (EXPOSED,), fixed={"case": CommunityCase.EXPOSED_EARLY},
              when=_not_flop_order),
        # §39.2 before the flop is turned and a card showed: dealt again (beside fix_flop_order's lines).
        Offer("exposed_39_2", "mad_sup_redeal_39_2", (EXPOSED,), fixed={"case": CommunityCase.FLOP_BURN},
              when=_flop_order)))
    def community_error(self, creds: Credentials | None, case: CommunityCase | str, reason: str,
                        exposed: Iterable[Card | str] = ()) -> list[MaderoEvent]:
        """A community-card error of §39.1–39.4. For 39.1–39.3 the last street's cards go back
        into the deck and are dealt again without a burn (§39.5); the bets made since are
        returned and those boxes asked again. For 39.4 the early card is not used."""
        actor, body = self.verify_community_error(creds, case, reason, list(exposed))
        actor = self._signer(actor, creds, reason)
        return self.table.record_events(actor, body)

    def verify_fix_flop_order(self, creds: Credentials | None = None, burns_made: int | None = None,
                              reason: str | None = None) -> Actor | None:
        self._verify_after_deal()
        if self.table.phase is not Phase.FLOP or self.table.board:
            raise RuleViolation("Art. 10 §39.2", Msg.of("madero.flop_order_only_before_turned"))
        if burns_made is not None and burns_made not in FLOP_ORDER:
            raise InputError(Msg.of("madero.give_burns_made"))
        return self._signature(creds, reason)


    @command("fix_flop_order", cells(Authority.SUPERVISOR, Phase.FLOP), "Art. 10 §39.2", "mad_sup_flop_order_0",
             offers=(Offer("flop_order_0", "mad_sup_flop_order_0", fixed={"burns_made": 0}),
                     Offer("flop_order_2", "mad_sup_flop_order_2", fixed={"burns_made": 2})))
    def fix_flop_order(self, creds: Credentials | None, burns_made: int, reason: str) -> list[MaderoEvent]:
        """§39.2: a flop dealt without a burn (0) or with two (2), caught before it is turned
        face up, is put in the order it should have had, without reshuffling; the croupier is
        told how, and the flop is then turned as usual."""
        actor = self.verify_fix_flop_order(creds, burns_made, reason)
        actor = self._signer(actor, creds, reason)
        return self.table.record_events(actor, CommunityError(CommunityCase.FLOP_BURN.value, "Art. 10 §39.2", reason.strip(),
                                                  reordered=burns_made))

    def verify_correct_card(self, creds: Credentials | None = None, reason: str | None = None,
                            old: Card | str | None = None, new: Card | str | None = None,
                            second: Credentials | None = None) -> Signers:
        """``old`` is a card of this round (left out: the round has one), ``new`` one not seen."""
        self._verify_after_deal()
        r = self.table.r
        assert r is not None
        known = [*r.board, *r.bank, *(c for b in r.boxes.values() for c in b.cards)]
        if old is None and not known:
            raise InputError(Msg.of("madero.no_cards_this_round"))
        if old is not None:
            old = Card.parse(old) if isinstance(old, str) else old
            if old not in known:
                raise InputError(Msg.of("madero.card_not_in_round", old=old.display))
        if new is not None:
            r.deck_pool().verify_take(Card.parse(new) if isinstance(new, str) else new)
        return self._pay_signatures("correct_card", creds, reason, second)


    @command("correct_card", ONE_THEN_TWO, "Art. 14 §73", "mad_sup_correct_card", offers=(Offer(
        "correct_card", "mad_sup_correct_card", (Field("old", "mad_field_old_card", "7h", parse=Card.parse),
                                                 Field("new", "mad_field_new_card", "7d", parse=Card.parse))),))
    def correct_card(self, creds: Credentials | None, reason: str, old: Card | str, new: Card | str,
                     second: Credentials | None = None) -> list[MaderoEvent]:
        """Replace a mis-keyed card by the right one (a correcting entry); the arguments in
        the order of every supervisor command: who signs, why, then what."""
        actor, other = self._signers(self.verify_correct_card(creds, reason, old, new, second), creds, reason, second)
        old = Card.parse(old) if isinstance(old, str) else old
        new = Card.parse(new) if isinstance(new, str) else new
        return self.table.record_events(actor, CardCorrected(str(old), str(new), reason.strip(), other))

    def verify_adjust(self, creds: Credentials | None = None, box: int | None = None, amount: object = None,
                      reason: str | None = None, second: Credentials | None = None) -> tuple[Signers, Decimal]:
        """A non-zero amount (negative: collected) for a box of the table; left out, any."""
        value = ZERO
        if amount is not None:
            text = str(amount).strip()
            negative = text.startswith("-")
            value = to_money(text[1:] if negative else amount)
            if not value:
                raise InputError(Msg.of("madero.adjustment_cannot_zero"))
            value = -value if negative else value
        if box is not None and not 1 <= box <= self.table.config.boxes:
            raise InputError(Msg.of("madero.table_boxes", boxes=self.table.config.boxes))
        return self._pay_signatures("adjust", creds, reason, second), value


    # Between rounds the last round is settled: an adjustment then, as with every card known,
    # changes what a box was paid, so it takes two supervisors.
    @command("adjust", cells(Authority.TWO_SUPERVISORS, Phase.IDLE, Phase.SETTLEMENT)
             | cells(Authority.SUPERVISOR, Phase.BETS, *AFTER_DEAL), "Art. 14 §73", "mad_sup_adjust",
             offers=(Offer("adjust", "mad_sup_adjust", (BOX, Field("amount", "mad_field_amount", "50 / -50"))),))
    def adjust(self, creds: Credentials | None, box: int, amount: object, reason: str,
               second: Credentials | None = None) -> list[MaderoEvent]:
        """A correcting payment (positive: paid to the box; negative: collected) that never
        edits history (§73: management arbitrates what the regulation does not cover)."""
        signers, value = self.verify_adjust(creds, box, amount, reason, second)
        actor, other = self._signers(signers, creds, reason, second)
        return self.table.record_events(actor, Adjustment(box, value, "Art. 14 §73", self.table.round_no, reason.strip(), other))
