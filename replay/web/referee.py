"""A referee's way in: the login lands on their matches, each a tap from its console."""

from __future__ import annotations

from django.contrib.auth.views import LoginView, redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from replay.presentation.compare import STATUS_NAMES
from replay.queries.referee_matches import FINISHED_DAYS, has_assigned_matches, referee_day
from replay.web.lookups import stage_places


class RefereeLoginView(LoginView):
    """Django's login page, landing a login with matches to record on its list of them."""

    def get_default_redirect_url(self) -> str:
        if has_assigned_matches(self.request.user):
            return reverse("console:matches")
        return super().get_default_redirect_url()


@never_cache
@require_GET
def my_matches(request: HttpRequest) -> HttpResponse:
    """List the matches assigned to the login: today's, upcoming, undated, lately finished."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    day = referee_day(request.user, timezone.now())
    titles = {
        "today": _("Today"),
        "upcoming": _("Upcoming"),
        "undated": _("Not yet dated"),
        "finished": _("Finished in the last %(days)s days") % {"days": FINISHED_DAYS},
    }
    lines = [line for section in day.values() for line in section]
    places = stage_places(
        (m.id, m.competition_id, m.stage_id, m.group, m.slot)
        for m in (line["match"] for line in lines)
    )
    for line in lines:
        line["stage"] = places.get(line["match"].id) or line["match"].stage
        line["status_name"] = STATUS_NAMES.get(line["status"], line["status"])
    sections = [(key, titles[key], found) for key, found in day.items() if found]
    return render(request, "replay/my_matches.html", {"sections": sections})
