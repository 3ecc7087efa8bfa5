"""The Carrusel server's address (a PostgreSQL connection string) as the tools show and open it.

A connection string may carry a password (``postgresql://user:secret@host/db``, ``password=secret``
as a keyword or a query parameter). The console never prints one: ``redact_url`` masks it, and
``redact_text`` masks it in any text that may echo the string (a driver's error message).
``open_server`` connects read-only for the supervisor's tools and turns every way of failing
into a ``ServerUnavailable`` that says, in the reader's language, which server and why.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, unquote, urlsplit

from shared.errors import ConsoleError, InputError
from shared.messages import Msg

if TYPE_CHECKING:
    import psycopg

MASK = "***"
CONNECT_TIMEOUT_S = 5
"""A supervisor's tool waits this long for the server, then says it cannot be reached."""

_URL_PASSWORD = re.compile(r"(?P<head>^[a-z][a-z0-9+.-]*://[^:/?#@]*:)(?P<secret>[^@/?#]*)(?=@)", re.IGNORECASE)
_KEYWORD_PASSWORD = re.compile(r"(?P<head>(?:^|[\s&?])password\s*=\s*)(?P<secret>'(?:[^'\\]|\\.)*'|[^\s&]*)",
                               re.IGNORECASE)


class ServerUnavailable(ConsoleError):
    """The Carrusel server could not be reached or holds no Carrusel."""


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***`` (URL form, keyword form, query parameter)."""
    url = _URL_PASSWORD.sub(lambda m: m["head"] + MASK, url)
    return _KEYWORD_PASSWORD.sub(lambda m: m["head"] + MASK, url)


def _passwords(url: str) -> list[str]:
    found = [m["secret"] for m in _URL_PASSWORD.finditer(url)]
    found += [m["secret"].strip("'") for m in _KEYWORD_PASSWORD.finditer(url)]
    try:
        found += [value for key, value in parse_qsl(urlsplit(url).query) if key.lower() == "password"]
    except ValueError:
        pass
    return [secret for text in found for secret in {text, unquote(text)} if secret]


def redact_text(text: str, url: str) -> str:
    """``text`` (an error that may quote the connection string) with ``url``'s password masked."""
    for secret in sorted(_passwords(url), key=len, reverse=True):
        text = text.replace(secret, MASK)
    return text


def error_reason(error: Exception, url: str) -> str:
    """A driver's error on one line (libpq's span several), ``url``'s password masked."""
    return redact_text(" ".join(str(error).split()), url)


def open_server(url: str) -> psycopg.Connection[tuple[object, ...]]:
    """A read-only connection to the Carrusel server at ``url``.

    ``InputError`` if the string is not a connection string; ``ServerUnavailable`` if psycopg is
    not installed or the server does not answer within ``CONNECT_TIMEOUT_S`` seconds.
    """
    shown = redact_url(url)
    try:
        import psycopg
    except ImportError:
        raise ServerUnavailable(Msg.of("pit.no_driver")) from None
    try:
        conn = psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT_S)
    except psycopg.ProgrammingError as exc:  # a malformed connection string
        raise InputError(Msg.of("pit.bad_url", url=shown, reason=error_reason(exc, url))) from None
    except psycopg.Error as exc:
        raise ServerUnavailable(Msg.of("pit.unreachable", url=shown,
                                       reason=error_reason(exc, url))) from None
    conn.read_only = True
    return conn
