"""The Midi Punto y Banca console: ``make_app(options)`` builds it, ``run(options)`` runs it.

The app holds no game logic. Each key is declared by the engine command it runs
(``midi_tui.keys``), whose legality the engine says (``MidiTable.legal_actions()``), so a key
the phase does not allow is neither shown nor run; each action sends one command to the engine and redraws the table
from the engine's state.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from decimal import Decimal
from datetime import datetime, tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from textual.screen import Screen

from shared.journal import Event
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.payouts import BET_LABEL, BetKind
from shared.midi.table import Action, MidiTable, Phase
from shared.midi.table.events import CommissionCollected, MidiEvent
from shared.cards import make_rng
from shared.money import ZERO, fmt_money
from tui_common.app import TableApp, open_console, run_console
from tui_common.options import LaunchOptions
from tui_common.widgets import baccarat_rank_for_key
from midi_tui import view
from midi_tui.keys import MIDI_KEYS
from midi_tui.recall import describe, recall_text
from midi_tui.screens.table import MidiTableScreen
from midi_tui.widgets.roads import DERIVED_CHAR, big_road_cells, bead_cells, derived_cells

if TYPE_CHECKING:
    from tui_common.training.context import TrainingContext
    from tui_common.training.graded import GradedTable

MIDI_CSS = Path(__file__).with_name("midi.tcss")

LAST_COUP_WORDS = frozenset({"midi.ann_last_coup", "midi.ann_cut_card_out"})
"""What a graded table asks instead of announcing: whether the coup is the shoe's last."""

class MidiApp(TableApp):
    CSS_PATH = [*TableApp.CSS_PATH, MIDI_CSS]
    TITLE = "Midi Punto y Banca"
    KEYS = MIDI_KEYS
    BINDINGS = [*MIDI_KEYS.bindings, *TableApp.BINDINGS]

    def __init__(
        self,
        engine: MidiTable,
        *,
        lang: str = "es",
        training: bool = False,
        seed: int | None = None,
        clock: Callable[[], datetime] | None = None,
        tz: tzinfo | None = None,
        graded: GradedTable | None = None,
    ) -> None:
        super().__init__(engine, lang=lang, training=training, seed=seed, tz=tz, graded=graded)
        self.midi = engine
        self.clock = clock
        self.selected_box = 1
        # A graded table seats virtual players, who bet when bets open (repeatable with a seed).
        self.players = None if graded is None else random.Random(f"players-{seed}") if seed is not None else make_rng(None)

    # --- screen --------------------------------------------------------------------------

    def make_table_screen(self) -> Screen[None]:
        return MidiTableScreen(self.lang, list(self.table_widgets()))

    def on_mount(self) -> None:
        # Textual runs TableApp.on_mount too (handlers are called for each class of the MRO).
        if self.clock is not None:
            self.set_interval(20, self.refresh_table)

    def refresh_table(self) -> None:
        screen = self.table_screen
        if not isinstance(screen, MidiTableScreen) or not screen.ready:
            return
        self.clock_notice()
        midi, lang = self.midi, self.lang
        # A graded table's question waits: what would answer it stays hidden.
        masked = self.graded_question() is not None
        # A graded coup's totals and last-coup question come once it is decided: while its
        # cards are dealt, neither the hands, the header nor the prompt give them away.
        dealing = self.graded is not None and midi.phase is Phase.CARDS
        screen.header.show(view.header_view(midi, lang, self.clock() if self.clock else None, masked or dealing))
        for hand, shown in view.hand_views(midi, lang, masked, totals=not dealing).items():
            screen.hands.show_hand(hand, shown)
        screen.boxes.show(view.boxes_view(midi, self.selected_box, lang, masked))
        roads = midi.roads
        key = (midi.shoe_no, len(midi.history))
        screen.roads.show(key, [bead_cells(roads), big_road_cells(roads),
                                *(derived_cells(roads, name) for name in DERIVED_CHAR)])
        screen.hands.show_counts(roads, lang)
        line = screen.prompt
        if self.graded is not None and masked:
            line.show_text(self.graded.prompt(line.content_size.width or None))
        else:
            line.show(midi.prompt, lang, call_only=dealing, hidden=LAST_COUP_WORDS if self.graded else frozenset())
        entry = screen.amount_entry
        if entry.is_open and Action.BET not in self.legal():
            entry.close()
        screen.key_bar.refresh_hints()

    def prompt_text(self, lang: str) -> str:
        return self.midi.prompt.text(lang)

    def unbound_key(self, key: str, character: str | None) -> None:
        rank = baccarat_rank_for_key(key)
        if rank is not None and not self.midi.training and self.midi.phase in (Phase.BURN, Phase.BETS, Phase.RESULT):
            # A rank while bets are open (the digits select boxes), once the burn card is out
            # or after the coup is decided reaches the engine, which says why no card goes now
            # («No va más» first; confirm the burn; no card is due): a croupier who forgot
            # sees why nothing happened.
            self.command(self.midi.play.key_card, rank.char)
            return
        super().unbound_key(key, character)

    def describe_event(self, event: Event, lang: str) -> str:
        return describe(event, lang, self.midi.config, self.tz)

    # --- croupier commands ---------------------------------------------------------------

    def action_card(self, rank: str) -> None:
        self.command(self.midi.play.key_card, rank)

    def action_deal(self) -> None:
        self.command(self.midi.play.deal)

    def action_new_shoe(self) -> None:
        graded = self.graded
        if graded is not None and self.seed is None:
            from shared.training.midi_dealing import adaptive_order

            # Adaptive practice: a real shuffle, chosen among a few for the trainee's weak cases.
            record = graded.context.store.cell_record(graded.dealing.trainee, "banca_draw")
            self.command(self.midi.play.new_shoe, adaptive_order(self.midi.rng, self.midi.config.decks, record))
        else:
            self.command(self.midi.play.new_shoe)

    def action_confirm_burn(self) -> None:
        if self.command(self.midi.play.confirm_burn) is not None:
            self._players_bet()

    def _players_bet(self) -> None:
        """At a graded table the virtual players bet as soon as bets open."""
        if self.players is not None and self.midi.phase is Phase.BETS and not self.midi.bets:
            from shared.training.midi_drills import place_players_bets

            place_players_bets(self.players, self.midi)
            self.refresh_table()

    def action_select_box(self, box: int) -> None:
        if box in self.midi.spots:
            self.selected_box = box
            self._reopen_entry()
            self.refresh_table()

    def action_move_box(self, step: int) -> None:
        spots = self.midi.spots
        self.selected_box = spots[(spots.index(self.selected_box) + step) % len(spots)]
        self._reopen_entry()
        self.refresh_table()

    def _reopen_entry(self) -> None:
        entry = self.amounts.entry()
        if entry is not None and entry.is_open:
            self.action_bet(entry.tag[1])

    def action_bet(self, kind: str) -> None:
        box = self.selected_box
        current = self.midi.bets.get(box, {}).get(BetKind(kind))
        label = self.t("midi_bet_entry", box=self.midi.spot_label(box), bet=BET_LABEL[BetKind(kind)])
        if current:
            label += " " + self.t("midi_bet_now", amount=fmt_money(current, lang=self.lang))
        self.open_amount(label, (box, kind))

    def last_amount(self, tag: tuple[int, str]) -> Decimal | None:
        box, kind = tag
        return self.midi.last_bets.get(box, {}).get(BetKind(kind))

    def place_amount(self, tag: tuple[int, str], amount: Decimal) -> None:
        box, kind = tag
        if amount == 0:
            self.midi.play.remove_bet(box, kind)
        else:
            self.midi.play.place_bet(box, kind, amount)

    def action_settle(self) -> None:
        lines = self.midi.settlement or []
        coup = self.midi.coup_no
        if self.command(self.midi.play.settle) is not None:
            pay = sum((line.paid for line in lines), ZERO)
            collect = sum((line.collected for line in lines), ZERO)
            self.show_info(self.t("midi_settled", coup=coup, pay=fmt_money(pay, lang=self.lang), collect=fmt_money(collect, lang=self.lang)))
            self._players_bet()

    def action_sabot(self) -> None:
        if Action.ASSIGN_SABOT in self.legal():
            self.command(self.midi.play.assign_sabot, self.selected_box)
        else:
            self.command(self.midi.play.pass_sabot)

    def action_collect_commission(self) -> None:
        self._collected(self.command(self.midi.play.collect_commission, self.selected_box))

    def action_collect_all_commission(self) -> None:
        self._collected(self.command(self.midi.play.collect_commission))

    def _collected(self, events: list[MidiEvent] | None) -> None:
        """What was collected from each box (Art. 5 §3). The tally row is cleared at once, so
        several boxes' amounts wait in a notice, one line a box, until the croupier
        acknowledges them: one message line cut them off after the fourth box."""
        for event in events or []:
            if not isinstance(event, CommissionCollected):
                continue
            parts = []
            for box, owed in event.boxes.items():
                tally, collected = Decimal(owed["tally"]), Decimal(owed["collected"])
                exact = "" if tally == collected else f" ({self.t('midi_exact')} {fmt_money(tally, lang=self.lang)})"
                parts.append(f"{self.midi.spot_label(int(box))}: {fmt_money(collected, lang=self.lang)}{exact}")
            if len(parts) == 1:
                self.show_info(self.t("midi_commission_collected", boxes=parts[0]))
                continue
            from tui_common.screens.notice import NoticeScreen

            total = sum((Decimal(owed["collected"]) for owed in event.boxes.values()), ZERO)
            body = "\n".join([self.t("midi_commission_box", line=part) for part in parts]
                              + ["", self.t("midi_commission_sum", amount=fmt_money(total, lang=self.lang))])
            self.push_screen(NoticeScreen(self.t("midi_commission_title"), body, self.lang, id="commission-notice"))

    # --- supervisor panel (F2): its lines and dispatch are the command table's ---------------

    def describe_entry(self, entry: Event) -> str:
        return recall_text(entry, self.lang, self.midi.config)


def make_app(
    options: LaunchOptions,
    *,
    config: MidiTableConfig | None = None,
    clock: Callable[[], datetime] | None = None,
    training_context: TrainingContext | None = None,
    rng: random.Random | None = None,
    journal_clock: Callable[[], str] | None = None,
    tz: tzinfo | None = None,
) -> MidiApp:
    """The one way to build the console (CLI, tests, snapshot apps, benchmarks).

    ``config`` overrides ``options.table``; ``clock`` shows the time in the header (the CLI
    passes ``datetime.now``; tests leave it out for stable screens); ``training_context``
    the trainee's store and clocks at a graded table (tests; the CLI opens the training
    database named by the options); ``rng`` the training shoe's shuffle; ``journal_clock``
    and ``tz`` fix the journal's timestamps and the recall screen's time zone (snapshots).
    """
    clock_kw = {} if journal_clock is None else {"clock": journal_clock}
    engine, graded = open_console(
        "midi", MidiTableConfig, DEFAULT_MIDI_TABLE, options,
        lambda journal, staff, config, _file: MidiTable(journal, staff, config=config, training=options.training,
                                                        rng=rng, seed=options.seed),
        config=config, training_context=training_context, **clock_kw)
    return MidiApp(engine, lang=options.lang, training=options.training, seed=options.seed, clock=clock, tz=tz,
                   graded=graded)


def run(options: LaunchOptions) -> int:
    return run_console(lambda: make_app(options, clock=datetime.now), options.lang)
