"""Shared fixtures for the Madero engine tests: live tables with staff, training tables."""

from __future__ import annotations

import random
import shutil
import tempfile
from pathlib import Path

from shared.journal import Journal, key_path
from shared.madero.config import DEFAULT_MADERO_TABLE
from shared.madero.table import MaderoTable, Phase
from shared.actor import Role
from shared.staff import Credentials, StaffRegistry

SUP = Credentials("SUP", "123456")
SUP2 = Credentials("SUP2", "654321")
"""A second supervisor: management's arbitration (§73) needs two."""
CRO = Credentials("CRO", "5678")


_TEMPLATES: dict[str, Path] = {}


def make_staff(path, table_id="MPB-01") -> None:
    """A journal with a supervisor and a croupier enrolled. Enrolling hashes PINs with
    scrypt (slow on purpose), so each table's file is made once and copied."""
    if table_id not in _TEMPLATES:
        template = Path(tempfile.mkdtemp(prefix="madero-staff-")) / f"{table_id}.sqlite"
        j = Journal(template, table_id, "madero")
        staff = StaffRegistry(j)
        staff.enrol("SUP", "Supervisora", Role.SUPERVISOR, "123456", by=None)
        staff.enrol("CRO", "Croupier", Role.CROUPIER, "5678", by=SUP)
        staff.enrol("SUP2", "Gerente de turno", Role.SUPERVISOR, SUP2.pin, by=SUP)
        j.close()
        _TEMPLATES[table_id] = template
    shutil.copy(_TEMPLATES[table_id], path)
    shutil.copy(key_path(_TEMPLATES[table_id]), key_path(path))  # the table key goes with its journal


def open_live(path, config=DEFAULT_MADERO_TABLE, **kw) -> MaderoTable:
    j = Journal(path, config.table_id, "madero")
    return MaderoTable(j, StaffRegistry(j), config=config, **kw)


def restored(path, config=DEFAULT_MADERO_TABLE, **kw) -> MaderoTable:
    """The table restored from its journal as a restart would, while the live one still holds
    the writer lock: a read-only view (no staff: it takes no command)."""
    return MaderoTable(Journal.open_existing(path), config=config, **kw)


OPENING = "1000x100 100x100 25x200 5x200"
"""The tray a live test table opens with (a live table takes bets only with its tray open)."""


def live_table(tmp_path, config=DEFAULT_MADERO_TABLE, name="t.sqlite", *, tray=True, **kw) -> MaderoTable:
    path = tmp_path / name
    make_staff(path, config.table_id)
    t = open_live(path, config, **kw)
    t.shift.open(CRO)
    if tray:
        t.tray.open(OPENING, CRO, SUP)
    return t


def training_table(tmp_path, config=DEFAULT_MADERO_TABLE, seed=1, name="train.sqlite", **kw) -> MaderoTable:
    j = Journal(tmp_path / name, config.table_id, "madero", training=True)
    try:
        return MaderoTable(j, config=config, training=True, seed=seed, draw_rng=random.Random(seed), **kw)
    except BaseException:
        j.close()  # a refused table must not keep its journal's writer lock
        raise


def journal_rows(t: MaderoTable) -> list:
    return [(e.seq, e.type, e.payload) for e in t.journal.events()]


def deal_to_settlement(t: MaderoTable) -> None:
    """A training round after «No va más», played to its settlement: every box plays on
    (voy) and checks on the Turn and the River; the table deals the rest."""
    while t.phase is not Phase.SETTLEMENT:
        if t.phase is Phase.FIRST:
            t.play.voy(t.to_act)
        elif t.phase in (Phase.SECOND, Phase.THIRD):
            t.play.check(t.to_act)
        else:
            t.play.deal()
