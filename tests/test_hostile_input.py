"""Issue 15 item 6: bad input gets a clean refusal, never a traceback or a wrong acceptance.

Every input path of the supervisor tools (table file, settle JSON of both games, ``hand``
tokens and ``--batch`` lines, shoe-audit files, command-line options, ``train`` options):

- a fixed hostile corpus (``hostile.py``), each refused with exit status 2 and a message that
  names the field, and its good twins accepted with 0;
- a Hypothesis fuzz per path: no traceback, no hang, exit 0 only when the input is good
  (each test's oracle says what "obviously bad" is, independently of the code under test);
- a few runs as real processes.

All output, refusals included, must be printable (item 5).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from hostile import (
    MADERO_ROUND,
    MADERO_TABLE,
    MIDI_COUP,
    MIDI_TABLE,
    SHOE_TOKENS,
    corpus,
    mutate,
    run_case,
    run_tool,
    toml,
)

CORPUS = corpus()
FUZZ = settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def printable_output(text: str) -> bool:
    return all(ch.isprintable() or ch == "\n" for ch in text)


def check_clean(outcome, what) -> None:
    """No traceback, no hang, 0 or 2, and nothing unprintable written."""
    assert outcome.crash is None, (what, outcome.crash)
    assert outcome.code in (0, 2), (what, outcome.code, outcome.err)
    assert printable_output(outcome.out) and printable_output(outcome.err), what
    if outcome.code == 2:
        assert outcome.err.strip(), (what, "a refusal says why")


@pytest.mark.parametrize("case", CORPUS, ids=[c.label.encode("unicode_escape").decode() for c in CORPUS])
def test_hostile_corpus(case, tmp_path):
    outcome = run_case(case, tmp_path)
    check_clean(outcome, case.label)
    if case.valid:
        assert outcome.code == 0, (case.label, outcome.err)
    else:
        assert outcome.code == 2, (case.label, "wrongly accepted", outcome.out[:300])
        if case.names:
            assert case.names in outcome.err, (case.label, outcome.err)


def test_the_corpus_covers_every_input_path():
    labels = " ".join(c.label for c in CORPUS)
    for path in ("madero table", "midi table", "madero settle", "midi settle", "hand ", "hand --batch",
                 "shoe-audit", "recall", "report", "console --table", "train", "--chip", "--cut"):
        assert path in labels, path
    assert sum(not c.valid for c in CORPUS) >= 214


# -- Fuzz: the table file --------------------------------------------------------------------

def _hints(game: str) -> dict:
    from typing import get_type_hints

    from shared.madero.config import MaderoTableConfig
    from shared.midi.config import MidiTableConfig

    kind = MaderoTableConfig if game == "madero" else MidiTableConfig
    return {k: v for k, v in get_type_hints(kind).items() if not k.isupper()}


TOML_VALUES = st.one_of(
    st.integers(min_value=-(10**40), max_value=10**40), st.booleans(),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
    st.sampled_from(["1e400", "NaN", "0.0000001", "25", "1000", "ARS", "half-six", "progressive", "\x1b[2J"]),
    st.lists(st.integers(min_value=0, max_value=9), max_size=3),
)


def _obviously_bad(hints: dict, key: str, value) -> bool:
    """A value no table may hold, whatever its other fields: the oracle of the table fuzz."""
    if key not in hints:
        return True
    hint = str(hints[key])
    if isinstance(value, list):
        return True
    if key == "standing_bettors" and value is False:
        return False  # Art. 4 §1: a table file's «false» is read as none standing (MidiTableConfig._prepare)
    if "bool" in hint:
        return not isinstance(value, bool)
    if isinstance(value, bool):
        return True
    if hint.endswith("int'>"):
        return not isinstance(value, int)
    if "Decimal" in hint:
        try:
            amount = Decimal(str(value))
        except InvalidOperation:
            return True
        return not amount.is_finite() or amount < 0 or amount >= 10**12
    return not isinstance(value, str) or not value.isprintable() or len(value) > 64


@pytest.mark.parametrize("game", ["madero", "midi"])
@FUZZ
@given(changes=st.dictionaries(st.sampled_from(["boxes", "minimum", "maximum", "chip", "name", "currency",
                                                "table_id", "decks", "bonus_enabled", "tie_maximum",
                                                "standing_bettors", "jackpot_mode", "banca_mode", "carrusel_id"]),
                               TOML_VALUES, max_size=3))
def test_fuzz_table_file(game, changes, tmp_path_factory):
    base = MADERO_TABLE if game == "madero" else MIDI_TABLE
    folder = tmp_path_factory.mktemp("table")
    (folder / "t.toml").write_bytes(toml({**base, **changes}))
    if game == "madero":
        outcome = run_tool("madero", ["settle", "--table", str(folder / "t.toml")], json.dumps(MADERO_ROUND).encode())
    else:
        outcome = run_tool("midi", ["shoe-audit", "--table", str(folder / "t.toml")], SHOE_TOKENS.encode())
    check_clean(outcome, changes)
    hints = _hints(game)
    if any(_obviously_bad(hints, k, v) for k, v in changes.items()):
        assert outcome.code == 2, (changes, "wrongly accepted")


# -- Fuzz: settle JSON -----------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(10**60), max_value=10**60) | st.floats()
    | st.text(max_size=8) | st.sampled_from(["As", "Kh", "5", "10", "NaN", "1e400", "\x1b]52;c;eA==\x07"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
MADERO_PATHS = [("boxes", 0, "box"), ("boxes", 0, "ante"), ("boxes", 0, "flop"), ("boxes", 0, "cards"),
                ("boxes", 0, "cards", 0), ("board",), ("board", 2), ("bank",), ("boxes", 1, "folded"),
                ("boxes", 0, "jackpot_credits"), ("boxes",), ("boxes", 0)]
MIDI_PATHS = [("boxes", 0, "box"), ("boxes", 0, "punto"), ("boxes", 1, "banca"), ("punto",), ("punto", 0),
              ("banca",), ("banca", 1), ("boxes",), ("boxes", 0)]
CARD = re.compile(r"(?i)(10|[2-9tjqka])[shdc♠♥♦♣]")
RANK = re.compile(r"(?i)(10|[02-9tjqka])([shdc♠♥♦♣])?")


def _is_amount(value) -> bool:
    """An amount as a round may give it: a number (JSON decimals are read exactly) or decimal
    text, from 0 to below 10^12."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return False
    try:
        amount = Decimal(str(value).strip().replace(",", "."))
    except InvalidOperation:
        return False
    return amount.is_finite() and 0 <= amount < 10**12


def _settle_bad(path, value) -> bool:
    """The oracle: a value that no round may have at ``path``."""
    last = path[-1]
    if last == "box":
        return isinstance(value, bool) or not isinstance(value, int)
    if last in ("ante", "flop", "jackpot_credits", "punto", "banca") and len(path) == 3:
        return not _is_amount(value)
    if last == "folded":
        return not isinstance(value, bool)
    if path in (("board",), ("bank",), ("boxes", 0, "cards")):
        tokens = value.replace(",", " ").split() if isinstance(value, str) else value
        return not isinstance(tokens, list) or not all(isinstance(t, str) and re.fullmatch(f"(?:{CARD.pattern[4:]})+",
                                                                                           t.strip(), re.I)
                                                       for t in tokens)
    if path in (("punto",), ("banca",)):
        tokens = value.split() if isinstance(value, str) else value
        return not isinstance(tokens, list) or not all(isinstance(t, str) and RANK.fullmatch(t.strip()) for t in tokens)
    if len(path) == 2 and path[0] in ("board", "bank", "punto", "banca"):
        return not isinstance(value, str)
    if path == ("boxes", 0, "cards", 0):
        return not isinstance(value, str)
    if path == ("boxes",):
        return not isinstance(value, list) or not all(isinstance(i, dict) for i in value)
    return path == ("boxes", 0) and not isinstance(value, dict)


@pytest.mark.parametrize("game", ["madero", "midi"])
@FUZZ
@given(data=st.data())
def test_fuzz_settle_json(game, data):
    base, paths = (MADERO_ROUND, MADERO_PATHS) if game == "madero" else (MIDI_COUP, MIDI_PATHS)
    path = data.draw(st.sampled_from(paths))
    value = data.draw(JSON_VALUES)
    outcome = run_tool(game, ["settle", "--json"], json.dumps(mutate(base, path, value)).encode())
    check_clean(outcome, (path, value))
    if _settle_bad(path, value):
        assert outcome.code == 2, (path, value, "wrongly accepted")


@pytest.mark.parametrize("game", ["madero", "midi"])
@FUZZ
@given(raw=st.binary(max_size=200) | st.text(max_size=60).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_fuzz_settle_raw_bytes(game, raw):
    outcome = run_tool(game, ["settle"], raw)
    check_clean(outcome, raw)
    assert outcome.code == 2  # none of these is a whole round


# -- Fuzz: hand tokens, --batch lines, shoe files ----------------------------------------------

CARDS = st.sampled_from(["As", "Kd", "Qh", "Jc", "10s", "Ts", "2c", "9h", "5d"])
TOKENS = st.lists(CARDS | st.text(max_size=5), max_size=8)


@FUZZ
@given(tokens=TOKENS)
@example(tokens=["As", "Kd", "Qh", "Jc", "10s", ""])  # a blank argument was skipped: the hand was taken
def test_fuzz_hand_tokens(tokens):
    outcome = run_tool("madero", ["hand", "--", *tokens])
    check_clean(outcome, tokens)
    if outcome.code == 0:
        assert all(re.fullmatch(f"(?:{CARD.pattern[4:]})+", t.strip(), re.I) for t in tokens), tokens


@FUZZ
@given(lines=st.lists(st.lists(CARDS, min_size=5, max_size=7).map(" ".join).map(str.encode)
                      | st.binary(max_size=30), max_size=5))
def test_fuzz_hand_batch_lines(lines):
    outcome = run_tool("madero", ["hand", "--batch"], b"\n".join(lines) + b"\n")
    check_clean(outcome, lines)
    if outcome.code == 0:
        for line in lines:
            text = line.decode("utf-8")  # exit 0: every line was text …
            assert all(re.fullmatch(f"(?:{CARD.pattern[4:]})+", t, re.I) for t in text.split()), line  # … and cards


@FUZZ
@given(extra=st.lists(st.sampled_from(["5", "K", "0", "9h"]) | st.text(max_size=3), max_size=4),
       tail=st.binary(max_size=8))
def test_fuzz_shoe_audit_file(extra, tail, tmp_path_factory):
    shoe = tmp_path_factory.mktemp("shoe") / "shoe.txt"
    shoe.write_bytes((SHOE_TOKENS + " " + " ".join(extra)).encode("utf-8", "surrogatepass") + b" " + tail)
    outcome = run_tool("midi", ["shoe-audit", str(shoe)])
    check_clean(outcome, (extra, tail))
    if outcome.code == 0:
        tokens = shoe.read_bytes().decode("utf-8").split()
        assert all(RANK.fullmatch(t) for t in tokens), tokens


# -- Fuzz: command-line options -------------------------------------------------------------

OPTION_TEXT = st.text(max_size=12) | st.integers(min_value=-(10**40), max_value=10**40).map(str) \
    | st.sampled_from(["1e400", "NaN", "true", "1.5", "0", "5", "0,5"])


@FUZZ
@given(chip=OPTION_TEXT)
def test_fuzz_settle_chip_option(chip):
    outcome = run_tool("midi", ["settle", f"--chip={chip}"], json.dumps(MIDI_COUP).encode())
    check_clean(outcome, chip)
    if outcome.code == 0 and chip:
        assert _is_amount(chip) and Decimal(chip.strip().replace(",", ".")) > 0, chip


@FUZZ
@given(cut=OPTION_TEXT, decks=OPTION_TEXT)
def test_fuzz_shoe_audit_options(cut, decks):
    outcome = run_tool("midi", ["shoe-audit", f"--cut={cut}", f"--decks={decks}"], SHOE_TOKENS.encode())
    check_clean(outcome, (cut, decks))
    if outcome.code == 0:
        assert int(cut) >= 0 and decks.strip() in ("6", "8")


@pytest.fixture(scope="module")
def played_journal(tmp_path_factory) -> Path:
    from midi_helpers import CROUPIER, live_table, open_live_shoe, play_coup  # noqa: F401
    from shared.midi.payouts import BetKind

    path = tmp_path_factory.mktemp("journal") / "midi.db"
    table = live_table(path=path)
    open_live_shoe(table)
    play_coup(table, ["2", "3", "3", "3", "K"], [(1, BetKind.PUNTO, 100)])
    table.journal.close()
    return path


@FUZZ
@given(option=st.sampled_from(["--last", "--round"]), value=OPTION_TEXT)
def test_fuzz_recall_options(played_journal, option, value):
    outcome = run_tool("midi", ["journal", "recall", "--db", str(played_journal), f"{option}={value}"])
    check_clean(outcome, (option, value))
    if outcome.code == 0:
        assert int(value) >= (1 if option == "--last" else 0)


@pytest.mark.parametrize("game", ["madero", "midi"])
@FUZZ
@given(count=OPTION_TEXT, trainee=st.text(max_size=50))
def test_fuzz_train_options(game, count, trainee, tmp_path_factory):
    db = tmp_path_factory.mktemp("train") / "train.db"
    outcome = run_tool(game, ["train", "--training-db", str(db), f"--count={count}", f"--trainee={trainee}"])
    check_clean(outcome, (count, trainee))
    if outcome.code == 0:
        assert 1 <= int(count) <= 500 and trainee.isprintable() and 1 <= len(trainee) <= 40


# -- Real processes ------------------------------------------------------------------------

@pytest.mark.parametrize("label", ["midi table boxes=true", "madero settle nested lists",
                                   "shoe-audit invalid utf-8 file", "hand --batch invalid utf-8",
                                   "madero train --count 10^30", "madero table minimum=10^29",
                                   "midi settle box=1.5"])
def test_real_processes_refuse_cleanly(label, tmp_path):
    case = next(c for c in CORPUS if c.label == label)
    for name, content in case.files.items():
        (tmp_path / name).write_bytes(content)
    argv = [a.replace("{dir}", str(tmp_path)) for a in case.argv]
    module = "madero_tui.cli" if case.game == "madero" else "midi_tui.cli"
    done = subprocess.run([sys.executable, "-m", module, *argv], input=case.stdin, capture_output=True, timeout=120)
    assert done.returncode == 2, (label, done.stdout[:300])
    assert b"Traceback" not in done.stderr and done.stderr.strip()
    assert b"\x1b" not in done.stdout + done.stderr
