"""The Ukrainian catalogues: every plural has its forms, and what is compiled is what is written."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.template.defaultfilters import filesizeformat
from django.utils import translation

MESSAGES = Path(__file__).resolve().parents[1] / "carambole" / "locale" / "uk" / "LC_MESSAGES"
DOMAINS = ["django", "djangojs"]


def entries(po: Path) -> list[dict[str, str]]:
    """Return the entries of a .po file: each keyword (msgctxt, msgid, msgstr[1]...) to its text."""
    found: list[dict[str, str]] = []
    entry: dict[str, str] = {}
    keyword = None
    for line in po.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("#,"):
            entry["flags"] = line
        elif line.startswith("#"):
            continue
        elif not line.strip():
            if entry:
                found.append(entry)
            entry, keyword = {}, None
        elif line.startswith('"'):
            entry[keyword] += ast.literal_eval(line)
        else:
            keyword, text = line.split(" ", 1)
            entry[keyword] = ast.literal_eval(text)
    return found


def forms(po: Path) -> int:
    header = next(entry["msgstr"] for entry in entries(po) if entry.get("msgid") == "")
    return int(re.search(r"nplurals=(\d+)", header).group(1))


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_plural_message_has_as_many_forms_as_the_language(domain):
    po = MESSAGES / f"{domain}.po"
    plurals = [entry for entry in entries(po) if "msgid_plural" in entry]

    lacking = [e["msgid"] for e in plurals if f"msgstr[{forms(po) - 1}]" not in e]

    assert plurals and lacking == []


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_says_what_the_written_one_does(domain):
    with (MESSAGES / f"{domain}.mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    stale = []
    for entry in entries(MESSAGES / f"{domain}.po"):
        if not entry.get("msgid") or "fuzzy" in entry.get("flags", ""):
            continue
        context = entry.get("msgctxt")
        if "msgid_plural" in entry:
            said = (
                compiled.npgettext(context, entry["msgid"], entry["msgid_plural"], 1)
                if (context)
                else compiled.ngettext(entry["msgid"], entry["msgid_plural"], 1)
            )
            written = entry["msgstr[0]"]
        else:
            said = (
                compiled.pgettext(context, entry["msgid"])
                if context
                else compiled.gettext(entry["msgid"])
            )
            written = entry["msgstr"]
        if written and said != written:
            stale.append(entry["msgid"])

    assert stale == [], "compile the catalogue: msgfmt -o {domain}.mo {domain}.po"


# A past-tense verb of one gender (записав, виграла, переміг, знявся) beside a placeholder
# that names a person: the sentence would give that person a gender, which is not recorded.
PERSON = r"%(?:\((?:a|b|by|who|name|player|winner|loser|login|players?)\))?s"
GENDERED = r"\w+(?:ав|ив|ув|іг|ла|вся|лася)"
GENDERED_BESIDE_PERSON = re.compile(
    rf"\b{GENDERED}:?\s+{PERSON}|{PERSON}\s+{GENDERED}\b", re.IGNORECASE
)


@pytest.mark.parametrize("domain", DOMAINS)
def test_no_ukrainian_sentence_says_a_person_did_something_in_one_gender(domain):
    said = [
        text
        for entry in entries(MESSAGES / f"{domain}.po")
        if entry.get("msgid")
        for keyword, text in entry.items()
        if keyword.startswith("msgstr")
    ]

    assert [text for text in said if GENDERED_BESIDE_PERSON.search(text)] == []


@pytest.mark.parametrize(
    "msgid", ["Loser of match %(match)s", "Loser of semi-final %(number)d", "withdrawn"]
)
def test_a_player_who_lost_or_withdrew_is_named_without_a_gender_in_ukrainian(msgid):
    (said,) = [e["msgstr"] for e in entries(MESSAGES / "django.po") if e.get("msgid") == msgid]

    assert not re.search(r"\b(переможен\w*|знятий|знята)\b", said, re.IGNORECASE), said


@pytest.mark.parametrize(("size", "said"), [(1536, "1,5\xa0КБ"), (5_542_880, "5,3\xa0МБ")])
def test_a_file_size_is_said_in_ukrainian_bytes_with_a_decimal_comma(size, said):
    with translation.override("uk"):
        assert filesizeformat(size) == said


SCRIPTS = Path(__file__).resolve().parents[1] / "replay" / "static" / "replay"
ASKED = re.compile(r'\b(?:gettext|ngettext)\(\s*"((?:[^"\\]|\\.)*)"')


def test_every_message_the_scripts_ask_for_has_a_ukrainian_text():
    said = {
        entry["msgid"]
        for entry in entries(MESSAGES / "djangojs.po")
        if entry.get("msgstr") or entry.get("msgstr[0]")
    }
    asked = {
        (script.name, found.group(1))
        for script in SCRIPTS.rglob("*.js")
        for found in ASKED.finditer(script.read_text(encoding="utf-8"))
    }

    assert sorted((name, msgid) for name, msgid in asked if msgid not in said) == []
