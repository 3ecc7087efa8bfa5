"""Which meter store a live Madero table uses: the Carrusel's server or the machine's file.

A linked table (``carrusel_id``, Art. 12 §58) on separate terminals shares its jackpot through
a PostgreSQL server named by ``carrusel_url`` in the table file or, failing that, by the
environment variable ``MADERO_CARRUSEL_URL``. Without one the table keeps today's SQLite store
and nothing of the server is imported. The server keeps the table's journal head too (its
anchor, ``shared.anchor``), so a linked table names no ``anchor_url`` of its own. The address
is read at every launch and never journaled (it may hold a password; see ``shared.redact``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from shared.anchor import addresses_in, server_address
from shared.config import ANCHOR_SETTING, TableFile
from shared.errors import InputError
from shared.madero.config import MaderoTableConfig
from shared.madero.meter import MeterStore
from shared.messages import Msg

ENV = "MADERO_CARRUSEL_URL"


def carrusel_url(config: MaderoTableConfig, table_file: TableFile | None,
                 environ: Mapping[str, str] = os.environ) -> str | None:
    """The server address for this table, checked; None when the table keeps its own file."""
    named = addresses_in(table_file, "carrusel_url", ANCHOR_SETTING)
    value = named["carrusel_url"]
    if value is None:
        if config.carrusel_id is None or not config.progressive:
            return None  # the machine's variable serves linked tables only
        value = environ.get(ENV) or None
        if value is None:
            return None
    url = server_address(value, "carrusel")
    if not config.progressive:
        raise InputError(Msg.of("carrusel.url_needs_progressive"))
    if config.carrusel_id is None:
        raise InputError(Msg.of("carrusel.url_needs_id"))
    if named[ANCHOR_SETTING] is not None:
        # One head, one server: the Carrusel's keeps it with the table's meter.
        raise InputError(Msg.of("carrusel.anchor_is_carrusel"))
    return url


def open_meter_store(config: MaderoTableConfig, table_file: TableFile | None,
                     environ: Mapping[str, str] = os.environ) -> MeterStore | None:
    """The Carrusel's server store if the table names one, else None (the table's default)."""
    url = carrusel_url(config, table_file, environ)
    if url is None:
        return None
    from shared.madero.meter_pg import PostgresMeterStore

    return PostgresMeterStore(url)
