"""Shared set-up for the Midi engine tests."""

from shared.journal import Journal
from shared.midi.config import DEFAULT_MIDI_TABLE, MidiTableConfig
from shared.midi.table import MidiTable
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry

SUPERVISOR = Credentials("sup1", "432100")
CROUPIER = Credentials("cr1", "1111")
SUPERVISOR2 = Credentials("sup2", "876500")
"""A second supervisor: a NULO other than the empty sabot's, and any change once the result is known, need two."""


def table_config(**changes) -> MidiTableConfig:
    return DEFAULT_MIDI_TABLE.with_changes(**changes)


OPENING = "1000x100 100x100 25x200 5x200"
"""The tray a live test table opens with (a live table takes bets only with its tray open)."""


def live_table(config: MidiTableConfig = DEFAULT_MIDI_TABLE, *, staff: bool = True, shift: bool = True,
               path=":memory:", tray: bool = True):
    """A live table with a supervisor and a croupier enrolled, the croupier's shift open
    (croupier commands need one) and the tray open (bets need it); ``shift=False`` leaves the
    shift closed, ``staff=False`` enrols nobody (and so opens no shift), ``tray=False`` opens
    no tray."""
    journal = Journal(path, config.table_id, "midi")
    registry = None
    if staff:
        registry = StaffRegistry(journal)
        registry.enrol(SUPERVISOR.staff_id, "Supervisora", Role.SUPERVISOR, SUPERVISOR.pin, by=None)
        registry.enrol(CROUPIER.staff_id, "Croupier", Role.CROUPIER, CROUPIER.pin, by=SUPERVISOR)
        registry.enrol(SUPERVISOR2.staff_id, "Gerente", Role.SUPERVISOR, SUPERVISOR2.pin, by=SUPERVISOR)
    table = MidiTable(journal, registry, config=config)
    if staff and shift:
        table.shift.open(CROUPIER)
        if tray:
            table.tray.open(OPENING, CROUPIER, SUPERVISOR)
    return table


def training_table(order=None, config: MidiTableConfig = DEFAULT_MIDI_TABLE, seed=7):
    journal = Journal(":memory:", config.table_id, "midi", training=True)
    table = MidiTable(journal, config=config, training=True, seed=seed)
    table.play.new_shoe(order)
    return table


def open_live_shoe(table: MidiTable, burn: str = "2") -> None:
    table.play.new_shoe()
    table.play.key_card(burn)
    table.play.confirm_burn()


def play_coup(table: MidiTable, cards, bets=()):
    """Bets (spot, kind, amount), No va más, the cards keyed; returns the settlement."""
    for spot, kind, amount in bets:
        table.play.place_bet(spot, kind, amount)
    table.play.no_va_mas()
    for card in cards:
        table.play.key_card(card)
    lines = table.settlement
    table.play.settle()
    return lines


def coup_of_size(table: MidiTable, size: int, accept=lambda result: True) -> list[str]:
    """Ranks the shoe still holds that make a coup of exactly ``size`` cards (4, 5 or 6)
    whose result ``accept`` takes."""
    from shared.baccarat import cards_needed, resolve_coup
    from shared.cards import Rank

    left = dict(table.shoe.left)
    ranks = sorted(Rank, key=lambda r: -left[r])

    def search(prefix):
        if len(prefix) >= 4:
            need = cards_needed(prefix)
            if need == len(prefix):
                return prefix if len(prefix) == size and accept(resolve_coup(prefix)) else None
            if need > size:
                return None
        for r in ranks:
            if left[r] > 0:
                left[r] -= 1
                found = search(prefix + [r])
                left[r] += 1
                if found:
                    return found
        return None

    found = search([])
    assert found, f"no coup of {size} cards left in the shoe"
    return [r.char for r in found]


def key_coup(table: MidiTable, size: int) -> None:
    """Key (after No va más) a coup of exactly ``size`` cards."""
    for card in coup_of_size(table, size):
        table.play.key_card(card)
    assert table.card_called_for is None


def key_random_card(table: MidiTable, rng) -> None:
    from shared.cards import Rank

    ranks = [r for r in Rank for _ in range(table.shoe.left[r])]
    table.play.key_card(rng.choice(ranks).char)


def advance_to(table: MidiTable, target: int, rng) -> None:
    """Play bet-less coups until exactly ``target`` cards have left the shoe."""
    while target - table.shoe.dealt > 15:
        table.play.no_va_mas()
        while table.card_called_for:
            key_random_card(table, rng)
        table.play.settle()
    sizes = {8: [4, 4], 9: [4, 5], 10: [4, 6], 11: [5, 6], 12: [6, 6], 13: [4, 4, 5], 14: [4, 4, 6],
             15: [4, 5, 6], 0: []}[target - table.shoe.dealt]
    for size in sizes:
        table.play.no_va_mas()
        key_coup(table, size)
        table.play.settle()
    assert table.shoe.dealt == target
