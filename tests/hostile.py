"""A hostile corpus for every input path of the supervisor tools, and a way to run a tool
in-process (``main(argv)``) as a person would from a shell: stdin bytes in, exit status,
stdout and stderr out, and whether anything escaped as a traceback.

Each case is ``Case(label, game, argv, stdin, files, valid, names)``: ``files`` are written to
a scratch folder first and ``{dir}`` in argv is replaced by it; ``valid`` says whether the
input is good (exit 0 expected) or must be refused (exit 2, no traceback), and ``names`` what
the refusal must name.
"""

from __future__ import annotations

import contextlib
import io
import json
import signal
import sys
import traceback
from decimal import Decimal
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Outcome:
    code: int
    out: str
    err: str
    crash: str | None  # the traceback, if one escaped main()


@dataclass
class Case:
    label: str
    game: str
    argv: list[str]
    stdin: bytes = b""
    files: dict[str, bytes] = field(default_factory=dict)
    valid: bool = False
    names: str | None = None  # what the refusal must name (the field), when it is one field
    journal: bool = False  # an empty journal of the game at {dir}/j.db first


def _main(game: str):
    if game == "madero":
        from madero_tui.cli import main
    else:
        from midi_tui.cli import main
    return main


class _NoConsole(Exception):
    """Raised instead of running a Textual app: the launch was accepted."""


class Hang(Exception):
    """The tool was still running after ``HANG_SECONDS``."""


HANG_SECONDS = 60


def run_tool(game: str, argv: list[str], stdin: bytes = b"") -> Outcome:
    """``game``-tui ``argv`` in-process; a console or training app that would open instead
    exits 0 without drawing anything (it got past every check of its input). A run past
    ``HANG_SECONDS`` is stopped and reported as a crash."""
    from textual.app import App

    out, err = io.StringIO(), io.StringIO()
    fake_in = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    crash = None
    saved = sys.stdin, App.run
    sys.stdin = fake_in

    def no_console(self, *args, **kwargs):
        raise _NoConsole

    def hang(signum, frame):
        raise Hang(f"still running after {HANG_SECONDS} s")

    App.run = no_console
    previous = signal.signal(signal.SIGALRM, hang)
    signal.alarm(HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = _main(game)(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
            except _NoConsole:
                code = 0
    except BaseException:  # noqa: BLE001 - the point is to see anything that escapes
        crash = traceback.format_exc()
        code = -1
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin, App.run = saved
    return Outcome(code, out.getvalue(), err.getvalue(), crash)


def run_case(case: Case, workdir: Path) -> Outcome:
    workdir.mkdir(parents=True, exist_ok=True)
    for name, data in case.files.items():
        (workdir / name).write_bytes(data)
    if case.journal:
        from shared.journal import Journal

        Journal(workdir / "j.db", "T9", case.game).close()
    argv = [a.replace("{dir}", str(workdir)) for a in case.argv]
    return run_tool(case.game, argv, case.stdin)


# -- The valid inputs every hostile one is a mutation of ------------------------------------

MADERO_TABLE = {"table_id": "T9", "name": "Mesa 9", "currency": "ARS", "minimum": 10, "maximum": 500}
MIDI_TABLE = {"table_id": "M9", "name": "Midi 9", "currency": "ARS", "minimum": 10, "maximum": 1000,
              "tie_maximum": 100}

MADERO_ROUND = {
    "bank": ["Kd", "Ks"],
    "board": ["Kh", "7h", "2h", "9c", "3d"],
    "boxes": [
        {"box": 1, "cards": ["Ah", "5h"], "ante": 10, "flop": 20, "turn": 10, "river": 10, "bonus": 5,
         "jackpot_credits": 1},
        {"box": 4, "cards": ["Qc", "Jd"], "ante": 10, "folded": True, "bonus": 5},
    ],
}
MIDI_COUP = {"punto": ["2", "3", "K"], "banca": ["3", "3"], "boxes": [{"box": 1, "punto": 100}, {"box": 2, "banca": 30}]}
SHOE_TOKENS = "9 2 3 4 5 6 7 8 9 K Q J A 2 3 4 5 6 7 8 9 K Q J A 2 3 4 5 6"


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)  # a TOML basic string is JSON's, escapes included
    return str(value)


def toml(mapping: dict) -> bytes:
    return "".join(f"{k} = {toml_value(v)}\n" for k, v in mapping.items()).encode()


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode()


# -- Hostile values -------------------------------------------------------------------------

ESCAPES = ["\x1b[2J\x1b[H", "\x1b]52;c;cm0gLXJmIH4=\x07", "\u202eevil", "a\nb", "\x00", "\x9b31m", "\r"]
BIG = "1" + "0" * 400


def table_cases(game: str) -> list[Case]:
    base = MADERO_TABLE if game == "madero" else MIDI_TABLE
    tool = ["settle", "--table", "{dir}/t.toml"]
    stdin = _json(MADERO_ROUND if game == "madero" else MIDI_COUP)

    def case(label: str, content: bytes, names: str | None = None) -> Case:
        return Case(f"{game} table {label}", game, tool, stdin, {"t.toml": content}, names=names)

    def with_(label: str, **changes) -> Case:
        return case(label, toml({**base, **changes}), names=list(changes)[-1])

    cases = [Case(f"{game} table valid", game, tool, stdin, {"t.toml": toml(base)}, valid=True)]
    for f in ("boxes",) + (("decks", "standing_bettors") if game == "midi" else ()):
        cases += [with_(f"{f}=true", **{f: True}), with_(f"{f}=1.5", **{f: 1.5}), with_(f"{f}=8.0", **{f: 8.0}),
                  with_(f"{f}='3'", **{f: "3"}), with_(f"{f}=10^29", **{f: 10**29}), with_(f"{f}=-1", **{f: -1})]
    for f in ("minimum", "maximum", "chip") + (("tie_maximum",) if game == "midi" else ("bonus_maximum",)):
        cases += [with_(f"{f}=true", **{f: True}), with_(f"{f}=10^29", **{f: 10**29}),
                  with_(f"{f}=1e29", **{f: 1e29}), with_(f"{f}='1e400'", **{f: "1e400"}),
                  with_(f"{f}='NaN'", **{f: "NaN"}), with_(f"{f}='-Infinity'", **{f: "-Infinity"}),
                  with_(f"{f}=[]", **{f: []})]
        without = {k: v for k, v in base.items() if k != f}
        cases.append(case(f"{f}=nan", toml(without) + f"{f} = nan\n".encode(), names=f))
    cases += [with_("chip=1e-30", chip="0." + "0" * 29 + "1"),
              case("chip=0.000001 max 10^14", toml({**base, "chip": Decimal("0.000001"), "maximum": 10**14}), names="maximum")]
    for f in ("name", "currency"):
        cases += [with_(f"{f} escape {i}", **{f: text}) for i, text in enumerate(ESCAPES)]
        cases += [with_(f"{f}=5", **{f: 5}), with_(f"{f}=true", **{f: True}), with_(f"{f} 10k", **{f: "x" * 10_000})]
    cases += [with_("currency empty", currency=""), with_("table_id=5", table_id=5),
              case("name 2MB", toml({**base, "name": "x" * 2_000_000}))]  # refused whole, before reading it
    if game == "madero":
        cases += [with_("bonus_enabled=1", bonus_enabled=1), with_("bonus_enabled='yes'", bonus_enabled="yes"),
                  with_("bonus_1000_line='false'", bonus_1000_line="false"), with_("jackpot_mode=1", jackpot_mode=1),
                  with_("carrusel escape", jackpot_mode="progressive", contribution_percent=1,
                        carrusel_id="\x1b[2J"),
                  with_("contribution_percent=true", jackpot_mode="progressive", contribution_percent=True)]
    else:
        cases += [with_("multiples_of_minimum=1", multiples_of_minimum=1),
                  with_("multiples_of_minimum='no'", multiples_of_minimum="no"), with_("banca_mode=5", banca_mode=5)]
    cases += [
        case("nested arrays", b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"),
        case("nested inline tables", b"x = " + b"{a = " * 50_000 + b"1" + b"}" * 50_000 + b"\n"),
        case("invalid utf-8", toml(base) + b'name = "\xff\xfe"\n'),
        case("utf-16", toml(base).decode().encode("utf-16")),
        case("nul byte", toml(base) + b"\x00"),
        case("empty", b""),
        case("duplicate key", toml(base) + b"minimum = 20\n"),
        case("unknown key", toml(base) + b"minimun = 20\n"),
        case("3MB of comments", toml(base) + b"#" + b"x" * 3_000_000 + b"\n"),
        Case(f"{game} table is a folder", game, ["settle", "--table", "{dir}"], stdin),
        Case(f"{game} table missing", game, ["settle", "--table", "{dir}/none.toml"], stdin),
    ]
    return cases


def mutate(base: dict, path: tuple, value) -> dict:
    data = json.loads(json.dumps(base))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def settle_cases(game: str) -> list[Case]:
    base = MADERO_ROUND if game == "madero" else MIDI_COUP

    def case(label: str, raw: bytes, valid: bool = False, names: str | None = None) -> Case:
        return Case(f"{game} settle {label}", game, ["settle", "--json"], raw, valid=valid, names=names)

    def mut(label: str, path: tuple, value) -> Case:
        return case(label, _json(mutate(base, path, value)), names=path[-1])

    def raw_mut(label: str, path: tuple, literal: str) -> Case:
        # A JSON literal Python's json cannot produce itself (1e400, a 400-digit integer).
        marker = "__hostile__"
        return case(label, _json(mutate(base, path, marker)).replace(f'"{marker}"'.encode(), literal.encode()),
                    names=None if len(literal) > 4300 else path[-1])  # past 4300 digits JSON itself refuses

    cases = [case("valid", _json(base), valid=True)]
    box = ("boxes", 0, "box")
    amount = ("boxes", 0, "ante" if game == "madero" else "punto")
    for label, value in (("1.5", 1.5), ("true", True), ("'1'", "1"), ("null", None), ("[]", [])):
        cases.append(mut(f"box={label}", box, value))
    for label, value in (("-1", -1), ("0", 0), ("99", 99)):  # a box the layout does not have: the article says
        cases.append(case(f"box={label}", _json(mutate(base, box, value)), names="Art. 2 §"))
    cases += [case("box=10^400", _json(base).replace(b'"box": 1,', f'"box": {BIG},'.encode()), names="Art. 2 §"),
              raw_mut("box=1e400", box, "1e400"), raw_mut("box=5000 digits", box, "9" * 5000)]
    for label, value in (("true", True), ("'NaN'", "NaN"), ("'Infinity'", "Infinity"), ("-10", -10),
                         ("'1e999999999'", "1e999999999"), ("[]", []), ("{}", {}), ("'x'", "x")):
        cases.append(mut(f"amount={label}", amount, value))
    cases += [raw_mut("amount=10^400", amount, BIG), raw_mut("amount=1e400", amount, "1e400"),
              raw_mut("amount=10^29", amount, "1" + "0" * 29)]
    hands = ("board", "bank") if game == "madero" else ("punto", "banca")
    for hand in hands:
        for label, value in (("ints", [5, 3, 2, 1, 9]), ("bools", [True, False]), ("nulls", [None, None]),
                             ("nested", [["Kh"]]), ("number", 12345), ("escape", ["\x1b[2J", "Kh"]),
                             ("object", {"a": 1}), ("null", None)):
            cases.append(mut(f"{hand}={label}", (hand,), value))
    if game == "madero":
        cases += [mut("cards=ints", ("boxes", 0, "cards"), [14, 5]), mut("cards=escape", ("boxes", 0, "cards"),
                                                                          ["\x1b]52;c;eA==\x07", "5h"]),
                  mut("folded='false'", ("boxes", 1, "folded"), "false"), mut("folded=1", ("boxes", 1, "folded"), 1),
                  case("credits=1.5", _json(mutate(base, ("boxes", 0, "jackpot_credits"), 1.5)), names="Jackpot"),
                  mut("credits=true", ("boxes", 0, "jackpot_credits"), True),
                  raw_mut("credits=10^400", ("boxes", 0, "jackpot_credits"), BIG)]
    cases += [mut("boxes={}", ("boxes",), {}), mut("boxes='x'", ("boxes",), "x"), mut("boxes=null", ("boxes",), None),
              mut("boxes=[1]", ("boxes",), [1]), mut("boxes=[[]]", ("boxes",), [[]]),
              case("top-level list", b"[]"), case("top-level 10^400", BIG.encode()), case("empty", b""),
              case("nested lists", b"[" * 100_000 + b"]" * 100_000),
              case("nested objects", b'{"a":' * 100_000 + b"1" + b"}" * 100_000),
              case("invalid utf-8", _json(base)[:-1] + b', "x": "\xff"}'),
              case("nul", b"\x00"), case("utf-16", _json(base).decode().encode("utf-16"))]
    if game == "midi":
        good = _json(base)
        for label, chip in (("1e400", "1e400"), ("true", "true"), ("-1", "-1"), ("NaN", "NaN"), ("escape", "\x1b[2J"),
                            ("1e-30", "0." + "0" * 29 + "1"), ("10^29", "1" + "0" * 29)):
            cases.append(Case(f"midi settle --chip {label}", "midi", ["settle", "--chip", chip], good))
        cases.append(Case("midi settle --chip 5", "midi", ["settle", "--chip", "5"], good, valid=True))
    return cases


def hand_cases() -> list[Case]:
    good = ["As", "Kd", "Qh", "Jc", "10s"]
    cases = [Case("hand valid", "madero", ["hand", *good], valid=True),
             Case("hand --batch valid", "madero", ["hand", "--batch"], b"As Ks Qs Js Ts\n", valid=True)]
    for i, text in enumerate(ESCAPES):
        cases.append(Case(f"hand token escape {i}", "madero", ["hand", text, *good[1:]]))
        cases.append(Case(f"hand --batch escape {i}", "madero", ["hand", "--batch"],
                          f"{text} Ks Qs Js Ts\n".encode()))
    cases += [
        Case("hand token 10k", "madero", ["hand", "A" * 10_000]),
        Case("hand 10h10h10h", "madero", ["hand", "10h10h10h10h10h"]),
        Case("hand empty token", "madero", ["hand", "", "Kd", "Qh", "Jc", "10s"]),
        Case("hand digits", "madero", ["hand", "14", "13", "12", "11", "10"]),
        Case("hand --batch invalid utf-8", "madero", ["hand", "--batch"], b"As Ks Qs Js \xff\xfe\n"),
        Case("hand --batch nul", "madero", ["hand", "--batch"], b"As Ks Qs Js Ts\x00\n"),
        Case("hand --batch 100k tokens", "madero", ["hand", "--batch"], b"As " * 100_000 + b"\n"),
        Case("hand --batch one bad of two", "madero", ["hand", "--batch"], b"As Ks Qs Js Ts\n2c 3c\n"),
    ]
    return cases


def shoe_cases() -> list[Case]:
    shoe = SHOE_TOKENS.encode()
    cases = [Case("shoe-audit valid", "midi", ["shoe-audit"], shoe, valid=True)]
    cases += [
        Case("shoe-audit invalid utf-8 stdin", "midi", ["shoe-audit"], shoe + b" \xff"),
        Case("shoe-audit invalid utf-8 file", "midi", ["shoe-audit", "{dir}/s.txt"], files={"s.txt": shoe + b" \xff"}),
        Case("shoe-audit escape token", "midi", ["shoe-audit"], shoe + b"\x1b]52;c;eA==\x07"),
        Case("shoe-audit nul", "midi", ["shoe-audit"], shoe + b" \x00"),
        Case("shoe-audit --cut -1", "midi", ["shoe-audit", "--cut", "-1"], shoe),
        Case("shoe-audit --cut 10^400", "midi", ["shoe-audit", "--cut", BIG], shoe),
        Case("shoe-audit --cut -10^400", "midi", ["shoe-audit", "--cut", "-" + BIG], shoe),
        Case("shoe-audit --cut 1.5", "midi", ["shoe-audit", "--cut", "1.5"], shoe),
        Case("shoe-audit --decks 7", "midi", ["shoe-audit", "--decks", "7"], shoe),
        Case("shoe-audit folder", "midi", ["shoe-audit", "{dir}"], shoe),
        Case("shoe-audit missing", "midi", ["shoe-audit", "{dir}/none"], shoe),
        Case("shoe-audit table true boxes", "midi", ["shoe-audit", "--table", "{dir}/t.toml"], shoe,
             {"t.toml": toml({**MIDI_TABLE, "boxes": True})}),
    ]
    return cases


def option_cases() -> list[Case]:
    journal = ["journal", "recall", "--db", "{dir}/j.db"]
    cases = []
    for game in ("madero", "midi"):
        cases += [
            Case(f"{game} recall valid", game, [*journal, "--last", "3"], journal=True, valid=True),
            Case(f"{game} recall --last 10^30", game, [*journal, "--last", "1" + "0" * 30], journal=True),
            Case(f"{game} recall --round 10^30", game, [*journal, "--round", "1" + "0" * 30], journal=True),
            Case(f"{game} recall --round 2^63", game, [*journal, "--round", str(2**63)], journal=True),
            Case(f"{game} recall --round -10^30", game, [*journal, "--round", "-1" + "0" * 30], journal=True),
            Case(f"{game} recall --last 1.5", game, [*journal, "--last", "1.5"], journal=True),
            Case(f"{game} recall --db not a journal", game, journal, files={"j.db": b"not sqlite" * 100}),
            Case(f"{game} recall --db folder", game, ["journal", "recall", "--db", "{dir}"]),
            Case(f"{game} verify --db not a journal", game, ["journal", "verify", "--db", "{dir}/j.db"],
                 files={"j.db": b"\xff" * 4096}),
            Case(f"{game} recall app --table invalid utf-8", game, ["--table", "{dir}/t.toml", "journal", "recall"],
                 files={"t.toml": b'table_id = "\xff"\n'}),
            Case(f"{game} recall app --table nested", game, ["--table", "{dir}/t.toml", "journal", "recall"],
                 files={"t.toml": b"table_id = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"}),
            Case(f"{game} recall app --table id=5", game, ["--table", "{dir}/t.toml", "journal", "recall"],
                 files={"t.toml": b"table_id = 5\n"}),
            Case(f"{game} recall --table-id escape", game, ["journal", "recall", "--table-id", "\x1b[2J../../x"]),
            Case(f"{game} report --since garbage", game, ["report", "--db", "{dir}/j.db", "--since", "\x1b[2J"]),
            Case(f"{game} report --db not a journal", game, ["report", "--db", "{dir}/j.db"],
                 files={"j.db": b"not sqlite" * 100}),
            Case(f"{game} console --table boxes=true", game,
                 ["--table", "{dir}/t.toml", "--db", "{dir}/c.db"],
                 files={"t.toml": toml({**(MADERO_TABLE if game == "madero" else MIDI_TABLE), "boxes": True})}),
            Case(f"{game} console --table nested", game, ["--table", "{dir}/t.toml", "--db", "{dir}/c.db"],
                 files={"t.toml": b"x = " + b"[" * 100_000 + b"]" * 100_000 + b"\n"}),
            Case(f"{game} console --table invalid utf-8", game, ["--table", "{dir}/t.toml", "--db", "{dir}/c.db"],
                 files={"t.toml": b'table_id = "\xff"\n'}),
            Case(f"{game} console --table name escape", game, ["--table", "{dir}/t.toml", "--db", "{dir}/c.db"],
                 files={"t.toml": toml({**(MADERO_TABLE if game == "madero" else MIDI_TABLE), "name": "\x1b[2J"})}),
            Case(f"{game} console --table valid", game, ["--table", "{dir}/t.toml", "--db", "{dir}/c.db"],
                 files={"t.toml": toml(MADERO_TABLE if game == "madero" else MIDI_TABLE)}, valid=True),
            Case(f"{game} console --seed without --training", game, ["--seed", "3", "--db", "{dir}/c.db"]),
            Case(f"{game} console --seed 10^400", game, ["--training", "--seed", BIG, "--db", "{dir}/c.db"],
                 valid=True),
        ]
        train = ["train", "--training-db", "{dir}/train.db"]
        cases += [
            Case(f"{game} train valid", game, [*train, "--trainee", "ana"], valid=True),
            Case(f"{game} train --count 0", game, [*train, "--count", "0"]),
            Case(f"{game} train --count 10^30", game, [*train, "--count", "1" + "0" * 30]),
            Case(f"{game} train --count true", game, [*train, "--count", "true"]),
            Case(f"{game} train --trainee empty", game, [*train, "--trainee", ""]),
            Case(f"{game} train --trainee 10k", game, [*train, "--trainee", "x" * 10_000]),
            Case(f"{game} train --training-db folder", game, ["train", "--training-db", "{dir}", "--trainee", "ana"]),
        ]
        cases += [Case(f"{game} train --trainee escape {i}", game, [*train, "--trainee", text])
                  for i, text in enumerate(ESCAPES)]
    return cases


def corpus() -> list[Case]:
    return [*table_cases("madero"), *table_cases("midi"), *settle_cases("madero"), *settle_cases("midi"),
            *hand_cases(), *shoe_cases(), *option_cases()]
