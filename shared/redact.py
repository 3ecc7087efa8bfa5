"""One place that keeps a server's password out of every text the console writes.

A connection string may carry a password (``postgresql://user:secret@host/db`` or
``password=secret`` in key=value form, also inside the query string). Whatever reaches the
journal, the screen, a log or a command's output goes through ``redact`` first.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from shared.regex import Regex

MASK = "***"
MAX_ADDRESS = 2048
"""The longest server address the console accepts: a real one (host, port, database, user,
password, a few options) is a few hundred characters; a longer one is refused where it is read."""
# A scheme starts a word (the lookbehind): without it every letter of a long word began a try
# that ran to the word's end, quadratic in the text's length (13.9 s for a 60 KB address).
_USERINFO = Regex(r"(?P<head>(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://[^:/@\s]*):(?P<secret>[^@\s]*)@",
                       re.IGNORECASE)
_KEYWORD = Regex(r"(?P<head>\bpassword\s*=\s*)(?P<secret>'(?:[^'\\]|\\.)*'|[^\s&]+)", re.IGNORECASE)


def _passwords(url: str) -> list[str]:
    """Every form ``url``'s password may be written in: as libpq reads it (psycopg's own
    parser, whatever the password holds: spaces, tabs, line feeds, quotes), as written in a
    URL's user part even where libpq refuses it (its error quotes it), and percent-decoded."""
    found = [m.group("secret") for m in _USERINFO.finditer(url)]
    found += [m.group("secret").strip("'") for m in _KEYWORD.finditer(url)]
    _, sep, rest = url.partition("://")
    if sep and "@" in (authority := rest.split("/", 1)[0].split("?", 1)[0]):
        found.append(authority.rpartition("@")[0].partition(":")[2])
    found += [unquote(p) for p in found]
    try:
        from psycopg import Error
        from psycopg.conninfo import conninfo_to_dict

        found.append(str(conninfo_to_dict(url).get("password") or ""))
    except ImportError:
        pass  # without the driver no connection is made; the written forms above remain
    except Error:
        pass  # a string libpq cannot read: its written forms were found above
    return sorted({p for p in found if p}, key=len, reverse=True)


def redact(text: str, url: str | None = None) -> str:
    """``text`` with every password masked: those written in it as a connection string's, and
    (given ``url``) that URL's password wherever the text repeats it (a driver's error quoting it)."""
    # Without ``url`` the text may be an address itself (the one a screen names).
    secrets = _passwords(url or text)
    for secret in secrets:
        text = text.replace(secret, MASK)
    text = _USERINFO.sub(lambda m: f"{m.group('head')}:{MASK}@", text)
    return _KEYWORD.sub(lambda m: f"{m.group('head')}{MASK}", text)
