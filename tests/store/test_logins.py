"""Logins made through the one service: a token's login, the demo's published ones."""

import pytest
from django.contrib.auth import authenticate, get_user_model

from matches import services
from matches.domain.errors import Refused


def test_a_new_login_without_a_password_has_none_usable(db):
    user = services.login_ensure("petrenko")

    assert not user.has_usable_password()
    assert not user.is_staff and user.is_active


def test_asking_for_staff_makes_a_login_staff_and_not_asking_never_takes_it_away(db):
    services.login_ensure("federation")

    assert services.login_ensure("federation", staff=True).is_staff
    assert services.login_ensure("federation").is_staff


def test_exactly_gives_a_login_back_just_its_rights_and_makes_it_active(db):
    user = services.login_ensure("demo-referee", staff=True, password="demo-referee-pass")
    user.is_active = False
    user.save()

    again = services.login_ensure(
        "demo-referee", staff=False, password="demo-referee-pass", exactly=True
    )

    assert not again.is_staff and again.is_active
    assert authenticate(username="demo-referee", password="demo-referee-pass") == again


def test_a_password_is_given_back_and_the_same_one_is_not_set_anew(db):
    user = services.login_ensure("demo-staff", password="demo-staff-pass")
    session = user.get_session_auth_hash()

    assert (
        services.login_ensure("demo-staff", password="demo-staff-pass").get_session_auth_hash()
        == session
    )
    user.set_password("changed")
    user.save()
    assert services.login_ensure("demo-staff", password="demo-staff-pass").check_password(
        "demo-staff-pass"
    )


def test_a_username_django_would_not_accept_is_refused_naming_it_and_stores_nothing(db):
    with pytest.raises(Refused) as refused:
        services.login_ensure("no spaces allowed")

    assert refused.value.field == "username"
    assert not get_user_model().objects.exists()
