"""The command-line frame both apps share: no subcommand launches the console.

Each app passes its game name, the function that runs its Textual app, and the modules
that register its supervisor subcommands (``register(subparsers)`` each, setting
``func`` on the parser they add). Imports stay lazy so a subcommand never pays for Textual.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from tui_common.options import LaunchOptions


def build_parser(prog: str, description: str, subcommand_modules: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--db", type=Path, help="journal file (default: under the user's data directory)")
    parser.add_argument("--table", type=Path, help="table configuration TOML (default: the shipped table)")
    parser.add_argument("--lang", choices=("es", "en"), default="es", help="interface language (default es)")
    parser.add_argument("--training", action="store_true", help="training mode: virtual cards, own journal")
    parser.add_argument("--seed", type=int, help="with --training: repeatable shuffles")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in subcommand_modules:
        importlib.import_module(name).register(subparsers)
    return parser


def run_cli(
    prog: str,
    description: str,
    subcommand_modules: Sequence[str],
    launch: Callable[[LaunchOptions], int],
    argv: Sequence[str] | None = None,
) -> int:
    parser = build_parser(prog, description, subcommand_modules)
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
