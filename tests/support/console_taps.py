"""A referee's thumb on the console in a browser: a button tapped where the thumb finds it,
Confirm pressed once it may be."""

from __future__ import annotations

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver

from tests.support.browser import wait_until


def tap(driver: WebDriver, selector: str) -> None:
    """Tap a button, scrolled to the middle of the screen as a referee's thumb finds it.

    Found afresh if the page redrew it meanwhile (the queue's list follows the match).
    """
    for attempt in range(3):
        try:
            button = driver.find_element(By.CSS_SELECTOR, selector)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise


def confirm(driver: WebDriver) -> None:
    """Press Confirm once it may be pressed (after the preview, or with none offline)."""
    button = driver.find_element(By.ID, "confirm-shot")
    wait_until(driver, lambda d: button.is_enabled(), "Confirm enabled")
    tap(driver, "#confirm-shot")
