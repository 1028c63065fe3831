"""The project's URLs plus stand-ins for the PDF endpoints another branch adds to the API.

``POST sessions/{id}/sheets/`` and ``POST sessions/{id}/ledgers/?player=`` answer 202 with
a status URL; the status says pending on the first look and ready (with a download URL)
after, as the real endpoints will once their worker has written the file.
"""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import URLPattern, URLResolver, include, path

from games.api.urls import urlpatterns as api_patterns
from scorekeeper.urls import urlpatterns as project_patterns

LOOKS: dict[str, int] = {}


def start(request: HttpRequest, pk: int) -> JsonResponse:
    job = f"{pk}-{request.GET.get('player', 'sheet')}"
    LOOKS[job] = 0
    return JsonResponse({"status": "pending", "status_url": f"/fake-jobs/{job}/"}, status=202)


def status(request: HttpRequest, job: str) -> JsonResponse:
    LOOKS[job] += 1
    if LOOKS[job] < 2:
        return JsonResponse({"status": "pending"})
    return JsonResponse({"status": "ready", "download_url": f"/fake-jobs/{job}/file.pdf"})


def download(request: HttpRequest, job: str) -> HttpResponse:
    return HttpResponse(b"%PDF-1.7 stand-in", content_type="application/pdf")


pdf_patterns: list[URLPattern | URLResolver] = [
    path("sessions/<int:pk>/sheets/", start, name="session-sheets"),
    path("sessions/<int:pk>/ledgers/", start, name="session-ledgers"),
    *api_patterns,
]
urlpatterns: list[object] = [
    path("api/v1/", include((pdf_patterns, "api"))),
    path("fake-jobs/<str:job>/", status),
    path("fake-jobs/<str:job>/file.pdf", download),
    *project_patterns,
]
