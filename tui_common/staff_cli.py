"""``staff``: a table's staff administration from the command line, for both apps (no Textual).

Every change is authorised by a supervisor's ID (``--by``) and PIN; PINs are read without echo
from the terminal (one line each from stdin when it is not a terminal), never from arguments,
so they stay out of the shell history and the process list.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shared.errors import ConsoleError
from shared.journal import Journal
from shared.messages import Msg, lang_of, text
from shared.staff import Credentials, StaffRegistry, parse_role
from tui_common.cli import ask_secret, fail
from tui_common.report_cli import journal_path


def add_staff_subcommand(subparsers: argparse._SubParsersAction[argparse.ArgumentParser], lang: str, game: str, default_table_id: str) -> None:
    def example(words: str) -> str:
        return text("help.example", lang, example=words)

    parser = subparsers.add_parser("staff", help=text("help.staff", lang), epilog=example("%(prog)s list --json"))
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=text("help.db", lang))
    verbs = parser.add_subparsers(dest="verb", metavar=text("help.verb_metavar", lang), required=True)
    listing = verbs.add_parser("list", help=text("help.staff_list", lang), epilog=example("%(prog)s --json"))
    listing.add_argument("--json", action="store_true", help=text("help.json", lang))
    enrol = verbs.add_parser("enrol", help=text("help.staff_enrol", lang),
                             epilog=example("%(prog)s C7 'Ana Ruiz' croupier --by S1"))
    enrol.add_argument("staff_id")
    enrol.add_argument("name")
    enrol.add_argument("role", help=text("help.staff_role", lang))
    for verb in ("deactivate", "reset-pin", "unlock"):
        key = verb.replace("-", "_")
        why = text(f"help.staff_{key}_why", lang)
        sub = verbs.add_parser(verb, help=text(f"help.staff_{key}", lang),
                               epilog=example(f"%(prog)s C7 --reason '{why}' --by S1"))
        sub.add_argument("staff_id")
        sub.add_argument("--reason", required=True, help=text("help.staff_reason", lang))
    for sub in (enrol, *(verbs.choices[v] for v in ("deactivate", "reset-pin", "unlock"))):
        sub.add_argument("--by", required=True, metavar="SUPERVISOR_ID", help=text("help.staff_by", lang))
    passwd = verbs.add_parser("passwd", help=text("help.staff_passwd", lang), epilog=example("%(prog)s C7"))
    passwd.add_argument("staff_id")
    parser.set_defaults(func=lambda args: run(args, game, default_table_id))


def _new_pin(prompt: str, lang: str) -> str:
    pin = ask_secret(prompt)
    if ask_secret(text("cli.staff_ask_repeat", lang)) != pin:
        raise ConsoleError(Msg.of("staff.pins_differ"))
    return pin


def run(args: argparse.Namespace, game: str, default_table_id: str) -> int:
    try:
        path = journal_path(args, game, default_table_id)
        with Journal.open_existing(path, game=game) as existing:
            if args.verb == "list":  # reading only: it runs beside the table's open console
                return _list(StaffRegistry(existing), args.json, lang_of(args))
            table_id = existing.table_id
        # The staff table lives in the journal's file and a PIN check records failed attempts:
        # a change takes the journal as its writer, refused, naming the console, while the table is open.
        with Journal(path, table_id, game) as journal:
            return _change(args, StaffRegistry(journal), lang_of(args))
    except ConsoleError as exc:
        return fail(f"staff: {exc.message(lang_of(args))}")


def _change(args: argparse.Namespace, staff: StaffRegistry, lang: str) -> int:
    if args.verb == "passwd":
        current = Credentials(args.staff_id, ask_secret(text("cli.staff_ask_current", lang, staff_id=args.staff_id)))
        staff.change_pin(current, _new_pin(text("cli.staff_ask_new", lang), lang))
        print(text("cli.staff_pin_changed", lang, staff_id=args.staff_id))
        return 0
    by = Credentials(args.by, ask_secret(text("cli.staff_ask_supervisor", lang, staff_id=args.by)))
    if args.verb == "enrol":
        role = parse_role(args.role)
        staff.enrol(args.staff_id, args.name, role, _new_pin(text("cli.staff_ask_pin", lang, staff_id=args.staff_id),
                                                             lang), by=by)
        print(text("cli.staff_enrolled", lang, role=Msg.of(f"staff.role_{role.value}"), staff_id=args.staff_id,
                   name=args.name.strip()))
    elif args.verb == "deactivate":
        staff.deactivate(args.staff_id, by=by, reason=args.reason)
        print(text("cli.staff_deactivated", lang, staff_id=args.staff_id))
    elif args.verb == "reset-pin":
        staff.reset_pin(args.staff_id, _new_pin(text("cli.staff_ask_temporary", lang, staff_id=args.staff_id), lang),
                        by=by, reason=args.reason)
        print(text("cli.staff_pin_reset", lang, staff_id=args.staff_id))
    else:
        staff.unlock(args.staff_id, by=by, reason=args.reason)
        print(text("cli.staff_unlocked", lang, staff_id=args.staff_id))
    return 0


def _list(staff: StaffRegistry, as_json: bool, lang: str) -> int:
    records = staff.all()
    if as_json:
        print(json.dumps([{"staff_id": r.staff_id, "name": r.name, "role": r.role.value, "active": r.active,
                           "locked": r.locked_until is not None, "must_change_pin": r.must_change}
                          for r in records], ensure_ascii=False))
        return 0
    for r in records:
        state = [key for key, on in (("cli.staff_inactive", not r.active), ("cli.staff_locked", r.locked_until is not None),
                                     ("cli.staff_must_change", r.must_change)) if on]
        role = text(f"staff.role_{r.role.value}", lang)
        print(f"{r.staff_id:<12} {role:<11} {r.name:<30} {', '.join(text(key, lang) for key in state)}".rstrip())
    return 0
