"""The Midi console's keys, each by the engine command it runs (``tui_common.keys``).

The order is the key bar's. A key bound twice (enter; a digit: a card's rank or a box) does
what the key the phase allows does.
"""

from __future__ import annotations

from typing import Any

from shared.midi.table import MidiTable, Phase
from tui_common.keys import Key, KeyTable, alias
from tui_common.widgets import BACCARAT_CARD_KEYS

# During the burn the digits are ranks: a second rank is answered (the burn card is out).
_BOX_PHASES = frozenset({Phase.NO_SHOE, Phase.BETS, Phase.SHOE_END})


def _live(app: Any) -> bool:
    """A live table's cards are keyed one by one; a training table deals its own."""
    return not app.midi.training


def _training(app: Any) -> bool:
    return bool(app.midi.training)


def _boxes_selectable(app: Any) -> bool:
    return app.midi.phase in _BOX_PHASES and app.midi.card_called_for is None


MIDI_KEYS = KeyTable([
    Key("enter", "new_shoe", "new_shoe"),
    Key("enter", "card", "deal", "midi_key_deal", when=_training, training_only=True),
    Key("enter", "burn", "confirm_burn"),
    Key("enter", "settle", "settle"),
    Key("a", "card", "card('A')", display="A 2–9 0/T J Q K", when=_live),
    *(alias(key, "card", f"card('{rank.char}')", when=_live) for key, rank in BACCARAT_CARD_KEYS.items() if key != "a"),
    Key("1", (), "select_box(1)", "midi_key_box", display="1–9 ← →", when=_boxes_selectable),
    *(alias(str(n), (), f"select_box({n})", when=_boxes_selectable) for n in range(2, 10)),
    alias("left", (), "move_box(-1)", id="box_left", when=_boxes_selectable),
    alias("right", (), "move_box(1)", id="box_right", when=_boxes_selectable),
    Key("p", "bet", "bet('punto')", display="p b e"),
    alias("b", "bet", "bet('banca')"),
    alias("e", "bet", "bet('tie')"),
    Key("n", "no_va_mas"),
    Key("ctrl+r", "repeat_bets"),
    Key("ctrl+z", "undo", "undo"),
    Key("s", ("assign_sabot", "pass_sabot"), "sabot", "midi_key_sabot"),
    Key("x", "shoe_exhausted"),
    Key("c", "collect_commission", "collect_commission",
        when=lambda app: app.selected_box in app.midi.commission_tally),
    # Not «C»: letter keys are case-insensitive, and caps lock must not turn one box's
    # collection into every box's.
    Key("ctrl+t", "collect_commission", "collect_all_commission", "midi_key_collect_all"),
    # Art. 8 §1: the cut card came out before the count reached it (a miscounted shoe); in
    # F1 help, not on the key bar: it happens once in many shoes.
    Key("ctrl+k", "cut_card", show=False),
], MidiTable.command_table())
