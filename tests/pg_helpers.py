"""The PostgreSQL server the Carrusel tests run against, one schema per test.

``MADERO_TEST_PG`` names the server (default: the development and CI machines' local one).
Without a server the tests skip saying why; with ``CI`` set they fail instead.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator

import pytest

SERVER = os.environ.get("MADERO_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


def _admin():  # -> psycopg.Connection
    try:
        import psycopg
    except ImportError as error:
        _missing(f"psycopg is not installed ({error}); pip install -e '.[test]'")
    try:
        return psycopg.connect(SERVER, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as error:
        _missing(f"no PostgreSQL server at {SERVER} ({str(error).strip()})")


def _missing(why: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and the Carrusel tests need PostgreSQL: {why}")
    pytest.skip(f"Carrusel tests skipped: {why}")


def schema_url(schema: str) -> str:
    return f"{SERVER}?options=-csearch_path%3D{schema}"


@contextlib.contextmanager
def new_schema() -> Iterator[str]:
    """A connection string whose search_path is a fresh schema, dropped afterwards."""
    schema = f"carrusel_t{uuid.uuid4().hex[:12]}"
    with _admin() as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema_url(schema)
    finally:
        with _admin() as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh schema for the test (see ``new_schema``)."""
    with new_schema() as url:
        yield url
