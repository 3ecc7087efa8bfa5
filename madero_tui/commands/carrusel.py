"""``madero-tui carrusel``: a supervisor moves the table's meter on the Carrusel's server to the
Carrusel and seed its table file now names (issue 27 §4: a launch refuses a table file that
disagrees with the server, and names this command)."""

from __future__ import annotations

import argparse
from pathlib import Path

from shared.config import TableFile
from shared.errors import ConsoleError
from shared.madero.config import DEFAULT_MADERO_TABLE, MaderoTableConfig
from shared.messages import Msg, lang_of, text
from shared.staff import Credentials, StaffRegistry
from shared.table_file import open_table
from shared.text import printable
from tui_common.cli import ask_secret, fail


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str) -> None:
    parser = subparsers.add_parser(
        "carrusel", help=text("help.carrusel", lang), description=text("help.carrusel_description", lang),
        epilog=text("help.example", lang,
                    example="%(prog)s --table MPB-01.toml --by S1 --keep carried --reason SALA-B"))
    parser.add_argument("--table", type=Path, required=True, metavar="FILE", help=text("help.carrusel_table", lang))
    parser.add_argument("--db", type=Path, default=None, help=text("help.db", lang))
    parser.add_argument("--by", required=True, metavar="SUPERVISOR_ID", help=text("help.staff_by", lang))
    parser.add_argument("--keep", required=True, choices=("carried", "left"), help=text("help.carrusel_keep", lang))
    parser.add_argument("--reason", required=True, help=text("help.staff_reason", lang))
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from shared.madero.carrusel import open_meter_store
    from shared.madero.table import MaderoTable

    lang = lang_of(args)
    try:
        file = None if args.table is None else TableFile.read(args.table)
        config, journal = open_table("madero", MaderoTableConfig, DEFAULT_MADERO_TABLE, table=file,
                                     db=args.db, training=False)
        try:
            store = open_meter_store(config, file) or open_meter_store(
                config.with_changes(carrusel_id=config.table_id), file)
            if store is None:
                raise ConsoleError(Msg.of("carrusel.change_needs_server"))
            try:
                table = MaderoTable(journal, StaffRegistry(journal), config=config, meter_store=store,
                                    reach_server_now=False)
                creds = Credentials(args.by, ask_secret(text("cli.staff_ask_supervisor", lang, staff_id=args.by)))
                events = table.carrusel.change(creds, args.keep, args.reason)
            finally:
                store.close()
        finally:
            journal.close()
    except ConsoleError as error:
        return fail(f"carrusel: {printable(error.message(lang))}")
    for event in events:
        print(printable(event.recall().render(lang)))
    return 0
