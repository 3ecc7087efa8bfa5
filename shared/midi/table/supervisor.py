"""The supervisor's desk (``table.supervisor``), commands with credentials and a reason on
record: void the coup, correct a keyed card, end the shoe, deal in the holder's place (Art. 9
§3, §5)."""

from __future__ import annotations

from shared.baccarat import cards_needed
from shared.commands import Authority, Field, Offer, cells, command
from shared.desk import Desk
from shared.errors import InputError, RuleViolation
from shared.messages import Msg
from shared.midi.table.base import MidiBase, verify_shoe_holds, voided_coup
from shared.midi.table.events import CardCorrected, MidiEvent, ShoeEnded, SupervisorDeals
from shared.midi.table.state import KeyedCard, Phase
from shared.actor import Actor
from shared.staff import Credentials


def card_number(text: str) -> int:
    """The coup's card as the panel names it (1 = first) as an index (0 = first)."""
    if not text.strip().isdigit():
        raise InputError(Msg.of("midi.err_no_card_number", n=text.strip()[:8]))
    return int(text) - 1


Signers = tuple[Actor | None, Actor | None]
"""The supervisor signing and, where two are needed, the second one (None while asking)."""


class MidiSupervisor(Desk[MidiBase]):
    """Each command ``verify_x(creds, reason, …)`` / ``x``: asked with every
    argument left out, ``verify_x`` says whether the command is allowed now (what the state
    needs, before anyone signs); ``x(…)`` records it and returns the events it recorded.

    The regulation's only NULO is the empty sabot (Art. 9 §3) and Res. 100/2016 has no
    arbitration clause: any other NULO, and once the result is known anything that changes
    what a box is paid or collected, is a two-person control (midi-rules.md)."""

    def _signed(self, signers: Signers, creds: Credentials | None, reason: str) -> tuple[Actor, str | None]:
        """The signer ``verify_x`` found (a command given no reason is refused as the base
        refuses it) and the second supervisor's ID, if one signed."""
        actor, other = signers
        signer = actor if actor is not None else self.table.signers.supervisor(creds, reason)
        return signer, None if other is None else other.staff_id

    def verify_void_coup(self, creds: Credentials | None = None, reason: str | None = None,
                         second: Credentials | None = None) -> Signers:
        if not self.table._coup_voidable():
            raise InputError(Msg.of("midi.err_coup_progress_void"))
        return self.table.signers.supervisors(creds, reason, second, two=self.table.signers.two_supervisors_now("void_coup"))

    @command("void_coup", cells(Authority.TWO_SUPERVISORS, Phase.BETS, Phase.CARDS, Phase.RESULT), "Art. 9 §3",
             "midi_sup_void", offers=(Offer("void_coup", "midi_sup_void"),))
    def void_coup(self, creds: Credentials | None, reason: str, second: Credentials | None = None) -> list[MidiEvent]:
        """Two supervisors: declare the coup NULO before settlement; every bet returned."""
        actor, other = self._signed(self.verify_void_coup(creds, reason, second), creds, reason)
        return self.table.record_events(actor, voided_coup(self.table, reason.strip(), "supervisor", other))

    def verify_correct_card(self, creds: Credentials | None = None, reason: str | None = None,
                            index: int | None = None, token: str | None = None,
                            second: Credentials | None = None) -> tuple[Signers, KeyedCard | None]:
        """Card number ``index`` (0 = first) of the coup becomes ``token``; left out, some card
        of the coup may be corrected now. With the result known: two supervisors."""
        if self.table.training:
            raise InputError(Msg.of("midi.err_training_console_deals"))
        if self.table.phase not in (Phase.CARDS, Phase.RESULT):
            raise RuleViolation("Art. 8 §6", Msg.of("midi.err_card_corrected_before_settlement"))
        if not self.table.cards:
            raise InputError(Msg.of("midi.err_no_cards_in_coup"))
        card = None
        if index is not None or token is not None:
            if not isinstance(index, int) or not 0 <= index < len(self.table.cards):
                raise InputError(Msg.of("midi.err_no_card_number", n=index + 1 if isinstance(index, int) else index))
            card = KeyedCard.parse(token or "")
            if card.rank is not self.table.cards[index].rank:
                verify_shoe_holds(self.table, card.rank)
            corrected = self.table.cards[:index] + [card] + self.table.cards[index + 1:]
            if cards_needed([c.rank for c in corrected]) < len(corrected):
                raise RuleViolation("Art. 6 §2", Msg.of("midi.err_correction_breaks_draws"))
        return self.table.signers.supervisors(creds, reason, second, two=self.table.signers.two_supervisors_now("correct_card")), card

    @command("correct_card", cells(Authority.SUPERVISOR, Phase.CARDS) | cells(Authority.TWO_SUPERVISORS, Phase.RESULT),
             "Art. 8 §6", "midi_sup_correct", training=False, offers=(Offer("correct_card", "midi_sup_correct", (
                 Field("card_no", "midi_sup_card_no", "1–6", arg="index", parse=card_number),
                 Field("card", "midi_sup_new_card", "K, 9h", arg="token"))),))
    def correct_card(self, creds: Credentials | None, reason: str, index: int, token: str,
                     second: Credentials | None = None) -> list[MidiEvent]:
        """Supervisor: replace the coup's card number ``index`` (0 = first) keyed wrongly."""
        signers, card = self.verify_correct_card(creds, reason, index, token, second)
        actor, other = self._signed(signers, creds, reason)
        assert card is not None
        corrected = CardCorrected(index, self.table.cards[index].text, card.text, reason.strip(), other)
        return self.table.record_events(actor, corrected)

    def verify_end_shoe(self, creds: Credentials | None = None, reason: str | None = None,
                        second: Credentials | None = None) -> Signers:
        """A shoe in play, and no coup whose result is known (it is settled first: ending a shoe
        never voids it); a coup in progress is voided with it, which takes two supervisors."""
        if self.table.phase in (Phase.NO_SHOE, Phase.SHOE_END):
            raise InputError(Msg.of("midi.err_no_shoe_in_play"))
        if self.table.phase is Phase.RESULT:
            raise RuleViolation("Art. 8 §6", Msg.of("midi.err_settle_before_end_shoe"))
        return self.table.signers.supervisors(creds, reason, second, two=self.table.signers.two_supervisors_now("end_shoe"))

    @command("end_shoe", cells(Authority.SUPERVISOR, Phase.BURN, Phase.BETS) | cells(Authority.TWO_SUPERVISORS, Phase.CARDS),
             "Art. 8 §1, Art. 9 §3", "midi_sup_end_shoe", offers=(Offer("end_shoe", "midi_sup_end_shoe"),),
             two_when="_coup_voidable", two_when_words="when it voids a coup")
    def end_shoe(self, creds: Credentials | None, reason: str, second: Credentials | None = None) -> list[MidiEvent]:
        """Supervisor: end the shoe now; a coup in progress is NULO with its bets returned."""
        actor, other = self._signed(self.verify_end_shoe(creds, reason, second), creds, reason)
        items: list[MidiEvent] = []
        if self.table._coup_voidable():
            items.append(voided_coup(self.table, reason.strip(), "end_shoe", other))
        items.append(ShoeEnded("supervisor", reason.strip()))
        return self.table.record_events(actor, *items)

    def verify_supervisor_deals(self, creds: Credentials | None = None, reason: str | None = None) -> Signers:
        if not (self.table.phase in (Phase.BETS, Phase.CARDS) and self.table.sabot_holder is not None
                and not self.table.supervisor_dealing):
            raise InputError(Msg.of("midi.err_supervisor_takes_over_from"))
        return self.table.signers.supervisors(creds, reason, None, two=False)

    @command("supervisor_deals", cells(Authority.SUPERVISOR, Phase.BETS, Phase.CARDS), "Art. 9 §5", "midi_sup_deals",
             offers=(Offer("supervisor_deals", "midi_sup_deals"),))
    def supervisor_deals(self, creds: Credentials | None, reason: str) -> list[MidiEvent]:
        """Art. 9 §5: the holder cannot go on; the supervisor deals, and at the end of the coup
        the sabot goes to the player on the holder's right."""
        actor, _ = self._signed(self.verify_supervisor_deals(creds, reason), creds, reason)
        return self.table.record_events(actor, SupervisorDeals(self.table.sabot_holder, reason.strip()))
