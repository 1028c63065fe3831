"""The schema of ``POST score/``'s answer: a scored deal, its words in the language asked for
and their message codes beside them (drf-spectacular reads these; the view answers the
engine's result as it is)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers


class MessageSerializer(serializers.Serializer[Any]):
    """Words the engine says, as a code and its arguments: the same in every language, for
    a client that renders its own (docs/api.md lists the codes)."""

    code = serializers.CharField(help_text="pair, two_pair, ..., row_beats_row, false_natural")
    args = serializers.DictField(
        help_text="what fills it: ranks as letters (rank, kickers, high, ...), rows by name"
    )


class ScoreRowSerializer(serializers.Serializer[Any]):
    cards = serializers.CharField()
    category = serializers.CharField(help_text="high_card .. straight_flush, royal_flush")
    # A field named as DRF's own Field.label: the metaclass takes it as a field all the same.
    label = serializers.CharField(  # type: ignore[assignment]
        help_text="the hand's name, in the language asked for"
    )
    label_code = MessageSerializer(help_text="the hand's name as a code and its ranks")
    royalty = serializers.CharField()


class ScorePlayerSerializer(serializers.Serializer[Any]):
    """One player of a score answer; Big Two players have ``cards_left``, ``penalty`` and
    ``winner`` instead of the rows, Criss Cross players ``hands`` (each like a player)."""

    name = serializers.CharField()
    units = serializers.CharField()
    money = serializers.CharField(required=False, help_text="with stakes")
    fouled = serializers.BooleanField(required=False)
    foul_reason = serializers.CharField(
        allow_null=True, required=False, help_text="why, in the language asked for"
    )
    foul_code = MessageSerializer(
        allow_null=True, required=False, help_text="why, as a code and its arguments"
    )
    surrendered = serializers.BooleanField(required=False)
    natural = serializers.CharField(allow_null=True, required=False)
    false_natural = serializers.CharField(allow_null=True, required=False)
    rows = serializers.DictField(
        child=ScoreRowSerializer(),
        allow_null=True,
        required=False,
        help_text="front, middle and back; null for a surrender without cards",
    )


class ScoreAnswerSerializer(serializers.Serializer[Any]):
    """A scored deal (docs/deal-format.md): labels and reasons in the language asked for
    (``lang``, else ``Accept-Language``, else English), their codes the same in all."""

    game = serializers.CharField()
    rules = serializers.JSONField(help_text="the rules as resolved")
    players = ScorePlayerSerializer(many=True)
    pairs = serializers.ListField(child=serializers.DictField())
