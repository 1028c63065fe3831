from django.contrib import admin
from django.urls import include, path
from django.views.generic import TemplateView
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

# A URL under /api/ that names no operation answers in the API's error shape.
handler404 = "games.api.errors.not_found"

urlpatterns = [
    path("", TemplateView.as_view(template_name="home.html"), name="home"),
    path("admin/", admin.site.urls),
    # The table-side pages (sign in, groups, sessions, deal entry): games/web/.
    path("", include("games.web.urls")),
    path("api/v1/", include("games.api.urls")),
    # Log in and out links of the browsable API (session authentication).
    path("api-auth/", include("rest_framework.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI's start-up script is served from its own URL (/api/docs/?script=), not
    # inline, so the page runs under the Content-Security-Policy (scorekeeper.csp).
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="docs"),
]

# A database error raised outside any view (a middleware on the way in or out) still
# answers 503 with Retry-After; any other error gets Django's own 500 page.
handler500 = "games.lib.outage.server_error"
