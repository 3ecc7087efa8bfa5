"""Who may do what, when: each game's commands declared once, beside the commands.

A command method carries its declaration (``@command(...)``): its id, the phases it may run in
and the authority each needs, its article, its catalog key and, for a supervisor's command,
the lines it offers on the F2 panel with their fields. Its verify is ``verify_<method>``, and
one probe convention says whether it is allowed now, whatever the arguments: the verify called
with every argument left out (``probe`` fixes the few that name a variant, e.g. a void's kind).

``CommandTable.of(cls)`` collects a table class's declarations and those of the collaborators
it holds (``COLLABORATORS``: its desks, the base's ``tray`` and ``shift`` among them, and the
staff registry's enrolment, PIN and account commands), which run on the collaborator. From it
come ``legal_actions()``, the supervisor panel's list and its one dispatch (``perform``), the authority a command needs now (which the engine's verify asks), and
``docs/authority-<game>.md`` (``authority_document``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import field, replace
from enum import StrEnum
from typing import Any, TypeVar

from shared.actor import Credentials
from shared.desk import Desk
from shared.record import record


class Authority(StrEnum):
    CROUPIER = "croupier"
    """The croupier on duty (at a training table, the trainee)."""
    SUPERVISOR = "supervisor"
    """One supervisor, with ID, PIN and a reason."""
    TWO_SUPERVISORS = "two_supervisors"
    """Two supervisors, each with ID and PIN, and a reason: a two-person control."""
    COUNTERSIGNED = "countersigned"
    """The croupier and a supervisor, two people, each with ID and PIN (a tray count)."""
    OWN = "own"
    """The person themself, any role, with their current PIN (their own PIN)."""
    TRAINER = "trainer"
    """A training table: the trainee practises the command, nobody signs (no staff there)."""
    NOBODY = "nobody"
    """Never (the cell is left out of a declaration)."""


AUTHORITY_WORDS = {
    Authority.CROUPIER: "croupier",
    Authority.SUPERVISOR: "1 supervisor + reason",
    Authority.TWO_SUPERVISORS: "2 supervisors + reason",
    Authority.COUNTERSIGNED: "croupier + supervisor",
    Authority.OWN: "the person themself",
    Authority.TRAINER: "trainer",
    Authority.NOBODY: "—",
}


class When(StrEnum):
    """Phases a base command declares without knowing the game's (the game's table says which)."""

    ANY = "any"
    BETWEEN_ROUNDS = "between_rounds"


@record
class Field:
    """A value a panel line asks for, typed as text; ``label`` is a ``ui`` catalog key.

    ``arg`` is the command's keyword it goes to (default ``key``), ``parse`` reads the text."""

    key: str
    label: str
    placeholder: str = ""
    secret: bool = False
    """A PIN: typed hidden, digits only, cleared when refused."""
    optional: bool = False
    """May be left empty (the engine says when it is needed)."""
    arg: str = ""
    parse: Callable[[str], object] = str


@record
class Signature:
    """Someone's ID and PIN on a panel line, given to the command as ``Credentials``."""

    arg: str
    id_label: str
    pin_label: str

    @property
    def fields(self) -> tuple[Field, Field]:
        return (Field(f"{self.arg}_id", self.id_label), Field(f"{self.arg}_pin", self.pin_label, secret=True))

    def credentials(self, values: Mapping[str, str]) -> Credentials:
        return Credentials(values.get(f"{self.arg}_id", ""), values.get(f"{self.arg}_pin", ""))


SECOND_SUPERVISOR = Signature("second", "field_second_id", "field_second_pin")
"""What a line needing two supervisors adds: the second one's ID and PIN."""


@record
class Offer:
    """One line of the F2 panel: a command, maybe with some of its arguments fixed."""

    id: str
    label: str
    fields: tuple[Field | Signature, ...] = ()
    fixed: Mapping[str, object] = field(default_factory=dict)
    when: Callable[[Any], bool] | None = None
    """Shown only while this also holds (besides the command being allowed)."""

    def panel_fields(self, two: bool) -> tuple[Field, ...]:
        out: list[Field] = []
        for item in (*self.fields, *((SECOND_SUPERVISOR,) if two else ())):
            out += item.fields if isinstance(item, Signature) else (item,)
        return tuple(out)

    def arguments(self, values: Mapping[str, str]) -> dict[str, object]:
        """The command's keywords from the panel's typed ``values``."""
        kwargs = dict(self.fixed)
        for item in (*self.fields, SECOND_SUPERVISOR):
            if isinstance(item, Signature):
                if f"{item.arg}_id" in values:
                    kwargs[item.arg] = item.credentials(values)
            elif item.key in values:
                kwargs[item.arg or item.key] = item.parse(values[item.key])
        return kwargs


Cells = Mapping[Any, Authority]
"""Phase → the authority a command needs in it (a phase left out: the command never runs there)."""


def cells(authority: Authority, *phases: Any) -> dict[Any, Authority]:
    """``phases`` all needing ``authority`` (merge several with ``|``)."""
    return dict.fromkeys(phases, authority)


@record
class Command:
    id: str
    method: str
    """The method that runs it; ``verify_<method>`` verifies it."""
    phases: Cells | tuple[When, Authority]
    article: str
    label: str
    """Its catalog key (``ui``): the panel line's or the key's words."""
    offers: tuple[Offer, ...] = ()
    """Its lines on the F2 panel (a command keyed at the table has none)."""
    probe: Mapping[str, object] = field(default_factory=dict)
    """The arguments the probe fixes (the rest left out)."""
    live: bool = True
    training: bool = True
    signer: str = "creds"
    """The keyword that takes the panel's ID and PIN."""
    reason: str | None = "reason"
    """The keyword that takes the panel's reason (None: the line asks none)."""
    reason_optional: bool = False
    """The reason may be left empty (the engine asks for it when it is needed)."""
    two_when: str = ""
    """A table method: where it holds, a cell of one supervisor needs two (``two_when_words``)."""
    two_when_words: str = ""
    note: str = ""
    """Said after the article in the authority document (who may do it to whom)."""
    on: str = ""
    """The table's attribute holding the collaborator that runs it (empty: the table itself)."""
    owner: type | None = None
    """That collaborator's class (set by ``CommandTable.of``)."""

    def resolved(self, phases: Iterable[Any], between_rounds: Iterable[Any], **changes: Any) -> Command:
        """This command with a base's ``When`` made the game's phases (and ``changes``)."""
        if isinstance(self.phases, tuple):
            when, authority = self.phases
            chosen = list(phases) if when is When.ANY else list(between_rounds)
            changes["phases"] = cells(authority, *chosen)
        return replace(self, **changes) if changes else self

    @property
    def cells(self) -> Cells:
        assert not isinstance(self.phases, tuple), "resolved by CommandTable.of"
        return self.phases

    def target(self, table: Any) -> Any:
        """What runs the command: the table, or its collaborator (None when it has none)."""
        return getattr(table, self.on) if self.on else table

    def verify(self, table: Any) -> Callable[..., Any]:
        """Its verify; a table without the collaborator (a training table's staff) refuses it."""
        target = self.target(table)
        if target is None:
            return _without(self.on)
        return getattr(target, f"verify_{self.method}")  # type: ignore[no-any-return]

    def runs_at(self, table: Any) -> bool:
        return (self.training if table.training else self.live) and self.target(table) is not None

    def authority(self, table: Any) -> Authority:
        """What the command needs now (NOBODY in a phase it never runs in)."""
        if not self.runs_at(table):
            return Authority.NOBODY
        needed = self.cells.get(getattr(table, "phase", None), Authority.NOBODY)
        if needed is Authority.SUPERVISOR and self.two_when and getattr(table, self.two_when)():
            return Authority.TWO_SUPERVISORS
        return needed

    def allowed(self, table: Any) -> bool:
        """Allowed now, whatever the arguments: declared for this phase, and the probe passes."""
        return self.authority(table) is not Authority.NOBODY and can(self.verify(table), **self.probe)

    def run(self, table: Any, **kwargs: object) -> Any:
        return getattr(self.target(table), self.method)(**kwargs)


def _without(collaborator: str) -> Callable[..., None]:
    """A verify for a table without its collaborator: refused with that section's «no_registry»."""
    def refuse(*args: object, **kwargs: object) -> None:
        from shared.errors import InputError
        from shared.messages import Msg

        raise InputError(Msg.of(f"{collaborator}.no_registry"))

    return refuse


def can(verify: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    """Whether ``verify`` passes with these arguments: one path decides what is allowed
    (``table.can(id)`` asks a command's probe)."""
    from shared.errors import ConsoleError

    try:
        verify(*args, **kwargs)
    except ConsoleError:
        return False
    return True


C = TypeVar("C", bound=Callable[..., Any])
DECLARED = "__commands__"


def command(id: str, phases: Cells | tuple[When, Authority], article: str, label: str,
            **options: Any) -> Callable[[C], C]:
    """Declare the method below as command ``id`` (see ``Command``); stack for variants."""

    def declare(method: C) -> C:
        declared = getattr(method, DECLARED, ())
        setattr(method, DECLARED, (Command(id, method.__name__, phases, article, label, **options), *declared))
        return method

    return declare


@record
class CommandTable:
    """One game's commands, in declaration order (the game's, then the base's)."""

    game: str
    phases: tuple[Any, ...]
    commands: tuple[Command, ...]

    @classmethod
    def of(cls, table_class: type, base_class: type) -> CommandTable:
        """The commands declared on the collaborators ``table_class`` holds, its desks'
        (``shared.desk``) first, then those on the class and its bases, then those of the
        collaborators that are not desks (the staff registry): the game's first and then those
        of ``base_class`` (declared on it or on a collaborator it names), resolved to the game's
        phases (its ``PHASES`` and ``BETWEEN_ROUNDS``)."""
        phases = tuple(table_class.PHASES)  # type: ignore[attr-defined]
        between = tuple(table_class.BETWEEN_ROUNDS)  # type: ignore[attr-defined]
        found: dict[str, Command] = {}
        base: set[str] = set()
        collaborators: Mapping[str, type] = getattr(table_class, "COLLABORATORS", {})
        base_collaborators: Mapping[str, type] = getattr(base_class, "COLLABORATORS", {})

        def declared_on(on: str, klass: type) -> None:
            for owner in reversed(klass.__mro__):
                for member in vars(owner).values():
                    for declared in getattr(member, DECLARED, ()):
                        found[declared.id] = declared.resolved(phases, between, on=on, owner=klass)
                        if on in base_collaborators:
                            base.add(declared.id)

        for on, klass in collaborators.items():
            if issubclass(klass, Desk):
                declared_on(on, klass)
        for klass in reversed(table_class.__mro__):
            for member in vars(klass).values():
                for declared in getattr(member, DECLARED, ()):
                    found[declared.id] = declared.resolved(phases, between)
                    if klass in base_class.__mro__:
                        base.add(declared.id)
        for on, klass in collaborators.items():
            if not issubclass(klass, Desk):
                declared_on(on, klass)
        ordered = sorted(found.values(), key=lambda c: c.id in base)  # stable: declaration order kept
        return cls(table_class.game, phases, tuple(ordered))  # type: ignore[attr-defined]

    def __iter__(self) -> Iterator[Command]:
        return iter(self.commands)

    def __getitem__(self, id: str) -> Command:
        for declared in self.commands:
            if declared.id == id:
                return declared
        raise KeyError(id)

    def legal(self, table: Any) -> frozenset[str]:
        return frozenset(c.id for c in self.commands if c.allowed(table))

    def offers_now(self, table: Any) -> list[tuple[Command, Offer, bool]]:
        """The panel's lines now: each allowed command's offers, and whether it needs two supervisors."""
        out = []
        for declared in self.commands:
            if declared.offers and declared.allowed(table):
                two = declared.authority(table) is Authority.TWO_SUPERVISORS
                out += [(declared, offer, two) for offer in declared.offers if offer.when is None or offer.when(table)]
        return out

    def offer(self, offer_id: str) -> tuple[Command, Offer]:
        for declared in self.commands:
            for offer in declared.offers:
                if offer.id == offer_id:
                    return declared, offer
        raise KeyError(offer_id)

    def perform(self, table: Any, offer_id: str, creds: Credentials, reason: str, values: Mapping[str, str]) -> Any:
        """The one dispatch of the panel: the offer's command with what the panel collected."""
        declared, offer = self.offer(offer_id)
        kwargs = offer.arguments(values)
        kwargs[declared.signer] = creds
        if declared.reason is not None:
            kwargs[declared.reason] = reason
        return declared.run(table, **kwargs)


def _words(authority: Authority, declared: Command) -> str:
    """A cell's words; a supervisor's line that asks no reason (an enrolment) says so."""
    if authority is Authority.SUPERVISOR and declared.reason is None:
        return "1 supervisor"
    return AUTHORITY_WORDS[authority]


def authority_document(table: CommandTable, title: str) -> str:
    """The table as Markdown: command × phase → authority, with the article (docs/authority-<game>.md)."""
    heads = [str(p) for p in table.phases]
    lines = [f"# {title}", "",
             "Generated from the game's command table (`shared/commands.py`); "
             "`tests/test_command_table.py` regenerates it and compares. Authorities: "
             + "; ".join(f"**{AUTHORITY_WORDS[a]}** ({a.value})" for a in Authority if a is not Authority.NOBODY) + ".",
             "", "Each cell is the live table's; the training column says whether a training table offers it.",
             "", "| command | " + " | ".join(heads) + " | training | article |",
             "|" + "---|" * (len(heads) + 3)]
    for declared in table:
        row = [_words(declared.cells.get(p, Authority.NOBODY), declared) if declared.live else "—" for p in table.phases]
        if declared.two_when:
            row = [f"{cell} (2 {declared.two_when_words})" if cell == AUTHORITY_WORDS[Authority.SUPERVISOR] else cell
                   for cell in row]
        training = AUTHORITY_WORDS[Authority.TRAINER if declared.training else Authority.NOBODY]
        article = f"{declared.article}: {declared.note}" if declared.note else declared.article
        lines.append(f"| `{declared.id}` | " + " | ".join(row) + f" | {training} | {article} |")
    return "\n".join(lines) + "\n"
