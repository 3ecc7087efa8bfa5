"""The Madero console's trips to its meter store that may cross a network (a Carrusel's
server, Art. 12 §58): the header's reads and a settlement's claim and confirmation run in
threads of their own, so a silent server never holds the keys, ``ctrl+q`` or the clock
(issue 27 §2); their answers are taken back on the screen's thread."""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from shared.commands import can
from shared.errors import ConsoleError
from shared.madero.meter import MeterAnswer, MeterCall, MeterStore
from shared.madero.settlement import RoundSettlement
from shared.madero.table.events import RoundSettled
from shared.madero.table import MaderoTable
from shared.money import fmt_money
from shared.text import printable
from tui_common.app import T, TableApp
from tui_common.i18n import t

from madero_tui import view
from madero_tui.screens.table import TableScreen


class CarruselLink(TableApp):
    """The server's side of ``MaderoApp`` (its state is set up there)."""

    engine: MaderoTable
    clock: Callable[[], str]
    _meter_call_running: bool
    _poll_store: MeterStore | None
    _settling: bool

    def _mounted_table(self) -> TableScreen | None:
        """The table screen once its on_mount has looked its regions up; None before."""
        screen = self.table_screen
        return screen if isinstance(screen, TableScreen) and hasattr(screen, "key_bar") else None

    def _refresh_meter(self, screen: TableScreen) -> None:
        """The header (the linked jackpot) and the §48 banner: a file on this machine is read
        now; a Carrusel server's meter as last read (``_poll_meter`` reads it in a worker)."""
        store = self.engine.carrusel.store
        if store is not None and not store.remote:
            self.engine.carrusel.reading()
        screen.header.show(view.header_view(self.engine, self.lang, self.clock(), time.monotonic()),
                           t("mad_title", self.lang))
        screen.banner.show(view.fallback_banner(self.engine, self.lang))

    def _poll_meter(self) -> None:
        # Another linked table's contribution or prize shows here within METER_POLL_SECONDS.
        store = self.engine.carrusel.store
        if store is not None and store.remote and not self._meter_call_running and not self._settling:
            call = self.engine.carrusel.call_due()
            if call is not None:
                self._meter_call_running = True
                if self._poll_store is None:
                    self._poll_store = store.sibling()
                call = dataclasses.replace(call, store=self._poll_store)
                threading.Thread(target=self._call_meter, args=(call,), name="carrusel-meter", daemon=True).start()
        screen = self._mounted_table()
        if screen is not None and self.table_in_front():
            self._refresh_meter(screen)

    def _call_meter(self, call: MeterCall) -> None:
        # A server that does not answer holds this thread, not the screen: the header shows
        # the last reading and its age meanwhile. A daemon thread, not a Textual worker: a
        # worker's executor is joined when the app ends, so quitting waited for the read.
        answer = call.run()
        if not self.is_running:
            return  # the console quit while the server was silent
        with contextlib.suppress(RuntimeError):  # it quit as the answer came
            self.call_from_thread(self._took_meter, answer)

    def _took_meter(self, answer: MeterAnswer) -> None:
        self._meter_call_running = False
        was = self.engine.carrusel.unavailable
        self.engine.carrusel.take_answer(answer)
        if self.engine.carrusel.refused is not None:
            # The server refused the table at its first trip (issue 27 §4): the console ends
            # saying why, as a refused launch does, before a round touches the server.
            self.exit(return_code=2, message=printable(self.engine.carrusel.refused.message(self.lang), newlines=True))
            return
        screen = self._mounted_table()
        if screen is None or not self.table_in_front():
            return
        if self.engine.carrusel.unavailable != was:
            self.refresh_table()  # §48 came or went: the paytable in force and the settlement change
        else:
            self._refresh_meter(screen)

    def command(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T | None:
        if self._settling:
            self.show_info(self.t("mad_settling"))
            return None
        return super().command(fn, *args, **kwargs)

    def action_confirm_settlement(self) -> None:
        """Enter at the settlement: a meter prize's claim first (its amounts are shown on the
        store's answer), then the settlement itself."""
        engine = self.engine
        claim = engine.carrusel.prize_claim_due
        work: Callable[[], object] = engine.carrusel.claim_prize if claim else engine.play.confirm_settlement
        store = engine.carrusel.store
        if store is None or not store.remote or self._settling or not can(engine.play.verify_confirm_settlement):
            self._settled_if_closed(self.command(work))
            return
        # The server's answer (a prize's claim, the round's movement) can take up to its
        # deadlines: the keys, ctrl+q and the F-keys included, answer meanwhile. A daemon thread,
        # as the header's reads: quitting does not wait for a silent server.
        self._settling = True
        self.show_info(self.t("mad_claiming" if claim else "mad_settling"))
        threading.Thread(target=self._at_server, args=(work,), name="carrusel-settle", daemon=True).start()

    def _at_server(self, work: Callable[[], object]) -> None:
        outcome: object
        try:
            outcome = work()
        except ConsoleError as error:
            outcome = error
        if not self.is_running:
            return
        with contextlib.suppress(RuntimeError):  # it quit as the answer came
            self.call_from_thread(self._took_settlement, outcome)

    def _took_settlement(self, outcome: object) -> None:
        self._settling = False
        if isinstance(outcome, ConsoleError):
            self.show_error(outcome)
            self.refresh_table()
            return
        self.message_line.clear()
        self.refresh_table()
        self._settled_if_closed(outcome)

    def _settled_if_closed(self, outcome: object) -> None:
        """What the command journaled settled the round (a claim alone does not): say its totals."""
        if isinstance(outcome, list) and any(isinstance(body, RoundSettled) for body in outcome):
            self._settled(self.engine.last_settlement)

    def _settled(self, settlement: RoundSettlement | None) -> None:
        if settlement is not None:
            self.show_info(
                t("mad_settled_info", self.lang, number=self.engine.round_id, paid=fmt_money(settlement.paid, lang=self.lang),
                  collected=fmt_money(settlement.collected, lang=self.lang), returned=fmt_money(settlement.pushed, lang=self.lang))
            )
