"""The command-line frame both apps share: no subcommand launches the console.

Each app passes its game name, the function that runs its Textual app, and the modules
that register its supervisor subcommands by name (``register(subparsers)`` each, setting
``func`` on the parser they add). Only the module of the command being run is imported
(all of them for ``--help``), so a tool never pays for another's imports or for Textual.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import getpass
import gettext
import importlib
import io
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TextIO, TypeVar

from shared.errors import ConsoleError, InputError, os_reason
from shared.journal import Journal
from shared.messages import DEFAULT_LANG, Msg, env_lang, gettext_dir, langs, text
from shared.money import to_money
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry
from shared.text import printable
from tui_common.options import LaunchOptions

if TYPE_CHECKING:
    from shared.engine import TableEngine

R = TypeVar("R")
T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

JsonObject = dict[str, Any]
"""A JSON object read from a tool's input: its values are untyped until each field is checked
(``round_boxes``, ``to_money``, ``parse_cards``) where it is used."""


# Options of the app itself that take a value: skipped when looking for the command's name.
_VALUED_OPTIONS = {"--db", "--table", "--lang", "--seed", "--trainee", "--training-db"}


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


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mesa-console")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def help_lang(argv: Sequence[str]) -> str:
    """The language of ``--help`` and of argparse's refusals: ``--lang`` wherever the command
    line gives it (before or after the subcommand), else ``LC_ALL``/``LANG``."""
    for i, token in enumerate(argv):
        value = argv[i + 1] if token == "--lang" and i + 1 < len(argv) else token.removeprefix("--lang=")
        if (token == "--lang" or token.startswith("--lang=")) and value in langs():
            return value
    return env_lang()


@contextlib.contextmanager
def argparse_words(lang: str) -> Iterator[None]:
    """argparse's own words in ``lang`` while a parser is built and a command line read.

    argparse asks the gettext functions it imported (``_``, ``ngettext``), which take the
    language from the process's environment: for that while they are the translation's of the
    catalogs' compiled ``argparse.mo`` files (``shared.messages.argparse_mo``) for ``lang``;
    the environment and gettext's own domain are left as they are."""
    words = gettext.translation("argparse", gettext_dir(), languages=[lang], fallback=True)
    module = vars(argparse)
    saved = module["_"], module["ngettext"]
    module["_"], module["ngettext"] = words.gettext, words.ngettext
    try:
        yield
    finally:
        module["_"], module["ngettext"] = saved


class WholeOptionParser(argparse.ArgumentParser):
    """A parser that takes options only as written in full: argparse's prefix matching would
    read ``journal verify --table MPB-77`` as ``--table-id`` (``--table`` is a TOML file
    everywhere else). Its subcommands' parsers are of this class too (argparse makes them of
    the class of the parser they belong to)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)


class SubcommandParser(WholeOptionParser):
    """A subcommand's parser (its own verbs' too, argparse makes them of its class): it takes
    ``--lang`` after its name as well (``report --shift --lang es``), through argparse's
    public ``parser_class``. ``subcommand_parser(lang)`` is the class whose help speaks ``lang``."""

    help_lang: ClassVar[str] = DEFAULT_LANG

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # SUPPRESS: given before the subcommand, or not at all, the app's own --lang stands.
        self.add_argument("--lang", choices=langs(), default=argparse.SUPPRESS, help=text("help.lang", self.help_lang))


@functools.cache
def subcommand_parser(lang: str) -> type[SubcommandParser]:
    return type(f"SubcommandParser_{lang}", (SubcommandParser,), {"help_lang": lang})


def build_parser(
    prog: str, description: str, subcommand_modules: Mapping[str, str], argv: Sequence[str] | None = None
) -> argparse.ArgumentParser:
    """The app's parser, its help in the command line's language (``help_lang``);
    ``description`` is a catalog code. Build and parse inside ``argparse_words``."""
    argv = sys.argv[1:] if argv is None else argv
    lang = help_lang(argv)
    parser = WholeOptionParser(prog=prog, description=text(description, lang),
                                     epilog=text("help.app_example", lang))
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}",
                        help=text("help.version", lang))
    parser.add_argument("--db", type=Path, help=text("help.db_default", lang))
    parser.add_argument("--table", type=Path, metavar="TOML", help=text("help.table", lang))
    parser.add_argument("--lang", choices=langs(), help=text("help.lang", lang))
    parser.add_argument("--training", action="store_true", help=text("help.training", lang))
    parser.add_argument("--seed", type=int, help=text("help.seed", lang))
    parser.add_argument("--graded", action="store_true", help=text("help.graded", lang))
    parser.add_argument("--trainee", help=text("help.graded_trainee", lang))
    parser.add_argument("--training-db", type=Path, help=text("help.graded_training_db", lang))
    subparsers = parser.add_subparsers(dest="command", metavar=text("help.command_metavar", lang),
                                       parser_class=subcommand_parser(lang))
    for name in _commands_to_register(argv, list(subcommand_modules)):
        importlib.import_module(subcommand_modules[name]).register(subparsers, lang)
    return parser


def run_cli(
    prog: str,
    description: str,
    subcommand_modules: Mapping[str, str],
    launch: Callable[[LaunchOptions], int],
    argv: Sequence[str] | None = None,
) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for stream in (sys.stdout, sys.stderr):
        # Help and refusals too reach a terminal of any encoding: what it lacks is escaped, not a crash.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    with argparse_words(help_lang(argv)):
        parser = build_parser(prog, description, subcommand_modules, argv)
        args = parser.parse_args(argv)
        args.lang = getattr(args, "lang", None) or env_lang()
        if args.command is None:
            _check_launch_options(parser, args)
    if args.command is None:
        options = LaunchOptions(db=args.db, table=args.table, lang=args.lang, training=args.training, seed=args.seed,
                                graded=args.graded, trainee=(args.trainee or "").strip() or None,
                                training_db=args.training_db)
        return launch(options)
    try:
        with _printable_output():
            return int(args.func(args) or 0)
    except BrokenPipeError:
        return 0
    except ConsoleError as refused:  # one a subcommand did not word itself: its words, never a traceback
        print(f"{prog}: {printable(refused.message(args.lang))}", file=sys.stderr)
        return 2


def _check_launch_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The console's options that only apply together (argparse's refusal, in the command's language)."""
    if args.seed is not None and not args.training:
        parser.error(text("help.seed_needs_training", args.lang))
    if args.graded and not args.training:
        parser.error(text("help.graded_needs_training", args.lang))
    if args.graded and not (args.trainee or "").strip():
        parser.error(text("help.graded_needs_trainee", args.lang))
    if (args.trainee or args.training_db) and not args.graded:
        parser.error(text("help.trainee_needs_graded", args.lang))


class _PrintableStream:
    """A text stream that writes every unprintable character but the line feed as
    ``\\uXXXX`` (``shared.text.printable``): whatever a tool echoes (a card token typed on
    the command line, a name from an old journal) cannot drive the terminal, and JSON output
    stays valid JSON. So is every character the stream's encoding cannot write («§» on an
    ASCII terminal): the output is complete whatever the terminal."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._encoding = getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        text = printable(text, newlines=True)
        try:
            text.encode(self._encoding)
        except UnicodeEncodeError:
            text = "".join(map(self._encodable, text))
        except LookupError:
            pass  # an encoding Python does not know: the stream itself says so
        return self._stream.write(text)

    def _encodable(self, ch: str) -> str:
        try:
            ch.encode(self._encoding)
        except UnicodeEncodeError:
            return json.dumps(ch)[1:-1]  # \uXXXX (a surrogate pair beyond the BMP): valid JSON too
        return ch

    def __getattr__(self, name: str) -> object:
        return getattr(self._stream, name)


@contextlib.contextmanager
def _printable_output() -> Iterator[None]:
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _PrintableStream(sys.stdout), _PrintableStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def add_table_option(parser: argparse.ArgumentParser, lang: str) -> None:
    """Let a subcommand take ``--table`` after its name too (``settle x.json --table t.toml``)."""
    parser.add_argument("--table", type=Path, default=argparse.SUPPRESS, metavar="TOML",
                        help=text("help.table", lang))


class _TableModel(Protocol[T_co]):
    def from_toml(self, path: Path) -> T_co: ...


def load_table(path: Path | None, model: _TableModel[T], default: T) -> T:
    """The table a subcommand works under: the given TOML file or the shipped default."""
    return default if path is None else model.from_toml(path)


def ask_secret(prompt: str) -> str:
    """A PIN: typed without echo at a terminal; from a pipe, one line of stdin (getpass would
    warn, in English, that it cannot hide it, and say the prompt to no one)."""
    if sys.stdin.isatty():
        return getpass.getpass(prompt)
    return sys.stdin.readline().rstrip("\n")


def fail(message: str, code: int = 2) -> int:
    """Print a refusal for a supervisor tool and return its exit code."""
    print(message, file=sys.stderr)
    return code


MAX_INPUT_BYTES = 1024 * 1024
"""A round, a coup or a whole shoe is a few kilobytes: a tool reads no more than this."""


def read_input(source: str) -> str:
    """The UTF-8 text of a file or of stdin (``-``), at most ``MAX_INPUT_BYTES``."""
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(source, "rb") as file:
                data = file.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise InputError(Msg.of("cli.cannot_read", source=source, reason=os_reason(exc))) from None
    if len(data) > MAX_INPUT_BYTES:
        raise InputError(Msg.of("cli.too_long", source=source, kib=MAX_INPUT_BYTES // 1024))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(Msg.of("cli.not_utf8", source=source, byte=exc.start + 1)) from None


def read_json_object(source: str) -> JsonObject:
    """A JSON object from a file or stdin (``-``); decimals stay exact (never floats)."""
    text = read_input(source)
    try:
        data = json.loads(text, parse_float=Decimal)
    except json.JSONDecodeError as exc:
        raise InputError(Msg.of("cli.bad_json", line=exc.lineno, column=exc.colno, reason=exc.msg)) from None
    except (ValueError, RecursionError):  # an integer of thousands of digits; nesting past the stack
        raise InputError(Msg.of("cli.json_too_deep")) from None
    if not isinstance(data, dict):
        raise InputError(Msg.of("cli.json_not_object"))
    return data


@contextlib.contextmanager
def field_named(name: str | Msg) -> Iterator[None]:
    """An InputError raised inside says which field of the input it is about."""
    try:
        yield
    except InputError as exc:
        raise InputError(Msg.of("cli.in_field", field=name, error=exc)) from None


def refuse_unknown(data: JsonObject, known: Sequence[str], box: int | None = None) -> None:
    """Every key of ``data`` is one the format documents: a misspelt or invented one (a
    «status» the tool does not read) is refused by name, never ignored."""
    unknown = ", ".join(repr(key) for key in data if key not in known)
    if unknown:
        if box is None:
            raise InputError(Msg.of("cli.unknown_keys", keys=unknown, known=", ".join(known)))
        raise InputError(Msg.of("cli.box_unknown_keys", box=box, keys=unknown, known=", ".join(known)))


def card_list(value: object, field: str) -> list[str]:
    """Cards in a round or coup file: a JSON list, as the format documents (``["Ac", "Kd"]``);
    the one string ``"Ac Kd"`` is refused."""
    if not isinstance(value, list):
        raise InputError(Msg.of("settle_input.card_list", hand=field))
    return value


def round_boxes(data: JsonObject, *, amounts: Sequence[str], flags: Sequence[str] = (),
                others: Sequence[str] = ()) -> list[JsonObject]:
    """The ``boxes`` of a round or coup: a list of objects, each with a whole ``box`` number
    (``true`` or ``1.5`` are not box 1), exact ``amounts``, true/false ``flags`` and the
    ``others`` keys its game reads; any other key is refused."""
    boxes = data.get("boxes")
    if not isinstance(boxes, list) or not all(isinstance(item, dict) for item in boxes):
        raise InputError(Msg.of("cli.boxes_not_list"))
    for item in boxes:
        number = item.get("box")
        if isinstance(number, bool) or not isinstance(number, int):
            raise InputError(Msg.of("cli.box_not_whole"))
        refuse_unknown(item, ("box", *amounts, *flags, *others), number)
        for key in amounts:
            with field_named(Msg.of("cli.box_field", box=number, field=key)):
                to_money(item.get(key, 0))
        for key in flags:
            if not isinstance(item.get(key, False), bool):
                raise InputError(Msg.of("cli.box_flag", box=number, field=key))
    return boxes


SETTLE_AUDITOR_PIN = "000000"


def scratch_auditor(journal: Journal) -> tuple[StaffRegistry, Credentials]:
    """Staff for a scratch table that replays a disputed round: one supervisor, ``settle``,
    who opens the shift, so the replay runs under the live table's every rule."""
    staff = StaffRegistry(journal)
    auditor = Credentials("settle", SETTLE_AUDITOR_PIN)
    staff.enrol(auditor.staff_id, "settle", Role.SUPERVISOR, auditor.pin, by=None)
    return staff, auditor


def open_scratch_tray(table: TableEngine, auditor: Credentials) -> None:
    """The scratch table's tray, empty (a live table takes bets only with its tray open): a
    second scratch person countersigns, as a tray needs two."""
    assert table.staff is not None
    counter = Credentials("settle-tray", SETTLE_AUDITOR_PIN)
    table.staff.enrol(counter.staff_id, "settle", Role.CROUPIER, counter.pin, by=auditor)
    table.tray.open({"1": 0}, counter, auditor)


def run_settle(source: str, settle: Callable[[JsonObject], R], show: Callable[[R, JsonObject], None], lang: str) -> int:
    """The frame of both ``settle`` tools: read the round, settle it by the engine, show it;
    a round that cannot exist is refused with the engine's message (and its article)."""
    try:
        data = read_json_object(source)
    except InputError as exc:
        return fail(f"settle: {exc.message(lang)}")
    try:
        outcome = settle(data)
    except ConsoleError as exc:
        return fail(text("cli.settle_impossible", lang, reason=exc))
    except KeyError as exc:
        return fail(text("cli.settle_missing", lang, field=exc.args[0]))
    except (TypeError, ValueError):
        return fail(text("cli.settle_malformed", lang))
    show(outcome, data)
    return 0
