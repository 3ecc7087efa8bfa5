"""The Midi journal as today's engine wrote it (tests/data/midi-events-v1.sqlite3, every Midi
event type and an open coup at the end) still reads, and folds to the state it had."""

import json
import re
from dataclasses import replace
from datetime import UTC
from decimal import Decimal
from pathlib import Path

import pytest

from fixture_journals import upgraded
from midi_tui.recall import describe
from shared.engine import BASE_EVENTS
from shared.journal import Journal
from shared.messages import langs, template_fields, templates
from shared.midi.payouts import BetKind
from shared.midi.table import MidiTable
from shared.midi.table.events import (
    MIDI_CODEC,
    BetPlaced,
    CoupSettled,
    EntryUndone,
    MidiEvent,
    ShoeEnded,
    recall,
)
from shared.midi.table.fold import FOLD
from shared.events import VERSION_KEY
from shared.midi.payouts import upcast_line
from shared.money import ZERO
from tests.midi_helpers import SUPERVISOR, live_table, open_live_shoe, table_config

DATA = Path(__file__).with_name("data")
STATE = json.loads((DATA / "midi-events-v1.state.json").read_text())
CONFIG = table_config(banca_mode="commission", commission_handling="tally", standing_bettors=1)
# The undo's bookkeeping is the engine's own (not what the table shows) and may change shape;
# the base's part carries the snapshot version, which FullReplay sets apart.
BOOKKEEPING = {"undo", "coup_base", "coup_log", "round_log", "_table"}


def open_fixture(tmp_path: Path) -> Journal:
    """The fixture (row format 1) as the console opens it: converted by ``journal upgrade``."""
    return Journal(upgraded("midi-events-v1", tmp_path), CONFIG.table_id, "midi")


def without_bookkeeping(state: dict) -> dict:
    return {k: v for k, v in state.items() if k not in BOOKKEEPING}


class FullReplay(MidiTable):
    snapshot_version = -1  # no snapshot has it: the whole journal is folded


def test_the_journal_of_today_folds_to_the_state_it_had(tmp_path):
    journal = open_fixture(tmp_path)
    assert journal.verify().ok
    table = FullReplay(journal, config=CONFIG)
    # Since issue 33 the settlement's reasons are codes (the same words in both languages).
    expected = STATE | {"last_settlement": [upcast_line(line) for line in STATE["last_settlement"]]}
    assert without_bookkeeping(json.loads(json.dumps(table.state_dict()))) == without_bookkeeping(expected)
    assert table.croupier is not None and table.croupier.staff_id == STATE["_table"]["croupier"]["staff_id"]


def test_every_row_decodes_to_its_typed_event_and_encodes_back_to_the_same_payload(tmp_path):
    journal = open_fixture(tmp_path)
    midi_rows = [e for e in journal.events() if e.type not in BASE_EVENTS]
    assert {e.type for e in midi_rows} == MIDI_CODEC.types
    upcast = 0
    for event in midi_rows:
        body = MIDI_CODEC.decode(event.type, event.payload)
        if event.payload.get(VERSION_KEY, 1) == body.version:
            assert MIDI_CODEC.encode(body) == (event.type, event.payload)
            assert journal.hash_ok(replace(event, payload=body.to_payload()))
        else:
            # An older version (a coup's close with its reasons in words) reads through the
            # upcast: today's payload decodes to the same body, with the same words.
            upcast += 1
            assert MIDI_CODEC.decode(*MIDI_CODEC.encode(body)) == body
            for old, new in zip(event.payload["lines"], body.lines, strict=True):
                assert [new.reason.render(lang) for lang in ("es", "en")] == [old["why_es"], old["why_en"]]
    assert upcast


def test_the_fold_handles_every_midi_event_type():
    # An undo is folded by refolding the open coup's log without the undone entry.
    assert FOLD.missing(MIDI_CODEC, ignore={EntryUndone.type}) == set()


def test_every_midi_message_the_engine_names_is_in_every_catalog_with_the_same_parameters():
    sources = [*Path("shared/midi").rglob("*.py"), Path("shared/baccarat.py")]
    codes = {code for path in sources for code in re.findall(r'Msg\.of\(\s*"(midi\.\w+)"', path.read_text())}
    assert codes
    for code in codes:
        fields = {lang: set().union(*map(template_fields, templates(code, lang))) for lang in langs()}
        assert len(set(map(frozenset, fields.values()))) == 1, (code, fields)


def test_every_midi_event_has_its_recall_words_in_both_languages(tmp_path):
    # Each Midi event says its own words (MidiEvent.recall is abstract); the undo is the base's.
    assert {cls for cls in MIDI_CODEC.by_type.values() if not issubclass(cls, MidiEvent)} == {EntryUndone}
    journal = open_fixture(tmp_path)
    for event in journal.events():
        if event.type in MIDI_CODEC.types:
            msg = recall(MIDI_CODEC.decode(event.type, event.payload), CONFIG)
            assert msg.render("es") and msg.render("en")


RECALLED = json.loads((DATA / "midi-events-v1-recall.json").read_text())
"""The fixture's entries as the F3 screen wrote them before the words moved beside the events,
at a table that pays BANCA with a commission tally and at one that pays half on a six; the
changes since: a coup's close names its cards as the panels show them («5♥», was «5h»); an undo
names what it took back in words and a shoe's end why, no row code («Deshecho: card», «Fin del
sabot (exhausted)»); one card burned is singular («Quemadas 1 cartas», issue 31 item 12)."""


@pytest.mark.parametrize("which", [("commission", CONFIG), ("half_six", table_config(banca_mode="half-six"))],
                         ids=["commission", "half_six"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_recall_words_of_an_old_journal_are_unchanged(tmp_path, which, lang):
    name, config = which
    journal = open_fixture(tmp_path)
    try:
        *entries, credentials, upgraded_ = journal.events()  # what the upgrade adds, last
        assert [describe(e, lang, config, tz=UTC) for e in entries] == RECALLED[name][lang]
        assert credentials.type == "staff_credentials"
        assert upgraded_.type == "journal_upgraded" and upgraded_.payload["from_format"] == 1
    finally:
        journal.close()


def test_commands_return_the_events_they_recorded():
    t = live_table()
    open_live_shoe(t)
    seq = t.journal.last_seq
    events = t.play.place_bet(1, "punto", 100)
    assert events == [BetPlaced(1, BetKind.PUNTO, Decimal(100), ZERO)]
    assert [(e.type, e.payload) for e in t.journal.events(after=seq)] == [MIDI_CODEC.encode(e) for e in events]
    t.play.no_va_mas()
    for card in ["5", "6", "K", "K", "K"]:
        t.play.key_card(card)
    seq = t.journal.last_seq
    settled = t.play.settle()
    assert [type(e) for e in settled] == [CoupSettled]
    # The coup's close goes in with it, in the same transaction: the base's entry, not the command's.
    assert [e.type for e in t.journal.events(after=seq)] == ["coup_settled", "round_closed"]
    assert t.supervisor.end_shoe(SUPERVISOR, "fin") == [ShoeEnded("supervisor", "fin")]
    assert t.journal.event(t.journal.last_seq).staff_id == "sup1"  # signed by the supervisor


def test_the_close_of_a_tie_says_the_punto_and_banca_stakes_went_back():
    # Art. 5 §5: on a tie PUNTO and BANCA are returned; the close counted only void stakes as
    # returned, so a tie read «cobrado 0 · nulo devuelto 0» and hid where 300 went.
    from midi_helpers import live_table, open_live_shoe, play_coup
    from midi_tui.recall import describe

    table = live_table()
    open_live_shoe(table)
    play_coup(table, ["6", "6", "K", "K"], [(1, "banca", 200), (2, "punto", 100)])  # PUNTO 6 BANCA 6
    closed = table.journal.round_events(1)[-1]
    assert closed.type == "round_closed"
    assert describe(closed, "es", CONFIG).endswith("Pase 1 cerrado: apostado 300 · pagado 0 · cobrado 0 · entregado 300")
    assert describe(closed, "en", CONFIG).endswith("Round 1 closed: staked 300 · paid 0 · collected 0 · handed over 300")
