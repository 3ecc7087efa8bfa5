"""Pilot tests of the Madero console: whole rounds played by key presses, as a croupier types them.

The live rounds key every card in (the console never deals at a live table), so each
test rigs the round by what it types. Assertions read the engine (the journal's fold)
and what the screen shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest
from textual import events
from textual.geometry import Region
from textual.widgets import Input
from tui_helpers import OPENING, SIZE, aio, frames_of, layouts_of, reflows_of, type_in_one_burst
from madero_tui.app import MaderoApp, make_app
from madero_tui.screens.table import TableScreen
from madero_tui.widgets.prompt import PromptLine
from shared.journal import Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import SqliteMeterStore
from shared.madero.settlement import Bet, BoxStatus, Outcome
from shared.madero.table import MaderoTable, Phase
from shared.messages import catalog, langs
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry
from tui_common.options import LaunchOptions
from tui_common.screens.enrol import EnrolScreen
from tui_common.screens.notice import NoticeScreen
from tui_common.screens.sign_in import SignInScreen
from tui_common.screens.supervisor import SupervisorPanel
from tui_common.widgets import AmountEntry, CardEntry, KeyBar, MessageLine, TrainingBanner

NAMED_KEYS = {"enter", "escape", "left", "right", "up", "down", "backspace", "tab",
              "ctrl+z", "ctrl+r", "ctrl+q", "f1", "f2", "f3"}


def prepare_live_table(db: Path, config: MaderoTableConfig = DEFAULT_MADERO_TABLE, **engine) -> None:
    """A live table whose supervisor S1 and croupier C1 exist and whose shift C1 opened."""
    journal = Journal(db, config.table_id, "madero")
    staff = StaffRegistry(journal)
    staff.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
    staff.enrol("C1", "Carlos", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
    table = MaderoTable(journal, staff, config=config, **engine)
    table.shift.open(Credentials("C1", "5678"))
    table.tray.open(OPENING, Credentials("C1", "5678"), Credentials("S1", "123456"))  # bets need the tray
    journal.close()


def live_app(tmp_path: Path, *, lang: str = "es", prepare: bool = True) -> MaderoApp:
    """The console on a prepared table. On the first launch C1 counts as just signed in
    (prepare_live_table); a later launch is a relaunch and asks C1's PIN once."""
    db = tmp_path / "mad.db"
    first = prepare and not db.exists()
    if first:
        prepare_live_table(db)
    app = make_app(LaunchOptions(db=db, lang=lang), clock=lambda: "21:14")
    app.duty_confirmed = app.duty_confirmed or first
    return app


async def keys(pilot, *tokens: str) -> None:
    """Press named keys as they are; any other token is typed one character at a time."""
    for token in tokens:
        if token in NAMED_KEYS:
            await pilot.press(token)
        else:
            await pilot.press(*token)
    await pilot.pause()


def message(app: MaderoApp) -> str:
    return app.table_screen.query_one(MessageLine).text


def prompt(app: MaderoApp) -> str:
    return app.table_screen.query_one(PromptLine).text


def key_bar(app: MaderoApp) -> str:
    return app.table_screen.query_one(KeyBar).text


# The rigged round: box 1 Ah Ad (wheel straight; Bonus A-A 30 a 1), box 2 folds, box 3
# Kc Kd ties the bank's Ks Kh on the board 2c 3d 4h 5s 9c, box 4 7c 7d loses.
# Bets as in the Midi console: a digit selects the box, a/b/j opens its Ante/Bonus/Jackpot, amount, enter.
BETS = ("a", "10", "enter", "b", "5", "enter", "j", "1", "enter",
        "2", "a", "20", "enter", "b", "5", "enter", "3", "a", "10", "enter", "4", "a", "10", "enter")


async def play_rigged_round(pilot, app: MaderoApp) -> None:
    await keys(pilot, *BETS, "n")
    assert app.engine.phase is Phase.FIRST
    assert "¿Voy o me retiro?" in prompt(app)
    await keys(pilot, "v", "r", "v", "v")  # box 1 voy, box 2 me retiro, boxes 3 and 4 voy
    assert app.engine.phase is Phase.FLOP
    await keys(pilot, "2c", "3d", "4h")
    assert app.engine.phase is Phase.SECOND
    await keys(pilot, "t", "p", "t")  # Turn: box 1 bets, box 3 checks, box 4 bets
    await keys(pilot, "5s")
    assert app.engine.phase is Phase.THIRD
    await keys(pilot, "t", "p", "p")  # River: box 1 bets, boxes 3 and 4 check
    await keys(pilot, "9c")
    assert app.engine.phase is Phase.SHOWDOWN
    await keys(pilot, "ks", "kh", "ah", "ad", "kc", "kd", "7c", "7d")


@aio
async def test_a_whole_live_round_by_keys_folds_checks_bets_side_bets_and_a_tie(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        await play_rigged_round(pilot, app)
        engine = app.engine
        assert engine.phase is Phase.SETTLEMENT
        assert prompt(app).startswith("▶ La banca tiene Pareja de Reyes")
        assert app.table_screen.query_one("#lower").current == "settlement"
        await keys(pilot, "enter")
        assert engine.phase is Phase.IDLE
        settled = engine.last_settlement
        box1, box2, box3, box4 = (settled.box(n) for n in (1, 2, 3, 4))
        assert box1.main is Outcome.WIN
        assert box1.result(Bet.ANTE).outcome is Outcome.PUSH  # wins below Color: the Ante is returned
        assert [box1.result(b).paid for b in (Bet.FLOP, Bet.TURN, Bet.RIVER)] == [20, 10, 10]
        assert box1.result(Bet.BONUS).paid == Decimal(150)  # A-A, 30 a 1: a side bet that pays
        assert box1.result(Bet.JACKPOT).outcome is Outcome.LOSE  # a side bet that loses
        assert box2.status is BoxStatus.FOLDED and box2.collected == 25  # Ante and Bonus lost on a fold
        assert box3.main is Outcome.PUSH and box3.collected == 0 and box3.paid == 0
        assert box4.main is Outcome.LOSE and box4.collected == 40
        assert "liquidado" in message(app)
        assert app.table_screen.query_one("#lower").current == "log"


@aio
async def test_a_round_typed_in_bursts_takes_every_key_in_order(tmp_path):
    # Each key queued before the console answered the one before it: the digits after «a»
    # must reach the amount «a» opened, and a card typed right after a decision must reach
    # the card entry that decision opened.
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = app.engine
        await type_in_one_burst(app, pilot, "3", "a", "30", "enter", "4", "a", "40", "enter", "b", "5", "enter",
                                "n", "v", "v", "AhKhQh")
        assert {box: (b.ante, b.bonus) for box, b in m.boxes.items()} == {3: (30, 0), 4: (40, 5)}
        assert [str(c) for c in m.board] == ["Ah", "Kh", "Qh"], message(app)
        assert message(app) == ""


@aio
async def test_keys_the_phase_does_not_allow_are_hidden_and_do_nothing(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "No va más" not in key_bar(app)  # no Ante yet: the engine refuses «no va más»
        await keys(pilot, "n")
        assert app.engine.phase is Phase.IDLE
        await keys(pilot, "a", "10", "enter")
        assert "No va más" in key_bar(app) and "Voy" not in key_bar(app)
        await keys(pilot, "v")  # not allowed during bets: nothing happens
        assert app.engine.phase is Phase.BETS
        await keys(pilot, "n")
        assert "Voy" in key_bar(app) and "Turn" not in key_bar(app) and "Ante" not in key_bar(app)
        await keys(pilot, "t", "p")  # Turn/paso before the flop: hidden and refused
        assert app.engine.boxes[1].decisions == [None, None, None]
        await keys(pilot, "v")
        assert "carta" in key_bar(app) and "Voy" not in key_bar(app)
        assert app.table_screen.query_one(CardEntry).has_focus


@aio
async def test_digits_select_the_box_and_a_b_j_open_its_bet_as_in_the_midi_console(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        entry = app.table_screen.query_one(AmountEntry)
        assert not entry.is_open  # until a bet is opened, digits select boxes
        await keys(pilot, "7")
        assert app.selected_box == 7 and "box--selected" in app.table_screen.boxes.looks_of[6]
        await keys(pilot, "a")
        assert entry.has_focus and entry.label == "Casilla 7 — Ante"
        await keys(pilot, "25", "escape")  # esc cancels: nothing placed
        assert not entry.is_open and app.engine.boxes == {}
        await keys(pilot, "a", "25", "enter", "b", "10", "enter", "j", "3", "enter")
        box = app.engine.boxes[7]
        assert (box.ante, box.bonus, box.jackpot_credits) == (25, 10, 3) and not entry.is_open
        await keys(pilot, "a")
        assert entry.label == "Casilla 7 — Ante (ahora 25; 0 la quita)"
        await keys(pilot, "b")  # another bet key switches the entry to that bet
        assert entry.label == "Casilla 7 — Bonus (ahora 10; 0 la quita)"
        await keys(pilot, "right")  # an arrow takes the open bet to the next box, 7 → 1
        assert entry.label == "Casilla 1 — Bonus" and entry.has_focus and app.selected_box == 1
        await keys(pilot, "5", "enter")  # no Ante there: refused with its article, still typed
        assert "Art. 13 §64" in message(app) and entry.text == "5"
        await keys(pilot, "escape", "7", "b", "0", "enter")  # 0 removes the bet
        assert app.engine.boxes[7].bonus == 0 and app.engine.boxes[7].ante == 25
        await keys(pilot, "8")  # no box 8: said so, the selection stays
        assert "«8»: la mesa tiene casillas 1 a 7" in message(app) and app.selected_box == 7
        await keys(pilot, "f1")
        help_lines = [line.text for line in app.screen.query_one(".dialog-body").render_lines(Region(0, 0, 68, 20))]
        help_text = "\n".join(help_lines)
        assert "1–7 ← →  casilla" in help_text and "a  Ante" in help_text and "j  Jackpot (créditos)" in help_text


@aio
async def test_a_five_box_table_without_bonus_offers_only_its_boxes_and_bets(tmp_path):
    config = MaderoTableConfig.from_mapping(dict(table_id="MPB-09", minimum=10, maximum=500, boxes=5, bonus_enabled=False))
    db = tmp_path / "small.db"
    prepare_live_table(db, config)
    app = make_app(LaunchOptions(db=db), config=config, clock=lambda: "21:14")
    app.duty_confirmed = True  # C1 just signed in (prepare_live_table)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "1–5 ← →" in key_bar(app) and "Bonus" not in key_bar(app)
        assert len(app.table_screen.boxes.views) == 5
        await keys(pilot, "5", "a", "10", "enter")
        assert app.engine.boxes[5].ante == 10
        await keys(pilot, "6")
        assert "1 a 5" in message(app) and app.selected_box == 5
        await keys(pilot, "b")  # hidden, and says what is due instead
        assert not app.table_screen.query_one(AmountEntry).is_open and "ahora no" in message(app)
        await keys(pilot, "right")
        assert app.selected_box == 1


@aio
async def test_refused_bets_and_cards_cite_the_article_and_keep_what_was_typed(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "5", "enter")  # below the table minimum
        assert "Art. 6 §20" in message(app)
        assert app.table_screen.query_one(AmountEntry).text == "5"  # still typed, to correct
        await keys(pilot, "backspace", "10", "enter", "j", "9", "enter")
        assert "Art. 11 §42" in message(app)  # 1 to 5 Jackpot credits
        assert app.table_screen.query_one(AmountEntry).text == "9"
        await keys(pilot, "escape")  # the croupier gives up the Jackpot: nothing placed
        assert not app.table_screen.query_one(AmountEntry).is_open
        assert app.engine.boxes[1].jackpot_credits == 0 and message(app) == ""
        await keys(pilot, "n", "v", "as", "kd")
        assert [c.display for c in app.engine.board] == ["A♠", "K♦"]
        await keys(pilot, "as")  # already on the board
        assert "A♠" in message(app) and "Art. 2 §5" in message(app)
        await keys(pilot, "1x")  # not a card: refused at once, «1» stays typed
        assert app.table_screen.query_one(CardEntry).text == "1"
        assert "x" in message(app)
        await keys(pilot, "0h")
        assert [c.display for c in app.engine.board] == ["A♠", "K♦", "10♥"]
        assert app.engine.phase is Phase.SECOND


def screen_text(app: MaderoApp) -> str:
    """The screen as drawn, row by row (what a widget's size cuts off is not there)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@aio
async def test_the_card_entry_shows_the_typed_rank_whatever_its_label(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v", "2c", "3d", "1")
        assert "Carta de mesa: 1▏" in screen_text(app)
        await keys(pilot, "0")
        assert "Carta de mesa: 10▏" in screen_text(app)
        await keys(pilot, "h", "p", "5s", "p", "9c", "k")  # the label grows: "Carta de la banca"
        assert "Carta de la banca: K▏" in screen_text(app)
        await keys(pilot, "s", "kh", "q")
        assert "Carta casilla 1: Q▏" in screen_text(app)


@aio
async def test_undo_withdraws_the_last_entry_with_its_own_journal_entry(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v", "as")
        assert app.engine.board and app.engine.board[0].display == "A♠"
        await keys(pilot, "ctrl+z")
        assert app.engine.board == []
        await keys(pilot, "ctrl+z")  # the «voy» too
        assert app.engine.to_act == 1 and app.engine.phase is Phase.FIRST
        types = [e.type for e in app.engine.journal.events()]
        assert types[-2:] == ["entry_undone", "entry_undone"]
        assert "deshacer" not in key_bar(app)  # «no va más» is not undone: the key is gone
        await keys(pilot, "ctrl+z")
        assert app.engine.phase is Phase.FIRST and len(list(app.engine.journal.events())) == len(types)


@aio
async def test_repeat_last_bets_after_a_round(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "25", "enter", "b", "5", "enter", "2", "a", "40", "enter", "n", "r", "r", "enter")
        assert app.engine.phase is Phase.IDLE
        assert "repetir" in key_bar(app)
        await keys(pilot, "ctrl+r")
        assert {n: (b.ante, b.bonus) for n, b in app.engine.boxes.items()} == {1: (25, 5), 2: (40, 0)}
        assert "repetir" not in key_bar(app)


@aio
async def test_bets_in_few_keys_the_next_bet_key_places_the_typed_amount_and_enter_repeats_the_last(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        entry = app.table_screen.query_one(AmountEntry)
        # b places the Ante typed after a, j the Bonus; the credit's digit is the whole entry.
        await keys(pilot, "a", "25", "b", "5", "j", "3")
        assert (app.engine.boxes[1].ante, app.engine.boxes[1].bonus, app.engine.boxes[1].jackpot_credits) == (25, 5, 3)
        assert not entry.is_open
        await keys(pilot, "2", "a", "enter")  # nothing typed, no earlier Ante: said, nothing placed
        assert "Falta el importe" in message(app) and 2 not in app.engine.boxes and entry.is_open
        await keys(pilot, "9", "0", "0", "b")  # over the maximum: refused, still typed, the entry stays on the Ante
        assert "Art. 6" in message(app) and entry.text == "900" and entry.tag[1].value == "ante"
        await keys(pilot, "escape", "n", "r", "enter")
        assert app.engine.phase is Phase.IDLE
        await keys(pilot, "a")  # the box's Ante of the last round, offered to enter
        assert entry.label == "Casilla 1 — Ante · enter repite 25"
        await keys(pilot, "enter", "b", "enter", "j", "enter")
        box = app.engine.boxes[1]
        assert (box.ante, box.bonus, box.jackpot_credits) == (25, 5, 3)


@aio
async def test_one_player_on_several_boxes_plays_the_others_blind(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "2", "a", "10", "enter", "3", "a", "10", "enter", "g")
        await keys(pilot, "2 x", "enter")
        assert "«2 x»" in app.screen.query_one(MessageLine).text  # refused inside the dialog, typed text kept
        await keys(pilot, "backspace", "3", "enter")
        assert isinstance(app.screen, TableScreen) and app.engine.blind(3) and not app.engine.blind(2)
        await keys(pilot, "n")
        assert app.table_screen.boxes.views[2].status == "CIEGA"
        assert app.table_screen.boxes.views[1].status == "ACTIVO"


async def supervisor(pilot, app: MaderoApp, action: str, *fields: str, pin: str = "123456") -> None:
    """F2, choose ``action``, then supervisor ID, PIN, the action's fields and a reason."""
    await keys(pilot, "f2")
    panel = app.screen
    assert isinstance(panel, SupervisorPanel)
    panel.select(action)
    await keys(pilot, "enter", "S1", "enter", pin, "enter")
    for value in fields:
        await keys(pilot, value, "enter")
    await keys(pilot, "error de reparto", "enter")


@aio
async def test_supervisor_voids_the_round_every_bet_returned_on_screen_and_in_the_journal(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter", "b", "5", "enter", "n")
        await keys(pilot, "f2")
        panel = app.screen
        panel.select("void_misdeal")
        await keys(pilot, "enter", "C1", "enter", "5678", "enter", "mal repartido", "enter")
        assert app.screen is panel  # a croupier cannot void: refused inside the panel
        assert "supervisor" in panel.query_one(MessageLine).text.lower() or "rol" in panel.query_one(MessageLine).text
        await keys(pilot, "escape")
        await supervisor(pilot, app, "void_misdeal")
        assert isinstance(app.screen, TableScreen)
        settled = app.engine.last_settlement
        assert settled.void and settled.returned == 25 and settled.collected == 0
        assert app.engine.phase is Phase.IDLE
        assert "PASE ANULADO" in message(app) and "S1" in message(app)
        assert app.table_screen.lower.current == "settlement"  # the returns stay on screen
        await keys(pilot, "a", "10", "enter")  # the next round opens
        assert app.table_screen.lower.current == "log"
        last = next(e for e in app.engine.journal.events() if e.type == "round_voided")
        assert (last.staff_id, last.role) == ("S1", "supervisor")
        assert last.payload["reason"] == "error de reparto"


@aio
async def test_after_the_first_voy_only_two_supervisors_can_void_by_arbitration(tmp_path):
    db = tmp_path / "mad.db"
    prepare_live_table(db)
    journal = Journal(db, DEFAULT_MADERO_TABLE.table_id, "madero")
    StaffRegistry(journal).enrol("S2", "Silvia", Role.SUPERVISOR, "654321", by=Credentials("S1", "123456"))
    journal.close()
    app = live_app(tmp_path)
    app.duty_confirmed = True  # C1 just signed in (prepare_live_table); S2 only enrolled since
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter", "2", "a", "10", "enter", "n", "v")
        await keys(pilot, "f2")
        panel = app.screen
        ids = [a.id for a in panel.actions]
        assert "void_arbitration" in ids and "void_misdeal" not in ids and "void_bank_card" not in ids
        panel.select("void_arbitration")
        second_pin = panel.query_one("#f-void_arbitration-second_pin", Input)
        assert second_pin.password
        await keys(pilot, "enter", "S1", "enter", "123456", "enter", "S2", "enter", "999999", "enter", "disputa", "enter")
        assert app.screen is panel and app.engine.phase is Phase.FIRST  # the second PIN is wrong
        assert second_pin.value == "" and panel.query_one("#sup-pin", Input).value == ""  # no refused PIN kept
        await keys(pilot, "123456", "enter", "654321", "enter")
        assert isinstance(app.screen, TableScreen)
        settled = app.engine.last_settlement
        assert settled.void and settled.returned == 70 and app.engine.phase is Phase.IDLE
        assert "ARBITRAJE DE LA GERENCIA (Art. 14 §73, con S2)" in message(app)
        await keys(pilot, "f3")
        assert "ARBITRAJE DE LA GERENCIA" in str(app.screen.query_one("#recall-text").render())


@aio
async def test_supervisor_puts_a_flop_in_order_before_it_is_turned(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v")
        assert app.engine.phase is Phase.FLOP
        await supervisor(pilot, app, "flop_order_0")
        assert isinstance(app.screen, TableScreen) and app.engine.phase is Phase.FLOP
        assert "la primera carta pasa a quemada" in prompt(app)
        assert "Flop sin quemar, corregido sin mezclar" in message(app)
        await keys(pilot, "2c", "3d", "4h")
        assert app.engine.phase is Phase.SECOND


@aio
async def test_supervisor_dead_hand_then_the_round_goes_on(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "2", "a", "10", "enter", "3", "a", "10", "enter", "n")
        await keys(pilot, "v")  # box 1's «voy»: betting has begun, so a dead hand exists (§38)
        await supervisor(pilot, app, "dead_hand", "1")
        assert app.engine.boxes[1].status is BoxStatus.DEAD
        assert app.table_screen.boxes.views[0].status == "MANO MUERTA"
        assert "MANO MUERTA" in message(app)
        assert app.engine.to_act == 2
        await keys(pilot, "r", "r")
        assert app.engine.phase is Phase.SETTLEMENT
        await keys(pilot, "enter")
        dead = app.engine.last_settlement.box(1)
        assert (dead.returned, dead.collected) == (30, 0)  # Ante and Flop returned (§38, Decision)


@aio
async def test_supervisor_community_redeal_returns_the_street_to_the_deck(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v", "2c", "3d", "4h", "t", "5s")
        assert app.engine.phase is Phase.THIRD and app.engine.boxes[1].turn == 10
        await supervisor(pilot, app, "redeal_39_3")  # a missing burn before the turn card
        engine = app.engine
        assert [c.display for c in engine.board] == ["2♣", "3♦", "4♥"]
        assert engine.phase is Phase.TURN
        assert "sin quemar" in prompt(app)
        assert engine.boxes[1].turn == 10  # bet before the faulty street: it stands
        await keys(pilot, "5s")  # the same card may come again: it went back into the deck
        assert engine.phase is Phase.THIRD and engine.to_act == 1
        await keys(pilot, "t")
        assert engine.boxes[1].river == 10


@aio
async def test_a_river_bet_returned_by_section_39_3_is_said_on_screen_and_in_recall(tmp_path):
    """§39.3: the turn dealt again returns the River bet made since; the message, the prompt
    (until the turn is dealt again) and recall tell the croupier to hand it back."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v", "2c", "3d", "4h", "t", "5s", "t")
        assert app.engine.boxes[1].river == 10
        await supervisor(pilot, app, "redeal_39_3")  # a missing burn before the turn card
        assert app.engine.boxes[1].river == 0
        said = "devolver la apuesta River — casilla 1: 10"
        assert said in message(app) and said in prompt(app) and "sin quemar" in prompt(app)
        entry = list(app.engine.journal.events())[-1]
        assert entry.type == "community_error" and said in app.describe_event(entry, "es")
        await keys(pilot, "5s")
        assert said not in prompt(app)


@aio
async def test_supervisor_corrects_a_card_and_adjusts_a_payment(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v", "2c", "3d", "4h")
        await supervisor(pilot, app, "correct_card", "4h", "4s")
        assert [c.display for c in app.engine.board] == ["2♣", "3♦", "4♠"]
        await supervisor(pilot, app, "adjust", "1", "-5")
        last = list(app.engine.journal.events())[-1]
        assert last.type == "adjustment" and last.payload["amount"] == "-5" and last.staff_id == "S1"


@aio
async def test_crash_and_restart_mid_round_brings_back_the_same_round_with_a_notice(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "b", "5", "enter", "2", "a", "20", "enter", "n", "v", "v", "2c", "3d", "4h",
                   "t")
        before = app.engine.state_hash()
        to_act = app.engine.to_act
    # No orderly shutdown: a second console opens the same journal file, as after a crash
    # (the crashed process is gone, and the kernel with it released its writer lock).
    app.engine.journal.close()
    again = live_app(tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, NoticeScreen) and again.screen.id == "recovery-notice"
        await keys(pilot, "enter")
        assert again.engine.state_hash() == before
        assert again.engine.phase is Phase.SECOND and again.engine.to_act == to_act == 2
        assert "Casilla 2" in prompt(again)
        await keys(pilot, "p")  # the first croupier key after the relaunch asks C1's PIN
        assert again.screen.id == "duty-pin"
        await keys(pilot, "5678", "enter")  # then box 2's check typed before it is applied
        assert again.engine.phase is Phase.TURN
        await keys(pilot, "5s", "p", "p", "9c", "ks", "kh", "ah", "ad", "qc", "qd")
        assert again.engine.phase is Phase.SETTLEMENT
        await keys(pilot, "enter")
        assert again.engine.phase is Phase.IDLE


@aio
async def test_first_start_enrols_signs_in_and_opens_the_shift(tmp_path):
    app = live_app(tmp_path, prepare=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, EnrolScreen)
        for text in ("S1", "Sara", "123456", "123456"):
            await keys(pilot, text, "enter")
        for text in ("C1", "Carlos", "5678", "5678"):
            await keys(pilot, text, "enter")
        assert isinstance(app.screen, SignInScreen)
        await keys(pilot, "C1", "enter", "5678", "enter")
        assert isinstance(app.screen, TableScreen)
        assert app.engine.croupier == Actor("C1", Role.CROUPIER)
        await keys(pilot, "a")  # no tray open yet: no bets (the key says why)
        assert not app.table_screen.query_one(AmountEntry).has_focus
        app.engine.tray.open(OPENING, Credentials("C1", "5678"), Credentials("S1", "123456"))
        await keys(pilot, "a")
        assert app.table_screen.query_one(AmountEntry).has_focus
        await keys(pilot, "10", "enter")
        assert app.engine.boxes[1].ante == 10


@aio
async def test_recall_shows_the_last_rounds_in_the_croupiers_words(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "r", "enter", "f3")
        text = str(app.screen.query_one("#recall-text").render())
        assert "HISTORIAL" in str(app.screen.query_one("#recall-title").render())
        assert "Casilla 1: Ante 10" in text and "«Me retiro»" in text and "Liquidado" in text
        assert "Casilla 1: RETIRADO: Ante −10" in text  # every bet's outcome under the settlement
        await keys(pilot, "escape")
        assert isinstance(app.screen, TableScreen)


@aio
async def test_training_deals_its_own_cards_marked_at_all_times_in_its_own_journal(tmp_path):
    db = tmp_path / "training.db"
    app = make_app(LaunchOptions(db=db, training=True, seed=11), clock=lambda: "21:14")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.table_screen.query_one(TrainingBanner).display
        await keys(pilot, "a", "10", "enter", "2", "a", "10", "enter", "n")
        assert all(len(b.cards) == 2 for b in app.engine.boxes.values())
        assert "▒▒" in app.table_screen.top.bank_text  # the bank stays face down
        await keys(pilot, "v", "v", "d")
        assert len(app.engine.board) == 3 and len(app.engine.burns) == 1
        await keys(pilot, "p", "p", "d", "p", "p", "d")
        assert app.engine.phase is Phase.SETTLEMENT
        await keys(pilot, "enter", "f2")
        assert app.table_screen.query_one(TrainingBanner).display
        await keys(pilot, "escape", "f3")  # recall covers the table: it carries its own banner
        assert app.screen.id == "recall" and app.screen.query_one(TrainingBanner).display
        await keys(pilot, "escape")
    assert Journal.open_existing(db).training


PROGRESSIVE = MaderoTableConfig.from_mapping(dict(table_id="MPB-05", minimum=10, maximum=500, jackpot_mode="progressive",
                                contribution_percent=50))


def progressive_app(tmp_path: Path) -> MaderoApp:
    db = tmp_path / "prog.db"
    store = SqliteMeterStore(tmp_path / "meters.sqlite")
    prepare_live_table(db, PROGRESSIVE, meter_store=store)
    app = make_app(LaunchOptions(db=db), config=PROGRESSIVE, meter_store=store, clock=lambda: "21:14",
                   draw_rng=random.Random(5))
    app.duty_confirmed = True  # C1 just signed in (prepare_live_table)
    return app


@aio
async def test_the_header_timers_ticking_as_the_console_quits_do_nothing(tmp_path):
    """CI saw the meter's poll tick after quitting had popped every screen, where
    ``app.screen`` raises: the clock's and the meter's ticks then leave the table alone."""
    app = progressive_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.table_in_front()
        stack = app._screen_stacks[app.current_mode]
        shown = stack[:]
        stack.clear()  # as the app's shutdown leaves it, its timers not yet stopped
        try:
            assert not app.table_in_front()
            app._tick()
            app._poll_meter()
        finally:
            stack.extend(shown)
        assert app.table_in_front()


@aio
async def test_progressive_table_shows_the_meter_the_draws_and_pays_the_royal(tmp_path):
    app = progressive_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = app.table_screen.header
        assert "POZO ARS 5.000" in header.view.jackpot
        await keys(pilot, "a", "10", "enter", "j", "4", "enter", "2", "a", "10", "enter", "j", "2", "enter", "n")
        draws = header.view.draws.plain
        assert f"Carta Mágica {app.engine.carta_magica.display}" in draws
        assert f"casilla {app.engine.jugador_afortunado}" in draws
        await keys(pilot, "v", "v", "th", "jh", "qh", "p", "p", "2c", "p", "p", "3d", "4s", "4d", "ah", "kh", "2s", "3s")
        assert app.engine.phase is Phase.SETTLEMENT
        # no amount before the meter answers the prize's claim (issue 27 §1): Enter asks for it
        assert app.table_screen.lower.current == "log" and "Intro lo pide" in str(app.table_screen.prompt.render())
        await keys(pilot, "enter")
        assert app.engine.journal.last_event_of("prize_answered") is not None
        row = next(r for r in app.table_screen.settlement._shown.rows if r[0] == "1")
        assert row[7] == "+5.003 −4"  # the whole meter (5,000 seed + 50 % of 6 credits); the 4 credits kept (§42)
        await keys(pilot, "enter")
        assert "POZO ARS 5.000" in header.view.jackpot  # the meter restarts at its seed after a royal


# With draw_rng Random(5) the Carta Mágica is J♣ and the lucky seat box 3: box 3's J♣ J♦ make
# a Full on the flop J♥ 5♠ 5♥, and win both special prizes on top of it (§55).
SPECIAL_PRIZES = ("a", "10", "enter", "j", "2", "enter", "3", "a", "10", "enter", "j", "2", "enter", "n",
                  "v", "v", "jh", "5s", "5h", "p", "p", "2c", "p", "p", "3d", "ks", "kd", "9h", "8d", "jc", "jd")


@aio
async def test_a_box_is_paid_its_hand_line_and_both_special_prizes(tmp_path):
    app = progressive_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, *SPECIAL_PRIZES)
        assert (app.engine.carta_magica.display, app.engine.jugador_afortunado) == ("J♣", 3)
        assert app.engine.phase is Phase.SETTLEMENT
        row = next(r for r in app.table_screen.settlement._shown.rows if r[0] == "3")
        assert row[1] == "Full de Jotas y Cincos — GANA" and row[7] == "+320 −2"  # the prize, and the 2 credits kept (§50)
        totals = app.table_screen.settlement._shown.totals
        assert totals.endswith("\nJackpot casilla 3: Full 200 + Carta Mágica 60 + J. Afortunado 60")
        await keys(pilot, "enter", "f3")
        assert "Jackpot +320 (Full 200 + Carta Mágica 60 + J. Afortunado 60)" in str(
            app.screen.query_one("#recall-text").render())


@aio
async def test_english_interface(tmp_path):
    app = live_app(tmp_path, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n")
        assert "Box 1: play (voy) or fold?" in prompt(app)
        assert "Fold" in key_bar(app)
        assert app.table_screen.boxes.views[0].status == "ACTIVE"


def test_every_catalog_key_the_madero_console_uses_exists_in_both_languages():
    source = "\n".join(p.read_text() for p in Path("madero_tui").rglob("*.py"))
    used = set(re.findall(r'"(mad_[a-z0-9_]+)"', source))
    # Keys built from a value: every value they can take.
    used |= {f"mad_bet_{b.value}" for b in Bet} | {f"mad_phase_{p.value}" for p in Phase}
    used |= {"mad_ev_to_board", "mad_ev_to_bank", "mad_card_for_board", "mad_card_for_bank"}
    for lang in langs():
        assert sorted(k for k in used if not catalog(lang).get(f"ui.{k}", "").strip()) == []


def _signed_amounts(cell: str) -> Decimal:
    """The sum of the signed amounts a settlement cell shows («+300 −20», «−10», «dev.», «—»)."""
    total = Decimal(0)
    for sign, number in re.findall(r"([+−])([\d.]+(?:,\d+)?)(?! *\))", cell):
        value = Decimal(number.replace(".", "").replace(",", "."))
        total += value if sign == "+" else -value
    return total


def test_the_settlement_row_adds_up_when_the_jackpot_wins_and_adjustments_show_in_the_totals(tmp_path):
    from madero_helpers import SUP, SUP2, live_table
    from madero_tui.events_text import describe
    from madero_tui.view import settlement_view

    m = live_table(tmp_path)
    m.play.place_bet(1, Bet.ANTE, 10)
    m.play.place_bet(1, Bet.JACKPOT, 2)
    m.play.no_va_mas()
    m.play.voy(1)
    for card in ("2h", "5h", "9h"):
        m.play.key_card(card)
    m.play.check(1)
    m.play.key_card("tc")
    m.play.check(1)
    for card in ("3s", "kc", "qd", "ah", "kh"):  # river, the bank's two, box 1's two: a Color with the flop
        m.play.key_card(card)
    assert m.phase is Phase.SETTLEMENT
    m.supervisor.adjust(SUP, 1, "-5", "cobro omitido", SUP2)  # every card known: two supervisors
    m.supervisor.adjust(SUP, 1, "15", "pago omitido", SUP2)
    settlement = m.carrusel.pending_settlement()
    jackpot = settlement.box(1).result(Bet.JACKPOT)
    assert jackpot.outcome is Outcome.WIN and jackpot.collected > 0 and jackpot.paid > 0
    view = settlement_view(settlement, "Pase 1", "es", "ARS", m.round_adjustments())
    row = view.rows[0]
    assert sum(_signed_amounts(cell) for cell in row[2:-1]) == _signed_amounts(row[-1])
    assert "−" in row[2 + 5]  # the Jackpot cell: the prize and the credits kept
    assert view.totals.endswith("ajustes del supervisor: paga 15 · cobra 5")
    entry = list(m.journal.events())[-1]
    assert "Ajuste (Art. 14 §73): se paga 15 a la casilla 1: pago omitido" in describe(entry, "es", with_actor=None)


@aio
async def test_without_colour_a_marker_shows_the_selected_box_the_box_to_act_and_the_chosen_action(tmp_path, monkeypatch):
    from textual.widgets import Input, OptionList

    monkeypatch.setenv("NO_COLOR", "1")
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.no_color  # NO_COLOR honoured: the console draws in monochrome
        await keys(pilot, "3")
        assert app.table_screen.boxes.titles[2].plain == " ▸ 3 "
        await keys(pilot, "a", "10", "enter", "n")
        assert app.table_screen.boxes.titles[2].plain == " ▶ 3 "
        await keys(pilot, "f2")
        options = app.screen.query_one("#actions", OptionList)
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts[0].startswith("▸ ") and all(p.startswith("  ") for p in prompts[1:])
        await keys(pilot, "down")
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert prompts[1].startswith("▸ ") and prompts[0].startswith("  ")
        placeholders = [i.placeholder for i in app.screen.query(Input) if i.placeholder]
        assert placeholders and all(p.startswith("p. ej. ") for p in placeholders)


def full_disk(monkeypatch) -> None:
    """Every journal append fails inside its transaction, as on a full disk."""
    def failing(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(Journal, "_append_in", failing)


@aio
async def test_a_failed_journal_write_says_so_and_loses_nothing(tmp_path, monkeypatch):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seq = app.engine.journal.last_seq
        with monkeypatch.context() as m:
            full_disk(m)
            await keys(pilot, "a", "25", "enter")
            assert isinstance(app.screen, NoticeScreen) and app.screen.id == "journal-write-failed"
            said = app.screen.body
            assert said == ("No se pudo registrar en el diario: el disco está lleno. No se registró nada. "
                            "Libere espacio en el disco y repita la acción.")
            assert message(app).startswith("✖ No se pudo registrar")
            await keys(pilot, "enter")  # read and acknowledged: back at the table
            entry = app.table_screen.query_one(AmountEntry)
            assert entry.is_open and entry.amount == Decimal(25)  # still typed, to confirm again
            assert not app.engine.boxes and app.engine.journal.last_seq == seq
        await keys(pilot, "enter")  # the disk has room again: the same amount is placed
        assert app.engine.boxes[1].ante == 25
        await keys(pilot, *BETS[3:], "n", "v", "r", "v", "v")
        seq = app.engine.journal.last_seq
        with monkeypatch.context() as m:
            full_disk(m)
            await keys(pilot, "2c")
            assert "el disco está lleno" in app.screen.body
            await keys(pilot, "escape")
            assert app.engine.board == [] and app.engine.journal.last_seq == seq
        await keys(pilot, "2c")
        assert [str(c) for c in app.engine.board] == ["2c"]


@aio
async def test_the_header_shows_the_meter_once_a_late_movement_is_applied(tmp_path, monkeypatch):
    """A settlement whose meter write failed is applied late: the header then shows the meter
    with it, without waiting for the next settlement or a restart."""
    app = progressive_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        header = app.table_screen.header
        await keys(pilot, "a", "10", "enter", "j", "4", "enter", "n", "v", "th", "jh", "qh", "p", "2c", "p",
                   "3d", "4s", "4d", "9c", "8d")
        assert app.engine.phase is Phase.SETTLEMENT

        def full(*args, **kwargs):
            raise sqlite3.OperationalError("database or disk is full")

        with monkeypatch.context() as m:
            m.setattr(SqliteMeterStore, "_set", full)
            await keys(pilot, "enter")  # settled and journaled; the meter lags
            assert app.engine.phase is Phase.IDLE and "POZO ARS 5.000" in header.view.jackpot
        await keys(pilot, "2")  # the store has room again: the next redraw applies and shows it
        assert app.engine.carrusel.store.read(PROGRESSIVE.table_id).own == 5002  # 50 % of 4 credits
        assert "POZO ARS 5.002" in header.view.jackpot


@aio
async def test_grouping_no_boxes_is_refused_with_a_message_and_the_dialog_stays(tmp_path):
    from madero_tui.screens.group import GroupBoxesScreen
    from tui_common.widgets.message_line import MessageLine

    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "25", "enter", "g")
        assert isinstance(app.screen, GroupBoxesScreen)
        await keys(pilot, "enter")
        assert isinstance(app.screen, GroupBoxesScreen)
        assert "escriba al menos una casilla" in str(app.screen.query_one(MessageLine).render())


@aio
async def test_at_100x30_the_settlement_shows_every_box_row(tmp_path):
    # The croupier saw only box 1's row at 100x30: the bank's and board's row gives way then.
    from tests.test_madero_tui_snapshots import SETTLEMENT

    app = live_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await keys(pilot, *SETTLEMENT)
        screen = app.table_screen
        assert isinstance(screen, TableScreen) and app.engine.phase is Phase.SETTLEMENT
        assert not screen.query_one("#top").display
        # Title, totals, the table's head (3 rows with its rule), then a row for each of 7 boxes.
        assert screen.lower.current == "settlement" and screen.lower.size.height >= 2 + 3 + 7
        await keys(pilot, "enter")
        assert screen.query_one("#top").display  # the next round's bank and board again


@aio
async def test_at_120x40_the_settlement_keeps_the_bank_and_the_board(tmp_path):
    from tests.test_madero_tui_snapshots import SETTLEMENT

    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, *SETTLEMENT)
        assert app.engine.phase is Phase.SETTLEMENT and app.table_screen.query_one("#top").display


@pytest.mark.parametrize("size", [(100, 30), SIZE])
@aio
async def test_the_log_fills_its_rows_with_the_newest_entries(tmp_path, size):
    """At 120×40 the log read 8 entries and left 9 of its 17 rows blank."""
    app = live_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await keys(pilot, *BETS, "5", "a", "10", "enter", "n", "v", "r")  # 18 entries
        log = app.table_screen.log_view
        lines = log.render().plain.split("\n")
        assert app.engine.journal.last_seq > log.content_size.height == len(lines)
        assert lines[-1].startswith(f"#{app.engine.journal.last_seq} ")


@aio
async def test_a_key_not_now_says_the_prompt_in_a_third_language(tmp_path, monkeypatch):
    """The «not now» refusal quotes the phase's prompt in every catalog's language, not only
    Spanish and English (test catalog «xx», as in test_i18n)."""
    import shutil

    from shared import messages
    from test_i18n import _third_language

    locale = tmp_path / "locale"
    shutil.copytree(messages.LOCALE_DIR, locale)
    _third_language(locale)
    monkeypatch.setattr(messages, "LOCALE_DIR", locale)
    app = live_app(tmp_path, lang="xx")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "%")
        said = message(app)
        assert said.startswith("✖ «xx") and app.prompt_text("xx") in said and app.prompt_text("es") not in said


@aio
async def test_a_digit_that_leaves_the_amount_field_its_width_lays_nothing_out(tmp_path):
    """A layout pass of the whole screen costs more than a frame: a digit typed into the open
    amount entry lays the screen out only when the field must grow (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "a")
        entry = app.table_screen.query_one(AmountEntry)
        laid_out = layouts_of(entry)
        await keys(pilot, "25", "backspace")
        assert entry.text == "2" and laid_out == []  # the field is wider than its label and digits
        long = "9" * (entry.content_size.width - entry._shown("").cell_len + 1)
        entry.text = long  # wider than the field: it grows
        assert laid_out == [long]


@pytest.mark.parametrize("key", ["a", "b"])
@aio
async def test_a_key_that_opens_an_entry_lays_the_screen_out_once(tmp_path, key):
    """The entry's row and the key bar change size: Textual then laid the whole screen out a
    second time (each resized widget's virtual size), a tick after the first (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "a", "10", "enter")
        reflows = reflows_of(app.table_screen)
        await keys(pilot, key)
        assert app.table_screen.amount_entry.is_open and len(reflows) == 1


@aio
async def test_another_bet_of_the_open_entry_lays_the_screen_out_only_if_the_field_grows(tmp_path):
    """``b`` after an Ante places it and opens the Bonus in the same field: a new label as wide
    as the field changes no width, and laid the whole screen out on every bet (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "a", "10")
        entry = app.table_screen.amount_entry
        laid_out = layouts_of(entry)
        await keys(pilot, "b")
        assert entry.is_open and "Bonus" in entry.label and app.engine.boxes[1].ante == 10
        assert laid_out == []
        entry.label = "x" * (entry.content_size.width + 1)  # wider than the field: it grows
        assert laid_out == [""]


@aio
async def test_the_log_wraps_only_the_lines_it_has_not_measured(tmp_path):
    """A key adds a line or two to the log: wrapping each of its lines again to count its rows
    cost ~1.5 ms of every key that journals (issue 32)."""
    from madero_tui.screens import table

    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "a", "10", "enter", "2", "a", "20", "enter")
        log = app.table_screen.log_view
        wrapped: list[str] = []
        original = table.wrapped

        def wrap(text, *args, **kwargs):
            wrapped.append(text.plain)
            return original(text, *args, **kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(table, "wrapped", wrap)
            before = log.render().plain
            assert wrapped == []  # every line's rows known
            await keys(pilot, "3", "a", "30", "enter")  # the log drawn again with one entry more
            after = log.render().plain
        lines = after.splitlines()
        assert lines[:-1] == before.splitlines()[-len(lines) + 1:] and "30" in lines[-1]
        assert [text for text in wrapped if text in lines] == [lines[-1]]


@aio
async def test_no_key_of_a_round_restyles_a_box(tmp_path):
    """A box's looks follow the round (selected, to act, out of play: muted) without restyling it
    through Textual's stylesheet: a class per look restyled a box in ~0.6 ms, seven boxes on the
    key that opens a round (issue 32). Only the boxes out of play are drawn muted (free, retired,
    dead, void)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        board = app.table_screen.boxes
        looks = board.looks_of
        restyled: list[str] = []
        original = board.update_node_styles
        board.update_node_styles = lambda *a: (restyled.append(board.id), original(*a))
        await play_rigged_round(pilot, app)
        assert app.engine.phase is Phase.SETTLEMENT
        await keys(pilot, "enter")  # the next round's bets: every box free, drawn muted
        assert all("box--muted" in box for box in looks)
        await keys(pilot, "a", "10", "enter", "2", "a", "10", "enter", "n", "v", "r")
        assert ["box--muted" in box for box in looks[:3]] == [False, True, True]
        assert "box--acting" not in looks[0]
        await keys(pilot, "2c", "3d", "4h")
        assert "box--acting" in looks[0] and "box--selected" in looks[0]
        await keys(pilot, "p", "5s", "p", "9c", "ks", "kh", "ah")
        assert app.engine.phase is Phase.SHOWDOWN
        await keys(pilot, "ad")  # box 1's second card: the settlement
        assert app.engine.phase is Phase.SETTLEMENT and message(app) == ""
        assert app.table_screen.lower.current == "settlement" and restyled == []


@aio
async def test_the_launch_draws_the_table_first_and_its_log_right_after(tmp_path):
    """Reading and wording the log's entries was ~2 % of the launch to the first usable frame:
    the table comes first, the log a frame later (issue 32)."""
    app = live_app(tmp_path)
    first: list[tuple[str, tuple[str, ...]]] = []
    original = app._display

    def display(screen, renderable):
        if renderable is not None and not first and screen is app.table_screen:
            first.append((screen.prompt.text, screen.log_view._lines))
        return original(screen, renderable)

    app._display = display
    async with app.run_test(size=SIZE) as pilot:
        log = app.table_screen.log_view
        for _ in range(200):  # after the first frame, however loaded the machine
            await pilot.pause()
            if log._lines:
                break
        (prompt_then, log_then), = first
        assert prompt_then.startswith("▶") and log_then == ()
        assert log._lines and log._lines[-1].startswith(f"#{app.engine.journal.last_seq} ")


@aio
async def test_an_entry_that_takes_the_focus_repaints_itself_not_the_screen(tmp_path):
    """Textual repaints the whole screen when its focus moves: the amount entry's ``a`` and the
    card entry's first card drew a second frame of every widget ~3 ms after the key's (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        while not app.table_screen.log_view._lines:  # the launch's last frame: its log
            await pilot.pause()
        await pilot.pause()
        frames = frames_of(app)
        await keys(pilot, "a")
        assert app.table_screen.amount_entry.has_focus
        assert len(frames) == 1 and "table" not in frames[0], frames
        await keys(pilot, "10", "enter", "n")
        frames.clear()
        await keys(pilot, "v")  # the only box's voy: the flop's cards are due, the card entry focused
        assert app.table_screen.card_entry.has_focus and all("table" not in frame for frame in frames), frames


def _held_update_timer(app) -> None:
    """The table screen's update timer never ticks: a frame drawn now was drawn by the screen
    itself, not at the timer's next tick."""
    app.table_screen._update_timer.resume = lambda: None


async def _frames_after_key(app, key: str, *, seconds: float) -> list[set[str]]:
    """The frames drawn after ``key`` is read, the loop run (without the pilot's own repaint)
    until one is drawn or ``seconds`` pass."""
    frames = frames_of(app)
    drawn = asyncio.Event()
    counted = app._display

    def display(screen, renderable):
        result = counted(screen, renderable)
        if frames:
            drawn.set()
        return result

    app._display = display
    await asyncio.sleep(0.02)  # a frame's time since the last one
    app.post_message(events.Key(key, key))
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(drawn.wait(), seconds)
    return frames


@aio
async def test_a_key_s_frame_is_drawn_once_the_key_is_done_not_at_the_timer_s_next_tick(tmp_path):
    """Textual draws at its update timer's next tick, one to two frames after its last: a key
    read 20 ms after a frame waited up to 13 ms with its work done (issue 32). The table screen
    draws at once when a whole frame has passed since its last drawing."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        _held_update_timer(app)
        frames = await _frames_after_key(app, "a", seconds=5)
        assert app.table_screen.amount_entry.is_open and len(frames) == 1, frames


@aio
async def test_within_a_frame_of_the_last_drawing_the_screen_waits_for_its_timer(tmp_path, monkeypatch):
    """At most one frame a 60 Hz frame: a change within a frame of the last drawing is left to
    Textual's timer (here held, and a frame made to last an hour)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        _held_update_timer(app)
        monkeypatch.setattr("tui_common.screens.table.UPDATE_PERIOD", 3600)
        frames = await _frames_after_key(app, "a", seconds=0.5)
        assert app.table_screen.amount_entry.is_open and not frames, frames


@aio
async def test_the_key_bar_is_redrawn_with_the_entry_the_key_opened(tmp_path):
    """Each widget hands its redraw to the screen from its own queue: a frame drawn between the
    entry's and the key bar's showed the key bar a tick (16.7 ms) late (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        frames = frames_of(app)
        await keys(pilot, "a")
        assert app.table_screen.amount_entry.is_open
        assert "keys" in set().union(*frames[:2]) and all("keys" not in frame for frame in frames[2:]), frames


@aio
async def test_the_log_is_read_again_only_when_the_journal_grew(tmp_path):
    """And then only what was journaled since: the whole log worded again cost ~5 ms a key."""
    from madero_tui.events_text import describe
    from shared.text import printable

    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await keys(pilot, "a")
        journal = app.engine.journal
        reads: list[int] = []
        original = journal.events

        def events(after=0):
            reads.append(after)
            return original(after=after)

        journal.events = events
        await keys(pilot, "2", "5")  # typed, not journaled: the log as it was
        assert reads == []
        before = journal.last_seq
        await keys(pilot, "enter")  # the Ante journaled: the log reads what it journaled, and only that
        assert reads == [before] and journal.last_seq > before
        lines = app.table_screen.log_view.render().plain.splitlines()
        newest = list(original(after=journal.last_seq - len(lines)))
        assert lines == [printable(describe(e, "es", with_actor=None)) for e in newest]
        assert "25" in lines[-1]


@aio
async def test_the_header_lists_the_bonus_limits_with_the_table_limits(tmp_path):
    """One «·» between limits, as HeaderView says: «máx 500  · Bonus» had a stray space."""
    from madero_tui.widgets.header import TableHeader

    app = live_app(tmp_path)
    async with app.run_test(size=(100, 30)):
        table = app.table_screen.query_one(TableHeader).view.table
        assert table == "Mesa MPB-01  ARS  mín 10 · máx 500 · Bonus 5–100"


@aio
async def test_the_group_dialogs_field_is_one_line_of_input(tmp_path):
    """The table's «#boxes» row height (12) also sized the dialog's field of the same id: a
    box of twelve rows for «2 3 4»."""
    from madero_tui.screens.group import GroupBoxesScreen

    app = live_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await keys(pilot, "a", "25", "enter", "g")
        assert isinstance(app.screen, GroupBoxesScreen)
        assert app.screen.query_one(Input).size.height <= 3


@aio
async def test_the_settlement_screen_works_the_settlement_out_once_per_journaled_state(tmp_path):
    """At the settlement every redraw asked the engine for the settlement (and its §73
    adjustments, read from the journal) again, two or three times a key (issue 32): once per
    journaled state now, and again after the next entry."""
    from shared.madero.table import state

    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_rigged_round(pilot, app)
        assert app.engine.phase is Phase.SETTLEMENT
        worked_out: list[int] = []
        original = state.settle_round

        def settle_round(*args, **kwargs):
            worked_out.append(app.engine.journal.last_seq)
            return original(*args, **kwargs)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(state, "settle_round", settle_round)
            shown = app.table_screen.settlement._shown
            app.refresh_table()
            app.refresh_table()
            assert worked_out == [] and app.table_screen.settlement._shown == shown  # worked out at the last key
            await keys(pilot, "enter")  # confirmed: a new entry, a new settlement (the next round's table)
        assert len(worked_out) == len(set(worked_out)) and not app.engine.round_open


@aio
async def test_once_the_table_is_up_the_collector_runs_between_keys_not_under_them(tmp_path, monkeypatch):
    """A pass of Python's cyclic collector over the table's screen and drawn rows took 8–16 ms
    of whichever key allocated enough, once in a few hundred (issue 32): once the start-up's
    last screen is closed and the table drawn, the collector runs only when the keys pause
    (what lives then is frozen, once a process), and as Python runs it once the console closes."""
    import gc

    from tui_common import collector

    passes: list[int] = []
    monkeypatch.setattr(collector.BetweenKeys, "frozen", True)  # not this test process's objects
    monkeypatch.setattr(collector.gc, "collect", lambda generation=2: passes.append(generation))
    monkeypatch.setattr(collector, "YOUNG_PASS", 0)
    now = [0.0]
    app = live_app(tmp_path, prepare=False)
    app.collector.clock = lambda: now[0]
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, EnrolScreen) and gc.isenabled()  # the start-up's screens first
            for text in ("S1", "Sara", "123456", "123456", "C1", "Carlos", "5678", "5678"):
                await keys(pilot, text, "enter")
            await keys(pilot, "C1", "enter", "5678", "enter")
            for _ in range(200):  # the PIN is checked in a worker
                if not gc.isenabled():
                    break
                await pilot.pause(0.02)
            assert app.screen is app.table_screen and not gc.isenabled()
            now[0] = 100.0
            await keys(pilot, "a", "1")
            app.collector.tick()
            assert passes == []  # a key came less than a second ago
            now[0] += collector.QUIET
            app.collector.tick()
            assert passes == [1]  # a young pass; every tenth is a full one
            for _ in range(collector.FULL_EVERY - 1):
                app.collector.tick()
            assert passes[-1] == 2 and passes.count(2) == 1
        assert gc.isenabled()  # the console closed: Python's own collector again
    finally:
        gc.enable()
