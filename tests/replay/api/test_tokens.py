"""API tokens: issued by a command, several per user, kept as hashes, revoked by staff."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from replay.api.tokens import digest_of, token_issue, token_revoke, token_user
from replay.models import ApiToken
from tests.support.logins import api


def issue_token(*args):
    out, err = StringIO(), StringIO()
    call_command("issue_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_issue_token_creates_the_user_and_prints_the_key_as_its_only_line(db):
    out, err = issue_token("petrenko")

    lines = out.splitlines()
    assert len(lines) == 1 and out.endswith("\n") and err == ""
    key = lines[0]
    user, _ = token_user(key)
    assert user.get_username() == "petrenko"
    assert not user.is_staff
    assert not user.has_usable_password()


def test_issue_token_with_staff_makes_the_user_staff_even_one_that_exists(db):
    get_user_model().objects.create_user("federation")

    key = issue_token("federation", "--staff")[0].strip()

    assert token_user(key)[0].is_staff


def test_each_token_issued_leaves_the_users_other_tokens_valid(db):
    tablet = issue_token("petrenko")[0].strip()
    scoreboard = issue_token("petrenko")[0].strip()

    assert tablet != scoreboard
    assert token_user(tablet)[0] == token_user(scoreboard)[0]
    assert ApiToken.objects.filter(user__username="petrenko").count() == 2


def test_only_the_hash_of_a_key_is_stored(db):
    key = issue_token("petrenko")[0].strip()

    token = ApiToken.objects.get()
    stored = [str(getattr(token, field.attname)) for field in ApiToken._meta.concrete_fields]
    assert token.digest == digest_of(key)
    assert not any(key in value for value in stored)
    assert key.startswith(token.prefix) and len(token.prefix) == 8


def test_issue_token_refuses_a_username_django_would_not_accept(db):
    with pytest.raises(CommandError, match="username"):
        issue_token("no spaces allowed")

    assert not get_user_model().objects.exists()


def test_a_revoked_token_no_longer_stands_for_its_user_and_the_others_still_do(db):
    lost, kept = token_issue("petrenko"), token_issue("petrenko")

    token_revoke(lost.token.prefix, by="federation")

    assert token_user(lost.key) is None
    assert token_user(kept.key)[0] == kept.token.user
    revoked = ApiToken.objects.get(pk=lost.token.pk)
    assert revoked.revoked_at is not None and revoked.revoked_by == "federation"


def test_revoke_token_revokes_the_token_its_prefix_or_whole_key_names(db):
    by_prefix, by_key = token_issue("petrenko"), token_issue("petrenko")
    out = StringIO()

    call_command("revoke_token", by_prefix.key[:8], by_key.key, "--by", "federation", stdout=out)

    assert token_user(by_prefix.key) is None and token_user(by_key.key) is None
    assert out.getvalue().count("revoked (petrenko)") == 2


def test_revoke_token_with_user_revokes_every_token_of_that_user_alone(db):
    first, second = (token_issue("petrenko") for _ in range(2))
    other = token_issue("marchetti")

    call_command("revoke_token", "--user", "petrenko", stdout=StringIO())

    assert token_user(first.key) is None and token_user(second.key) is None
    assert token_user(other.key) is not None


@pytest.mark.parametrize("prefix", ["nosuchtk", "no\x00such", "é"])
def test_revoke_token_names_a_prefix_that_names_no_token(db, prefix):
    with pytest.raises(CommandError, match="no token"):
        call_command("revoke_token", prefix, stdout=StringIO())


def test_revoke_token_needs_a_prefix_or_a_user(db):
    with pytest.raises(CommandError, match="PREFIX"):
        call_command("revoke_token", stdout=StringIO())


def test_me_answers_whose_token_was_sent_and_nothing_without_one(db):
    referee = token_issue("petrenko").key
    staff = token_issue("federation", staff=True).key

    assert api(referee).get("/api/me").json() == {"username": "petrenko", "staff": False}
    assert api(staff).get("/api/me").json() == {"username": "federation", "staff": True}
    assert api().get("/api/me").status_code == 401
    assert api("not-a-key").get("/api/me").status_code == 401


def test_me_answers_nothing_for_a_revoked_token(db):
    issued = token_issue("petrenko")
    token_revoke(issued.key[:8], by="federation")

    assert api(issued.key).get("/api/me").status_code == 401
