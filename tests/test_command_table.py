"""Each game's command table (``shared.commands``) against its engine: the engine accepts or
refuses exactly as the table declares, a refusal changes nothing, and what is derived from the
table (legal_actions, the F2 panel, docs/authority-<game>.md) follows a new declaration alone."""

from __future__ import annotations

import os
from decimal import Decimal
from pathlib import Path

import pytest

from shared.commands import Authority, Field, Offer, authority_document, can, cells, command
from shared.errors import AuthError, ConsoleError
from shared.madero.settlement import Bet
from shared.madero.table import Action as MaderoAction
from shared.madero.table import MaderoTable
from shared.madero.table import Phase as MaderoPhase
from shared.madero.table.events import Adjustment
from shared.midi.table import Action as MidiAction
from shared.midi.table import MidiTable
from shared.journal import Journal
from shared.madero.table.events import MaderoEvent
from shared.madero.table.state import need_phase
from shared.madero.table.supervisor import MaderoSupervisor
from shared.messages import Msg
from shared.staff import Credentials, StaffRegistry

import madero_helpers as mh
import midi_helpers as xh
from command_checks import assert_declared_as_accepted
from tui_helpers import SIZE, aio

DOCS = Path(__file__).parent.parent / "docs"
TITLES = {"madero": "Madero Poker Bonus: who may do what, when", "midi": "Midi Punto y Banca: who may do what, when"}


@pytest.mark.parametrize("table_class", [MaderoTable, MidiTable], ids=["madero", "midi"])
def test_the_authority_document_is_the_table(table_class):
    """docs/authority-<game>.md is generated from the table (UPDATE_AUTHORITY_DOCS=1 writes it)."""
    path = DOCS / f"authority-{table_class.game}.md"
    text = authority_document(table_class.command_table(), TITLES[table_class.game])
    if os.environ.get("UPDATE_AUTHORITY_DOCS"):
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text


def test_every_game_action_is_a_declared_command_and_every_declared_command_has_a_verify():
    for table_class, actions in ((MaderoTable, MaderoAction), (MidiTable, MidiAction)):
        table = table_class.command_table()
        ids = {c.id for c in table}
        assert set(actions) <= ids
        for declared in table:
            assert callable(getattr(declared.owner or table_class, f"verify_{declared.method}")), declared.id


# --- the matrix: every command at every phase a round goes through ---------------------------------

def madero_walk(table):
    """A Madero round through every phase; yields the table at each step."""
    yield table
    table.play.place_bet(1, Bet.ANTE, 10)
    yield table
    table.play.place_bet(2, Bet.ANTE, 20)
    table.play.no_va_mas()
    yield table
    table.play.voy(1)
    yield table  # FIRST, betting began
    table.play.voy(2)
    yield table
    if table.training:
        table.play.deal()
    else:
        for c in "2c 3c 4c".split():
            table.play.key_card(c)
    yield table
    while table.phase is not MaderoPhase.SETTLEMENT:
        if table.to_act is not None:
            table.play.check(table.to_act)
        elif table.training:
            table.play.deal()
        else:
            unseen = table.r.deck_pool().unseen()
            table.play.key_card(unseen[0])
        yield table
    table.play.confirm_settlement()
    yield table


def midi_walk(table):
    """A Midi shoe: a coup from its bets to its result, settled, then the shoe ended."""
    yield table
    if not table.training:
        table.play.new_shoe()  # a training table has its shoe already
        yield table
    table.play.enter_card("2")
    yield table
    table.play.confirm_burn()
    yield table
    table.play.assign_sabot(1)
    table.play.place_bet(1, "punto", 100)
    yield table
    table.play.no_va_mas()
    yield table
    cards = iter(["7", "8", "K", "K"])  # live: PUNTO 7, BANCA 8; training: the shoe's own
    while table.result is None:
        table.play.enter_card(next(cards, None))
        yield table
    table.play.settle()
    yield table
    table.supervisor.end_shoe(xh.SUPERVISOR, "fin del sabot")
    yield table


@pytest.mark.parametrize("training", [False, True], ids=["live", "training"])
def test_madero_the_engine_accepts_as_the_table_declares(tmp_path, training):
    table = mh.training_table(tmp_path) if training else mh.live_table(tmp_path)
    seen: set = set()
    for state in madero_walk(table):
        assert_declared_as_accepted(state, seen)
        if not training:
            refusals_change_nothing(state, MADERO_SIGNERS, madero_values(state))
    assert {(MaderoAction.DEAD_HAND, MaderoPhase.SETTLEMENT), (MaderoAction.ADJUST, MaderoPhase.IDLE)} <= seen \
        or training


@pytest.mark.parametrize("training", [False, True], ids=["live", "training"])
def test_midi_the_engine_accepts_as_the_table_declares(training):
    table = xh.training_table() if training else xh.live_table()
    seen: set = set()
    for state in midi_walk(table):
        assert_declared_as_accepted(state, seen)
        if not training:
            refusals_change_nothing(state, MIDI_SIGNERS, midi_values(state))


MADERO_SIGNERS = (mh.CRO, mh.SUP, mh.SUP2)
MIDI_SIGNERS = (xh.CROUPIER, xh.SUPERVISOR, xh.SUPERVISOR2)


STAFF_VALUES = {"staff_id": "N1", "name": "Nora", "role": "croupier", "pin": "4826", "pin2": "4826"}
"""A staff line's values (a new croupier; for the account lines an ID nobody holds)."""


def madero_values(t) -> dict[str, str]:
    """Panel values every Madero line accepts whenever it is offered."""
    unseen = t.r.deck_pool().unseen() if t.r else []
    known = [*t.board, *t.bank_cards, *(c for b in t.boxes.values() for c in b.cards)]
    active = [n for n, b in sorted(t.boxes.items()) if b.in_play and b.status.value == "active"]
    return {"box": str(active[0] if active else 1), "card": str(unseen[0]) if unseen else "Ah",
            "old": str(known[0]) if known else "Ah", "new": str(unseen[-1]) if unseen else "Ah", "amount": "5",
            "count": "100x1", "croupier_id": mh.CRO.staff_id, "croupier_pin": mh.CRO.pin, **STAFF_VALUES}


def midi_values(t) -> dict[str, str]:
    last = t.cards[-1].text if t.cards else "A"
    return {"card_no": str(max(len(t.cards), 1)), "card": last, "count": "100x1", "amount": "5",
            "croupier_id": xh.CROUPIER.staff_id, "croupier_pin": xh.CROUPIER.pin, **STAFF_VALUES}


def refusals_change_nothing(table, signers, values):
    """Each panel line offered now, signed by too little authority, is refused (AuthError) and
    leaves state and journal as they were."""
    croupier, supervisor, _second = signers
    commands = table.command_table()
    for declared, offer, two in commands.offers_now(table):
        authority = declared.authority(table)
        fields = {f.key: values[f.key] for f in offer.panel_fields(False)}
        attempts = []
        if authority is Authority.SUPERVISOR:
            attempts.append((croupier, fields))
        elif authority is Authority.TWO_SUPERVISORS:
            assert two
            attempts += [(supervisor, fields),  # no second supervisor
                         (supervisor, fields | {"second_id": supervisor.staff_id, "second_pin": supervisor.pin})]
        elif authority is Authority.COUNTERSIGNED:
            attempts.append((croupier, fields))  # the croupier cannot countersign
        # A line whose own variant does not apply now (a §39 case of another street) is refused
        # by its rule; every other is refused for its signatures.
        applies = can(declared.verify(table), **{**declared.probe, **offer.fixed})
        for signer, typed in attempts:
            before, seq = table.state_hash(), table.journal.last_seq
            with pytest.raises(AuthError if applies else ConsoleError):
                commands.perform(table, offer.id, signer, "prueba", typed)
            assert (table.state_hash(), table.journal.last_seq) == (before, seq), (offer.id, table.phase)


def test_with_nobody_on_duty_no_croupier_command_is_allowed(tmp_path):
    for table in (mh.live_table(tmp_path, tray=False), xh.live_table(tray=False)):
        table.shift.close(xh.SUPERVISOR if isinstance(table, MidiTable) else mh.SUP)
        croupiers = {c.id for c in table.command_table() if Authority.CROUPIER in c.cells.values()}
        # Signing in is the croupier's own way in; a buy-in needs the tray (and then the croupier on duty).
        assert table.legal_actions() & croupiers == {"open_shift"}


# --- a new supervisor override, declared in a test module only ---------------------------------------

class SupervisorWithCourtesy(MaderoSupervisor):
    """A fake override (test only): a supervisor pays a box a courtesy of 1 while bets are open.
    Declared on the supervisor's desk as a real one would be; the table only names the desk."""

    def verify_courtesy(self, creds: Credentials | None = None, reason: str | None = None,
                        box: int | None = None) -> None:
        need_phase(self.table, (MaderoPhase.BETS,), "Art. 14 §73", Msg.of("madero.bets_closed"))
        if reason is not None:
            self.table.signers.supervisor(creds, reason)

    @command("courtesy", cells(Authority.SUPERVISOR, MaderoPhase.BETS), "Art. 14 §73", "mad_sup_adjust",
             offers=(Offer("courtesy", "mad_sup_adjust", (Field("box", "mad_field_box", "1-7", parse=int),)),))
    def courtesy(self, creds: Credentials | None, reason: str, box: int) -> list[MaderoEvent]:
        self.verify_courtesy(creds, reason, box)
        return self.table.record_events(self.table.signers.supervisor(creds, reason),
                                        Adjustment(box, Decimal(1), "Art. 14 §73", self.table.round_no, reason))


class TableWithCourtesy(MaderoTable):
    COLLABORATORS = {**MaderoTable.COLLABORATORS, "supervisor": SupervisorWithCourtesy}


@aio
async def test_a_new_override_reaches_legal_actions_the_panel_and_the_document_without_the_app(tmp_path):
    from madero_tui.app import MaderoApp
    from tui_common.screens.supervisor import SupervisorPanel

    path = tmp_path / "courtesy.sqlite"
    mh.make_staff(path)
    journal = Journal(path, "MPB-01", "madero")
    table = TableWithCourtesy(journal, StaffRegistry(journal))
    table.shift.open(mh.CRO)
    table.tray.open(mh.OPENING, mh.CRO, mh.SUP)
    assert "courtesy" not in table.legal_actions()
    table.play.place_bet(1, Bet.ANTE, 10)
    assert "courtesy" in table.legal_actions() and "courtesy" not in MaderoTable.command_table().legal(table)
    assert "| `courtesy` |" in authority_document(TableWithCourtesy.command_table(), "t")
    assert TableWithCourtesy.command_table()["courtesy"].on == "supervisor"
    app = MaderoApp(table, lang="es", clock=lambda: "21:14")
    app.duty_confirmed = True
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        panel = app.screen
        assert isinstance(panel, SupervisorPanel) and "courtesy" in [a.id for a in panel.actions]
        panel.select("courtesy")
        for text in ("", mh.SUP.staff_id, mh.SUP.pin, "1", "cortesía"):
            if text:
                await pilot.press(*text)
            await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.table_screen, panel.query_one("#supervisor-message").render()
    assert journal.last_event_of("adjustment").payload["reason"] == "cortesía"
