"""Pilot tests of the widgets both consoles share, on a toy engine built on the real journal.

The toy game ("toy") has rounds that open, take amounts and close, and one supervisor
command (void); it is just enough of a ``TableEngine`` to drive every shared screen.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

import pytest
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen

from shared.commands import Authority, Field, Offer, When, command
from shared.engine import TableEngine
from shared.errors import RuleViolation
from shared.events import EventBody
from shared.journal import Event, Journal
from shared.messages import Msg
from shared.actor import Actor, Role
from shared.staff import Credentials, StaffRegistry
from tui_common.app import TableApp
from tui_common.screens.enrol import EnrolScreen
from tui_common.screens.notice import ConfirmScreen, HelpScreen, NoticeScreen
from tui_common.screens.recall import RecallScreen
from tui_common.screens.sign_in import SignInScreen
from tui_common.screens.supervisor import SupervisorPanel
from tui_helpers import SIZE, aio, type_in_one_burst
from tui_common.widgets import AmountEntry, CardEntry, KeyBar, MessageLine, TrainingBanner


@dataclass(frozen=True)
class RoundOpened(EventBody):
    type: ClassVar[str] = "round_opened"


@dataclass(frozen=True)
class AmountAdded(EventBody):
    type: ClassVar[str] = "amount_added"
    amount: Decimal


@dataclass(frozen=True)
class RoundEnded(EventBody):
    type: ClassVar[str] = "round_ended"


@dataclass(frozen=True)
class RoundVoided(EventBody):
    type: ClassVar[str] = "round_voided"
    reason: str


class ToyEngine(TableEngine):
    game = "toy"

    def initial_state(self) -> None:
        self.round = 0
        self.open = False
        self.total = Decimal(0)

    def apply(self, event: Event) -> None:
        if event.type == "round_opened":
            self.round += 1
            self.open = True
            self.total = Decimal(0)
        elif event.type == "amount_added":
            self.total += Decimal(event.payload["amount"])
        elif event.type in ("round_ended", "round_voided"):
            self.open = False

    def snapshot_state(self) -> dict:
        return {"round": self.round, "open": self.open, "total": str(self.total)}

    def restore_state(self, data: dict) -> None:
        self.round, self.open, self.total = data["round"], data["open"], Decimal(data["total"])

    @property
    def round_id(self) -> int:
        return self.round

    def round_id_for(self, type: str, payload: dict) -> int:
        return self.round + 1 if type == "round_opened" else self.round

    @property
    def round_open(self) -> bool:
        return self.open

    def can_open_round(self) -> bool:
        return not self.open

    def open_round(self) -> None:
        self.record(RoundOpened(), self.croupier)

    def verify_add(self, amount: Decimal) -> None:
        if not self.open:
            raise RuleViolation("Art. 9 §1", Msg.of("ui.duty_no_round"))
        if amount > 500:
            raise RuleViolation("Art. 5 §4", Msg.of("midi.err_above_maximum", maximum=500))

    def add(self, amount: Decimal) -> None:
        self.verify_add(amount)
        self.record(AmountAdded(amount), self.croupier)

    def verify_void(self, creds: Credentials | None = None, reason: str | None = None, note: str = "") -> None:
        if not self.open:
            raise RuleViolation("Art. 9 §3", Msg.of("midi.err_coup_progress_void"))

    # The toy's one supervisor command, declared as a game declares its own: on F2 with no app code.
    @command("void", (When.ANY, Authority.SUPERVISOR), "Art. 9 §3", "supervisor_action",
             offers=(Offer("void", "supervisor_action", (Field("note", "name"),)),))
    def void(self, creds: Credentials, reason: str, note: str = "") -> str:
        self.verify_void()
        actor = self.signers.authorize(creds, Role.SUPERVISOR)
        self.record(RoundVoided(reason), actor)
        return f"void {note}"


class ToyScreen(Screen):
    def compose(self) -> ComposeResult:
        app = self.app
        assert isinstance(app, ToyApp)
        yield from app.table_widgets()
        yield AmountEntry(app.lang, id="amount")
        yield MessageLine(app.lang)
        yield KeyBar(app.lang)


class ToyApp(TableApp):
    BINDINGS = [Binding("o", "open_round", "confirm"), Binding("a", "amount", "amount_prompt")]

    def make_table_screen(self) -> Screen:
        return ToyScreen()

    def game_action_allowed(self, action, parameters, key):
        engine = self.engine
        assert isinstance(engine, ToyEngine)
        if action == "open_round":
            return engine.can_open_round()
        if action == "amount":
            return engine.round_open
        return True

    def action_open_round(self) -> None:
        self.command(self.engine.open_round)

    def action_amount(self) -> None:
        self.open_amount("Importe", "add")

    def place_amount(self, tag, amount) -> None:
        self.engine.add(amount)

    def refresh_table(self) -> None:
        if self.table_screen is not None and self.table_screen.is_mounted:
            self.table_screen.query_one(KeyBar).refresh_hints()
        self.refresh_bindings()


def make(tmp_path, *, staff: bool = True, training: bool = False, lang: str = "es", enrol: bool = True):
    journal = Journal(tmp_path / "toy.db", "T-1", "toy")
    registry = StaffRegistry(journal) if staff else None
    if registry is not None and enrol:
        registry.enrol("S1", "Sara", Role.SUPERVISOR, "123456", by=None)
        registry.enrol("C1", "Carlos", Role.CROUPIER, "5678", by=Credentials("S1", "123456"))
    engine = ToyEngine(journal, registry, training=training)
    return ToyApp(engine, lang=lang, training=training, seed=7 if training else None)


def top_row(app: TableApp) -> str:
    """The screen's first row as drawn, with whatever shows through a modal screen."""
    return app.screen._compositor.render_strips()[0].text


async def type_text(pilot, text: str) -> None:
    await pilot.press(*list(text))


async def sign_in(pilot, staff_id="C1", pin="5678") -> None:
    await type_text(pilot, staff_id)
    await pilot.press("enter")
    await type_text(pilot, pin)
    await pilot.press("enter")
    await pilot.pause()


@aio
async def test_first_start_enrols_supervisor_then_croupier_then_signs_in(tmp_path):
    app = make(tmp_path, enrol=False)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, EnrolScreen)
        await type_text(pilot, "S9")
        await pilot.press("enter")
        await type_text(pilot, "Sofía")
        await pilot.press("enter")
        await type_text(pilot, "111111")
        await pilot.press("enter")
        await type_text(pilot, "222222")
        await pilot.press("enter")
        assert "no coinciden" in str(app.screen.query_one(MessageLine).render())
        await type_text(pilot, "111111")
        await pilot.press("enter")
        await type_text(pilot, "111111")
        await pilot.press("enter")
        await pilot.pause()
        assert app.engine.staff.get("S9").role is Role.SUPERVISOR
        assert app.screen.id == "enrol-croupier"
        for text in ("C9", "Ciro", "4444", "4444"):
            await type_text(pilot, text)
            await pilot.press("enter")
        await pilot.pause()
        assert app.engine.staff.get("C9").role is Role.CROUPIER
        assert isinstance(app.screen, SignInScreen)
        await sign_in(pilot, "C9", "4444")
        assert app.engine.croupier == Actor("C9", Role.CROUPIER)
        assert "C9" in app.message_line.text


@aio
async def test_sign_in_refuses_wrong_pin_and_keeps_the_id(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, SignInScreen)
        await sign_in(pilot, "C1", "0000")
        screen = app.screen
        assert isinstance(screen, SignInScreen)
        assert screen.query_one("#staff-id").value == "C1"
        assert screen.query_one("#pin").value == ""
        assert screen.query_one(MessageLine).last_error is not None
        await type_text(pilot, "5678")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.table_screen
        assert app.engine.croupier.staff_id == "C1"


@aio
async def test_dialogs_typed_in_one_burst_fill_each_field_in_turn(tmp_path):
    # Every key queued before the first is handled: each enter must move on before the
    # next characters are typed, or «C1 enter 5678 enter» lands in the first field.
    app = make(tmp_path, enrol=False)
    async with app.run_test(size=SIZE) as pilot:
        assert isinstance(app.screen, EnrolScreen)
        # One burst per dialog (keys typed while the next dialog is still opening are not held).
        await type_in_one_burst(app, pilot, "S1", "enter", "Sara", "enter", "123456", "enter", "123456", "enter")
        await type_in_one_burst(app, pilot, "C1", "enter", "Carlos", "enter", "5678", "enter", "5678", "enter")
        assert isinstance(app.screen, SignInScreen)
        # «x» is refused by the PIN field itself; backspace takes back the «9» typed before it.
        await type_in_one_burst(app, pilot, "C1", "enter", "569x", "backspace", "78", "enter")
        assert app.screen is app.table_screen, app.screen
        assert app.engine.croupier.staff_id == "C1"
        assert app.engine.staff.get("S1").name == "Sara"


@aio
async def test_key_bar_shows_only_allowed_keys_and_refusal_keeps_typed_amount(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        bar = app.screen.query_one(KeyBar)
        assert "o confirmar" in bar.text and "Importe" not in bar.text
        await pilot.press("a")  # not allowed: no round open → binding refused by check_action
        assert not app.screen.query_one(AmountEntry).is_open
        await pilot.press("o")
        assert app.engine.round_open
        bar.refresh_hints()
        assert bar.text.startswith("a Importe")
        await pilot.press("a", "9", "0", "0", "enter")
        entry = app.screen.query_one(AmountEntry)
        assert entry.is_open and entry.text == "900"
        assert "Art. 5 §4" in app.message_line.text
        await pilot.press("backspace", "backspace", "backspace", "1", "2", "0", "enter")
        assert not entry.is_open
        assert app.engine.total == Decimal(120)
        assert app.message_line.text == ""
        # While an amount is open the key bar says how to place or cancel it; esc closes both.
        await pilot.press("a")
        assert entry.is_open and "enter anotar" in bar.text
        await pilot.press("escape")
        assert not entry.is_open and "enter anotar" not in bar.text


@aio
async def test_supervisor_panel_refuses_bad_pin_inside_then_voids(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await pilot.press("o")
        await pilot.press("f2")
        panel = app.screen
        assert isinstance(panel, SupervisorPanel)
        await pilot.press("f2")  # a second F2 does not stack a second panel
        assert app.screen is panel
        await pilot.press("enter")  # choose the (only) action → focus the first empty field
        await type_text(pilot, "C1")
        await pilot.press("enter")
        await type_text(pilot, "5678")
        await pilot.press("enter")
        await type_text(pilot, "x")
        await pilot.press("enter")
        await pilot.press("enter")  # reason still empty: the panel asks for it
        assert "Motivo" in panel.query_one(MessageLine).text
        await type_text(pilot, "mano mal repartida")
        await pilot.press("enter")
        # a croupier is not a supervisor: the engine refuses, the panel stays with the reason kept
        assert app.screen is panel
        assert panel.query_one("#reason").value == "mano mal repartida"
        assert panel.query_one(MessageLine).last_error is not None
        assert app.engine.round_open
        panel.query_one("#sup-id").value = "S1"
        await type_text(pilot, "123456")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.table_screen
        assert not app.engine.round_open
        assert app.last_supervisor.staff_id == "S1"
        assert "S1" in app.message_line.text and "void x" in app.message_line.text
        last = list(app.engine.journal.events())[-1]
        assert (last.type, last.staff_id, last.role, last.payload["reason"]) == (
            "round_voided", "S1", "supervisor", "mano mal repartida")


@aio
async def test_recall_says_it_is_not_the_live_game(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        for _ in range(12):
            app.engine.open_round()
            app.engine.add(Decimal(10))
            app.engine.record(RoundEnded(), app.engine.croupier)
        await pilot.press("f3")
        screen = app.screen
        assert isinstance(screen, RecallScreen)
        title = str(screen.query_one("#recall-title").render())
        assert "HISTORIAL" in title and "no es el pase en curso" in title
        text = str(screen.query_one("#recall-text").render())
        assert "Pase 3 " in text and "Pase 12" in text and "Pase 2 " not in text
        assert text.count("amount_added") == 10
        await pilot.press("escape")
        assert app.screen is app.table_screen


@aio
async def test_quit_asks_only_during_a_round(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await pilot.press("o", "ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert app.screen is app.table_screen and app.is_running
        await pilot.press("ctrl+q", "s")
        await pilot.pause()
        assert not app.is_running


@aio
async def test_restart_mid_round_shows_recovery_notice(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await sign_in(pilot)
        await pilot.press("o", "a", "4", "0", "enter")
    app.engine.journal.close()
    journal = Journal(tmp_path / "toy.db", "T-1", "toy")
    engine = ToyEngine(journal, StaffRegistry(journal))
    again = ToyApp(engine, lang="en")
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, NoticeScreen) and again.screen.id == "recovery-notice"
        assert "round 1" in str(again.screen.query_one(".dialog-body").render())
        assert engine.total == Decimal(40)
        await pilot.press("enter")
        assert again.screen is again.table_screen


@aio
async def test_training_shows_banner_and_needs_no_staff(tmp_path):
    app = make(tmp_path, staff=False, training=True, lang="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen is app.table_screen
        banner = app.screen.query_one(TrainingBanner)
        assert "TRAINING" in str(banner.render()) and "seed 7" in str(banner.render())
        assert "TRAINING" in top_row(app)
        # Every screen keeps it in sight: the overlays let it show through, recall draws its own.
        await pilot.press("o")
        for key, screen in (("f1", HelpScreen), ("f2", SupervisorPanel), ("f3", RecallScreen),
                            ("ctrl+q", ConfirmScreen)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, screen)
            assert "┃ TRAINING ┃" in top_row(app), screen
            await pilot.press("escape")
            assert app.screen is app.table_screen


class CardApp(TableApp):
    BINDINGS = [*(Binding(c, f"card_key('{c}')") for c in string.ascii_lowercase + string.digits), *TableApp.BINDINGS]

    def make_table_screen(self) -> Screen:
        class S(Screen):
            def compose(self) -> ComposeResult:
                yield CardEntry("Carta", id="card")
                yield MessageLine()

        return S()

    def on_mount(self) -> None:
        self.cards: list[str] = []
        self.errors: list[str] = []

    def action_card_key(self, key) -> None:
        keyed = self.screen.query_one(CardEntry).press(key, key)
        if keyed is not None and keyed.card is not None:
            self.cards.append(str(keyed.card))
        if keyed is not None and keyed.error is not None:
            self.errors.append(keyed.error.message("en"))


@pytest.mark.parametrize(
    ("keys", "cards", "refused"),
    [
        ("As kd 10h Tc", ["As", "Kd", "Th", "Tc"], 0),
        ("1x", [], 1),
        ("Zz", [], 2),  # no rank starts with Z: each key refused, nothing kept
        ("Ax h", ["Ah"], 1),  # a wrong suit keeps the rank typed: one more key fixes it
    ],
)
@aio
async def test_card_entry(tmp_path, keys, cards, refused):
    app = CardApp(make(tmp_path, staff=False, training=True).engine, training=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*[k for k in keys if k != " "])
        assert app.cards == cards
        assert len(app.errors) == refused
        if keys == "Zz":
            assert "unknown rank" in app.errors[0]


@aio
async def test_the_pin_check_runs_off_the_event_loop_and_keys_after_it_wait_their_turn(tmp_path):
    import threading

    app = make(tmp_path)
    checked_in: list[int] = []
    open_shift = app.engine.shift.open

    def slow_open_shift(creds):
        checked_in.append(threading.get_ident())
        return open_shift(creds)

    app.engine.shift.open = slow_open_shift
    async with app.run_test(size=SIZE) as pilot:
        # «o» typed right behind the PIN's enter opens the round once the croupier is on duty.
        await type_in_one_burst(app, pilot, "C1", "enter", "5678", "enter", "o")
        assert app.screen is app.table_screen and app.engine.croupier.staff_id == "C1"
        assert checked_in and checked_in[0] != threading.get_ident()
        assert app.engine.round_open


def test_unscrolled_overrides_textual_s_own_resize_hook_as_textual_declares_it():
    """``Unscrolled`` passes Textual's private ``Widget._size_updated`` one argument of its own:
    a Textual that renamed or reshaped the hook would leave the override dead (and the second
    whole-screen layout back) without a word."""
    import inspect

    from textual.widget import Widget

    from tui_common.widgets.unscrolled import Unscrolled

    def shape(function):
        return [(p.name, p.default) for p in inspect.signature(function).parameters.values()]

    assert shape(Unscrolled._size_updated) == shape(Widget._size_updated)
    assert "layout" in inspect.signature(Widget._size_updated).parameters
