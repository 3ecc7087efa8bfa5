"""One place that keeps a server's password out of every text the console writes.

A connection string may carry a password (``postgresql://user:secret@host/db`` or
``password=secret`` in key=value form, also inside the query string). Whatever reaches the
journal, the screen, a log or a command's output goes through ``redact`` first.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

MASK = "***"
_USERINFO = re.compile(r"(?P<head>[a-z][a-z0-9+.-]*://[^:/@\s]*):(?P<secret>[^@\s]*)@", re.IGNORECASE)
_KEYWORD = re.compile(r"(?P<head>\bpassword\s*=\s*)(?P<secret>'(?:[^'\\]|\\.)*'|[^\s&]+)", re.IGNORECASE)


def _passwords(url: str) -> list[str]:
    found = [m.group("secret") for m in _USERINFO.finditer(url)]
    found += [m.group("secret").strip("'") for m in _KEYWORD.finditer(url)]
    with_decoded = found + [unquote(p) for p in found]
    try:
        if (password := urlsplit(url).password) is not None:
            with_decoded.append(password)
    except ValueError:
        pass  # not a URL at all: the key=value form was read above
    return sorted({p for p in with_decoded if p}, key=len, reverse=True)


def redact(text: str, url: str | None = None) -> str:
    """``text`` with every password masked: those written in it as a connection string's, and
    (given ``url``) that URL's password wherever the text repeats it (a driver's error quoting it)."""
    secrets = _passwords(url) if url else []
    for secret in secrets:
        text = text.replace(secret, MASK)
    text = _USERINFO.sub(lambda m: f"{m.group('head')}:{MASK}@", text)
    return _KEYWORD.sub(lambda m: f"{m.group('head')}{MASK}", text)
