"""Whole-deal review benchmark: prints figures, asserts only that the answers agree (run
with ``make bench``; ``REVIEW_DEALS=1000`` for issue 18's thousand deals a preset).

For each preset, random four-player deals (most set in rank order, some fouled) are
reviewed both ways in turn: ``review`` player by player (the review before issue 18) and
``review_all`` (the whole deal at once, what ``review_request`` runs). Every answer of the
two must be equal: best setting, units, declaration and nearest legal setting. Printed:
the median time of a deal each way and the deals a second it means in one process
(target: 100), with the machine's load, since the figures move with it.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.engine import random_request  # noqa: E402
from games.engine import parse_request  # noqa: E402
from games.engine.review import review  # noqa: E402
from games.engine.review_batch import review_all  # noqa: E402

DEALS = int(os.environ.get("REVIEW_DEALS", "200"))
PRESETS = ("standard", "classic-1-6", "classic-2-4", "mau-binh-south", "mau-binh-north")


def main() -> None:
    rng = random.Random(18)
    print(f"whole-deal review, {DEALS} four-player deals per preset, load {os.getloadavg()[0]:.2f}")
    print("  preset            player by player      whole deal at once    agree")
    for preset in PRESETS:
        deals = [parse_request(random_request(rng, preset)) for _ in range(DEALS)]
        review_all(deals[0].hands, deals[0].rules)  # builds the split index once
        before: list[float] = []
        after: list[float] = []
        for deal in deals:
            hands, rules = deal.hands, deal.rules
            start = time.perf_counter()
            old = [None if h.rows is None else review(hands, rules, k) for k, h in enumerate(hands)]
            before.append(time.perf_counter() - start)
            start = time.perf_counter()
            new = review_all(hands, rules)
            after.append(time.perf_counter() - start)
            assert new == old, f"the reviews disagree on {[h.rows for h in hands]}"
        b, a = statistics.median(before), statistics.median(after)
        print(
            f"  {preset:<16} {b * 1e3:6.2f} ms {1 / b:5.0f}/s      {a * 1e3:6.2f} ms {1 / a:5.0f}/s"
            f"      {DEALS}/{DEALS}"
        )
    print(f"  load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
