"""The API describes itself: an OpenAPI 3 schema and a documentation page served offline."""

import re
from html import unescape as html_unescape

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver

from tests.support.logins import api


@pytest.fixture
def openapi(db):
    answer = api().get("/api/schema/")
    assert answer.status_code == 200
    return answer.json()


def api_paths():
    """Return every path routed under /api/, as OpenAPI writes it ({id}, {prefix})."""
    (api_urls,) = [p for p in get_resolver().url_patterns if str(p.pattern) == "api/"]
    paths = []
    for pattern in api_urls.url_patterns:
        assert isinstance(pattern, URLPattern)
        if pattern.name == "no-such-path":
            continue
        paths.append("/api/" + re.sub(r"<[^:>]+:([^>]+)>", r"{\1}", str(pattern.pattern)))
    return [path for path in paths if path not in ("/api/schema/", "/api/docs/")]


def test_the_schema_is_openapi_3_and_describes_every_path_of_the_api(openapi):
    assert openapi["openapi"].startswith("3.")
    assert sorted(openapi["paths"]) == sorted(api_paths())


def test_every_operation_documents_its_errors_as_json_with_error_and_field(openapi):
    error = openapi["components"]["schemas"]["Error"]
    assert error["required"] == ["error", "field"]
    for path, operations in openapi["paths"].items():
        for method, operation in operations.items():
            errors = {code for code in operation["responses"] if code.startswith("4")}
            assert "401" in errors, (method, path)
            if "{" in path:
                assert "404" in errors, (method, path)
            if "requestBody" in operation:
                assert {"400", "413", "422"} <= errors, (method, path)
            for code in errors:
                content = operation["responses"][code]["content"]["application/json"]
                assert content["schema"] == {"$ref": "#/components/schemas/Error"}


def test_recording_an_event_documents_its_conflict_and_its_idempotency_key(openapi):
    operation = openapi["paths"]["/api/matches/{id}/events"]["post"]

    assert "409" in operation["responses"]
    assert "Idempotency-Key" in [parameter["name"] for parameter in operation["parameters"]]
    assert "Idempotent-Replayed" in operation["responses"]["201"]["headers"]


def test_request_bodies_refuse_fields_they_do_not_name(openapi):
    schemas = openapi["components"]["schemas"]
    for path, operations in openapi["paths"].items():
        for operation in operations.values():
            if "requestBody" in operation:
                ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
                body = schemas[ref.rsplit("/", 1)[1]]
                assert body["additionalProperties"] is False, path


def test_the_schema_names_both_ways_to_authenticate(openapi):
    schemes = openapi["components"]["securitySchemes"]

    assert schemes["tokenAuth"]["name"] == "Authorization"
    assert schemes["cookieAuth"]["in"] == "cookie"


def test_the_docs_page_serves_swagger_ui_from_the_project_itself_with_no_cdn(db):
    page = Client().get("/api/docs/")

    html = page.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert page.status_code == 200
    # Its files, and its own script from the page's path (?script): none inline, none elsewhere.
    assert assets and all(asset.startswith(("/static/", "/api/docs/?")) for asset in assets)
    assert "http://" not in html and "https://" not in html
    for asset in (html_unescape(asset) for asset in assets):
        served = Client().get(asset)
        assert served.status_code == 200, asset
        if served.streaming:
            b"".join(served.streaming_content)  # read it whole, closing the file
