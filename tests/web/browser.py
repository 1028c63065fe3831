"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium, driven by Playwright."""

from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}


def watch_csp(page: Any) -> list[str]:
    """The Content-Security-Policy violations Chromium reports on the page (its console
    messages naming the policy), filled in as they happen."""
    found: list[str] = []

    def on_console(message: Any) -> None:
        if "Content Security Policy" in message.text:
            found.append(message.text)

    page.on("console", on_console)
    return found
