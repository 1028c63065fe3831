from django.contrib.auth import views as auth_views
from django.urls import path

from games.live import pages as live
from games.web import (
    accounts,
    app,
    deals,
    groups,
    invites,
    language,
    payments,
    players,
    scoreboard,
    season,
    sessions,
    what_if,
)

app_name = "web"

urlpatterns = [
    # The installable app: manifest, service worker (at the root: its scope), icon, offline.
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("favicon.ico", app.favicon, name="favicon"),
    path("offline/", app.offline, name="offline"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            template_name="web/login.html",
            redirect_authenticated_user=True,
            # Signed out: the pages this phone kept for offline use are emptied (app.js).
            extra_context={"forget_pages": True},
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/password/change/", accounts.password_change, name="password-change"),
    path(
        "accounts/password/change/done/",
        accounts.password_change_done,
        name="password-change-done",
    ),
    path("accounts/password/reset/", accounts.password_reset, name="password-reset"),
    path("accounts/password/reset/sent/", accounts.password_reset_done, name="password-reset-done"),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password-reset-confirm",
    ),
    path(
        "accounts/password/reset/done/",
        accounts.password_reset_complete,
        name="password-reset-complete",
    ),
    path("invites/<str:token>/", invites.invite_open, name="invite"),
    path("groups/<int:pk>/invites/new/", invites.invite_new, name="invite-new"),
    path(
        "groups/<int:pk>/invites/<int:invite_pk>/revoke/",
        invites.invite_revoke,
        name="invite-revoke",
    ),
    path("language/", language.set_language, name="language"),
    path("groups/", groups.group_list, name="groups"),
    path("groups/new/", groups.group_new, name="group-new"),
    path("groups/<int:pk>/", groups.group_detail, name="group"),
    path("groups/<int:pk>/rules/", groups.group_rules, name="rules"),
    path("groups/<int:pk>/stakes/", groups.group_stakes, name="stakes"),
    path("groups/<int:pk>/players/<int:player_pk>/", players.group_player, name="group-player"),
    path("groups/<int:pk>/balances/", payments.group_balances, name="balances"),
    path("groups/<int:pk>/season/", season.group_season, name="season"),
    path(
        "groups/<int:pk>/season/players/<int:player_pk>/",
        season.player_season,
        name="season-player",
    ),
    path("groups/<int:pk>/payments/new/", payments.payment_new, name="payment-new"),
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
    path(
        "groups/<int:pk>/payments/<int:payment_pk>/edit/",
        payments.payment_edit,
        name="payment-edit",
    ),
    path("sessions/<int:pk>/settle/", payments.session_settle, name="session-settle"),
    path("groups/<int:pk>/sessions/new/", sessions.session_new, name="session-new"),
    path("sessions/<int:pk>/", scoreboard.session_detail, name="session"),
    path("sessions/<int:pk>/live/", live.live_page, name="live"),
    path("seat/<str:token>/", live.seat_page, name="seat"),
    path("sessions/<int:pk>/deal/", deals.deal_new, name="deal"),
    path("sessions/<int:pk>/deal/preview/", deals.deal_preview, name="deal-preview"),
    path("sessions/<int:pk>/deals/<int:number>/", what_if.deal_page, name="deal-page"),
    path("sessions/<int:pk>/deals/<int:number>/edit/", deals.deal_edit, name="deal-edit"),
    path("sessions/<int:pk>/deals/<int:number>/void/", deals.deal_void, name="deal-void"),
    path("sessions/<int:pk>/deals/<int:number>/restore/", deals.deal_restore, name="deal-restore"),
    path("sessions/<int:pk>/close/", sessions.session_close, name="session-close"),
    path("sessions/<int:pk>/reopen/", sessions.session_reopen, name="session-reopen"),
    path("sessions/<int:pk>/summary/", sessions.session_summary, name="summary"),
    path("sessions/<int:pk>/ledger/<int:player_pk>.csv", sessions.ledger_csv, name="ledger-csv"),
]
