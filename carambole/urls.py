"""Top-level URL configuration."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from replay.web.referee import RefereeLoginView

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("replay.api.urls")),
    # The language switcher (a POST remembered in a cookie) and the catalogue the scripts use.
    path("i18n/", include("django.conf.urls.i18n")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    # Browsers log in with a session: the console's referees and staff.
    # A referee lands on their matches; anyone else on the home page (or `next`).
    path("login/", RefereeLoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("referee/", include("replay.console_urls")),
    path("", include("replay.urls")),
]

# Under /api/ even Django's own errors (an unknown path, a bad request) answer JSON.
handler400 = "carambole.errors.bad_request"
handler403 = "carambole.errors.permission_denied"
handler404 = "carambole.errors.page_not_found"
handler500 = "carambole.errors.server_error"
