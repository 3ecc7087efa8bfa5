"""``train``: the training console as a subcommand of both apps.

``madero-tui train [--drill NAME] [--seed N] [--trainee ID]`` (and ``midi-tui train …``)
opens the drills of the app's game; ``--game`` picks the other one. The training
database is its own file (``--training-db``), never a table's journal.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shared.training import GAMES, drills_for


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "train", help="training drills with score cards (virtual cards, never a live table)",
        description="Graded drills for new croupiers; a seed gives a whole class the same drill.",
    )
    # The parser's prog names the app ("madero-tui train"), which is the default game.
    default_game = next((g for g in GAMES if parser.prog.startswith(g)), None)
    names = sorted({d.name for g in GAMES for d in drills_for(g)})
    parser.add_argument("--game", choices=GAMES, default=default_game,
                        help=f"game of the drills (default: {default_game or 'ask'})")
    parser.add_argument("--drill", choices=names, help="start this drill at once (" + "; ".join(
        f"{g}: {', '.join(d.name for d in drills_for(g))}" for g in GAMES) + ")")
    parser.add_argument("--seed", type=int, default=argparse.SUPPRESS,
                        help="repeatable drill: the same questions for everyone with this seed")
    parser.add_argument("--trainee", help="staff ID or trainee name (default: asked on screen)")
    parser.add_argument("--count", type=int, help="exercises in the session (default: the drill's own)")
    parser.add_argument("--training-db", type=Path, help="training database (default: under the user's data directory)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from shared.errors import InputError
    from shared.training import check_session, default_training_db
    from tui_common.cli import fail

    if args.drill is not None:
        if args.game is None:
            return fail("--drill needs --game (madero or midi)")
        if args.drill not in {d.name for d in drills_for(args.game)}:
            return fail(f"{args.game} has no drill {args.drill!r}: "
                        + ", ".join(d.name for d in drills_for(args.game)))
    try:
        check_session(args.trainee, args.count)
    except InputError as exc:
        return fail(f"train: {exc.message(args.lang)}")
    from tui_common.training.app import run

    return run(game=args.game, store_path=args.training_db or default_training_db(), lang=args.lang,
               drill=args.drill, seed=getattr(args, "seed", None), trainee=args.trainee, count=args.count)
