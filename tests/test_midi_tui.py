"""The Midi console driven through the keyboard, as a croupier types: Pilot tests on a real journal."""

from __future__ import annotations

from decimal import Decimal

import pytest

from shared.baccarat import Winner
from shared.midi.config import DEFAULT_MIDI_TABLE
from shared.midi.payouts import BetKind, Outcome, SettlementLine
from shared.midi.table import Phase
from shared.actor import Role
from shared.staff import Credentials
from tui_helpers import OPENING, SIZE, aio, layouts_of, reflows_of, type_in_one_burst
from midi_tui.app import MidiApp, make_app
from midi_tui.widgets.boxes import BoxesTable
from midi_tui.widgets.header import TableHeader
from midi_tui.widgets.prompt import PromptLine
from tui_common.options import LaunchOptions
from tui_common.screens.notice import NoticeScreen
from tui_common.screens.sign_in import SignInScreen
from tui_common.screens.supervisor import SupervisorPanel
from tui_common.widgets import AmountEntry, KeyBar, MessageLine, TrainingBanner, key_lines


def live_app(tmp_path, *, config=DEFAULT_MIDI_TABLE, lang="es", name="midi.db") -> MidiApp:
    app = make_app(LaunchOptions(lang=lang, db=tmp_path / name), config=config)
    staff = app.midi.staff
    if not staff.has_supervisor():
        staff.enrol("S1", "Sara Paz", Role.SUPERVISOR, "123456", by=None)
        staff.enrol("C1", "Carlos Gil", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
        staff.enrol("S2", "Gerente", Role.SUPERVISOR, "654321", by=Credentials("S1", "123456"))
        app.midi.tray.open(OPENING, Credentials("C1", "5678"), Credentials("S1", "123456"))  # bets need the tray
    return app


async def keys(pilot, *presses: str) -> None:
    """Press keys; a string of several characters is typed one character at a time."""
    for press in presses:
        if len(press) > 1 and press not in ("enter", "escape", "left", "right", "up", "down", "tab",
                                              "ctrl+z", "ctrl+r", "ctrl+t", "ctrl+q", "f1", "f2", "f3", "backspace"):
            await pilot.press(*press)
        else:
            await pilot.press(press)
    await pilot.pause()


async def sign_in(pilot, staff_id="C1", pin="5678") -> None:
    assert isinstance(pilot.app.screen, SignInScreen)
    await keys(pilot, staff_id, "enter", pin, "enter")
    assert pilot.app.screen is pilot.app.table_screen


async def start_shoe(pilot, burn="5") -> None:
    """Enter: new shoe; the burn card's rank; enter: the burn is done."""
    await keys(pilot, "enter", burn, "enter")
    assert pilot.app.midi.phase is Phase.BETS


async def bet(pilot, box: int, kind: str, amount: int) -> None:
    await keys(pilot, str(box), kind, str(amount), "enter")


def text_of(app, widget_type) -> str:
    return str(app.table_screen.query_one(widget_type).render())


def prompt(app) -> str:
    return text_of(app, PromptLine)


# Coups by the key the croupier presses for each card (dealing order: P B P B [third cards]):
# (keys, cards dealt, winner, the last announcement).
TABLEAU = [
    ("9kk5", 4, Winner.PUNTO, "Gana el PUNTO con 9"),  # natural PUNTO 9
    ("2434", 4, Winner.BANCA, "Gana la BANCA con 8"),  # natural BANCA 8
    ("32332", 5, Winner.BANCA, "Gana la BANCA con 7"),  # PUNTO stands on 6, BANCA 5 draws
    ("3343", 4, Winner.PUNTO, "Gana el PUNTO con 7"),  # PUNTO 7 and BANCA 6 stand
    ("2k3284", 6, Winner.BANCA, "Gana la BANCA con 6: se paga el 50 %"),  # BANCA 2 draws on any
    ("a33k8", 5, Winner.BANCA, "Gana la BANCA con 3"),  # BANCA 3 stands on an 8
    ("a33k93", 6, Winner.BANCA, "Gana la BANCA con 6: se paga el 50 %"),  # BANCA 3 draws on a 9
    ("242k2k", 6, Winner.PUNTO, "Gana el PUNTO con 6"),  # BANCA 4 draws on a 2
    ("2222a", 5, Winner.PUNTO, "Gana el PUNTO con 5"),  # BANCA 4 stands on an ace
    ("k5kk45", 6, Winner.PUNTO, "Gana el PUNTO con 4"),  # BANCA 5 draws on a 4
    ("k2k33", 5, Winner.BANCA, "Gana la BANCA con 5"),  # BANCA 5 stands on a 3
    ("a3236a", 6, Winner.PUNTO, "Gana el PUNTO con 9"),  # BANCA 6 draws on a 6
    ("a3235", 5, Winner.PUNTO, "Gana el PUNTO con 8"),  # BANCA 6 stands on a 5
    ("a4a37", 5, Winner.PUNTO, "Gana el PUNTO con 9"),  # BANCA 7 stands on anything
    ("3443", 4, Winner.TIE, "Empate con 7"),  # both stand on 7: a tie
]


@aio
async def test_a_shoe_of_every_tableau_branch_through_the_keys(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        assert app.midi.croupier.staff_id == "C1"
        await start_shoe(pilot, burn="k")
        assert app.midi.shoe.burned == 10
        for number, (cards, count, winner, announcement) in enumerate(TABLEAU):
            if number == 0:
                await bet(pilot, 1, "p", 100)
                await bet(pilot, 2, "b", 100)
                await bet(pilot, 3, "e", 10)
            else:
                await keys(pilot, "ctrl+r")  # the regulars bet the same again
            await keys(pilot, "n")
            assert "midi_key_no_va_mas" not in [h.binding.description for h in key_lines(app) if h.allowed(app)]
            await keys(pilot, cards)
            midi = app.midi
            assert midi.phase is Phase.RESULT, cards
            assert len(midi.cards) == count
            assert midi.result.winner is winner
            assert announcement in prompt(app)
            if number == 0:
                # a card the rules do not call for is refused, citing the article; nothing changes
                before = midi.state_hash()
                await keys(pilot, "9")
                assert "Art. 6 §2" in app.message_line.text
                assert midi.state_hash() == before
            lines = {(line.spot, line.kind): line for line in midi.settlement}
            if winner is Winner.TIE:
                assert lines[(3, BetKind.TIE)].paid == Decimal(80)
                assert lines[(1, BetKind.PUNTO)].outcome is Outcome.PUSH
                assert "=100" in text_of(app, BoxesTable)
            await keys(pilot, "enter")
            assert midi.phase is Phase.BETS
            assert "liquidado" in app.message_line.text
        assert app.midi.roads.counts.coups == len(TABLEAU)
        assert app.midi.roads.counts.tie == 1


@aio
async def test_a_coup_typed_in_bursts_takes_every_key_in_order(tmp_path):
    # Each key queued before the console answered the one before it: the digits after «p»
    # must reach the amount «p» opened, and the cards after «n» must be dealt.
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await type_in_one_burst(app, pilot, "1", "p", "100", "enter", "2", "b", "200", "enter", "3", "e", "20",
                                "enter", "n", "8934", "6k")
        midi = app.midi
        assert {box: {kind.value: amount for kind, amount in bets.items()} for box, bets in midi.bets.items()} == {
            1: {"punto": 100}, 2: {"banca": 200}, 3: {"tie": 20}}
        assert midi.phase is Phase.RESULT and midi.result.winner is Winner.PUNTO and len(midi.cards) == 6


@aio
async def test_bets_in_few_keys_next_bet_key_places_the_typed_amount_and_enter_repeats_the_last(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await keys(pilot, "3", "p", "100", "E", "10", "enter")  # E (caps) places PUNTO 100, then the TIE
        assert app.midi.bets[3] == {BetKind.PUNTO: Decimal(100), BetKind.TIE: Decimal(10)}
        await keys(pilot, "4", "b", "enter")  # nothing typed, no earlier BANCA on box 4: said so
        assert "Falta el importe" in text_of(app, MessageLine) and 4 not in app.midi.bets
        await keys(pilot, "escape", "n", "9kk5", "enter")
        await keys(pilot, "3", "p")
        assert "enter repite 100" in str(app.table_screen.query_one(AmountEntry).render())
        await keys(pilot, "enter", "e", "enter")
        assert app.midi.bets[3] == {BetKind.PUNTO: Decimal(100), BetKind.TIE: Decimal(10)}


@aio
async def test_banca_six_pays_exactly_half_and_an_odd_banca_is_refused_on_screen(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 4, "b", 25)  # its half, 12.5, is no whole chip: refused (Art. 5 §2)
        assert "Art. 5 §2" in app.message_line.text and "número par de fichas" in app.message_line.text
        entry = app.table_screen.query_one(AmountEntry)
        assert entry.is_open and entry.text == "25" and not app.midi.bets
        await keys(pilot, "backspace", "6", "enter")
        await keys(pilot, "n", "2k3284")
        line = app.midi.settlement[0]
        assert (line.exact, line.paid) == (13, 13)
        assert "+13" in text_of(app, BoxesTable) and "exacto" not in text_of(app, BoxesTable)
        assert "Gana la BANCA con 6: se paga el 50 %" in prompt(app)


@aio
async def test_an_amount_typed_after_a_long_label_lays_nothing_out(tmp_path):
    """Midi's entry is as wide as its label (no minimum width holds it): it keeps room for the
    amount, so a typed digit lays the screen out only when the amount outgrows it (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 4, "b", 100)
        await keys(pilot, "4", "b")  # «Casillero 4 — BANCA (ahora ARS 100; 0 la quita): »
        entry = app.table_screen.query_one(AmountEntry)
        assert entry.is_open and "ahora" in str(entry.render())
        laid_out = layouts_of(entry)
        await keys(pilot, "1200", "backspace", "50")
        assert entry.text == "12050" and laid_out == []
        entry.text = "9" * (entry.ROOM + 1)  # more than the room kept: it grows
        assert laid_out == [entry.text]


@aio
async def test_commission_deducted_at_payment_pays_exactly_and_takes_multiples_of_twenty_chips(tmp_path):
    config = DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission", commission_handling="deduct")
    app = live_app(tmp_path, config=config, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "b", 30)
        assert "Art. 5 §3" in app.message_line.text and "multiple of 20 chips" in app.message_line.text
        await keys(pilot, "backspace", "backspace", "20", "enter")
        await bet(pilot, 2, "b", 40)
        await keys(pilot, "n", "2434")  # BANCA natural 8
        lines = app.midi.settlement
        assert [(x.exact, x.paid) for x in lines] == [(19, 19), (38, 38)]
        assert "less 5 % commission" in prompt(app)
        assert "Commission" not in text_of(app, BoxesTable)  # no tally at a deducting table


@aio
async def test_commission_tally_is_shown_on_the_box_and_collected_with_one_key(tmp_path):
    config = DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission")
    app = live_app(tmp_path, config=config, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "b", 30)
        await bet(pilot, 2, "b", 40)
        await keys(pilot, "n", "2434")  # BANCA natural 8
        boxes = text_of(app, BoxesTable)
        assert "BANCA 1 to 1; the 5 % (3.5) to the commission tallies" in boxes and "+30" in boxes
        assert "1 to 1, the 5 % to the commission tally" in prompt(app)
        await keys(pilot, "enter")
        assert app.midi.commission_tally == {1: Decimal("1.50"), 2: Decimal("2.00")}
        assert "Commission" in text_of(app, BoxesTable) and "1.5" in text_of(app, BoxesTable)
        await keys(pilot, "3", "c")  # box 3 owes nothing: the key collects nothing and says why
        assert len(app.midi.commission_tally) == 2 and "«c»" in app.message_line.text
        await keys(pilot, "C")  # caps lock: still this box's key, never every box's tally
        assert len(app.midi.commission_tally) == 2
        await keys(pilot, "1", "c")  # the player of box 1 leaves
        assert app.midi.commission_tally == {2: Decimal("2.00")}
        assert "Commission collected (Art. 5 §3) — box 1: 1 (exact 1.5)" in app.message_line.text
        await keys(pilot, "f2")
        assert app.screen.selected.id == "end_shoe"  # the first action the panel offers here
        await keys(pilot, "enter", "S1", "enter", "123456", "enter", "fin del turno", "enter")
        assert app.midi.phase is Phase.SHOE_END
        # No new shoe while box 2 owes its commission (Art. 5 §3): the key bar does not offer
        # it, the prompt says what to collect, and enter does nothing.
        assert "new shoe" not in app.table_screen.query_one(KeyBar).text and "Art. 5 §3" in prompt(app)
        await keys(pilot, "enter")
        assert app.midi.phase is Phase.SHOE_END
        await keys(pilot, "ctrl+t")  # every tally at once
        assert not app.midi.commission_tally and "new shoe" in app.table_screen.query_one(KeyBar).text
        await keys(pilot, "enter")
        assert app.midi.phase is Phase.BURN


@aio
async def test_the_supervisor_declares_an_empty_sabot_while_the_count_shows_cards(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "p", 100)
        await keys(pilot, "n", "kkkk")
        app.midi.play.cut_card_seen()  # the cut card came out early (the croupier's signal)
        await keys(pilot, "x")  # the croupier's key: refused, the count shows cards
        assert app.midi.phase is Phase.CARDS and "sabot vacío" not in app.table_screen.query_one(KeyBar).text
        await keys(pilot, "f2")
        panel = app.screen
        assert "declare_exhausted" in [a.id for a in panel.actions]
        await keys(pilot, *["down"] * [a.id for a in panel.actions].index("declare_exhausted"), "enter",
                   "S1", "enter", "123456", "enter", "sabot vacío, corte adelantado", "enter")
        assert app.screen is app.table_screen
        assert app.midi.phase is Phase.SHOE_END and app.midi.last_settlement[0].outcome is Outcome.VOID


@aio
async def test_refusals_keep_the_typed_amount_and_undo_and_repeat(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        assert "carta" not in app.table_screen.query_one(KeyBar).text  # no card key before a shoe
        await start_shoe(pilot)
        await keys(pilot, "q")  # a card before «No va más»: the engine's refusal is shown
        assert "Art. 8 §3" in app.message_line.text and app.midi.cards == []
        await keys(pilot, "3")  # a digit while bets are open selects a box, it is no card
        assert app.selected_box == 3 and app.midi.cards == []
        await bet(pilot, 2, "e", 500)  # above the TIE maximum
        entry = app.table_screen.query_one(AmountEntry)
        assert entry.is_open and entry.text == "500"
        assert "Art. 5 §5" in app.message_line.text
        await keys(pilot, "backspace", "backspace", "backspace", "50", "enter")
        assert not entry.is_open and app.midi.bets == {2: {BetKind.TIE: Decimal(50)}}
        await bet(pilot, 5, "p", 100)
        await keys(pilot, "ctrl+z")
        assert 5 not in app.midi.bets
        assert app.midi.journal.round_events(1)[-1].type == "entry_undone"
        await keys(pilot, "n", "3", "ctrl+z")  # a mis-keyed card is taken back
        assert app.midi.cards == []
        await keys(pilot, "3443", "enter")
        await keys(pilot, "ctrl+r")
        assert app.midi.bets == {2: {BetKind.TIE: Decimal(50)}}
        await bet(pilot, 2, "e", 0)  # zero removes the bet
        assert app.midi.bets == {}


@aio
async def test_supervisor_voids_a_coup_and_corrects_a_card(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "p", 100)
        await keys(pilot, "n", "9", "k")
        await keys(pilot, "f2")
        panel = app.screen
        assert isinstance(panel, SupervisorPanel)
        assert [a.id for a in panel.actions][:4] == ["void_coup", "correct_card", "end_shoe", "tray_fill"]
        # A NULO other than the empty sabot's: two supervisors (the second's ID and PIN follow).
        await keys(pilot, "enter", "C1", "enter", "5678", "enter", "S2", "enter", "654321", "enter",
                   "tarjeta marcada", "enter")
        assert app.screen is panel  # a croupier cannot void
        assert panel.query_one(MessageLine).last_error is not None
        panel.query_one("#sup-id").value = "S1"
        await keys(pilot, "123456", "enter", "654321", "enter")  # a refusal clears every PIN typed
        assert app.screen is app.table_screen
        assert app.midi.phase is Phase.BETS and app.midi.coup_no == 2
        assert app.midi.last_settlement[0].outcome is Outcome.VOID
        assert "S1" in app.message_line.text
        # coup 2: the fifth card was keyed wrong; the supervisor corrects it before settlement
        await bet(pilot, 1, "b", 100)
        await keys(pilot, "n", "a33k8")  # BANCA 3 stands on PUNTO's third card 8
        assert len(app.midi.cards) == 5 and app.midi.phase is Phase.RESULT
        # The result is known: the correction changes what is paid, so two supervisors sign.
        await keys(pilot, "f2", "down", "enter", "S1", "enter", "123456", "enter", "5", "enter", "9",
                   "enter", "S2", "enter", "654321", "enter", "se tecleó 8 por 9", "enter")
        assert app.screen is app.table_screen, app.screen.query_one(MessageLine).text
        assert app.midi.cards[4].rank.char == "9"
        assert app.midi.phase is Phase.CARDS  # BANCA 3 draws on a 9: one more card
        await keys(pilot, "3")
        assert app.midi.phase is Phase.RESULT
        await keys(pilot, "enter")
        last = [e for e in app.midi.journal.events() if e.type == "card_corrected"][-1]
        assert (last.staff_id, last.payload["old"], last.payload["new"]) == ("S1", "8", "9")


@aio
async def test_crash_mid_coup_restores_the_coup_and_says_so(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "p", 100)
        await bet(pilot, 6, "b", 60)
        await keys(pilot, "n", "2k3")
        before = app.midi.state_hash()
    # No settlement, no orderly shutdown of the coup: a new console on the same journal file
    # (the crashed process is gone, and the kernel with it released its writer lock).
    app.midi.journal.close()
    again = make_app(LaunchOptions(db=tmp_path / "midi.db"))
    assert again.midi.state_hash() == before
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        notice = again.screen
        assert isinstance(notice, NoticeScreen) and notice.id == "recovery-notice"
        assert "pase 1" in str(notice.query_one(".dialog-body").render())
        await keys(pilot, "enter")
        assert again.screen is again.table_screen
        assert again.midi.card_called_for == "banca"
        assert "«carta 4: BANCA»" in prompt(again)
        await keys(pilot, "8")  # the first croupier key after the relaunch asks C1's PIN
        assert again.screen.id == "duty-pin"
        await keys(pilot, "5678", "enter")  # then the 8 typed before it is keyed
        assert again.midi.phase is Phase.RESULT


@aio
async def test_cut_card_ends_the_shoe(tmp_path):
    app = live_app(tmp_path)
    midi = app.midi
    midi.shift.open(Credentials("C1", "5678"))
    midi.play.new_shoe()
    midi.play.key_card("A")
    midi.play.confirm_burn()
    # Deal most of the shoe through the engine, keeping the last few coups for the keys.
    while midi.shoe.cards_left > 20:
        midi.play.no_va_mas()
        while midi.card_called_for:
            rank = max(midi.shoe.left, key=lambda r: midi.shoe.left[r])
            midi.play.key_card(rank.char)
        midi.play.settle()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for _ in range(10):
            if midi.phase is Phase.SHOE_END:
                break
            await keys(pilot, "n")
            while midi.card_called_for:
                rank = max(midi.shoe.left, key=lambda r: midi.shoe.left[r])
                await keys(pilot, rank.char.lower())
            await keys(pilot, "enter")
        assert midi.phase is Phase.SHOE_END and midi.shoe.cut_card_out
        assert "carta de corte" in prompt(app)
        bar = app.table_screen.query_one(KeyBar).text
        assert "sabot nuevo" in bar and "No va más" not in bar
        await keys(pilot, "enter")
        assert midi.phase is Phase.BURN and midi.shoe.number == 2


@aio
async def test_training_deals_by_itself_in_english(tmp_path):
    app = make_app(LaunchOptions(lang="en", training=True, seed=11, db=tmp_path / "train.db"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen is app.table_screen  # no staff, no sign-in
        assert "TRAINING" in str(app.table_screen.query_one(TrainingBanner).render())
        await keys(pilot, "enter", "enter", "enter")  # new shoe, burn card, burn done
        assert app.midi.phase is Phase.BETS
        await bet(pilot, 1, "p", 50)
        await keys(pilot, "n")
        assert "deal a card" in app.table_screen.query_one(KeyBar).text
        await keys(pilot, "9")  # rank keys are not how cards come in training
        assert app.midi.cards == []
        while app.midi.card_called_for:
            await keys(pilot, "enter")
        assert app.midi.phase is Phase.RESULT
        assert "wins" in prompt(app) or "Tie" in prompt(app)
        await keys(pilot, "enter")
        assert "settled" in app.message_line.text


@aio
async def test_sabot_goes_to_the_selected_box(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await keys(pilot, "4", "s")
        assert app.midi.sabot_holder == 4
        assert "◆4" in text_of(app, BoxesTable)
        await keys(pilot, "s")  # passes to the right
        assert app.midi.sabot_holder == 5


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_hint_label_is_translated(lang):
    from tui_common.i18n import t

    assert all(t(b.description, lang) for b in MidiApp.BINDINGS if b.description)


@aio
async def test_supervisor_deals_then_ends_the_shoe(tmp_path):
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await keys(pilot, "3", "s")  # box 3 holds the sabot
        await keys(pilot, "ctrl+r")  # nothing to repeat yet: the key is not offered and does nothing
        assert app.midi.bets == {} and "ctrl+r" not in app.table_screen.query_one(KeyBar).text
        await bet(pilot, 3, "p", 50)
        await keys(pilot, "f2")
        panel = app.screen
        assert [a.id for a in panel.actions][:4] == ["void_coup", "end_shoe", "supervisor_deals", "tray_fill"]
        await keys(pilot, "down", "down", "enter", "S1", "enter", "123456", "enter", "el jugador se retira", "enter")
        assert app.screen is app.table_screen and app.midi.supervisor_dealing
        assert "reparte el supervisor" in text_of(app, TableHeader)
        await keys(pilot, "n", "9kk5", "enter")  # PUNTO wins; the sabot goes to the holder's right
        assert app.midi.sabot_holder == 4 and not app.midi.supervisor_dealing
        await keys(pilot, "f2")
        assert [a.id for a in app.screen.actions][:3] == ["end_shoe", "supervisor_deals", "tray_fill"]
        await keys(pilot, "enter", "S1", "enter", "123456", "enter", "cartas marcadas", "enter")
        assert app.midi.phase is Phase.SHOE_END
        assert "Fin del sabot" in prompt(app)


def test_a_lost_net_is_shown_with_the_true_minus_as_on_madero():
    from midi_tui.view import _net_row
    from shared.messages import Msg

    line = SettlementLine(1, BetKind.BANCA, Decimal(25), Outcome.LOSE, Decimal(0), Decimal(0), Msg.of("payouts.lose"))
    assert [cell.text for cell in _net_row([1], [line], "es").cells] == ["\u221225"]


@aio
async def test_the_prompt_says_at_once_that_the_coup_is_the_shoes_last(tmp_path):
    """Art. 8 §1: the coup during which the cut card comes out is the last; the prompt says so
    from the card that brings it out until the coup is settled, not only the header's «corte»."""
    app = live_app(tmp_path)
    midi = app.midi
    midi.shift.open(Credentials("C1", "5678"))
    midi.play.new_shoe()
    midi.play.key_card("A")
    midi.play.confirm_burn()
    while midi.shoe.cards_left > 14:
        midi.play.no_va_mas()
        while midi.card_called_for:
            midi.play.key_card(max(midi.shoe.left, key=lambda r: midi.shoe.left[r]).char)
        midi.play.settle()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = []
        while midi.phase is not Phase.SHOE_END:
            await keys(pilot, "n")
            while midi.card_called_for:
                cut_next = midi.shoe.cards_left <= 7
                assert ("carta de corte" in prompt(app)) is (midi.shoe.cut_card_out or cut_next)
                await keys(pilot, max(midi.shoe.left, key=lambda r: midi.shoe.left[r]).char.lower())
            if midi.shoe.cut_card_out:
                seen.append(prompt(app))
            await keys(pilot, "enter")
        assert seen and "Salió la carta de corte: este pase es el último del sabot (Art. 8 §1)" in seen[-1]


@aio
async def test_commission_collected_from_every_box_stays_until_acknowledged(tmp_path):
    """ctrl+t clears every tally at once: what to take from each of nine boxes waits in a
    notice, whole at 120×40, until the croupier acknowledges it (one message line cut it after
    the fourth box)."""
    config = DEFAULT_MIDI_TABLE.with_changes(banca_mode="commission")
    app = live_app(tmp_path, config=config)
    async with app.run_test(size=(120, 40)) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        for box in range(1, 10):
            await bet(pilot, box, "b", 30 + 10 * box)
        await keys(pilot, "n", "2434", "enter")  # BANCA natural 8: every box owes 5 %
        owed = dict(app.midi.commission_tally)
        assert len(owed) == 9
        await keys(pilot, "ctrl+t")
        assert not app.midi.commission_tally and app.screen.id == "commission-notice"
        notice = " ".join(str(w.render()) for w in app.screen.query(".dialog-body"))
        for box, tally in owed.items():
            collected = app.midi.config.chip * int(tally / app.midi.config.chip)
            assert f"casillero {box}: {collected:f}".rstrip("0").rstrip(".").replace(".", ",") in notice
        await keys(pilot, "n")  # a game key does not dismiss it: only enter or esc
        assert app.screen.id == "commission-notice"
        await keys(pilot, "enter")
        assert app.screen is app.table_screen


@aio
async def test_the_words_of_a_decided_coup(tmp_path):
    """A natural ends the coup (Art. 6 §2): the other hand did not «stand», it could not
    draw; a coup the third-card rule ended refuses a further card citing that rule, not §2."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "p", 100)
        await keys(pilot, "n", "9kk5")  # PUNTO natural 9, BANCA 5
        banca = app.table_screen.hands.texts[1].plain
        assert "se planta" not in banca and "sin tercera carta (natural)" in banca
        await keys(pilot, "3")
        assert "Art. 6 §2" in app.message_line.text
        await keys(pilot, "enter", "n", "3343")  # PUNTO 7 and BANCA 6 stand: the third-card rule
        assert app.midi.phase is Phase.RESULT and not app.midi.result.natural
        await keys(pilot, "3")
        assert "Art. 6, tercera carta §2" in app.message_line.text and "Art. 6 §2" not in app.message_line.text


@aio
async def test_the_settlement_changes_the_key_bars_rows_and_lays_nothing_out(tmp_path):
    """The key bar keeps two rows: the result's keys take one, the bets' two, and the
    settlement between them laid the whole screen out (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "b", 20)
        await keys(pilot, "n", "2434")  # BANCA natural 8
        assert app.midi.phase is Phase.RESULT
        bar = app.table_screen.query_one(KeyBar)
        before = len(bar.text.splitlines())
        reflows = reflows_of(app.table_screen)
        await keys(pilot, "enter")
        assert app.midi.phase is not Phase.RESULT
        assert (before, len(bar.text.splitlines())) == (1, 2), bar.text
        assert bar.size.height == 2 and reflows == []

@aio
async def test_every_key_of_the_bar_shows_at_100_by_30_while_an_amount_is_typed(tmp_path):
    """At 100x30 an open amount with a bet on the table needs three lines of keys: the
    third (F3, ctrl+q) was cut off by the bar's two-line height."""
    app = live_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "b", 16)
        await keys(pilot, "2", "p", "5")
        bar = app.table_screen.query_one(KeyBar)
        lines = bar.text.splitlines()
        assert len(lines) == 3 and "ctrl+q" in lines[-1]
        assert bar.content_region.height == len(lines)


@aio
async def test_the_cards_change_the_boxes_rows_and_lay_nothing_out(tmp_path):
    """The boxes' region has a fixed height: a card that changes how many of its rows are
    written laid the whole screen out all the same, each key (issue 32)."""
    app = live_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "b", 20)
        await bet(pilot, 2, "p", 40)
        await keys(pilot, "n")
        boxes = app.table_screen.query_one(BoxesTable)
        rows = [len(boxes.lines())]
        reflows = reflows_of(app.table_screen)
        for card in "2434":  # BANCA natural 8
            await keys(pilot, card)
            rows.append(len(boxes.lines()))
        assert app.midi.phase is Phase.RESULT and len(set(rows)) > 1, rows
        assert reflows == []


@aio
async def test_the_settled_coup_is_drawn_before_its_snapshot_is_saved(tmp_path):
    """The settlement's frame does not wait for the snapshot (wording and sealing the state was
    ~10 % of the key, issue 32): the frame that shows the coup settled is drawn with the
    previous snapshot the latest, and the coup's own is saved right after it."""
    app = live_app(tmp_path)
    journal = app.midi.journal
    drawn: list[tuple[bool, int | None]] = []
    display = app._display

    def recorded(screen, renderable):
        if renderable is not None:
            snapshot = journal.latest_snapshot()
            drawn.append((app.midi.phase is Phase.BETS and not app.midi.bets, snapshot and snapshot[0]))
        return display(screen, renderable)

    app._display = recorded
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await start_shoe(pilot)
        await bet(pilot, 1, "p", 100)
        await keys(pilot, "n", "9kk5")
        before = journal.latest_snapshot()
        drawn.clear()
        await keys(pilot, "enter")
        await pilot.pause()
        settled_at = journal.last_seq
        assert app.midi.phase is Phase.BETS and app.midi.coup_no == 2
        first_settled = next(seq for settled, seq in drawn if settled)
        assert first_settled == (before and before[0]) and first_settled != settled_at
        assert journal.latest_snapshot()[0] == settled_at
