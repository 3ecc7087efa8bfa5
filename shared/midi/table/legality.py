"""The Midi table itself: its state (``MidiBase``) folded from the journal, the desks that hold
its commands (``table.play``, ``table.supervisor``), the ids of those commands (each declared
where it is defined, ``@command``) and the prompt: what the croupier announces and may do."""

from __future__ import annotations

from enum import StrEnum

from shared.engine import LoggedEntry, Prompt, TableEngine
from shared.errors import InputError, RuleViolation
from shared.journal import Event
from shared.messages import Msg
from shared.midi.table.announcements import table_announcements
from shared.midi.table.base import MidiBase
from shared.midi.table.events import MIDI_CODEC
from shared.midi.table.fold import fold, refold, undoable
from shared.midi.table.play import MidiPlay
from shared.midi.table.result_words import joined
from shared.midi.table.state import Phase
from shared.midi.table.supervisor import MidiSupervisor


class Action(StrEnum):
    """Commands the UI may offer; ``legal_actions()`` says which are legal now."""

    NEW_SHOE = "new_shoe"
    CARD = "card"  # live: key_card(token); training: deal()
    BURN = "burn"  # confirm_burn()
    BET = "bet"  # place_bet(), remove_bet()
    REPEAT_BETS = "repeat_bets"
    NO_VA_MAS = "no_va_mas"
    SETTLE = "settle"
    UNDO = "undo"
    SHOE_EXHAUSTED = "shoe_exhausted"
    CUT_CARD = "cut_card"  # cut_card_seen(): live, the cut card came out before the count says
    ASSIGN_SABOT = "assign_sabot"
    PASS_SABOT = "pass_sabot"
    COLLECT_COMMISSION = "collect_commission"
    # Supervisor commands (credentials and a reason):
    VOID_COUP = "void_coup"
    CORRECT_CARD = "correct_card"
    END_SHOE = "end_shoe"
    SUPERVISOR_DEALS = "supervisor_deals"
    DECLARE_EXHAUSTED = "declare_exhausted"  # shoe_exhausted() with credentials: the count shows cards left


SUPERVISOR_ACTIONS = frozenset({Action.VOID_COUP, Action.CORRECT_CARD, Action.END_SHOE, Action.SUPERVISOR_DEALS,
                                Action.DECLARE_EXHAUSTED})


class MidiTable(MidiBase):
    """The Midi Punto y Banca table: the engine says what comes next (``prompt``), which
    commands are legal (``legal_actions``, the command table's: ``shared.commands``) and what
    to pay (``settlement``); it never accepts a card the rules do not call for. Its commands are
    its desks' (the supervisor's first: the F2 panel's and the authority document's order)."""

    COLLABORATORS = {**TableEngine.COLLABORATORS, "supervisor": MidiSupervisor, "play": MidiPlay}
    supervisor: MidiSupervisor
    play: MidiPlay

    def apply(self, event: Event) -> None:
        fold(self, event.seq, MIDI_CODEC.decode(event.type, event.payload))

    @property
    def undo_entry_type(self) -> str | None:
        """The type of the entry ``undo()`` would take back, or None."""
        entry = self._undoable_entry()
        return None if entry is None else entry.body.type

    def _undoable_entry(self) -> LoggedEntry | None:
        """The open coup's last entry the croupier may take back (later non-undoable entries,
        such as the cut card's signal, stay)."""
        return next((e for e in reversed(self.round_log) if undoable(e.body)), None)

    def undo_target(self) -> LoggedEntry:
        """A bet or a keyed card of this coup, before settlement; «No va más» cannot be undone
        (Art. 9 §1)."""
        entry = self._undoable_entry()
        if entry is None:
            if self.phase in (Phase.CARDS, Phase.RESULT) and not self.cards:
                raise RuleViolation("Art. 9 §1", Msg.of("midi.err_no_va_mas_was_called"))
            raise InputError(Msg.of("midi.err_nothing_undo"))
        return entry

    def refold_round(self) -> None:
        refold(self)

    @property
    def prompt(self) -> Prompt:
        """What the croupier announces now, and the card called for."""
        anns = table_announcements(self)
        return Prompt(joined(anns), card_for=self.card_called_for, announcements=tuple(anns))
