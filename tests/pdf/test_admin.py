"""Documents in the admin: listed and deletable (with their files), never added there."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.test import Client

from games.models import Document, Session
from games.sheets import documents


def test_the_admin_lists_documents_and_deleting_one_removes_its_file(
    night: Session, ann_user: User, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        sheet, _ = documents.request_document(night, Document.Kind.SHEET, ann_user)
    sheet.refresh_from_db()
    assert sheet.status == Document.Status.READY
    stored, name = sheet.file.storage, sheet.file.name
    assert name and stored.exists(name)
    admin = Client()
    admin.force_login(User.objects.create_superuser("root", password="x"))

    listing = admin.get("/admin/games/document/")
    assert listing.status_code == 200
    assert f"/admin/games/document/{sheet.pk}/change/" in listing.content.decode()
    assert admin.get("/admin/games/document/add/").status_code == 403

    with django_capture_on_commit_callbacks(execute=True):
        answer = admin.post(f"/admin/games/document/{sheet.pk}/delete/", {"post": "yes"})
    assert answer.status_code == 302
    assert not Document.objects.filter(pk=sheet.pk).exists()
    assert not stored.exists(name)
