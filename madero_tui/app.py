"""The Madero Poker Bonus table console: a Textual app that shows the engine and sends it commands.

One factory, ``make_app(options, ...)``, builds the app for the command line, the tests,
the snapshot apps and the benchmark. The app decides nothing about the game: which keys
work, whose turn it is, what to announce and what to pay all come from ``MaderoTable``.
"""

from __future__ import annotations


import random
import time
from collections import deque
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.screen import Screen

from shared.cards import make_rng
from shared.commands import can
from shared.journal import Event
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.carrusel import open_meter_store
from shared.madero.meter import MeterStore
from shared.madero.settlement import Bet
from shared.madero.table import Action, MaderoTable, Phase
from shared.money import ZERO, fmt_money
from shared.text import printable
from tui_common.app import BASE_CSS, TableApp, open_console, run_console
from tui_common.i18n import input_error, t
from tui_common.options import LaunchOptions

from madero_tui import view
from madero_tui.keys import MADERO_KEYS
from madero_tui.carrusel_link import CarruselLink
from madero_tui.events_text import describe, describe_with_time
from madero_tui.screens.table import TableScreen

if TYPE_CHECKING:
    from tui_common.training.context import TrainingContext
    from tui_common.training.graded import GradedTable

MADERO_CSS = Path(__file__).with_name("madero.tcss")

CLOCK_SECONDS = 15
METER_POLL_SECONDS = 0.5
"""A linked table reads the Carrusel's jackpot this often: shown within a second (issue 17)."""


def _clock() -> str:
    return time.strftime("%H:%M")


class RecentLines:
    """The log's worded entries, newest last, as many as ``rows``: each key words only what it
    journaled."""

    def __init__(self, rows: int) -> None:
        self.rows = rows
        self.lines: deque[str] = deque(maxlen=rows)
        self.last_seq = 0
        self.text = ""


class MaderoApp(CarruselLink):
    TITLE = "Madero Poker Bonus"
    # The poker evaluator's lookup tables (~48 ms to load): the first showdown's key cost ~100 ms.
    PRELOAD = (*CarruselLink.PRELOAD, "shared.poker.evaluator")
    CSS_PATH = [BASE_CSS, MADERO_CSS]
    KEYS = MADERO_KEYS
    BINDINGS = [*MADERO_KEYS.bindings, *TableApp.BINDINGS]

    def __init__(
        self,
        engine: MaderoTable,
        *,
        lang: str = "es",
        training: bool = False,
        seed: int | None = None,
        clock: Callable[[], str] = _clock,
        graded: GradedTable | None = None,
    ) -> None:
        super().__init__(engine, lang=lang, training=training, seed=seed, graded=graded)
        self.engine: MaderoTable = engine
        self.clock = clock
        self.selected_box = 1
        """The box whose bet ``a``/``b``/``j`` opens (a cursor; the engine keeps the bets)."""
        self._was_open = engine.round_open
        self._recent = RecentLines(0)
        """The log's text, and the journal head and the screen's rows it was read for."""
        self._log_waits = True
        """The launch's first frame draws the table without its log, which is read and worded
        (~35 M instructions, 2 % of the launch) right after it (issue 32)."""
        self._meter_call_running = False
        """A worker is reading the Carrusel's server (one at a time)."""
        self._poll_store: MeterStore | None = None
        """The header's own connection to the Carrusel (``MeterStore.sibling``)."""
        self._settling = False
        """A settlement is being confirmed with the Carrusel's server in its own thread: the
        engine takes no other command, and the screen only its header, until it ends."""
        # Draws the candidate deals of an adaptive graded round (no seed: a new one each session).
        self.adaptive_rng = make_rng(None)

    def on_mount(self) -> None:
        # TableApp's on_mount runs too (Textual calls each class's handler): it pushes the table.
        # The header clock moves even while nobody types.
        self.set_interval(CLOCK_SECONDS, self._tick)
        if self.engine.config.carrusel_id is not None and self.engine.carrusel.store is not None:
            self._poll_meter()  # the server's first reading (and what is owed to it), off this thread
            self.set_interval(METER_POLL_SECONDS, self._poll_meter)

    def _tick(self) -> None:
        # Only the header's clock changes; a dialog on top keeps its own focus undisturbed.
        if self.table_in_front():
            self.refresh_table()

    # --- TableApp hooks --------------------------------------------------------------------

    def make_table_screen(self) -> Screen[None]:
        return TableScreen(self.engine.config.boxes, self.lang, list(self.table_widgets()))

    def unmoved_key_display(self, binding: Binding) -> str:
        if binding.id == "select_box_1":
            return f"1–{self.engine.config.boxes} ← →"  # a smaller table names the digits it has
        return super().unmoved_key_display(binding)

    def describe_event(self, event: Event, lang: str) -> str:
        return describe_with_time(event, lang)

    # --- redraw ----------------------------------------------------------------------------

    def refresh_table(self) -> None:
        screen = self._mounted_table()
        if screen is None:
            return  # not mounted yet: its on_mount asks again
        self.clock_notice()
        if self._settling:
            self._refresh_meter(screen)  # the clock goes on; the round is the settling thread's
            return
        engine, lang = self.engine, self.lang
        phase = engine.phase
        # A graded table's question waits: the settlement (the bank's hand, who wins, what
        # each bet pays) would answer it, so it stays hidden until the last answer.
        masked = self.graded_question() is not None
        # A meter prize is shown only once the store has answered its claim (issue 27 §1).
        shown_due = phase is Phase.SETTLEMENT and not masked and not engine.carrusel.prize_claim_due
        settlement = engine.carrusel.pending_settlement() if shown_due else None
        # A void closes the round at once (§37, §70): its returns stay on screen until the
        # next round opens, so the croupier can hand every bet back.
        last = engine.last_settlement
        voided = last if phase is Phase.IDLE and last is not None and last.void else None
        self._refresh_meter(screen)
        top = screen.top
        assert top is not None  # mounted: refresh_table draws a mounted table
        top.show_bank(view.bank_cards(engine), settlement.bank_text(lang) if settlement else "", t("mad_bank", lang))
        community, burns = view.board_texts(engine, lang)
        top.show_board(community, burns, t("mad_board", lang))
        top.show_paytable(view.paytable_rows(engine, lang), t("mad_paytable", lang))
        if engine.to_act is not None:
            self.selected_box = engine.to_act
        elif not engine.round_open and self._was_open:
            self.selected_box = 1  # a new round's bets start at the first box again
        self._was_open = engine.round_open
        screen.boxes.show([view.box_view(engine, number, lang, settlement) for number in range(1, engine.config.boxes + 1)],
                          self.selected_box)
        shown = settlement or voided
        screen.show_settling(shown is not None)
        if shown is not None:
            screen.lower.show_settlement(
                view.settlement_view(shown, t("mad_round", lang, number=engine.round_id), lang, engine.config.currency,
                                     engine.round_adjustments() if settlement is not None else [])
            )
            screen.lower.current = "settlement"
        else:
            if self._log_waits:
                self._log_waits = False
                self.call_after_refresh(self._show_log)
            else:
                self._show_log()
            screen.lower.current = "log"
        prompt, said = engine.prompt, engine.announcement
        if masked:
            assert self.graded is not None
            screen.prompt.show_text(self.graded.prompt(screen.prompt.content_size.width or None))
        else:
            screen.prompt.show(prompt.text(lang), prompt.article, said.text(lang) if said else "", t("mad_announce", lang))
        self._set_entry(screen)
        screen.key_bar.refresh_hints()
        self.refresh_bindings()

    def _show_log(self) -> None:
        screen = self._mounted_table()
        if screen is not None:
            screen.lower.show_log(self._recent_entries())

    def _recent_entries(self) -> str:
        """As many of the newest entries as the log can hold: each takes a row at least, and the
        log has fewer rows than the screen (it shows the newest that fit)."""
        journal, rows = self.engine.journal, self.size.height
        recent = self._recent
        if recent.rows != rows or journal.last_seq < recent.last_seq:
            recent = self._recent = RecentLines(rows)
        if journal.last_seq != recent.last_seq:
            # Only the entries journaled since the last key are read and worded (most keys
            # journal one or none): wording the whole log again cost ~5 ms a key.
            for event in journal.events(after=max(recent.last_seq, journal.last_seq - rows)):
                # Escaped whole, as the one row it is: a line feed in a reason cannot forge a
                # row. Escaping each field first walked a settlement's every box (~1 ms a round).
                recent.lines.append(printable(describe(event, self.lang, with_actor=None)))
                recent.last_seq = event.seq
            recent.text = "\n".join(recent.lines)
        return recent.text

    def _set_entry(self, screen: TableScreen) -> None:
        """Open the card entry when the engine asks for a card; close an amount once bets are closed.

        The amount entry opens only on ``a``/``b``/``j``: until then digits select boxes.
        """
        amount = screen.amount_entry
        card = screen.card_entry
        legal = self.legal()
        if card.display != (Action.KEY_CARD in legal):
            card.display = Action.KEY_CARD in legal
        if amount.is_open and Action.PLACE_BET not in legal:
            amount.close()
        if Action.KEY_CARD in legal:
            target = self.engine.expected_card()
            label = view.card_target_label(target, self.lang)
            if card.label != label:
                card.label = label
                card.refresh(layout=True)  # a longer label widens the entry
            if not card.has_focus:
                screen.set_focus(card)
        elif card.has_focus:
            screen.set_focus(None)

    def place_amount(self, tag: tuple[int, Bet], amount: Decimal) -> None:
        box, bet = tag
        self.engine.play.place_bet(box, bet, amount)  # 0 removes the bet

    def action_card_key(self, key: str) -> None:
        """A key of the card entry: a complete card goes to the engine, a wrong key is refused."""
        screen = self.table_screen
        assert isinstance(screen, TableScreen)
        keyed = screen.card_entry.press(key, key if len(key) == 1 else None)
        if keyed is None:  # backspace or esc with nothing typed
            self.unbound_key(key, None)
        elif keyed.card is not None:
            self.command(self.engine.play.key_card, keyed.card)
        elif keyed.error is not None:
            self.show_error(keyed.error)

    def unbound_key(self, key: str, character: str | None) -> None:
        if character is not None and character.isdigit() and Action.PLACE_BET in self.legal():
            # Bets open: a digit names a box, and this table has no such box.
            self.show_error(input_error("mad_no_such_box", key=character, boxes=self.engine.config.boxes))
            return
        super().unbound_key(key, character)

    def prompt_text(self, lang: str) -> str:
        return self.engine.prompt.text(lang)

    # --- bets --------------------------------------------------------------------------------

    def action_open_bet(self, bet: str) -> None:
        self._open_entry(Bet(bet))

    def _open_entry(self, bet: Bet) -> None:
        """Open the amount of ``bet`` for the selected box (another bet key switches to that bet)."""
        box = self.selected_box
        lang = self.lang
        current = self.engine.boxes.get(box)
        if bet is Bet.JACKPOT:
            label = t("mad_credits_entry", lang, box=box)
            now = str(current.jackpot_credits) if current and current.jackpot_credits else ""
        else:
            label = t("mad_bet_entry", lang, box=box, bet=t(f"mad_bet_{bet.value}", lang))
            stake: Decimal = getattr(current, bet.value) if current else ZERO
            now = fmt_money(stake, lang=self.lang) if stake else ""
        if now:
            label += " " + t("mad_bet_now", lang, amount=now)
        # Credits are 1 to 5 (Art. 11 §42): the digit is the whole entry, no enter after it.
        self.open_amount(label, (box, bet), single_digit=bet is Bet.JACKPOT)

    def last_amount(self, tag: tuple[int, Bet]) -> Decimal | None:
        return self.engine.play.last_stake(*tag)

    def action_select_box(self, box: int) -> None:
        # Only with no amount open: an open entry takes the digits.
        self.selected_box = box
        self.refresh_table()

    def action_move_box(self, step: int) -> None:
        boxes = self.engine.config.boxes
        self.selected_box = (self.selected_box - 1 + step) % boxes + 1
        self._reopen_entry()
        self.refresh_table()

    def _reopen_entry(self) -> None:
        # An arrow with an amount open moves that bet to the new box (as in the Midi console).
        screen = self._mounted_table()
        if screen is not None and screen.amount_entry.is_open:
            self._open_entry(screen.amount_entry.tag[1])

    def action_group_boxes(self) -> None:
        from madero_tui.screens.group import GroupBoxesScreen  # imported when first opened

        def done(typed: str | None) -> None:
            if typed is not None:
                self.show_info(t("mad_grouped_info", self.lang, boxes=typed))
            self.refresh_table()

        self.push_screen(GroupBoxesScreen(self.engine.play.group_boxes, self.lang), done)

    def action_no_va_mas(self) -> None:
        graded = self.graded
        if graded is not None and self.seed is None and can(self.engine.play.verify_no_va_mas):
            from shared.training.madero_dealing import ADAPTIVE_KINDS, adaptive_seed

            # Adaptive practice: a real shuffle, chosen among a few for the trainee's weak cases.
            store, trainee = graded.context.store, graded.dealing.trainee
            record = {kind: store.cell_record(trainee, kind) for kind in ADAPTIVE_KINDS}
            self.engine.reseed_training_deal(adaptive_seed(self.engine, self.adaptive_rng, record))
        self.command(self.engine.play.no_va_mas)

    # --- decisions: always the box the engine says acts next ----------------------------

    def _acting_box(self) -> int:
        box = self.engine.to_act
        assert box is not None  # the action is legal only while a box is due
        return box

    def action_decide(self, command: str) -> None:
        """Voy, fold or check: the command table's, for the box due."""
        self.command(self.engine.command_table()[command].run, self.engine, box=self._acting_box())

    def action_street_bet(self, _street: str) -> None:
        """The Turn's or the River's bet: one engine command (the street in the action only
        tells its key which words and phase are its own)."""
        self.action_decide("bet")

    # --- supervisor panel (F2): its lines and dispatch are the command table's ---------------

    def describe_entry(self, entry: Event) -> str:
        # The panel's caller prefixes the supervisor's ID: the entry's own words suffice.
        return describe(entry, self.lang, with_actor=False, numbered=False)


def make_app(
    options: LaunchOptions,
    *,
    config: MaderoTableConfig | None = None,
    clock: Callable[[], str] = _clock,
    training_context: TrainingContext | None = None,
    meter_store: MeterStore | None = None,
    draw_rng: random.Random | None = None,
) -> MaderoApp:
    """The one way to build the console (CLI, tests, snapshots, benchmark).

    ``config`` overrides ``options.table``; ``clock`` is the header's; ``training_context``
    the trainee's store and clocks at a graded table (tests; the CLI opens the training
    database named by the options); ``meter_store`` and ``draw_rng`` let tests pin the
    progressive meter and the Carta Mágica draw.
    """
    engine, graded = open_console(
        "madero", MaderoTableConfig, DEFAULT_MADERO_TABLE, options,
        lambda journal, staff, config, file: MaderoTable(
            journal, staff, config=config, training=options.training, seed=options.seed,
            meter_store=meter_store or (None if options.training else open_meter_store(config, file)),
            draw_rng=draw_rng, reach_server_now=False),
        config=config, training_context=training_context)
    return MaderoApp(engine, lang=options.lang, training=options.training, seed=options.seed, clock=clock,
                     graded=graded)


def run(options: LaunchOptions) -> int:
    return run_console(lambda: make_app(options, clock=_clock), options.lang)
