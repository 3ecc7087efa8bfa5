"""The PostgreSQL server the Carrusel tests run against, one schema per test.

``MADERO_TEST_PG`` names the server (default: the development and CI machines' local one).
Without a server the tests skip saying why; with ``CI`` set they fail instead.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

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


def schema_of(url: str) -> str:
    return url.rsplit("%3D", 1)[1]


def login_url(url: str, login: str, password: str) -> str:
    """``url`` (a test schema's) as ``login`` would connect."""
    parts = urlsplit(url)
    netloc = f"{login}:{password}@{parts.hostname}:{parts.port or 5432}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


@contextlib.contextmanager
def carrusel_roles(url: str, tables: list[str]) -> Iterator[dict[str, str]]:
    """The Carrusel's table and pit roles on ``url``'s schema (migrated first), named after the
    schema so parallel tests never share one, with a login per table id; yields each table
    id's connection string, and the pit's under ``"pit"``. The roles are dropped afterwards."""
    from shared.madero.carrusel_roles import drop_sql, roles_sql, table_login_sql
    from shared.madero.meter_pg import PostgresMeterStore

    schema = schema_of(url)
    owner = PostgresMeterStore(url)
    owner.migrate()
    owner.close()
    table_role, pit_role = f"{schema}_table", f"{schema}_pit"
    logins = {table_id: f"{schema}_{i}" for i, table_id in enumerate(tables)}
    password = uuid.uuid4().hex
    made: list[str] = []
    try:
        with _admin() as conn:
            conn.execute(roles_sql(schema, table_role, pit_role))
            made += [table_role, pit_role]
            conn.execute(f"CREATE ROLE {pit_role}_login LOGIN PASSWORD '{password}' IN ROLE {pit_role}")
            made.append(f"{pit_role}_login")
            for table_id, login in logins.items():
                conn.execute(table_login_sql(schema, table_role, login, password, table_id))
                made.append(login)
        urls = {table_id: login_url(url, login, password) for table_id, login in logins.items()}
        yield {**urls, "pit": login_url(url, f"{pit_role}_login", password)}
    finally:
        with _admin() as conn:
            conn.execute(f"SET search_path = {schema}")
            conn.execute(drop_sql(made[::-1]))
