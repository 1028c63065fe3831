from django.urls import path
from rest_framework.routers import DefaultRouter

from games.api import documents, invites, payments, reports
from games.api.groups import (
    GroupViewSet,
    MemberViewSet,
    PairStakeViewSet,
    PlayerViewSet,
    PresetsView,
    RuleSetViewSet,
)
from games.api.password import PasswordChangeView
from games.api.sessions import DealViewSet, SessionViewSet
from games.api.tokens import DeviceTokenViewSet, ObtainTokenView
from games.api.views import ArrangeView, ScoreView
from games.live import api as live

app_name = "api"

GROUP = r"groups/(?P<group_pk>[0-9]+)"

router = DefaultRouter()
router.register("groups", GroupViewSet, basename="group")
router.register(f"{GROUP}/members", MemberViewSet, basename="member")
router.register(f"{GROUP}/players", PlayerViewSet, basename="player")
router.register(f"{GROUP}/rules", RuleSetViewSet, basename="rules")
router.register(f"{GROUP}/stakes", PairStakeViewSet, basename="stake")
router.register("sessions", SessionViewSet, basename="session")
router.register(r"sessions/(?P<session_pk>[0-9]+)/deals", DealViewSet, basename="deal")
router.register("auth/tokens", DeviceTokenViewSet, basename="device-token")

urlpatterns = [
    path("score/", ScoreView.as_view(), name="score"),
    path("arrange/", ArrangeView.as_view(), name="arrange"),
    path("auth/token/", ObtainTokenView.as_view(), name="token"),
    path("auth/password/", PasswordChangeView.as_view(), name="password"),
    path("presets/", PresetsView.as_view(), name="presets"),
    path("sessions/<int:pk>/summary/", reports.session_summary, name="session-summary"),
    path("sessions/<int:pk>/settlement/", reports.session_settlement, name="session-settlement"),
    path("groups/<int:pk>/ledger/", reports.group_ledger, name="group-ledger"),
    path("groups/<int:pk>/standings/", reports.group_standings, name="group-standings"),
    path("groups/<int:pk>/season/", reports.group_season, name="group-season"),
    path("groups/<int:pk>/season/pdf/", documents.group_season_pdf, name="group-season-pdf"),
    path("groups/<int:pk>/export/", reports.group_export, name="group-export"),
    path("groups/<int:pk>/import/", reports.group_import, name="group-import"),
    path("groups/<int:pk>/payments/", payments.group_payments, name="group-payments"),
    path(
        "groups/<int:pk>/payments/<int:payment_pk>/",
        payments.payment_detail,
        name="payment-detail",
    ),
    path(
        "groups/<int:pk>/payments/<int:payment_pk>/confirm/",
        payments.payment_confirm,
        name="payment-confirm",
    ),
    path(
        "groups/<int:pk>/payments/<int:payment_pk>/void/",
        payments.payment_void,
        name="payment-void",
    ),
    path("groups/<int:pk>/balances/", payments.group_balances, name="group-balances"),
    path("groups/<int:pk>/statement/", payments.group_statement, name="group-statement"),
    path("sessions/<int:pk>/payments/", payments.session_payments, name="session-payments"),
    path("groups/<int:pk>/invites/", invites.group_invites, name="group-invites"),
    path(
        "groups/<int:pk>/invites/<int:invite_pk>/revoke/",
        invites.invite_revoke,
        name="invite-revoke",
    ),
    path("invites/accept/", invites.invite_accept, name="invite-accept"),
    path("sessions/<int:pk>/seat-links/", live.seat_link_list, name="session-seat-links"),
    path(
        "sessions/<int:pk>/seat-links/<int:link_pk>/revoke/",
        live.seat_link_revoke,
        name="session-seat-link-revoke",
    ),
    path("sessions/<int:pk>/live/", live.live_detail, name="session-live"),
    path("sessions/<int:pk>/live/cancel/", live.live_cancel, name="session-live-cancel"),
    path("sessions/<int:pk>/live/seats/<int:seat>/", live.live_seat, name="session-live-seat"),
    path(
        "sessions/<int:pk>/live/seats/<int:seat>/submit/",
        live.live_submit,
        name="session-live-submit",
    ),
    path(
        "sessions/<int:pk>/live/seats/<int:seat>/check/",
        live.live_check,
        name="session-live-check",
    ),
    path(
        "sessions/<int:pk>/live/seats/<int:seat>/withdraw/",
        live.live_withdraw,
        name="session-live-withdraw",
    ),
    path(
        "sessions/<int:pk>/live/seats/<int:seat>/take-over/",
        live.live_take_over,
        name="session-live-take-over",
    ),
    path(
        "sessions/<int:pk>/live/seats/<int:seat>/release/",
        live.live_release,
        name="session-live-release",
    ),
    path(
        "sessions/<int:pk>/live/seats/<int:seat>/nudge/",
        live.live_nudge,
        name="session-live-nudge",
    ),
    path("imports/<int:pk>/", reports.import_detail, name="import-detail"),
    path("sessions/<int:pk>/sheets/", documents.session_sheets, name="session-sheets"),
    path("sessions/<int:pk>/ledgers/", documents.session_ledgers, name="session-ledgers"),
    path("documents/<int:pk>/", documents.document_detail, name="document-detail"),
    path("documents/<int:pk>/download/", documents.document_download, name="document-download"),
    *router.urls,
]
