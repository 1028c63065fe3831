from django.contrib.auth import views as auth_views
from django.urls import path

from games.web import views

app_name = "web"

urlpatterns = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(
            template_name="web/login.html", redirect_authenticated_user=True
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("groups/", views.group_list, name="groups"),
    path("groups/<int:pk>/", views.group_detail, name="group"),
    path("groups/<int:pk>/rules/", views.group_rules, name="rules"),
    path("groups/<int:pk>/stakes/", views.group_stakes, name="stakes"),
    path("groups/<int:pk>/sessions/new/", views.session_new, name="session-new"),
    path("sessions/<int:pk>/", views.session_detail, name="session"),
    path("sessions/<int:pk>/deal/", views.deal_new, name="deal"),
    path("sessions/<int:pk>/deal/preview/", views.deal_preview, name="deal-preview"),
    path("sessions/<int:pk>/deals/<int:number>/edit/", views.deal_edit, name="deal-edit"),
    path("sessions/<int:pk>/deals/<int:number>/void/", views.deal_void, name="deal-void"),
    path("sessions/<int:pk>/close/", views.session_close, name="session-close"),
    path("sessions/<int:pk>/summary/", views.session_summary, name="summary"),
    path("sessions/<int:pk>/ledger/<int:player_pk>.csv", views.ledger_csv, name="ledger-csv"),
]
