"""The match sheet: a finished match printed in English and Ukrainian, read back as text and QR."""

from __future__ import annotations

import io
import logging
import re

import pypdfium2
import pytest
import zxingcpp
from django.conf import settings as django_settings
from django.test import Client, override_settings
from pypdf import PdfReader

from matches import services, store
from matches.domain.fold import state_after
from matches.domain.simulator import simulate_match
from matches.models import Event, Match
from matches.records import record_import
from matches.services.pins import player_pin
from replay.presentation.sheet_pdf import REPLACEMENT, sheet_pdf
from replay.web import match_sheet

MATCH_ID = "sheet-1"
REPLAY = f"http://testserver/matches/{MATCH_ID}/replay/"


def corrected_record(match_id: str = MATCH_ID, **rules) -> dict:
    """Return the first simulated match with an amendment and a retraction (the same every run)."""
    for seed in range(100):
        record = simulate_match(
            seed,
            match_id=match_id,
            stage="Quarter-final",
            table="7",
            amend_rate=0.08,
            retract_rate=0.03,
            outside_foul_rate=0.03,
            forfeit_rate=0.0,
            **rules,
        )
        kinds = {event["type"] for event in record["events"]}
        if {"shot_amended", "shot_retracted"} <= kinds:
            return record
    raise AssertionError("no simulated match has both corrections")


@pytest.fixture
def corrected_match(db) -> dict:
    """A finished match with its corrections, imported: its record."""
    record = corrected_record()
    record_import(record, by="importer")
    return record


def sheet(client: Client, match_id: str = MATCH_ID, lang: str = "en") -> bytes:
    response = client.get(f"/matches/{match_id}/sheet.pdf?lang={lang}")
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def text_of(pdf: bytes) -> list[str]:
    """Return each page's text, its lines joined by spaces as a reader of the sheet sees them."""
    return [
        re.sub(r"\s+", " ", page.extract_text() or "") for page in PdfReader(io.BytesIO(pdf)).pages
    ]


def head_hash(match_id: str = MATCH_ID) -> str:
    return Event.objects.filter(match_id=match_id).latest("seq").hash


def test_the_english_sheet_names_the_match_its_officials_its_result_and_its_head(corrected_match):
    header = corrected_match["match"]
    text = " ".join(text_of(sheet(Client())))

    for player in header["players"].values():
        assert player["name"] in text
        assert player["federation_id"] in text
    assert "Quarter-final" in text
    assert "Table 7" in text
    assert f"Referee {header['referee']['name']}" in text
    assert f"Competition {header['competition']}" in text
    assert re.search(r"wins the match, 2 games to [01]", text)
    assert "Game 1:" in text and "Final score" in text
    assert head_hash() in text
    assert REPLAY in text


def test_the_sheet_lists_each_amendment_and_retraction_with_who_and_why(corrected_match):
    text = " ".join(text_of(sheet(Client())))
    corrections = [
        e for e in corrected_match["events"] if e["type"] in ("shot_amended", "shot_retracted")
    ]

    assert "Amendments and retractions" in text
    for event in corrections:
        assert event["reason"] in text
    assert f"{corrections[0]['by']}, event" in text
    assert "retracted" in text and "amended" in text
    # Each corrected shot by its number (its place among the shots), not by its event's seq.
    events = list(enumerate(corrected_match["events"], start=1))
    shots = [seq for seq, event in events if event["type"] == "shot"]
    first = corrections[0]["shot"]
    game = [e["game"] for seq, e in events if e["type"] == "game_started" and seq < first][-1]
    assert f"shot {shots.index(first) + 1} (game {game}): " in text


def test_the_ukrainian_sheet_is_in_ukrainian_with_the_same_names_and_head(corrected_match):
    text = " ".join(text_of(sheet(Client(), lang="uk")))

    for word in ("Протокол зустрічі", "Суддя", "Стіл", "Етап", "Партія 1", "Виправлення"):
        assert word in text
    assert "перемагає в зустрічі" in text
    assert corrected_match["match"]["players"]["A"]["name"] in text
    assert head_hash() in text
    assert "Match sheet" not in text


def test_the_qr_code_on_the_first_page_opens_the_matchs_replay(corrected_match):
    for lang in ("en", "uk"):
        page = pypdfium2.PdfDocument(sheet(Client(), lang=lang))[0]
        image = page.render(scale=2).to_pil()

        found = [code.text for code in zxingcpp.read_barcodes(image)]

        assert found == [REPLAY]


def test_a_long_match_runs_over_pages_with_the_column_heads_on_each(db):
    record_import(corrected_record("sheet-long", ruleset={"best_of": 5}), by="importer")

    pages = text_of(sheet(Client(), "sheet-long"))

    assert len(pages) >= 3
    for number, page in enumerate(pages, start=1):
        assert f"page {number} of {len(pages)}" in page
    for page in pages[1:-1]:
        assert "No. Player Ruling A B" in page or "Shot As recorded In force By, when" in page
        assert "sheet-long" in page


def test_the_sheet_follows_the_request_language_without_lang(corrected_match):
    text = " ".join(text_of(sheet(Client(headers={"accept-language": "uk"}), lang="")))

    assert "Протокол зустрічі" in text


def test_an_unknown_language_is_refused_naming_lang(corrected_match):
    response = Client().get(f"/matches/{MATCH_ID}/sheet.pdf?lang=fr")

    assert response.status_code == 400
    assert "lang: must be one of uk, en" in response.content.decode()


def test_a_match_still_being_played_has_no_sheet(opened_and_shot):
    response = Client().get(f"/matches/{opened_and_shot.id}/sheet.pdf")

    assert response.status_code == 409
    assert "it is not finished" in response.content.decode()


def test_an_unknown_match_has_no_sheet(db):
    assert Client().get("/matches/no-such-match/sheet.pdf").status_code == 404


def test_the_replay_page_links_the_sheet_of_a_finished_match_only(corrected_match, opened_and_shot):
    finished_page = Client().get(f"/matches/{MATCH_ID}/replay/").content.decode()
    playing_page = Client().get(f"/matches/{opened_and_shot.id}/replay/").content.decode()

    assert f"/matches/{MATCH_ID}/sheet.pdf" in finished_page
    assert "sheet.pdf" not in playing_page


def test_the_sheet_says_who_has_confirmed_the_result_and_who_has_not(corrected_match):
    match = Match.objects.get(pk=MATCH_ID)
    seq = Event.objects.filter(match=match).count()
    head = state_after(match.header(), store.load_facts(match)).result_head()
    services.result_confirm(
        match_id=MATCH_ID, expected_seq=seq, by="petrenko", role="referee", confirms=head
    )
    services.result_confirm(
        match_id=MATCH_ID,
        expected_seq=seq + 1,
        by="petrenko",
        role="A",
        confirms=head,
        pin=player_pin(match.players["A"]),
    )

    text = " ".join(text_of(sheet(Client())))

    name_a, name_b = match.players["A"]["name"], match.players["B"]["name"]
    assert "Confirmed by: the referee, recorded by petrenko" in text
    assert f"{name_a}, recorded by petrenko" in text
    assert f"Not yet confirmed by: {name_b}" in text


@pytest.fixture
def undated(db) -> dict:
    """A finished match whose record names neither its day nor its referee."""
    record = corrected_record("sheet-undated")
    del record["match"]["date"]
    del record["match"]["referee"]
    record_import(record, by="importer")
    return record


def test_a_match_without_a_date_or_referee_has_the_day_played_and_its_recorder(undated):
    text = " ".join(text_of(sheet(Client(), "sheet-undated")))
    first = undated["events"][0]

    assert f"Date {first['at'][:10]}" in text
    assert f"Referee {first['by']}" in text
    assert "Date —" not in text and "Referee —" not in text


def test_the_sheet_has_a_line_to_sign_for_the_referee_and_each_player(corrected_match):
    header = corrected_match["match"]
    text = " ".join(text_of(sheet(Client())))
    signing = text[text.index("Signatures") :]

    assert f"Referee {header['referee']['name']}" in signing
    assert f"Player A {header['players']['A']['name']}" in signing
    assert f"Player B {header['players']['B']['name']}" in signing


def test_the_ukrainian_sheet_names_its_signatures_in_ukrainian(corrected_match):
    text = " ".join(text_of(sheet(Client(), lang="uk")))

    assert "Підписи" in text and "Гравець A" in text and "Гравець B" in text


# -- Any text prints -------------------------------------------------------------------------


def test_line_breaks_in_names_and_the_referees_print_as_spaces_and_rare_letters_visibly(db):
    record = corrected_record("sheet-names")
    record["match"]["players"]["A"]["name"] = "Olena\nKovalenko 🎱"
    record["match"]["referee"]["name"] = "Stanislav\r\nBianchi"
    record_import(record, by="importer")

    text = " ".join(text_of(sheet(Client(), "sheet-names")))

    assert f"Olena Kovalenko {REPLACEMENT}" in text
    assert "Referee Stanislav Bianchi" in text


def test_a_reason_of_a_thousand_characters_prints_whole(db):
    record = corrected_record("sheet-reason")
    reason = ("seen on video, " * 70)[:1000]
    amended = next(e for e in record["events"] if e["type"] == "shot_amended")
    amended["reason"] = reason
    record_import(record, by="importer")

    text = " ".join(text_of(sheet(Client(), "sheet-reason")))

    assert f"Reason: {reason.strip()}" in text


# -- Drawn once per head ---------------------------------------------------------------------


@pytest.fixture
def draws(monkeypatch) -> list[str]:
    """Count the sheets drawn: each draw's match id."""
    drawn: list[str] = []

    def counted(sheet_data, *args, **kwargs):
        drawn.append(sheet_data.match_id)
        return sheet_pdf(sheet_data, *args, **kwargs)

    monkeypatch.setattr(match_sheet, "sheet_pdf", counted)
    return drawn


def test_a_second_request_is_served_the_sheet_drawn_for_the_first(corrected_match, draws):
    first = sheet(Client())

    again = sheet(Client())

    assert again == first and draws == [MATCH_ID]


def test_each_language_has_its_sheet_drawn_once(corrected_match, draws):
    english, ukrainian = sheet(Client(), lang="en"), sheet(Client(), lang="uk")

    assert sheet(Client(), lang="uk") == ukrainian and ukrainian != english
    assert draws == [MATCH_ID, MATCH_ID]


def test_an_amendment_draws_the_sheet_anew_at_the_new_head(corrected_match, draws):
    before = sheet(Client())
    match = Match.objects.get(pk=MATCH_ID)
    seq = Event.objects.filter(match=match).count()
    state = state_after(match.header(), store.load_facts(match))
    shot = next(s for s in state.shots if not (s["amended"] or s["retracted"]))
    miss = {"contacts": [{"ball": match.header().ball_of(shot["player"]), "hit": "cushion"}]}
    amendment = {"type": "shot_amended", "shot": shot["seq"], "facts": miss, "reason": "video"}
    services.event_record(
        match_id=MATCH_ID, expected_seq=seq, event=amendment, by="petrenko", staff=True
    )

    after = sheet(Client())

    assert after != before and draws == [MATCH_ID, MATCH_ID]
    assert head_hash() in " ".join(text_of(after))


def test_a_new_referee_draws_the_sheet_anew(corrected_match, draws):
    sheet(Client())
    Match.objects.filter(pk=MATCH_ID).update(referee_name="Anna Lewandowska")

    text = " ".join(text_of(sheet(Client())))

    assert "Referee Anna Lewandowska" in text and len(draws) == 2


@override_settings(
    CACHES={
        **django_settings.CACHES,
        "reads": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        },
    }
)
def test_a_read_cache_that_does_not_answer_still_serves_the_sheet(corrected_match, draws, caplog):
    caplog.set_level(logging.WARNING, logger="replay.queries.read_cache")

    first, again = sheet(Client()), sheet(Client())

    assert text_of(again) == text_of(first) and draws == [MATCH_ID, MATCH_ID]
    assert "read cache: Redis did not answer" in caplog.text
