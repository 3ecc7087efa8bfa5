"""``train``: the training console as a subcommand of both apps.

``madero-tui train [--drill NAME] [--seed N] [--trainee ID]`` (and ``midi-tui train …``)
opens the drills of the app's game; ``--game`` picks the other one. The training
database is its own file (``--training-db``), never a table's journal.

For trainers (no Textual): ``train --report [--json]`` lists the trainees and their
progress per skill; ``train --pass-mark SKILL=PCT --by ID`` sets a pass mark, signed by a
trainer or a supervisor enrolled at the table whose journal ``--db`` names (PIN asked).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from shared.messages import lang_of, text
from shared.training import GAMES, drills_for
from shared.training.graded import SKILLS

if TYPE_CHECKING:  # the annotation only: _store imports it when a subcommand opens one
    from shared.training import TrainingStore


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser(
        "train", help=text("help.train", lang), description=text("help.train_description", lang),
        epilog=text("help.example", lang, example="%(prog)s --drill payouts --seed 7 --trainee C7"),
    )
    # The parser's prog names the app ("madero-tui train"), which is the default game.
    default_game = next((g for g in GAMES if parser.prog.startswith(g)), None)
    names = sorted({d.name for g in GAMES for d in drills_for(g)})
    parser.add_argument("--game", choices=GAMES, default=default_game,
                        help=text("help.train_game", lang, game=default_game or text("help.train_game_ask", lang)))
    # The drill names are values typed on the command line: listed in argparse's {…} notation.
    by_game = "; ".join(f"{g} {{{','.join(d.name for d in drills_for(g))}}}" for g in GAMES)
    parser.add_argument("--drill", choices=names, help=text("help.train_drill", lang, drills=by_game))
    parser.add_argument("--seed", type=int, default=argparse.SUPPRESS, help=text("help.train_seed", lang))
    # SUPPRESS: given before the subcommand (as for the console) the value is kept.
    parser.add_argument("--trainee", default=argparse.SUPPRESS, help=text("help.train_trainee", lang))
    parser.add_argument("--count", type=int, help=text("help.train_count", lang))
    parser.add_argument("--training-db", type=Path, default=argparse.SUPPRESS, help=text("help.training_db", lang))
    parser.add_argument("--report", action="store_true", help=text("help.train_report", lang))
    parser.add_argument("--json", action="store_true", help=text("help.train_json", lang))
    parser.add_argument("--pass-mark", action="append", metavar="SKILL=PCT", default=[],
                        help=text("help.train_pass_mark", lang, skills="{" + ",".join(SKILLS) + "}"))
    parser.add_argument("--by", help=text("help.train_by", lang))
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from shared.errors import InputError
    from shared.training import check_session, default_training_db
    from tui_common.cli import fail
    from tui_common.i18n import t

    lang = lang_of(args)
    if args.pass_mark:
        return _set_pass_marks(args)
    if args.report:
        return _report(args)
    if args.json:
        return fail(t("train_json_needs_report", lang))
    if args.drill is not None:
        if args.game is None:
            return fail(t("train_drill_needs_game", lang))
        if args.drill not in {d.name for d in drills_for(args.game)}:
            return fail(t("train_no_such_drill", lang, game=args.game, drill=args.drill,
                          drills=", ".join(d.name for d in drills_for(args.game))))
    try:
        check_session(args.trainee, args.count)
    except InputError as exc:
        return fail(f"train: {exc.message(lang)}")
    from tui_common.training.app import run

    return run(game=args.game, store_path=args.training_db or default_training_db(), lang=lang_of(args),
               drill=args.drill, seed=getattr(args, "seed", None), trainee=args.trainee, count=args.count)


def _store(args: argparse.Namespace) -> TrainingStore:
    from shared.training import TrainingStore, default_training_db

    return TrainingStore(args.training_db or default_training_db())


def _report(args: argparse.Namespace) -> int:
    from shared.training.report import progress_report, report_lines

    store = _store(args)
    try:
        games = (args.game,) if args.game else GAMES
        report = progress_report(store, games, trainee=args.trainee)
    finally:
        store.close()
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print("\n".join(report_lines(report, lang_of(args))))
    return 0


def _set_pass_marks(args: argparse.Namespace) -> int:
    from shared.errors import ConsoleError
    from shared.journal import Journal, default_journal_path
    from shared.actor import Role
    from shared.staff import Credentials, StaffRegistry
    from tui_common.cli import ask_secret, fail
    from tui_common.i18n import t

    if args.game is None:
        return fail(t("train_mark_needs_game", lang_of(args)))
    marks: dict[str, int] = {}
    for item in args.pass_mark:
        skill, _, pct = item.partition("=")
        # ASCII digits only: «²» is a digit to str.isdigit() but not to int().
        if skill not in SKILLS or not (pct.isascii() and pct.isdigit()) or int(pct) > 100:
            return fail(t("train_bad_mark", lang_of(args), item=repr(item), skills=", ".join(SKILLS)))
        marks[skill] = int(pct)
    if not args.by:
        return fail(t("train_mark_needs_by", lang_of(args)))
    path = args.db or default_journal_path(args.game, _default_table_id(args.game))
    try:
        # A PIN check records failed attempts, so it takes the journal as its writer (refused,
        # naming the console, while the table is open: the marks are set between sessions).
        with Journal.open_existing(path, game=args.game) as existing:
            table_id = existing.table_id
        journal = Journal(path, table_id, args.game)
        try:
            pin = ask_secret(text("cli.staff_ask_pin", lang_of(args), staff_id=args.by))
            actor = StaffRegistry(journal).verify(Credentials(args.by, pin), require={Role.TRAINER, Role.SUPERVISOR})
        finally:
            journal.close()
    except ConsoleError as exc:
        return fail(f"train: {exc.message(lang_of(args))}")
    store = _store(args)
    try:
        for skill, pct in marks.items():
            store.set_pass_mark(args.game, skill, pct, set_by=actor.staff_id)
        print(json.dumps({"game": args.game, "pass_marks": store.pass_marks(args.game), "set_by": actor.staff_id},
                         ensure_ascii=False))
    finally:
        store.close()
    return 0


def _default_table_id(game: str) -> str:
    if game == "madero":
        from shared.madero.config import DEFAULT_MADERO_TABLE

        return DEFAULT_MADERO_TABLE.table_id
    from shared.midi.config import DEFAULT_MIDI_TABLE

    return DEFAULT_MIDI_TABLE.table_id
