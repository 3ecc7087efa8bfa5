"""The command-line frame both apps share: no subcommand launches the console.

Each app passes its game name, the function that runs its Textual app, and the modules
that register its supervisor subcommands by name (``register(subparsers)`` each, setting
``func`` on the parser they add). Only the module of the command being run is imported
(all of them for ``--help``), so a tool never pays for another's imports or for Textual.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TypeVar

from shared.errors import ConsoleError, InputError
from shared.staff import Credentials, Role, StaffRegistry
from tui_common.options import LaunchOptions

R = TypeVar("R")


# Options of the app itself that take a value: skipped when looking for the command's name.
_VALUED_OPTIONS = {"--db", "--table", "--lang", "--seed"}


def _commands_to_register(argv: Sequence[str], names: Sequence[str]) -> list[str]:
    """The subcommand named on the command line; every one for ``--help`` or an unknown word
    (so argparse can list them); none when the console itself is launched."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token in _VALUED_OPTIONS:
            skip = True
        elif token in ("-h", "--help"):
            return list(names)
        elif not token.startswith("-"):
            return [token] if token in names else list(names)
    return []


def build_parser(
    prog: str, description: str, subcommand_modules: Mapping[str, str], argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--db", type=Path, help="journal file (default: under the user's data directory)")
    parser.add_argument("--table", type=Path, help="table configuration TOML (default: the shipped table)")
    parser.add_argument("--lang", choices=("es", "en"), default="es", help="interface language (default es)")
    parser.add_argument("--training", action="store_true", help="training mode: virtual cards, own journal")
    parser.add_argument("--seed", type=int, help="with --training: repeatable shuffles")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    argv = sys.argv[1:] if argv is None else argv
    for name in _commands_to_register(argv, list(subcommand_modules)):
        importlib.import_module(subcommand_modules[name]).register(subparsers)
    return parser


def run_cli(
    prog: str,
    description: str,
    subcommand_modules: Mapping[str, str],
    launch: Callable[[LaunchOptions], int],
    argv: Sequence[str] | None = None,
) -> int:
    parser = build_parser(prog, description, subcommand_modules, argv)
    args = parser.parse_args(argv)
    if args.command is None:
        if args.seed is not None and not args.training:
            parser.error("--seed only applies with --training")
        options = LaunchOptions(db=args.db, table=args.table, lang=args.lang, training=args.training, seed=args.seed)
        return launch(options)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0


def add_table_option(parser: argparse.ArgumentParser) -> None:
    """Let a subcommand take ``--table`` after its name too (``settle x.json --table t.toml``)."""
    parser.add_argument("--table", type=Path, default=argparse.SUPPRESS,
                        help="table configuration TOML (default: the shipped table)")


def load_table(path: Path | None, model, default):
    """The table a subcommand works under: the given TOML file or the shipped default."""
    return default if path is None else model.from_toml(path)


def fail(message: str, code: int = 2) -> int:
    """Print a refusal for a supervisor tool and return its exit code."""
    print(message, file=sys.stderr)
    return code


def read_json_object(source: str) -> dict:
    """A JSON object from a file or stdin (``-``); decimals stay exact (never floats)."""
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"no se pudo leer {source}: {exc.strerror}", f"cannot read {source}: {exc.strerror}") from None
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        where = f"(línea {exc.lineno}, columna {exc.colno})"
        raise InputError(f"JSON inválido {where}: {exc.msg}", f"invalid JSON {where}: {exc.msg}") from None
    if not isinstance(data, dict):
        raise InputError("se espera un objeto JSON", "a JSON object is expected")
    return data


SETTLE_AUDITOR_PIN = "000000"


def scratch_auditor(journal) -> tuple[StaffRegistry, Credentials]:
    """Staff for a scratch table that replays a disputed round: one supervisor, ``settle``,
    who opens the shift, so the replay runs under the live table's every rule."""
    staff = StaffRegistry(journal)
    auditor = Credentials("settle", SETTLE_AUDITOR_PIN)
    staff.enrol(auditor.staff_id, "settle", Role.SUPERVISOR, auditor.pin, by=None)
    return staff, auditor


def run_settle(source: str, settle: Callable[[dict], R], show: Callable[[R, dict], None]) -> int:
    """The frame of both ``settle`` tools: read the round, settle it by the engine, show it;
    a round that cannot exist is refused with the engine's message (and its article)."""
    try:
        data = read_json_object(source)
    except InputError as exc:
        return fail(f"settle: {exc.message('es')}")
    try:
        outcome = settle(data)
    except ConsoleError as exc:
        return fail(f"settle: jugada imposible — {exc.message('es')}")
    except (KeyError, TypeError, ValueError) as exc:
        return fail(f"settle: jugada mal formada ({exc!r})")
    show(outcome, data)
    return 0
