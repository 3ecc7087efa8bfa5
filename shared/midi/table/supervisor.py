"""The supervisor's commands (credentials and a reason on record): void the coup, correct a
keyed card, end the shoe, deal in the holder's place (Art. 9 §3, §5)."""

from __future__ import annotations

from shared.baccarat import cards_needed
from shared.engine import can
from shared.errors import InputError, RuleViolation
from shared.messages import Msg
from shared.midi.table.fold import MidiFold
from shared.midi.table.events import CardCorrected, MidiEvent, ShoeEnded, SupervisorDeals
from shared.midi.table.state import KeyedCard, Phase
from shared.actor import Actor
from shared.staff import Credentials


class SupervisorCommands(MidiFold):
    """Each command in three steps: ``allow_x()`` is what the table's state needs (``can_x()``
    asks it, for ``legal_actions``), ``verify_x(creds, reason, …)`` adds the supervisor's
    credentials and reason (and the command's arguments), ``x(…)`` records it and returns the
    events it recorded."""

    def allow_void_coup(self) -> None:
        if not self._coup_voidable():
            raise InputError(Msg.of("midi.err_coup_progress_void"))

    def can_void_coup(self) -> bool:
        return can(self.allow_void_coup)

    def verify_void_coup(self, creds: Credentials | None, reason: str) -> Actor:
        self.allow_void_coup()
        return self._supervisor(creds, reason)

    def void_coup(self, creds: Credentials | None, reason: str) -> list[MidiEvent]:
        """Supervisor: declare the coup NULO before settlement; every bet returned (Art. 9 §3)."""
        actor = self.verify_void_coup(creds, reason)
        return self.record_events(actor, self._voided(reason.strip(), "supervisor"))

    def _verify_cards_correctable(self) -> None:
        if self.training:
            raise InputError(Msg.of("midi.err_training_console_deals"))
        if self.phase not in (Phase.CARDS, Phase.RESULT):
            raise RuleViolation("Art. 8 §6", Msg.of("midi.err_card_corrected_before_settlement"))

    def allow_correct_card(self) -> None:
        self._verify_cards_correctable()
        if not self.cards:
            raise InputError(Msg.of("midi.err_no_cards_in_coup"))

    def can_correct_card(self) -> bool:
        return can(self.allow_correct_card)

    def verify_correct_card(self, creds: Credentials | None, reason: str, index: int, token: str) -> tuple[Actor, KeyedCard]:
        self._verify_cards_correctable()
        if not isinstance(index, int) or not 0 <= index < len(self.cards):
            raise InputError(Msg.of("midi.err_no_card_number", n=index + 1 if isinstance(index, int) else index))
        card = KeyedCard.parse(token)
        if card.rank is not self.cards[index].rank:
            self._verify_shoe_holds(card.rank)
        corrected = self.cards[:index] + [card] + self.cards[index + 1:]
        if cards_needed([c.rank for c in corrected]) < len(corrected):
            raise RuleViolation("Art. 6 §2", Msg.of("midi.err_correction_breaks_draws"))
        actor = self._supervisor(creds, reason)
        return actor, card

    def correct_card(self, creds: Credentials | None, reason: str, index: int, token: str) -> list[MidiEvent]:
        """Supervisor: replace the coup's card number ``index`` (0 = first) keyed wrongly."""
        actor, card = self.verify_correct_card(creds, reason, index, token)
        return self.record_events(actor, CardCorrected(index, self.cards[index].text, card.text, reason.strip()))

    def allow_end_shoe(self) -> None:
        if self.phase in (Phase.NO_SHOE, Phase.SHOE_END):
            raise InputError(Msg.of("midi.err_no_shoe_in_play"))

    def can_end_shoe(self) -> bool:
        return can(self.allow_end_shoe)

    def verify_end_shoe(self, creds: Credentials | None, reason: str) -> Actor:
        self.allow_end_shoe()
        return self._supervisor(creds, reason)

    def end_shoe(self, creds: Credentials | None, reason: str) -> list[MidiEvent]:
        """Supervisor: end the shoe now; a coup in progress is NULO with its bets returned."""
        actor = self.verify_end_shoe(creds, reason)
        items: list[MidiEvent] = []
        if self._coup_voidable():
            items.append(self._voided(reason.strip(), "end_shoe"))
        items.append(ShoeEnded("supervisor", reason.strip()))
        return self.record_events(actor, *items)

    def allow_supervisor_deals(self) -> None:
        if not (self.phase in (Phase.BETS, Phase.CARDS) and self.sabot_holder is not None
                and not self.supervisor_dealing):
            raise InputError(Msg.of("midi.err_supervisor_takes_over_from"))

    def can_supervisor_deals(self) -> bool:
        return can(self.allow_supervisor_deals)

    def verify_supervisor_deals(self, creds: Credentials | None, reason: str) -> Actor:
        self.allow_supervisor_deals()
        return self._supervisor(creds, reason)

    def supervisor_deals(self, creds: Credentials | None, reason: str) -> list[MidiEvent]:
        """Art. 9 §5: the holder cannot go on; the supervisor deals, and at the end of the coup
        the sabot goes to the player on the holder's right."""
        actor = self.verify_supervisor_deals(creds, reason)
        return self.record_events(actor, SupervisorDeals(self.sabot_holder, reason.strip()))
