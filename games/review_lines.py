"""What each player missed on a deal, from its review (``games.services.reviews``)."""

from __future__ import annotations

from django.db import models


class ReviewLine(models.Model):
    """What one player missed on one deal by how they set their cards (from its review).

    Written with ``Deal.review``, so reports add up units missed with one query.
    """

    deal = models.ForeignKey("games.Deal", on_delete=models.CASCADE, related_name="review_lines")
    player = models.ForeignKey("games.Player", on_delete=models.CASCADE, related_name="+")
    units_missed = models.DecimalField(max_digits=14, decimal_places=4)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=("deal", "player"), name="review_line_player"),
        )

    def __str__(self) -> str:
        return f"{self.deal}: {self.player} missed {self.units_missed}"
