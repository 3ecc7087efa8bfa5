"""The journals of ``tests/data`` written in older row formats, as today's console opens them:
converted once by ``journal upgrade`` (each fixture's supervisor signing), then copied into a
test's own folder."""

from __future__ import annotations

import shutil
import tempfile
from functools import cache
from pathlib import Path

from shared.journal import key_path
from shared.journal_upgrade import upgrade
from shared.staff import Credentials

DATA = Path(__file__).with_name("data")
SUPERVISORS = {
    "base-events-v1": Credentials("SUP", "123456"),
    "legacy-midi": Credentials("sup1", "4321"),
    "midi-events-v1": Credentials("sup1", "432100"),
    "midi-snapshot-v1": Credentials("sup1", "432100"),
    "madero-snapshot-v1": Credentials("SUP", "123456"),
    "midi-format3": Credentials("sup1", "432100"),
    "midi-format4": Credentials("sup1", "432100"),
}
"""Each older fixture's supervisor (who signs its upgrade)."""
GAMES = {"madero-snapshot-v1": "madero"}


def copy_old(name: str, folder: Path) -> Path:
    """The fixture ``name`` as it is (its older format), with its key if it has one, in ``folder``."""
    path = folder / f"{name}.sqlite3"
    shutil.copy(DATA / path.name, path)
    if key_path(DATA / path.name).exists():
        shutil.copy(key_path(DATA / path.name), key_path(path))
    return path


@cache
def _upgraded(name: str) -> Path:
    path = copy_old(name, Path(tempfile.mkdtemp(prefix="upgraded-")))
    upgrade(path, GAMES.get(name, "midi"), SUPERVISORS[name])
    return path


def upgraded(name: str, folder: Path) -> Path:
    """The fixture ``name`` converted to the current format (once a run), copied into ``folder``."""
    source = _upgraded(name)
    path = folder / source.name
    shutil.copy(source, path)
    shutil.copy(key_path(source), key_path(path))
    return path
