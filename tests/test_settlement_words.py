"""Settlements are journaled as message codes (issue 33): every settlement the fixture
journals hold — written before, their words in Spanish and English — reads in a third
language added as one more catalog file, with no word of another language left."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from shared import messages
from shared.journal import Journal
from shared.madero.table.events import CODEC, RoundClose
from shared.messages import Localized, Msg, Written
from shared.midi.table.events import MIDI_CODEC, CoupClose
from tests.fixture_journals import DATA, SUPERVISORS, upgraded
from tests.test_i18n import _third_language

UNTRANSLATED = {"PUNTO", "BANCA", "TIE"}
"""The names of Midi's bets, the same in every language (parameters, never catalog words)."""


def _madero_words(body: RoundClose) -> Iterator[Localized]:
    record = body.settlement
    if record.bank is not None:
        yield record.bank
    for box in record.boxes:
        if box.hand is not None:
            yield box.hand
        yield from (bet.reason for bet in box.bets)


def _typed(word: object) -> set[str]:
    """The words in ``word`` a person typed (a void's reason, a text parameter): the same in
    every language."""
    if isinstance(word, str):
        return set(re.findall(r"[^\W\d_]+", word))
    if isinstance(word, Msg):
        return set().union(*(_typed(v) for _, v in word.params))
    return set()


def _journaled_words(folder: Path) -> Iterator[tuple[str, Localized]]:
    """Each word of every settlement in the fixture journals: where, and the message."""
    fixture = json.loads((DATA / "madero-journal-v1.json").read_text())
    for which, journal in fixture.items():
        for row in journal["rows"]:
            if row["type"] in ("round_settled", "round_voided"):
                body = CODEC.decode(row["type"], row["payload"])
                assert isinstance(body, RoundClose)
                yield from ((f"madero-journal-v1 {which} #{row['seq']}", w) for w in _madero_words(body))
    for name in SUPERVISORS:
        path = upgraded(name, folder)
        meta = dict(sqlite3.connect(path).execute("select key, value from meta").fetchall())
        journal = Journal(path, meta["table_id"], meta["game"], read_only=True)
        try:
            for event in journal.events():
                if meta["game"] == "madero" and event.type in ("round_settled", "round_voided"):
                    body = CODEC.decode(event.type, event.payload)
                    assert isinstance(body, RoundClose)
                    yield from ((f"{name} #{event.seq}", w) for w in _madero_words(body))
                elif meta["game"] == "midi" and event.type in ("coup_settled", "coup_voided"):
                    midi = MIDI_CODEC.decode(event.type, event.payload)
                    assert isinstance(midi, CoupClose)
                    yield from ((f"{name} #{event.seq}", line.reason) for line in midi.lines)  # type: ignore[attr-defined]
        finally:
            journal.close()


def test_every_journaled_settlement_reads_in_a_third_language(tmp_path, monkeypatch):
    words = list(_journaled_words(tmp_path))
    games = {where.split()[0] for where, _ in words}
    assert {"madero-journal-v1", "madero-snapshot-v1", "midi-events-v1", "legacy-midi"} <= games
    recorded = {(w.render("es"), w.render("en")) for _, w in words}
    locale = tmp_path / "locale"
    locale.mkdir()
    for path in messages.LOCALE_DIR.glob("*.toml"):
        shutil.copy(path, locale)
    _third_language(locale)
    monkeypatch.setattr(messages, "LOCALE_DIR", locale)
    # The Spanish and English words are what the rows recorded; the third language has none.
    assert {(w.render("es"), w.render("en")) for _, w in words} == recorded
    for where, word in words:
        said = word.render("xx")
        assert said.startswith("«xx"), (where, said)
        left = set(re.findall(r"[^\W\d_]+", said.replace("«xx", ""))) - UNTRANSLATED - _typed(word)
        assert not left, (where, said)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_words_no_catalog_message_gives_back_stay_as_recorded(lang):
    """A reworded catalog cannot change what an old row recalls: words that no message
    writes in every recorded language are kept as they were."""
    from shared.recognize import recognize

    texts = {"es": "BANCA paga 1 a 1 (Art. 5 §2)", "en": "BANCA is paid evens"}
    assert recognize(texts, ("payouts",)).render(lang) == texts[lang]
    assert recognize({"es": texts["es"], "en": "BANCA pays 1 to 1 (Art. 5 §2)"}, ("payouts",)) \
        == Msg.of("payouts.banca_pays")


@pytest.mark.parametrize("es, en", [
    (": ".join(["1"] * 40), ": ".join(["1"] * 40)),  # a Jackpot line's "{line}: {paid}", 39 ways at each of 4 levels
    ("empate: " + " contra " * 40, "tie: " + " against " * 40),
    ("x" + "; exacto , se pagan " * 40 + " (redondeo a la ficha de )" * 40,
     "x" + "; exact , pay " * 40 + " (rounded down to the  chip)" * 40),
], ids=["jackpot line", "tie", "rounded down"])
def test_words_crafted_to_split_in_a_great_many_ways_stop_at_the_search_bound(es, en):
    """Words crafted so that a template splits them in a great many ways (a search of minutes)
    are kept as recorded once the row's search takes its budget of steps; a reason the console
    wrote takes a small part of it."""
    from shared.madero.settlement import WORD_SECTIONS
    from shared.recognize import _BUDGET, _Search

    texts = (("en", en), ("es", es))
    search = _Search(WORD_SECTIONS + ("payouts",))
    assert search.read(texts) == Written(texts)
    assert _BUDGET < search.steps <= 2 * _BUDGET  # a parameter found before is charged at most a budget
    console = Msg.of("settlement.pays_even", beats=Msg.of("settlement.beats", mine=Msg.of("hand.full", first=Msg.of(
        "rank.plural_12"), second=Msg.of("rank.plural_14")), bank=Msg.of("hand.doble_pareja", first=Msg.of(
        "rank.plural_13"), second=Msg.of("rank.plural_11"))))
    search = _Search(WORD_SECTIONS)
    assert search.read(tuple((lang, console.render(lang)) for lang in ("en", "es"))) == console
    assert search.steps < _BUDGET / 5


def test_words_longer_than_any_the_console_wrote_are_not_searched():
    """No step of the search walks a text longer than the console's longest words."""
    from shared.madero.settlement import WORD_SECTIONS
    from shared.recognize import _LONGEST, _Search

    said = "1: " * (_LONGEST // 3) + "1: 1"
    assert len(said) > _LONGEST
    search = _Search(WORD_SECTIONS)
    assert search.read((("en", said), ("es", said))) == Written((("en", said), ("es", said)))
    assert search.steps == 0
