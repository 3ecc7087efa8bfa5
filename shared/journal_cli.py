"""``journal verify``, ``journal anchor`` and ``journal recall``: the supervisor's and
auditor's view of a journal.

Both apps register them with ``add_journal_subcommand(subparsers, game)``. They open an
existing journal read-only (never create or lock one, so they work while the console runs),
print readable text or ``--json``, and exit 0 when all is well, 1 when the hash chain is
broken (or, for ``recall``, an entry cannot be read in the game's words: it is shown as stored),
2 on bad usage (no such journal, wrong game). ``anchor`` prints ``HASH:COUNT``, the
head to keep outside the journal; ``verify --anchor HASH:COUNT`` proves the journal still
holds it. With ``--server URL`` it also compares the journal with the head the table last wrote
to that server (its ``anchor_url``, or a Carrusel table's ``carrusel_url``: ``shared.anchor``):
exit 1 if the journal was cut or rewritten since, 3 if the server cannot be queried.
``upgrade`` converts a journal of an older row format once (``shared.journal_upgrade``), signed
by a supervisor: exit 1 if the old file does not verify.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from shared.errors import ConsoleError, InputError
from shared.events import ClockCorrected, GamingDayClosed, utc_seconds
from shared.journal import (
    GENESIS_HASH,
    SCHEMA_VERSION,
    Event,
    Journal,
    JournalError,
    VerifyReport,
    default_journal_path,
    format_event,
    recall_json,
    recall_text,
)
from shared.messages import Msg, lang_of, langs, text
from shared.redact import redact
from shared.text import printable

if TYPE_CHECKING:
    from shared.anchor import ServerHead

EXIT_OK = 0
EXIT_BROKEN = 1
EXIT_USAGE = 2
EXIT_SERVER = 3

# Where each game's shipped default table lives, for the default journal path.
_DEFAULT_TABLES = {
    "midi": ("shared.midi.config", "DEFAULT_MIDI_TABLE"),
    "madero": ("shared.madero.config", "DEFAULT_MADERO_TABLE"),
}


def add_journal_subcommand(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    lang: str,
    game: str,
    *,
    default_table_id: str | None = None,
    describe: Callable[[argparse.Namespace], Callable[[Event, str], str]] | None = None,
    ask_secret: Callable[[str], str] | None = None,
) -> argparse.ArgumentParser:
    """Register ``journal verify``, ``anchor`` and ``recall`` for ``game``; each sets ``func``;
    their help in ``lang``.

    ``describe(args)`` gives the app's own recall wording (the F3 screen's) for text output.
    ``ask_secret``: how ``upgrade`` asks the supervisor's PIN (without it, no ``upgrade``).

    ``--db``/``--lang`` given before the subcommand (the app's own options) are honoured too:
    these options default to SUPPRESS so they never overwrite the app's values.
    """
    def example(words: str) -> str:
        return text("help.example", lang, example=words)

    journal_parser = subparsers.add_parser("journal", help=text("help.journal", lang),
                                           epilog=text("help.example_journal", lang))
    actions = journal_parser.add_subparsers(dest="journal_command", metavar=text("help.action_metavar", lang),
                                            required=True)

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--db", type=Path, default=argparse.SUPPRESS, help=text("help.db", lang))
        # Not --table: that is a table file (TOML) everywhere else, the app's own option included.
        parser.add_argument("--table-id", default=argparse.SUPPRESS, metavar="ID", help=text("help.table_id", lang))
        parser.add_argument("--json", action="store_true", help=text("help.json", lang))
        try:
            parser.add_argument("--lang", choices=langs(), default=argparse.SUPPRESS, help=text("help.lang", lang))
        except argparse.ArgumentError:
            pass  # an app's subcommand parser takes --lang already (tui_common.cli.SubcommandParser)
        parser.set_defaults(game=game, default_table_id=default_table_id, describe=describe)

    verify = actions.add_parser("verify", help=text("help.journal_verify", lang),
                                epilog=example("%(prog)s --table-id MESA-01 --anchor HASH:COUNT"))
    common(verify)
    verify.add_argument("--anchor", type=lambda value: _anchor(value, lang), default=None, metavar="HASH:COUNT",
                        help=text("help.journal_anchor_option", lang))
    verify.add_argument("--server", default=None, metavar="URL", help=text("help.journal_server", lang))
    verify.set_defaults(func=run_verify)

    anchor = actions.add_parser("anchor", help=text("help.journal_anchor", lang),
                                epilog=text("help.example_journal_anchor", lang))
    common(anchor)
    anchor.set_defaults(func=run_anchor)

    recall = actions.add_parser("recall", help=text("help.journal_recall", lang),
                                epilog=example("%(prog)s --last 3 --lang en"))
    common(recall)
    which = recall.add_mutually_exclusive_group()
    which.add_argument("--last", type=lambda value: _positive(value, lang), default=None, metavar="N",
                       help=text("help.journal_last", lang))
    which.add_argument("--round", type=lambda value: _round_number(value, lang), default=None, metavar="ID",
                       help=text("help.journal_round", lang))
    recall.set_defaults(func=run_recall)

    archive = actions.add_parser("archive", help=text("help.journal_archive", lang),
                                 epilog=text("help.example_journal_archive", lang))
    common(archive)
    archive.add_argument("--before", type=lambda value: _day(value, lang), required=True, metavar="YYYY-MM-DD",
                         help=text("help.journal_before", lang))
    archive.set_defaults(func=run_archive)

    if ask_secret is not None:
        upgrade = actions.add_parser("upgrade", help=text("help.journal_upgrade", lang),
                                     epilog=text("help.example_journal_upgrade", lang))
        common(upgrade)
        upgrade.add_argument("--by", required=True, metavar="SUPERVISOR_ID", help=text("help.journal_upgrade_by", lang))
        upgrade.add_argument("--anchor", type=lambda value: _anchor(value, lang), default=None, metavar="HASH:COUNT",
                             help=text("help.journal_anchor_option", lang))
        upgrade.set_defaults(func=run_upgrade, ask_secret=ask_secret)
    return journal_parser


MAX_ROUND = 2**63 - 1
"""SQLite's largest integer: no round number or count is above it."""


def _whole(text: str, low: int) -> int | None:
    """``text`` as a whole number from ``low`` to MAX_ROUND, or None (ASCII digits only: int()
    takes «²» or a 5,000-digit string only to fail)."""
    text = text.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= len(str(MAX_ROUND))):
        return None
    value = int(text)
    return value if low <= value <= MAX_ROUND else None


# argparse reads these values before the tool's printable output is in place, so the typed
# value is escaped here; the refusal is in the language the command line asked for (``lang``).
def _positive(typed: str, lang: str) -> int:
    value = _whole(typed, 1)
    if value is None:
        raise argparse.ArgumentTypeError(text("journal.bad_last", lang, value=printable(typed)))
    return value


def _round_number(typed: str, lang: str) -> int:
    value = _whole(typed, 0)
    if value is None:
        raise argparse.ArgumentTypeError(text("journal.bad_round", lang, value=printable(typed)))
    return value


def _day(typed: str, lang: str) -> str:
    try:
        return date.fromisoformat(typed.strip()).isoformat()
    except ValueError:
        raise argparse.ArgumentTypeError(text("journal.bad_day", lang, value=printable(typed))) from None


def _anchor(typed: str, lang: str) -> tuple[str, int]:
    digest, _, count_text = typed.partition(":")
    count = _whole(count_text, 0)
    if len(digest) != 64 or any(ch not in "0123456789abcdef" for ch in digest) or count is None:
        raise argparse.ArgumentTypeError(text("journal.bad_anchor", lang, value=printable(typed)))
    return digest, count


def _table_id(args: argparse.Namespace) -> str:
    from shared.config import TABLE_ID

    table_id: str | None = getattr(args, "table_id", None)
    if table_id:
        # It names a file under the data directory: no path of its own, no control codes.
        if not TABLE_ID.fullmatch(table_id):
            raise InputError(Msg.of("journal.bad_table_id"))
        return table_id
    return named_table_id(args.game, getattr(args, "table", None), args.default_table_id)  # the app's --table TOML


def named_table_id(game: str, table_file: Path | None, default_id: str | None = None) -> str:
    """The id of the table a tool's options name: the ``--table`` file's (a malformed file is
    refused), else ``default_id`` or the game's shipped table's."""
    from shared.config import TableFile

    module, name = _DEFAULT_TABLES[game]
    default = getattr(importlib.import_module(module), name)
    if table_file is not None:
        return TableFile.read(table_file).table_id(type(default))
    return default_id or str(default.table_id)


def _path(args: argparse.Namespace) -> Path:
    path: Path | None = getattr(args, "db", None)
    if path is None:
        path = default_journal_path(args.game, _table_id(args), training=bool(getattr(args, "training", False)))
    return path


def _open(args: argparse.Namespace) -> Journal:
    return Journal.open_existing(_path(args), game=args.game)


def _usage_error(args: argparse.Namespace, exc: Exception) -> int:
    if isinstance(exc, ConsoleError):
        said = exc.message(lang_of(args))
    else:
        said = f"{type(exc).__name__}: {exc}"
    print(f"journal: {said}", file=sys.stderr)
    return EXIT_USAGE


def run_verify(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        journal = _open(args)
    except (ConsoleError, OSError) as exc:
        return _usage_error(args, exc)
    with journal:
        try:
            # The server's head first: the table journals before it writes the server, so a journal
            # read after it holds at least that head.
            head = _server_head(args.server, journal.table_id) if args.server else None
        except InputError as exc:
            return _usage_error(args, exc)
        except ConsoleError as exc:
            print(f"journal: {exc.message(lang)}", file=sys.stderr)
            return EXIT_SERVER
        report = journal.verify(anchor=args.anchor)
        server_problem = None if head is None or not report.ok else _server_problem(journal, report, head)
        steps = _clock_steps(journal) if report.ok else []
        if args.json:
            data = {
                "path": str(journal.path),
                "game": journal.game,
                "table_id": journal.table_id,
                "ok": report.ok and server_problem is None,
                "checked": report.checked,
                "first_bad_seq": report.first_bad_seq,
                "reason": report.reason,
                "clock_corrections": [{"seq": e.seq, "previous": e.payload["previous"], "now": e.payload["now"]}
                                      for e in steps],
            }
            if args.server:
                data["server"] = None if head is None else {
                    "entries": head.entry_count, "hash": head.head_hash, "updated_at": head.updated_at.isoformat(),
                    "problem": None if server_problem is None else server_problem.code.partition(".")[2],
                }
            print(json.dumps(data, ensure_ascii=False))
        else:
            print(f"{journal.path}: {report.message(lang)}")
            for step in steps:  # where the journal's times go back: its order, not its times, is the history's
                print(f"{journal.path}: " + text("journal.clock_step", lang, seq=step.seq,
                                                 previous=utc_seconds(step.payload["previous"]),
                                                 now=utc_seconds(step.payload["now"])))
            if args.server and report.ok:
                if head is None:
                    said = text("anchor.no_head", lang, url=redact(args.server), table=journal.table_id)
                else:
                    said = (server_problem or Msg.of("anchor.head_ok", at=head.updated_at.isoformat(timespec="seconds"),
                                                     entries=head.entry_count, hash=head.head_hash)).render(lang)
                print(f"{journal.path}: {said}")
    if not report.ok or server_problem is not None:
        return EXIT_BROKEN
    return EXIT_USAGE if args.server and head is None else EXIT_OK


def _clock_steps(journal: Journal) -> list[Event]:
    """The journal's clock corrections (``clock_corrected``), oldest first."""
    with journal.read_view() as view:
        return list(view.events([ClockCorrected.type]))


def _server_head(url: str, table_id: str) -> ServerHead | None:
    from shared.anchor import HeadServer

    with HeadServer(url) as server:
        return server.head(table_id)


def _server_problem(journal: Journal, report: VerifyReport, head: ServerHead) -> Msg | None:
    """Why an intact journal does not hold the head the table wrote to the server, or None."""
    said = {"at": head.updated_at.isoformat(timespec="seconds"), "expected": head.entry_count, "hash": head.head_hash}
    if report.checked < head.entry_count:
        return Msg.of("anchor.truncated", entries=report.checked, **said)
    entry = journal.event(head.entry_count)
    found = GENESIS_HASH if entry is None else entry.hash
    if found != head.head_hash:
        return Msg.of("anchor.rewritten", found=found, **said)
    return None


def run_anchor(args: argparse.Namespace) -> int:
    try:
        journal = _open(args)
    except (ConsoleError, OSError) as exc:
        return _usage_error(args, exc)
    with journal:
        digest, count = journal.anchor()
        if args.json:
            print(json.dumps({"path": str(journal.path), "game": journal.game, "table_id": journal.table_id,
                              "hash": digest, "entries": count}))
        else:
            print(f"{digest}:{count}")
    return EXIT_OK


def run_recall(args: argparse.Namespace) -> int:
    lang = lang_of(args)
    try:
        journal = _open(args)
    except (ConsoleError, OSError) as exc:
        return _usage_error(args, exc)
    with journal:
        round_ids = [args.round] if args.round is not None else journal.last_round_ids(args.last or 10)
        if args.round is not None and not journal.round_events(args.round):
            print(f"journal: {text('journal.no_round', lang, round=args.round)}", file=sys.stderr)
            return EXIT_USAGE
        if args.json:
            data = {"game": journal.game, "table_id": journal.table_id, "rounds": recall_json(journal, round_ids)}
            print(json.dumps(data, ensure_ascii=False, indent=1))
        else:
            print(text("journal.recall_heading", lang, table=journal.table_id, game=journal.game))
            lines, unreadable = recall_text(journal, round_ids, lang,
                                            args.describe(args) if args.describe else format_event)
            for line in lines:  # the CLI's output escapes what recall_text does not lay out itself
                print(line)
            if unreadable:
                said = text("journal.recall_unreadable", lang, count=len(unreadable),
                            seqs=", ".join(f"#{seq}" for seq in unreadable))
                print(f"journal: {said}", file=sys.stderr)
                return EXIT_BROKEN
    return EXIT_OK


def run_archive(args: argparse.Namespace) -> int:
    """Move the gaming days closed before ``--before`` to an archive file; it takes the
    journal's writer lock, so it is refused while the table's console is open."""
    lang = lang_of(args)
    try:
        with _open(args) as reader:
            path, table_id = reader.path, reader.table_id
        with Journal(path, table_id, args.game) as journal:
            with journal.read_view() as view:
                closes = [event.seq for event in view.events(types=[GamingDayClosed.type])
                          if event.seq >= journal.first_seq
                          and event.payload["day"] < args.before]
            if not closes:
                raise JournalError(Msg.of("archive.no_closed_day", day=args.before))
            first = journal.first_seq
            target = journal.archive(closes[-1])
    except (ConsoleError, OSError) as exc:
        return _usage_error(args, exc)
    if args.json:
        print(json.dumps({"path": str(path), "archive": str(target), "first": first, "through": closes[-1]}))
    else:
        print(text("archive.archived", lang, first=first, through=closes[-1], path=target))
    return EXIT_OK


def run_upgrade(args: argparse.Namespace) -> int:
    """Convert a journal of an older row format to the current one, once, signed by a
    supervisor; it takes the new file's writer lock, and is refused while a console is open."""
    from shared.journal_upgrade import BrokenJournal, upgrade
    from shared.staff import Credentials

    lang = lang_of(args)
    try:
        path = _path(args)
        if not path.is_file():
            raise JournalError(Msg.of("journal.missing", path=path))
        by = Credentials(args.by, args.ask_secret(text("cli.staff_ask_supervisor", lang, staff_id=args.by)))
        body, old = upgrade(path, args.game, by, args.anchor)
    except BrokenJournal as exc:
        print(f"journal: {exc.message(lang)}", file=sys.stderr)
        return EXIT_BROKEN
    except (ConsoleError, OSError) as exc:
        return _usage_error(args, exc)
    if args.json:
        print(json.dumps({"path": str(path), "from_format": body.from_format, "entries": len(old.entries),
                          "old_head": body.old_head, "new_head": body.new_head, "kept_as": body.kept_as,
                          "keyed": old.key is not None}))
    else:
        print(text("upgrade.done", lang, path=path, format=body.from_format, current=SCHEMA_VERSION,
                   entries=len(old.entries), old_head=body.old_head, new_head=body.new_head, kept_as=body.kept_as))
        if old.key is None:
            print(text("upgrade.unkeyed", lang))
    return EXIT_OK
