"""Draws the app's icons into games/static/games/icons/ (committed; run again only to change
them): a white spade on the header's dark blue, as PNGs at the sizes phones and browsers
ask for, a maskable one with room around the spade, and favicon.ico.

    .venv/bin/python scripts/make_icons.py

Needs Pillow (WeasyPrint brings it) and the DejaVu Sans font (Debian: fonts-dejavu-core).
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "games" / "static" / "games" / "icons"
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
BACKGROUND = (17, 34, 51)  # the header's #123
SPADE = "\u2660"


def icon(size: int, *, safe: float) -> Image.Image:
    """A square icon; the spade fills ``safe`` of its side (maskable icons keep to the
    inner circle, 80%, which a phone may crop to)."""
    image = Image.new("RGB", (size, size), BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), int(size * safe))
    left, top, right, bottom = draw.textbbox((0, 0), SPADE, font=font)
    x = (size - (right - left)) / 2 - left
    y = (size - (bottom - top)) / 2 - top
    draw.text((x, y), SPADE, font=font, fill=(255, 255, 255))
    return image


def main() -> int:
    if not FONT.exists():
        print(f"no font at {FONT} (apt install fonts-dejavu-core)", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (32, 180, 192, 512):
        icon(size, safe=0.72).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, safe=0.5).save(OUT / "icon-maskable-512.png", optimize=True)
    icon(48, safe=0.72).save(OUT / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    for path in sorted(OUT.iterdir()):
        print(path.relative_to(ROOT), path.stat().st_size, "bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
