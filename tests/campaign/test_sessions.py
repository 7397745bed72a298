"""The session store (campaign.sessions): Django's database sessions, read in one kept query,
with the same outcome as Django's own store for every kind of key."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from campaign.sessions import SessionStore


@pytest.mark.django_db
def test_a_saved_session_reads_back_in_one_query_as_djangos_store_reads_it() -> None:
    saved = SessionStore()
    saved["_auth_user_id"] = "42"
    saved["colour"] = "#b22222"
    saved.save()
    for _ in range(2):  # the statement worked out on the first read, reused on the second
        with CaptureQueriesContext(connection) as queries:
            loaded = SessionStore(saved.session_key).load()
        assert len(queries) == 1
        assert loaded == {"_auth_user_id": "42", "colour": "#b22222"}
    assert loaded == DjangoStore(saved.session_key).load()


@pytest.mark.django_db
def test_an_expired_unknown_or_missing_key_is_no_session_and_is_dropped() -> None:
    expired = SessionStore()
    expired["_auth_user_id"] = "7"
    expired.save()
    Session.objects.filter(pk=expired.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1))
    unknown = "z" * 32
    for key in (expired.session_key, unknown, None):
        store = SessionStore(key)
        assert store.load() == {}
        assert store.session_key is None
        assert DjangoStore(key).load() == {}


@pytest.mark.django_db
def test_a_member_signed_in_stays_signed_in_and_signing_out_ends_the_session(client,
                                                                            django_user_model
                                                                            ) -> None:
    user = django_user_model.objects.create_user("ada", password="pw-for-ada-1")
    client.force_login(user)
    key = client.cookies["sessionid"].value
    assert client.get("/").wsgi_request.user == user
    client.post("/accounts/logout/")
    assert not Session.objects.filter(pk=key).exists()
    assert client.get("/").wsgi_request.user.is_anonymous
