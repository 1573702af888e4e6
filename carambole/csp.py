"""A Content-Security-Policy on every response: the project's own scripts and styles only.

Every script and style of carambole is a file it serves (no inline `<script>`, `<style>`
or `style=""`, no CDN), so the policy needs no nonce and no hash; it is one header,
settings.CONTENT_SECURITY_POLICY, with the request's own host added to `connect-src`
for the live websockets (`ws:` and `wss:`, which older browsers do not count as 'self').
A middleware of a few lines rather than django-csp: its nonces and per-view decorators
would go unused, and Django 6.0's own CSP middleware can take this one's place.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase
from django.utils.deprecation import MiddlewareMixin

HEADER = "Content-Security-Policy"


def policy(request: HttpRequest) -> str:
    """Return the policy's header value for this request."""
    directives = {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY.items()}
    try:
        host = request.get_host()
    except DisallowedHost:
        host = None  # a 400 already: 'self' alone
    if host and "connect-src" in directives:
        directives["connect-src"] += [f"ws://{host}", f"wss://{host}"]
    return "; ".join(" ".join([name, *sources]) for name, sources in directives.items())


class ContentSecurityPolicy(MiddlewareMixin):
    """Send settings.CONTENT_SECURITY_POLICY with every response that has none of its own."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if HEADER not in response.headers:
            response.headers[HEADER] = policy(request)
        return response
