"""Headless Chromium for the browser tests: Debian's /usr/bin/chromium, driven by Playwright."""

from pathlib import Path

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
