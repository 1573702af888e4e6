"""Logins: the one place carambole creates a user (a token's, the demo's) or gives one rights."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from matches.domain.errors import Refused


def login_ensure(
    username: str, *, staff: bool = False, password: str | None = None, exactly: bool = False
) -> Any:
    """Return the login of that name, created if needed, with these rights and this password.

    A new login without a password has none usable (it signs in with API tokens only).
    A login that exists keeps what it has: `staff` only adds the right, so a token issued
    to a staff member leaves them staff. With `exactly` it is given back just these rights
    and made active (the demo's published logins). A password is set only when the login
    does not have it already: setting even the same one anew would end its sessions.
    """
    users = get_user_model()
    user = users.objects.filter(username=username).first()
    if user is None:
        user = users(username=username, is_staff=staff)
        try:
            user.full_clean(exclude=["password"])
        except ValidationError as error:
            messages = error.message_dict.get("username") or ["is not a valid username"]
            raise Refused(messages[0], "username") from None
        if password is None:
            user.set_unusable_password()
        else:
            user.set_password(password)
        user.save()
        return user
    changed = []
    if (staff and not user.is_staff) or (exactly and user.is_staff != staff):
        user.is_staff = staff
        changed.append("is_staff")
    if exactly and not user.is_active:
        user.is_active = True
        changed.append("is_active")
    # Hashing a password takes a good part of a second: check it once, set it once.
    if password is not None and not user.check_password(password):
        user.set_password(password)
        changed.append("password")
    if changed:
        user.save(update_fields=changed)
    return user
