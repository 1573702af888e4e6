"""A phone's and a desktop's screen in Chromium, and the screenshots saved to look at."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

PHONE = (390, 844)
DESKTOP = (1280, 800)
SCREENS = (PHONE, DESKTOP)
SHOTS = os.getenv("PAGE_SCREENSHOTS")  # a directory: the screens are saved there


def screen(browsers: Callable[..., Any], size: tuple[int, int], language: str = "en") -> Any:
    """Open a browser whose page is `size` wide and high, a phone's below 500 pixels.

    Headless Chromium keeps a window at least 500 pixels wide: the page's size is set
    as a phone's would be, not the window's.
    """
    driver = browsers(language, size)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 500},
    )
    return driver


def overflowing(driver: Any, selector: str) -> list[str]:
    """Return the elements within `selector` that reach past the page's right edge."""
    return driver.execute_script(  # type: ignore[no-any-return]
        """
        const width = document.documentElement.clientWidth;
        return [...document.querySelectorAll(arguments[0] + ', ' + arguments[0] + ' *')]
          .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > width + 1)
          .map((e) => `${e.tagName}.${e.className}: ${e.getBoundingClientRect().right} px`);
        """,
        selector,
    )


def save_shot(driver: Any, name: str) -> None:
    """Save the page as PAGE_SCREENSHOTS/name.png, when that directory is given."""
    if SHOTS:
        driver.save_screenshot(os.path.join(SHOTS, f"{name}.png"))
