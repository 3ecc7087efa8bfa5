"""Madero's typed events: a journal written before the events were typed
(tests/data/madero-journal-v1.json, made by the engine of f25590b with a scripted live
progressive shift and a training round) decodes row by row and folds into the same table
state; the fold handles every event type; commands return what they recorded."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from madero_tui.events_text import describe
from shared.codec import decode, encode
from shared.engine import BASE_EVENTS, EntryUndone
from shared.events import VERSION_KEY, EventCodec
from shared.journal import Event, Journal
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.madero.meter import SqliteMeterStore
from shared.madero.meter_share import MeterMovement
from shared.madero.settlement import Bet
from shared.madero.table import MaderoTable
from shared.madero.table.events import CODEC, BetPlaced, CarruselChanged, PrizeAnswered, PrizeClaimed, RoundStarted
from shared.madero.table.fold import FOLD
from shared.actor import Actor, Role
from tests.madero_helpers import live_table

FIXTURE = json.loads((Path(__file__).with_name("data") / "madero-journal-v1.json").read_text())
PROG = MaderoTableConfig.from_mapping(dict(table_id="MPB-09", minimum=10, maximum=500, jackpot_mode="progressive",
                                           contribution_percent=10))


def replayed(tmp_path: Path, which: str) -> MaderoTable:
    """The fixture's rows appended to a fresh journal, and the table started on it."""
    training = which == "training"
    config = DEFAULT_MADERO_TABLE if training else PROG
    journal = Journal(tmp_path / f"{which}.sqlite", config.table_id, "madero", training=training)
    for row in FIXTURE[which]["rows"]:
        actor = Actor(row["staff_id"], Role(row["role"])) if row["staff_id"] else None
        journal.append(row["type"], row["payload"], round_id=row["round"], actor=actor)
    if training:
        return MaderoTable(journal, config=config, training=True)
    return MaderoTable(journal, config=config, meter_store=SqliteMeterStore(":memory:"))


@pytest.mark.parametrize("which", ["live", "training"])
def test_an_old_journal_folds_into_the_same_state(tmp_path, which):
    table = replayed(tmp_path, which)
    try:
        state = json.loads(json.dumps(table.state_dict()))
        # The fixture's state is in the shape of its snapshot version, read through the upgrades.
        expected = table.upgrade_snapshot(json.loads(json.dumps(FIXTURE[which]["state"])))
        if which == "live":
            # Since issue 31 the §72 grouping ends with the shift, and the fixture's live shift
            # (which grouped boxes 2 and 3) was closed: the one change of the fold it records.
            assert expected["groups"] == {"2": 2, "3": 2}
            expected["groups"] = {}
        assert state == expected
        # Kept by the fold since the fixture was made (issue 17): what the table owes the
        # meter (the last settled round's movement) and whether §48 was in force.
        outbox, fallback = state.pop("outbox"), state.pop("carrusel_fallback")
        settled = [r["payload"] for r in FIXTURE[which]["rows"] if r["type"] == "round_settled"]
        # The movement as the typed settlement writes it (older rows have no "rounding").
        owed = [{"ref": p["meter_ref"], "reading": p["meter"],
                 "movement": encode(decode(MeterMovement, p["settlement"]["meter"]))}
                for p in settled[-1:] if "meter_ref" in p]
        assert (outbox, fallback) == (owed, None)
        assert owed or which == "training"
    finally:
        table.journal.close()


@pytest.mark.parametrize("which", ["live", "training"])
def test_every_row_of_an_old_journal_decodes_to_its_own_payload(which):
    """A typed body re-encodes to exactly the payload it was read from: old rows read, and a
    new row of the same event hashes as it always did."""
    upcast = 0
    for row in FIXTURE[which]["rows"]:
        if row["type"] in BASE_EVENTS:
            continue
        body = CODEC.decode(row["type"], row["payload"])
        if row["payload"].get(VERSION_KEY, 1) == body.version:
            assert EventCodec.encode(body) == (row["type"], row["payload"])
        else:
            # A round's close from before issue 33 (its words in Spanish and English) reads
            # through the upcast: today's payload decodes to the same body, with the same words.
            upcast += 1
            assert CODEC.decode(*EventCodec.encode(body)) == body
            assert _words(body.settlement.words(("es", "en"))) == _words(row["payload"]["settlement"])
    assert upcast


def _words(settlement: dict) -> list[str]:
    """Every word of a settlement as journaled before issue 33: the bank's, each box's hand
    and each bet's reason, in Spanish and English."""
    keys = [f"{key}_{lang}" for key in ("bank", "hand", "reason") for lang in ("es", "en")]
    found = [settlement[k] for k in keys if k in settlement]
    for box in settlement["boxes"]:
        found += [box[k] for k in keys if k in box]
        found += [bet[k] for bet in box["bets"] for k in keys if k in bet]
    return found


NEWER_THAN_THE_FIXTURE = {PrizeClaimed.type, PrizeAnswered.type, CarruselChanged.type}
"""Event types made after the fixture's engine, so no old journal holds them (issue 27's claim and its answer)."""


def test_the_fold_has_a_handler_for_every_event_type():
    assert FOLD.missing(CODEC) == set()
    assert CODEC.types.isdisjoint(BASE_EVENTS)
    fixture_types = {row["type"] for which in FIXTURE.values() for row in which["rows"]}
    assert CODEC.types - NEWER_THAN_THE_FIXTURE <= fixture_types, "the fixture journal lacks an event type"
    assert NEWER_THAN_THE_FIXTURE.isdisjoint(fixture_types)


def test_a_prize_claim_encodes_to_its_payload_and_back():
    body = PrizeClaimed("MPB-09:3:0123456789abcdef")
    assert EventCodec.encode(body) == ("prize_claimed", {"meter_ref": "MPB-09:3:0123456789abcdef"})
    assert CODEC.decode(*EventCodec.encode(body)) == body


def test_commands_return_the_events_they_recorded(tmp_path):
    t = live_table(tmp_path)
    try:
        events = t.play.place_bet(1, "ante", 10)
        assert [type(e) for e in events] == [RoundStarted, BetPlaced]
        assert events[1] == BetPlaced(1, Bet.ANTE, Decimal(10))
        assert [(e.type, e.payload) for e in t.journal.events()][-2:] == [EventCodec.encode(e) for e in events]
        bet_seq = t.journal.last_seq
        assert t.undo() == [EntryUndone(bet_seq, "bet_placed")]
        assert t.journal.event(t.journal.last_seq).staff_id == "CRO"  # signed by the croupier on duty
        assert t.boxes == {}
    finally:
        t.journal.close()


RECALL = json.loads((Path(__file__).with_name("data") / "madero-journal-v1-recall.json").read_text())
"""The fixture's entries as the recall screen wrote them before the words moved beside the
events (the same, except a negative adjustment, which that code could not show)."""


@pytest.mark.parametrize("which", ["live", "training"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_recall_words_of_an_old_journal_are_unchanged(which, lang):
    lines = [describe(Event(row["seq"], "2026-01-01T00:00:00+00:00", "MPB-09", row["round"], row["staff_id"],
                            row["role"], row["type"], row["payload"], "", ""), lang)
             for row in FIXTURE[which]["rows"]]
    assert lines == RECALL[which][lang]


def test_the_recall_reads_a_settled_rounds_entry_once(monkeypatch):
    """The recall line of a settled round and the boxes' lines under it come from one reading
    of the entry (the settlement was decoded once for the line and again for the boxes)."""
    from madero_tui.events_text import describe_with_time

    row = next(r for r in FIXTURE["live"]["rows"] if r["type"] == "round_settled")
    event = Event(row["seq"], "2026-01-01T00:00:00+00:00", "MPB-09", row["round"], row["staff_id"], row["role"],
                  row["type"], row["payload"], "", "")
    reads = []
    decode = CODEC.decode
    monkeypatch.setattr(CODEC, "decode", lambda type_, payload: reads.append(type_) or decode(type_, payload))
    text = describe_with_time(event, "es")
    assert reads == ["round_settled"]
    assert text.split("  ", 1)[1].startswith(describe(event, "es")) and "\n" in text
