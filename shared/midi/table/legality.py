"""The ids of the Midi table's commands (each declared where it is defined, ``@command``), and
the prompt: what the croupier announces and may do."""

from __future__ import annotations

from enum import StrEnum

from shared.engine import Prompt
from shared.midi.table.announcements import table_announcements
from shared.midi.table.result_words import joined
from shared.midi.table.commands import CroupierCommands
from shared.midi.table.supervisor import SupervisorCommands


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


class MidiTable(CroupierCommands, SupervisorCommands):
    """The Midi Punto y Banca table: the engine says what comes next (``prompt``), which
    commands are legal (``legal_actions``, the command table's: ``shared.commands``) and what
    to pay (``settlement``); it never accepts a card the rules do not call for."""

    @property
    def prompt(self) -> Prompt:
        """What the croupier announces now, and the card called for."""
        anns = table_announcements(self)
        return Prompt(joined(anns), card_for=self.card_called_for, announcements=tuple(anns))
