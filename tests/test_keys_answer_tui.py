"""Every key reaches the screen it was typed for and answers (issue 31, items 1–5).

Keys typed behind F2 while the panel is still opening go to its fields in order (the PIN
never in the ID field); ``esc`` and a letter read by the terminal as one ``alt+letter`` are
the two keys; the first croupier key after a relaunch does its work once the PIN is
confirmed; enter, unused function keys and undo say why nothing happens; undo names what
it took back; a table with nobody on duty says to sign in.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

from test_madero_tui import keys, live_app, message
from madero_helpers import CRO, SUP, restored
from madero_helpers import live_table as live_table_madero
from tui_helpers import SIZE, aio, post_burst
from madero_tui.screens.table import TableScreen
from shared.staff import Credentials
from tui_common.screens.supervisor import SupervisorPanel
from tui_common.widgets import AmountEntry


def staked(app, box: int, bet: str) -> int:
    placed = app.engine.boxes.get(box)
    return 0 if placed is None else getattr(placed, bet)


def entry(app) -> AmountEntry:
    return app.table_screen.query_one(AmountEntry)


@aio
async def test_an_id_typed_straight_after_f2_reaches_the_id_field_and_the_pin_stays_hidden(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter", "n")
        # F2 and everything behind it in one burst, the highlighted action taken as it is.
        app.post_message(events.Key("f2", None))
        post_burst(app, "S1", "enter", "123456")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, SupervisorPanel)
        assert panel.query_one("#sup-id", Input).value == "S1"
        pin = panel.query_one("#sup-pin", Input)
        assert pin.value == "123456" and pin.password


@aio
async def test_an_id_field_takes_only_what_an_id_can_hold(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "f2")
        panel = app.screen
        await keys(pilot, "enter")
        post_burst(app, "S1 ñ/*" + "x" * 40)
        await pilot.pause()
        assert panel.query_one("#sup-id", Input).value == "S1" + "x" * 30


@aio
async def test_esc_and_a_letter_read_as_alt_letter_are_the_two_keys(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter", "b", "7")
        assert entry(app).is_open
        await pilot.press("alt+a")  # esc (the Bonus's 7 given up), then a: the Ante entry again
        await pilot.pause()
        assert staked(app, 1, "bonus") == 0
        assert entry(app).is_open and entry(app).tag[1] == "ante" and entry(app).amount is None
        await keys(pilot, "30", "enter")
        assert staked(app, 1, "ante") == 30 and staked(app, 1, "bonus") == 0


@aio
async def test_esc_then_b_f_or_a_digit_read_as_one_key_are_the_two_keys(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "2")
        # Textual reads ESC b as ctrl+left (a word move), ESC 3 as «£» (a macOS option glyph).
        app.post_message(events.Key("ctrl+left", None))
        await pilot.pause()
        assert entry(app).is_open and entry(app).tag[1] == "bonus" and entry(app).amount is None
        app.post_message(events.Key("pound_sign", "£"))
        await pilot.pause()
        assert not entry(app).is_open and app.selected_box == 3
        await keys(pilot, "a", "40", "enter")
        assert staked(app, 3, "ante") == 40 and staked(app, 1, "ante") == 0


@aio
async def test_the_first_key_after_a_relaunch_is_applied_once_the_pin_is_confirmed(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
    app.engine.journal.close()
    again = live_app(tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a")
        assert again.screen.id == "duty-pin"
        await keys(pilot, "5678", "enter", "30", "enter")
        assert isinstance(again.screen, TableScreen)
        assert again.engine.boxes[1].ante == 30


@aio
async def test_enter_function_keys_and_undo_say_why_nothing_happens(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter")
        for key, said in (("enter", "«enter»: ahora no"), ("f5", "«F5»: ahora no"), ("f12", "«F12»: ahora no")):
            app.message_line.clear()
            await pilot.press(key)
            await pilot.pause()
            assert said in message(app), key
        await keys(pilot, "n")
        app.message_line.clear()
        await keys(pilot, "ctrl+z")  # «No va más» closed the bets: nothing of this round undoes
        assert "no se deshace" in message(app)


@aio
async def test_undo_names_what_it_took_back(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter", "ctrl+z")
        assert staked(app, 1, "ante") == 0
        said = message(app)
        assert "Deshecho" in said and "Ante" in said and "20" in said and "casilla 1" in said.lower()


@aio
async def test_with_nobody_on_duty_game_keys_say_to_open_the_shift(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.engine.shift.close(Credentials("S1", "123456"), "fin del turno")
        app.refresh_table()
        for key in ("a", "n", "enter"):
            app.message_line.clear()
            await keys(pilot, key)
            assert "Nadie de turno: F4 abre el turno" in message(app), key


def test_a_new_shift_starts_with_no_boxes_grouped(tmp_path):
    table = live_table_madero(tmp_path)
    table.play.group_boxes([1, 2], seeing=1)
    assert table.groups == {1: 1, 2: 1}
    table.shift.close(SUP, "fin del turno")
    table.shift.open(CRO)
    assert table.groups == {}
    assert restored(table.journal.path).groups == {}  # the fold of the journal agrees


@aio
async def test_midi_a_second_rank_during_the_burn_is_answered(tmp_path):
    from test_midi_tui import keys as midi_keys
    from test_midi_tui import live_app as midi_app
    from test_midi_tui import sign_in

    app = midi_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await sign_in(pilot)
        await midi_keys(pilot, "enter", "5")
        for rank in ("6", "k"):
            app.message_line.clear()
            await midi_keys(pilot, rank)
            assert "Art. 8 §2" in app.message_line.text and "confirme la quema" in app.message_line.text, rank
        await midi_keys(pilot, "ctrl+z")
        assert "Deshecho" in app.message_line.text and "5" in app.message_line.text


def test_with_the_tray_closed_the_prompt_asks_for_it_not_for_bets(tmp_path):
    """A live table takes bets only with its tray open: its prompt says to open it (F2), never
    «Hagan sus apuestas» while every bet key refuses (found playing a fresh table in tmux)."""
    from midi_helpers import open_live_shoe
    from midi_helpers import live_table as live_midi

    madero = live_table_madero(tmp_path, tray=False)
    assert madero.prompt.text("es") == "abra la caja de la mesa (F2) antes de aceptar apuestas"
    madero.tray.open("1000x20", CRO, SUP)
    assert madero.prompt.text("es") == "Hagan sus apuestas"
    midi = live_midi(tray=False)
    open_live_shoe(midi)  # the shoe opens and burns without a tray; its bets wait for one
    assert midi.prompt.text("es") == "abra la caja de la mesa (F2) antes de aceptar apuestas"
