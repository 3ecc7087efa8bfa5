"""No key is lost in silence: every printable key and every named one, typed in every phase of both consoles,
either acts (the journal, the selected box, an entry or the screen changes) or the message
line says why not and what the phase expects.

A key that changed the journal spoils the phase for the keys after it: the phase is built
again (from a copy of its journal file) for the rest.
"""

from __future__ import annotations

import shutil
import string
from collections.abc import Callable
from pathlib import Path

import pytest

from madero_helpers import CRO, OPENING, SUP, make_staff, open_live
from tui_helpers import SIZE, aio
from madero_tui.app import make_app as make_madero
from midi_tui.app import make_app as make_midi
from shared.journal import Journal, key_path
from shared.madero.settlement import Bet
from shared.madero.table import Phase as MaderoPhase
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.payouts import BetKind
from shared.midi.table import MidiTable
from shared.midi.table import Phase as MidiPhase
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry
from tui_common.options import LaunchOptions
from tui_common.widgets import AmountEntry, CardEntry, MessageLine

PRINTABLE = [c for c in string.printable if c.isprintable()]  # letters both cases, digits, punctuation, space
# The named keys a croupier can reach on a table keyboard (F1–F4 and ctrl+q open screens of
# their own and are tested with them).
NAMED = ["enter", "escape", "backspace", "delete", "tab", "up", "down", "left", "right", "home", "end",
         "pageup", "pagedown", *(f"f{n}" for n in range(5, 13)), "ctrl+z", "ctrl+r", "ctrl+t"]


def observe(app) -> tuple:
    """What a key can change: the journal, the screen on top, the cursor box and the entries."""
    screen = app.table_screen
    entries = tuple((e.is_open, e.text, e.tag) if isinstance(e, AmountEntry) else (e.display, e.text)
                    for e in screen.query("AmountEntry, CardEntry"))
    return app.engine.journal.last_seq, app.screen, app.selected_box, entries


async def past_recovery_notice(app, pilot) -> None:
    """The phase's round is open in the journal: the console first shows it was recovered."""
    await pilot.pause()
    if app.screen is not app.table_screen:
        await pilot.press("enter")
        await pilot.pause()


async def type_every_key(build: Callable[[], object], phase: str) -> None:
    pending = [*PRINTABLE, *NAMED]
    while pending:
        app = build()
        async with app.run_test(size=SIZE) as pilot:
            await past_recovery_notice(app, pilot)
            assert app.screen is app.table_screen, phase
            first_seq = app.engine.journal.last_seq
            while pending:
                key = pending.pop(0)
                # The cursor away from the box a digit names, so selecting it is seen.
                app.selected_box = 2 if key == "1" else 1
                line = app.table_screen.query_one(MessageLine)
                line.clear()
                before = observe(app)
                await pilot.press(key)  # waits until the app is idle again
                after = observe(app)
                assert after != before or line.text, f"{phase}: «{key}» did nothing and said nothing"
                if after[0] != first_seq:
                    break  # the journal moved on: the next keys get the phase afresh
                for entry in app.table_screen.query(AmountEntry):
                    if entry.is_open:
                        entry.close()
                for card in app.table_screen.query(CardEntry):
                    card.text = ""
                if app.screen is not app.table_screen:
                    app.pop_screen()
                    await pilot.pause()


# --- Madero --------------------------------------------------------------------------------

def madero_phase(tmp_path: Path, name: str, steps: Callable) -> Callable:
    """A live Madero table brought to a phase by the engine; each build opens a copy of it."""
    template = tmp_path / f"{name}.sqlite"
    make_staff(template)
    table = open_live(template)
    table.shift.open(CRO)
    table.tray.open(OPENING, CRO, SUP)
    steps(table)
    table.journal.close()
    copies = iter(range(1000))

    def build():
        db = tmp_path / f"{name}-{next(copies)}.sqlite"
        shutil.copy(template, db)
        shutil.copy(key_path(template), key_path(db))  # the table key goes with its journal
        app = make_madero(LaunchOptions(db=db), config=table.config, clock=lambda: "21:14")
        app.duty_confirmed = True  # C1 opened the shift on this table (the relaunch PIN is tested elsewhere)
        return app

    return build


def _bets(t) -> None:
    t.play.place_bet(1, Bet.ANTE, 10)
    t.play.place_bet(2, Bet.ANTE, 10)


def _first(t) -> None:
    _bets(t)
    t.play.no_va_mas()


def _flop(t) -> None:
    _first(t)
    t.play.voy(1)
    t.play.voy(2)


def _second(t) -> None:
    _flop(t)
    for card in ("2c", "3d", "4h"):
        t.play.key_card(card)


def _settlement(t) -> None:
    _second(t)
    for _ in range(2):
        t.play.check(t.to_act)
    t.play.key_card("5s")
    for _ in range(2):
        t.play.check(t.to_act)
    for card in ("9c", "ks", "kh", "ah", "ad", "7c", "7d"):
        t.play.key_card(card)


MADERO_PHASES = {
    "idle": (lambda t: None, MaderoPhase.IDLE),
    "bets": (_bets, MaderoPhase.BETS),
    "first": (_first, MaderoPhase.FIRST),
    "flop": (_flop, MaderoPhase.FLOP),
    "second": (_second, MaderoPhase.SECOND),
    "settlement": (_settlement, MaderoPhase.SETTLEMENT),
}


@pytest.mark.parametrize("name", MADERO_PHASES)
@aio
async def test_madero_every_key_acts_or_says_why(tmp_path, name):
    steps, phase = MADERO_PHASES[name]
    build = madero_phase(tmp_path, name, steps)
    assert build().engine.phase is phase
    await type_every_key(build, f"Madero {name}")


# --- Midi ----------------------------------------------------------------------------------

CROUPIER = Credentials("C1", "5678")


def midi_phase(tmp_path: Path, name: str, steps: Callable) -> Callable:
    template = tmp_path / f"{name}.db"
    journal = Journal(template, DEFAULT_MIDI_TABLE.table_id, "midi")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
    midi = MidiTable(journal, staff)
    midi.shift.open(CROUPIER)
    midi.tray.open(OPENING, CROUPIER, Credentials("S1", "123456"))
    steps(midi)
    journal.close()
    copies = iter(range(1000))

    def build():
        db = tmp_path / f"{name}-{next(copies)}.db"
        shutil.copy(template, db)
        shutil.copy(key_path(template), key_path(db))  # the table key goes with its journal
        app = make_midi(LaunchOptions(db=db))
        app.duty_confirmed = True  # C1 opened the shift on this table (the relaunch PIN is tested elsewhere)
        return app

    return build


def _burn(m) -> None:
    m.play.new_shoe()


def _midi_bets(m) -> None:
    _burn(m)
    m.play.key_card("2")
    m.play.confirm_burn()
    m.play.place_bet(1, BetKind.PUNTO, 100)


def _cards(m) -> None:
    _midi_bets(m)
    m.play.no_va_mas()
    m.play.key_card("9")


def _result(m) -> None:
    _cards(m)
    for rank in "kk5":
        m.play.key_card(rank)


MIDI_PHASES = {
    "no shoe": (lambda m: None, MidiPhase.NO_SHOE),
    "burn": (_burn, MidiPhase.BURN),
    "bets": (_midi_bets, MidiPhase.BETS),
    "cards": (_cards, MidiPhase.CARDS),
    "result": (_result, MidiPhase.RESULT),
}


@pytest.mark.parametrize("name", MIDI_PHASES)
@aio
async def test_midi_every_key_acts_or_says_why(tmp_path, name):
    steps, phase = MIDI_PHASES[name]
    build = midi_phase(tmp_path, name, steps)
    assert build().midi.phase is phase
    await type_every_key(build, f"Midi {name}")


@aio
async def test_midi_upper_case_ranks_are_cards(tmp_path):
    app = midi_phase(tmp_path, "upper", _cards)()
    async with app.run_test(size=SIZE) as pilot:
        await past_recovery_notice(app, pilot)
        await pilot.press("K", "Q", "J")
        await pilot.pause()
        assert [c.rank.char for c in app.midi.cards] == ["9", "K", "Q", "J"]
