"""What a croupier missed playing both consoles in a terminal (tmux, 100×30 and 120×40):
text that was on the screen's model but cut off the screen. Each test checks that every
row of the text fits the rows its widget has."""

from __future__ import annotations

from tui_helpers import aio

from midi_tui.widgets.prompt import PromptLine as MidiPromptLine
from shared.madero.table import Phase
from tests.test_carrusel_tui import ROYAL
from tests.test_madero_tui import keys, live_app
from tests.test_midi_tui import keys as midi_keys
from tests.test_midi_tui import live_app as midi_live_app
from tests.test_midi_tui import sign_in, start_shoe
from tests.test_training_graded_madero import _to_question, graded_app

SMALL = (100, 30)


def rows(widget) -> int:
    """The rows the text a ``QuietStatic`` shows takes at its width."""
    return len(widget._shown_text.wrap(widget.app.console, widget.content_size.width))


def box_shown(board, index: int):
    """A box's view, its last line as drawn, and the width inside its border and padding."""
    (_, row), = board.box_layout()
    width = dict(row)[index] - board.styles.gutter.width
    lines, _, _ = board.box(index, width)
    return board.views[index], lines[-1].plain, width


@aio
async def test_a_royal_s_net_stays_in_its_narrow_box(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, *ROYAL)
        assert app.engine.phase is Phase.SETTLEMENT
        view, last, width = box_shown(app.table_screen.boxes, 0)
        assert view.pay.startswith("+5.0")
        assert last.endswith(view.pay)  # it was «NETO» alone: the figure did not fit beside it
        assert len(last) <= width


@aio
async def test_the_key_bar_keeps_f2_f3_and_quit_while_an_amount_is_typed(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "25", "enter", "2", "a", "30")  # a round open, the next box's Ante typed
        bar = app.table_screen.key_bar
        assert "enter anotar" in bar.text and "ctrl+q salir" in bar.text
        assert rows(bar) == 3 and bar.size.height == 3  # the third row was cut at two


@aio
async def test_the_prompt_keeps_its_article_and_the_announcement_at_100_columns(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "20", "enter", "n", "v")
        line = app.table_screen.prompt
        shown = line.render().plain
        assert len(shown) <= line.content_size.width
        assert shown.endswith("«Casilla 1: voy — Flop 40»  Art. 8 §27")  # it ended «Art. 8»
        assert shown.startswith("▶ Queme una carta")


@aio
async def test_a_refusal_beside_the_amount_takes_a_second_row(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "500", "enter")
        message = app.table_screen.query_one("#message")
        assert "pasaría 500" in message.text
        assert rows(message) == 2 and message.size.height == 2  # its end was cut at one row
        assert app.table_screen.key_bar.size.height >= 2  # the rows below keep their place


@aio
async def test_midi_s_tie_announcements_wrap_onto_a_second_row(tmp_path):
    app = midi_live_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await midi_keys(pilot, "1", "p", "100", "enter", "n", "3245")
        line = app.table_screen.query_one(MidiPromptLine)
        assert "Empate con 7" in line._shown_text.plain
        assert rows(line) == 2 and line.size.height == 2  # the second row was never laid out


@aio
async def test_midi_s_exact_payment_refusal_takes_a_second_row(tmp_path):
    for size in (SMALL, (120, 40)):
        app = midi_live_app(tmp_path / f"{size[0]}")
        async with app.run_test(size=size) as pilot:
            await sign_in(pilot)
            await start_shoe(pilot)
            await midi_keys(pilot, "1", "b", "15", "enter")
            message = app.table_screen.query_one("#message")
            assert message.text.endswith("(de 2 en 2)")
            assert rows(message) == 2 and message.size.height == 2  # cut at «se paga exacto solo»
            assert app.table_screen.key_bar.size.height >= 2


@aio
async def test_a_graded_question_s_options_never_split_a_key_from_its_label(tmp_path):
    app = graded_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await _to_question(pilot, "combination")
        line = app.table_screen.prompt
        # The prompt grows to its three rows at the screen's next layout pass, which a loaded
        # machine runs after the answering key has returned: wait for that frame (up to 5 s).
        for _ in range(500):
            if line.size.height == 3:
                break
            await pilot.pause(0.01)
        shown = [row.plain for row in line.render().wrap(app.console, line.content_size.width)]
        options = app.graded.question.options
        assert len(options) == 10 and len(shown) == 3 and line.size.height == 3
        for o in options:  # each key beside its label, on one row
            assert any(f" {o.key}  {o.label.render('es').replace(' ', chr(0xA0))}" in row for row in shown), o.key


@aio
async def test_madero_at_100x30_shows_its_newest_entries_the_board_on_one_row_and_whole_nets(tmp_path):
    """Issue 31 item 10: the log hid its two newest entries (the bets just placed), the fifth
    board card wrapped, a box's «NETO −1.000» was cut to «NE.»."""
    app = live_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "b", "100", "enter", "2", "a", "20", "enter", "3", "a", "10",
                   "enter", "4", "a", "250", "enter")
        log = app.table_screen.log_view.render().plain
        assert log.splitlines()[-1].endswith("Casilla 4: Ante 250")
        assert len(log.splitlines()) <= app.table_screen.log_view.content_size.height
        await keys(pilot, "n", "v", "r", "v", "v", "2c", "3d", "4h", "t", "p", "t", "5s", "t", "p", "p", "10c")
        top = app.table_screen.top
        (_, row), = top.box_layout()
        width = dict(row)[1] - top.styles.gutter.width  # the board's, inside its border and padding
        first = top.box(1, width)[0][0]
        assert "10♣" in first.plain and first.cell_len <= width
        await keys(pilot, "ks", "kh", "ah", "ad", "kc", "kd", "7c", "7d")
        assert app.engine.phase is Phase.SETTLEMENT
        for index in range(4):
            view, last, width = box_shown(app.table_screen.boxes, index)
            if view.pay:
                assert last.startswith(view.pay_label) and last.endswith(view.pay), last
                assert len(last) <= width
        assert any(len(view.pay) >= 6 for view in app.table_screen.boxes.views)  # «+3.190», «−1.000»


@aio
async def test_madero_s_long_prompt_wraps_whole_at_100_columns(tmp_path):
    """A §39 redeal's prompt was cut to «… Mezcl…»: it takes a second row, whole."""
    from tests.test_madero_tui import supervisor

    app = live_app(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await keys(pilot, "a", "10", "enter", "n", "v", "2c", "3d", "4h", "t", "5s", "t")
        await supervisor(pilot, app, "redeal_39_3")
        line = app.table_screen.prompt
        shown = line.render().plain
        assert "…" not in shown and "sin quemar" in shown and shown.rstrip().endswith("Art. 10 §39.5")
        assert line.size.height == len(line.render().wrap(app.console, line.content_size.width)) == 2


@aio
async def test_midi_at_100x30_shows_every_road_s_six_rows_and_the_shoe_line(tmp_path):
    """Issue 31 item 10: at 100×30 the roads showed two of their six rows; a commission
    table's header wrapped and pushed the shoe's line (the cut card) out."""
    from shared.midi.config import DEFAULT_MIDI_TABLE

    app = midi_live_app(tmp_path, config=DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission"))
    async with app.run_test(size=SMALL) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        screen = app.table_screen
        (box_rows, boxes), = screen.roads.box_layout()  # one row of five
        assert box_rows - 2 == 6 and len(boxes) == 5
        for road, width in boxes:
            assert width >= len(screen.roads.titles[road].plain) + 6, road  # its title whole
        header = screen.header
        assert rows(header) == 3 and "corte: no" in header._shown_text.plain


@aio
async def test_the_english_paytable_is_whole_at_every_size(tmp_path):
    """«Full house 100 × cred…» at 120×40 in English: every line of the paytable whole."""
    for size in (SMALL, (120, 40), (200, 60)):
        app = live_app(tmp_path / f"{size[0]}", lang="en")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            shown = app.table_screen.top.paytable_text
            assert "…" not in shown and "100 × cred." in shown, (size, shown)


@aio
async def test_the_longest_refusal_is_whole_beside_the_amount_entry(tmp_path):
    """Some refusals were cut at 120×40: the line beside the entry held two rows; §38's
    refusal of a void once betting began takes three there, four at 100 columns."""
    from shared.errors import RuleViolation
    from shared.messages import Msg

    for size in (SMALL, (120, 40)):
        app = live_app(tmp_path / f"{size[0]}", lang="en")
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await keys(pilot, "a", "10", "enter", "2", "a")  # the amount entry open beside the line
            line = app.message_line
            line.show_error(RuleViolation("Art. 10 §38", Msg.of("madero.betting_began_no_void")))
            await pilot.pause()
            assert rows(line) >= 3 and line.size.height == rows(line), size
