from django.urls import path

from games.api.views import ScoreView

app_name = "api"

urlpatterns = [
    path("score/", ScoreView.as_view(), name="score"),
]
