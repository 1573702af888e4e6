"""The key of a player's page, `/players/{key}/`: one key per player, and back.

A player with a federation id is keyed by it, so `/players/UA-101/` stays as it always
was. A few characters of an id are escaped as `~u` and four lowercase hex digits (its
code point), so that every key is one path segment without a control character, that
no browser, server or form changes on the way:

- `~` itself, always (it begins an escape, and the key of a player without an id);
- `/`, always (it would end the path segment);
- a control character (U+0000 to U+001F, U+007F to U+009F) or a line or paragraph
  separator (U+2028, U+2029), always: an id stored before the rule may hold one;
- a space of any kind (notation.SPACES) as the first or the last character: a key
  survives a form's or a search box's trimming;
- the dots of an id that is `.` or `..`: a browser would read the path as a step up.

Every other character stands for itself (Django's `reverse` percent-encodes `%`, `?`,
`#`, spaces and non-ASCII in the URL, and the server decodes them back). A player
without a federation id (none, or "") is keyed `~` and their row's number: `~5`. No id's
key takes that form, since an id's `~` is always escaped, and none begins `~` + digit:
the keys of two players never meet, whatever their ids (`id-5`, `~5`, `~u007e5`, ...).

Reading a key back accepts exactly the keys `player_key` writes (anything else names no
one), plus `id-N`, the old key of a player without an id, for links made before: a
federation id `id-N` comes first.
"""

from __future__ import annotations

import re

from django.db import connection
from django.db.models import Q

from matches.domain.notation import NOT_IN_AN_ID, SPACES
from matches.models import FEDERATION_ID_LENGTH, Player

ESCAPE = "~"
# An escape is six characters: the longest key is six times the longest id.
KEY_LENGTH = 6 * FEDERATION_ID_LENGTH
ALWAYS_ESCAPED = re.compile(rf"[~/{NOT_IN_AN_ID}]")
SPACE_AT_AN_END = re.compile(rf"^[{SPACES}]|[{SPACES}]\Z")
AN_ESCAPE = re.compile(r"~u([0-9a-f]{4})")
NUMBERED = re.compile(r"~([1-9][0-9]{0,17})\Z")
OLD_NUMBERED = re.compile(r"id-([1-9][0-9]{0,17})\Z")
# The players `~N` can name: one with an id has that for a key ("" is none, as ever).
WITHOUT_AN_ID = Q(federation_id__isnull=True) | Q(federation_id="")


def _escaped(match: re.Match[str]) -> str:
    return f"{ESCAPE}u{ord(match[0]):04x}"


def player_key(federation_id: str | None, pk: int) -> str:
    """Return the key of a player's page: their federation id (escaped), else `~` and their row."""
    if not federation_id:
        return f"{ESCAPE}{pk}"
    if federation_id in (".", ".."):
        return re.sub(r"\.", _escaped, federation_id)
    return SPACE_AT_AN_END.sub(_escaped, ALWAYS_ESCAPED.sub(_escaped, federation_id))


def federation_id_of(key: str) -> str | None:
    """Return the federation id a key names, or None when no id's key is written so."""
    federation_id = AN_ESCAPE.sub(lambda match: chr(int(match[1], 16)), key)
    if not federation_id or player_key(federation_id, 0) != key:
        return None  # not as player_key writes it: a lone `~`, a raw `/`, an escaped letter
    return federation_id


def player_for_key(key: str) -> Player | None:
    """Return the player a page's key names, or None."""
    if not key or len(key) > KEY_LENGTH:
        return None  # names no player: never asked of the database
    numbered = NUMBERED.match(key)
    if numbered:
        return Player.objects.filter(WITHOUT_AN_ID, pk=int(numbered[1])).first()
    federation_id = federation_id_of(key)
    if federation_id is None or not _storable(federation_id):
        return None
    found = Player.objects.filter(federation_id=federation_id).first()
    old = OLD_NUMBERED.match(key)
    if found is None and old:
        found = Player.objects.filter(WITHOUT_AN_ID, pk=int(old[1])).first()
    return found


def _storable(text: str) -> bool:
    """Say whether the database could hold the text: PostgreSQL's cannot hold a NUL."""
    return "\x00" not in text or connection.vendor == "sqlite"
