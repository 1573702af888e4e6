"""The Content-Security-Policy in Chromium: no page breaks it, in either language; scripts run.

A script the driver adds before each page loads collects every `securitypolicyviolation`
the page reports; the browser's log is searched as well, for what a worker reports.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from selenium.webdriver.common.by import By

from tests.support.browser import log_in, wait_until
from tests.support.demo_pages import LIVE, demo_pages

COLLECT = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`);
});
"""
# What shows that a page's own script ran, where it has one whose work can be seen.
RAN = {
    f"/matches/{LIVE}/": "#connection[data-connection=live]",  # its socket is open
    f"/matches/{LIVE}/overlay/": "#connection[data-connection=live]",
    "/competitions/demo-cup/": "[data-status].live",
    f"/referee/matches/{LIVE}/": "#console[data-seq]",
    "/api/docs/": ".swagger-ui .info .title",  # Swagger UI drew the schema it fetched
}


def violations(driver) -> list[str]:
    return driver.execute_script("return window.cspViolations || []")


@pytest.mark.journey  # every page, in both languages
def test_no_page_breaks_the_policy_in_either_language_and_each_script_runs(served, chromium):
    paths = demo_pages(Client())
    paths = [*paths, *(path for path in RAN if path not in paths)]
    log_in(chromium, served, get_user_model().objects.get(username="demo-staff"))
    chromium.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": COLLECT})

    # The policy is in force, and what it refuses is seen: a style attribute set now.
    chromium.get(f"{served.url}/login/")
    chromium.execute_script("document.body.insertAdjacentHTML('beforeend', '<p style=\"x\">')")
    wait_until(chromium, violations, "the policy to refuse an inline style")
    chromium.get_log("browser")  # read, so that the log holds only what comes next

    seen: dict[str, list[str]] = {}
    for language in ("en", "uk"):
        chromium.add_cookie({"name": "django_language", "value": language, "path": "/"})
        for path in paths:
            if path == "/api/docs/" and language != "en":
                continue  # Swagger UI's page is in English only
            chromium.get(f"{served.url}{path}")
            if path.startswith("/matches/") and path.endswith("/replay/"):
                ran = "#replay[data-seq]"  # the replay's script drew the moment
            else:
                ran = RAN.get(path)
            if ran:
                wait_until(chromium, lambda d, s=ran: d.find_elements(By.CSS_SELECTOR, s), ran)
            html = chromium.find_element(By.TAG_NAME, "html").get_attribute("lang")
            seen[f"{language} {path}"] = violations(chromium)
            if path != "/api/docs/":
                assert html == language, path
    logged = [
        entry["message"]
        for entry in chromium.get_log("browser")
        if "Content Security Policy" in entry["message"]
    ]

    assert {page: found for page, found in seen.items() if found} == {}
    assert logged == []
