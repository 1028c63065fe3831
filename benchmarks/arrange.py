"""Arrangement benchmark: prints figures, asserts nothing (run with ``make bench``).

1. Review of one player in a four-player deal: all 72,072 settings of Ann's cards,
   the legal ones scored against the three real opponents (median over 20 deals;
   target 5 ms).
2. The same review written plainly: every split re-evaluates its rows and each legal
   one is scored with ``score_hands`` (a few deals; the ratio is what to compare).
   The same review under ``royalty_best_only`` (target 10 ms; it once scored every
   setting with ``score_hands``, about 1.2 s).
   A fantasy-land hand of 14 (Pineapple) and 17 cards (progressive) arranged.
3. Auto-arrange with 2,000 sampled opponents (median over a few hands; target 2 s).
4. The review of whole four-player deals (``review_request``, what the review task runs
   besides reading and writing the deal), per preset: deals a second in one process,
   from the median time of a deal (target: 100).
5. The deal form's Arrange against random opponents: 1,000 random four-player deals
   (``python benchmarks/arrange.py versus [hands]`` runs only this), the three opponents
   set by the strength heuristic; Ann's average units with the heuristic's setting beside
   the expected-value setting the deal form uses (1,000 samples, seed 0), and the time
   each takes per hand.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from decimal import Decimal
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# games.web.entry (the page's sample count) marks strings for translation at import,
# which reads the settings.
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

from benchmarks.engine import machine_speed, random_request  # noqa: E402
from games.engine import parse_request  # noqa: E402
from games.engine.arrangement import (  # noqa: E402
    arrange_expected,
    arrange_heuristic,
    review,
    review_request,
)
from games.engine.arrangement.fantasyland import arrange_fantasyland  # noqa: E402
from games.engine.cards import DECK  # noqa: E402
from games.engine.ranking import five_card_evaluator, front_beats, three_card_evaluator  # noqa: E402
from games.engine.rules import Rules  # noqa: E402
from games.engine.scoring import Hand, score_hands  # noqa: E402
from games.web.entry import ARRANGE_SAMPLES, ARRANGE_SEED  # noqa: E402

PRESET = "classic-1-6"
REVIEW_DEALS = 20
PLAIN_DEALS = 2
ARRANGE_HANDS = 5
SAMPLES = 2000
WHOLE_DEALS = 50


def plain_review(hands: list[Hand], rules: Rules) -> Decimal:
    """Ann's best units, the plain way: evaluate every row of every split anew."""
    evaluate5 = five_card_evaluator(rules.wheel)
    evaluate3 = three_card_evaluator()
    rows = hands[0].rows
    assert rows is not None
    cards = [c for row in rows for c in row]
    best: Decimal | None = None
    for back in combinations(cards, 5):
        rest = [c for c in cards if c not in back]
        for middle in combinations(rest, 5):
            front = tuple(c for c in rest if c not in middle)
            f, m, b = evaluate3(front), evaluate5(middle), evaluate5(back)
            if front_beats(f, m) or m > b:
                continue
            seated = [hands[0]._replace(rows=(front, middle, back)), *hands[1:]]
            units = score_hands(seated, rules).players[0].units
            if best is None or units > best:
                best = units
    assert best is not None
    return best


def main() -> None:
    rng = random.Random(2026)
    rules = Rules.from_mapping(PRESET)
    print(
        f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.2f},"
        f" sum(range(100)) takes {machine_speed():.2f} us; rules {PRESET}"
    )
    deals = [list(parse_request(random_request(rng, PRESET)).hands) for _ in range(REVIEW_DEALS)]
    review(deals[0], rules, 0)  # builds the split index once
    times = []
    for hands in deals:
        start = time.perf_counter()
        review(hands, rules, 0)
        times.append(time.perf_counter() - start)
    fast = statistics.median(times)
    print(f"review of one player, four-player deal: median {fast * 1e3:7.2f} ms  (target 5 ms)")
    best_only = Rules.from_mapping({"preset": PRESET, "royalty_best_only": True})
    best_times = []
    for hands in deals:
        start = time.perf_counter()
        review(hands, best_only, 0)
        best_times.append(time.perf_counter() - start)
    print(
        "review of one player with royalty_best_only (the whole table's royalties compared):"
        f" median {statistics.median(best_times) * 1e3:7.2f} ms  (target 10 ms)"
    )

    for size, spec in ((14, "pineapple"), (17, {"preset": "pineapple", "progressive": True})):
        fantasy = Rules.from_mapping(spec)
        fl_times = []
        for _ in range(3):
            cards = rng.sample(DECK, size)
            start = time.perf_counter()
            arrange_fantasyland(cards, fantasy)
            fl_times.append(time.perf_counter() - start)
        print(
            f"fantasy land, {size} cards: the 13 to keep, set for the most royalties:"
            f" median {statistics.median(fl_times) * 1e3:7.1f} ms (3 hands)"
        )

    plain_times = []
    for hands in deals[:PLAIN_DEALS]:
        start = time.perf_counter()
        plain_best = plain_review(hands, rules)
        plain_times.append(time.perf_counter() - start)
        assert (
            plain_best == review(hands, rules, 0).best_units or review(hands, rules, 0).declare
        ), "plain and fast reviews disagree"
    plain = statistics.median(plain_times)
    print(
        f"plain pure-Python review (rows re-evaluated, score_hands per setting):"
        f" median {plain * 1e3:,.0f} ms  ({plain / fast:,.0f}x the fast review)"
    )

    print(f"whole-deal review (review_request), {WHOLE_DEALS} four-player deals per preset:")
    for preset in ("standard", "classic-1-6", "classic-2-4", "mau-binh-south", "mau-binh-north"):
        requests = [random_request(rng, preset) for _ in range(WHOLE_DEALS)]
        review_request(requests[0])
        deal_times = []
        for request in requests:
            start = time.perf_counter()
            review_request(request)
            deal_times.append(time.perf_counter() - start)
        median = statistics.median(deal_times)
        print(f"  {preset:<16} median {median * 1e3:6.1f} ms a deal: {1 / median:5.0f} deals/s")

    arrange_times = []
    for _ in range(ARRANGE_HANDS):
        cards = rng.sample(DECK, 13)
        start = time.perf_counter()
        arrange_expected(cards, rules, samples=SAMPLES, seed=1)
        arrange_times.append(time.perf_counter() - start)
    print(
        f"auto-arrange, {SAMPLES:,} sampled opponents: median"
        f" {statistics.median(arrange_times):6.2f} s  (target 2 s)"
    )


def versus_random(hands: int = 1000) -> None:
    """Ann's units a deal, her 13 cards set each way, against three random hands."""
    rng = random.Random(2026)
    rules = Rules.from_mapping(PRESET)
    totals = {"heuristic": Decimal(0), "expected": Decimal(0)}
    spent = {"heuristic": 0.0, "expected": 0.0}
    for _ in range(hands):
        deck = rng.sample(DECK, 52)
        others = [
            Hand(name, arrange_heuristic(deck[13 * k : 13 * k + 13], rules).rows)
            for k, name in enumerate(("Bob", "Cy", "Di"), start=1)
        ]
        for way in totals:
            start = time.perf_counter()
            if way == "heuristic":
                setting = arrange_heuristic(deck[:13], rules)
            else:
                found = arrange_expected(
                    deck[:13], rules, samples=ARRANGE_SAMPLES, seed=ARRANGE_SEED, top=0
                )
                setting = found.best.setting
            spent[way] += time.perf_counter() - start
            scored = score_hands([Hand("Ann", setting.rows), *others], rules)
            totals[way] += scored.players[0].units
    print(f"Arrange against random opponents ({hands:,} four-player deals, {PRESET}):")
    for way, label in (
        ("heuristic", "strongest back, then middle (heuristic)"),
        ("expected", f"expected value, {ARRANGE_SAMPLES:,} samples, seed {ARRANGE_SEED}"),
    ):
        print(
            f"  {label:<45} {float(totals[way]) / hands:+6.2f} units a deal,"
            f" {spent[way] / hands * 1e3:7.1f} ms a hand"
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["versus"]:
        versus_random(int(sys.argv[2]) if len(sys.argv) > 2 else 1000)
    else:
        main()
        versus_random()
