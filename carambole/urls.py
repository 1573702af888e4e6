"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("replay.api.urls")),
    path("", include("replay.urls")),
]

# Under /api/ even Django's own errors (an unknown path, a bad request) answer JSON.
handler400 = "replay.api.errors.bad_request"
handler403 = "replay.api.errors.permission_denied"
handler404 = "replay.api.errors.page_not_found"
handler500 = "replay.api.errors.server_error"
