"""The Midi Punto y Banca table engine, one module per part (a rule is found by its article):

- ``state``: phases, keyed cards, the shoe's view, the coup's hands;
- ``base``: the state, its views and snapshots (``MidiBase``);
- ``fold``: how each event changes the state, the coup's refold, the entries undo may take back;
- ``play``: the croupier's desk, ``table.play`` (shoe, burn, cards, bets, settlement, sabot, commission);
- ``supervisor``: the supervisor's desk, ``table.supervisor`` (void, correct a card, end the shoe, deal);
- ``announcements``: what the croupier announces;
- ``legality``: the command ids, the prompt, and ``MidiTable`` itself (the state folded, holding its desks).
"""

from shared.engine import Prompt
from shared.midi.table.result_words import result_announcements
from shared.midi.table.legality import SUPERVISOR_ACTIONS, Action, MidiTable
from shared.midi.table.state import (
    CARDS_BELOW_CUT,
    CoupRecord,
    KeyedCard,
    Phase,
    ShoeView,
    deal_order_partial,
)

__all__ = [
    "CARDS_BELOW_CUT", "SUPERVISOR_ACTIONS", "Action", "CoupRecord", "KeyedCard", "MidiTable", "Phase",
    "Prompt", "ShoeView", "deal_order_partial", "result_announcements",
]
