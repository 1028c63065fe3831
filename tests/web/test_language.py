"""The pages in English, Vietnamese, Simplified or Traditional Chinese: the user's stored
choice, then the cookie the switcher sets, then the browser's Accept-Language; English by
default."""

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

from games import present
from games.languages import LanguagePreference
from games.models import Group
from tests.web.conftest import PASSWORD, signed_in


def test_english_by_default(db: None) -> None:
    page = Client().get("/accounts/login/").content.decode()
    assert '<html lang="en">' in page and "<h1>Sign in</h1>" in page


def test_the_browser_language_is_followed(db: None) -> None:
    response = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE="vi-VN,vi;q=0.9,en;q=0.5")
    page = response.content.decode()
    assert response["Content-Language"] == "vi"
    assert '<html lang="vi">' in page
    assert "<h1>Đăng nhập</h1>" in page and "Mật khẩu" in page
    assert 'value="en"' in page  # the switcher offers the way back


@pytest.mark.parametrize(
    ("browser", "language", "heading"),
    [
        ("zh-CN,zh;q=0.9,en;q=0.5", "zh-hans", "登录"),
        ("zh-SG", "zh-hans", "登录"),
        ("zh-Hans", "zh-hans", "登录"),
        ("zh-TW,zh;q=0.9", "zh-hant", "登入"),
        ("zh-HK", "zh-hant", "登入"),
        ("zh-Hant", "zh-hant", "登入"),
    ],
)
def test_a_chinese_browser_gets_its_script(
    db: None, browser: str, language: str, heading: str
) -> None:
    response = Client().get("/accounts/login/", HTTP_ACCEPT_LANGUAGE=browser)
    page = response.content.decode()
    assert response["Content-Language"] == language
    assert f'<html lang="{language}">' in page and f"<h1>{heading}</h1>" in page


@pytest.mark.parametrize("language", [code for code, _name in settings.LANGUAGES])
def test_the_switcher_offers_every_other_language_named_in_itself(db: None, language: str) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get("/accounts/login/").content.decode()
    offered = re.findall(
        r'<button type="submit" name="language" value="([\w-]+)" class="link" lang="\1">([^<]+)<',
        page,
    )
    assert offered == [(code, name) for code, name in settings.LANGUAGES if code != language]


def test_the_stored_choice_wins_over_the_browser(alice: User, group: Group) -> None:
    LanguagePreference.objects.create(user=alice, language="vi")
    client = signed_in(alice)  # signing in reads the stored choice
    page = client.get(f"/groups/{group.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="vi">' in page
    assert "Bảng xếp hạng" in page and "Standings" not in page


def test_the_switcher_sets_the_cookie_for_a_visitor(db: None) -> None:
    client = Client(enforce_csrf_checks=True)
    login = client.get("/accounts/login/")
    token = login.cookies["csrftoken"].value
    response = client.post(
        "/language/",
        {"language": "vi", "next": "/accounts/login/", "csrfmiddlewaretoken": token},
    )
    assert response.status_code == 302 and response["Location"] == "/accounts/login/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "vi"
    assert "<h1>Đăng nhập</h1>" in client.get("/accounts/login/").content.decode()
    assert not LanguagePreference.objects.exists()


def test_the_switcher_needs_the_csrf_token(db: None) -> None:
    response = Client(enforce_csrf_checks=True).post("/language/", {"language": "vi"})
    assert response.status_code == 403


def test_the_choice_follows_a_signed_in_user_to_another_device(alice: User, group: Group) -> None:
    phone = Client()
    phone.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    response = phone.post("/language/", {"language": "vi", "next": "/groups/"})
    assert response.status_code == 302
    assert LanguagePreference.objects.get(user=alice).language == "vi"

    laptop = Client()  # no cookie, an English browser
    laptop.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    page = laptop.get("/groups/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "<h1>Nhóm của bạn</h1>" in page

    phone.post("/language/", {"language": "en", "next": "/groups/"})
    assert LanguagePreference.objects.get(user=alice).language == "en"
    assert "<h1>Your groups</h1>" in phone.get("/groups/").content.decode()


def test_an_unknown_language_is_not_kept(alice: User) -> None:
    client = signed_in(alice)
    client.post("/language/", {"language": "xx", "next": "/groups/"})
    assert not LanguagePreference.objects.exists()
    assert "<h1>Your groups</h1>" in client.get("/groups/").content.decode()


def test_numbers_read_the_vietnamese_way_and_cards_do_not_change() -> None:
    with translation.override("vi"):
        assert present.number(Decimal("1250.5")) == "1.250,5"
        assert present.money_in(Decimal("-325000"), "VND") == "-325.000 VND"
        assert present.money_in(Decimal("4.5"), "EUR") == "+4,50 EUR"
        assert present.signed(Decimal("7.5")) == "+7,5"
        assert present.multiple(Decimal("0.5")) == "x0,5"
        faces = present.text_faces("Ah Td")
    assert present.number(Decimal("1250.5")) == "1,250.5"
    assert [face["text"] for face in faces] == ["Ah", "Td"]
