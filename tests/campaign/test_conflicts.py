"""What the database still refuses becomes a 409, and races with a plain answer get it from the
service (DESIGN principle 11, issue 19): a claim checked under the lock, one kingdom per player
held by the database too, a slug taken at the same moment, and the locks in their documented
order."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, OperationalError, connection, transaction
from django.db.models import QuerySet
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from campaign import services
from campaign.locking import lock_campaign, lock_kingdom, lock_kingdoms
from campaign.middleware import CONFLICT_MESSAGE, AnswerDatabaseConflicts, is_conflict
from campaign.models import Campaign, Event, Kingdom, Membership, Role
from tests.conftest import make_user

pytestmark = pytest.mark.django_db


class DriverError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def raised_by_driver(error: type[Exception], sqlstate: str, text: str = "") -> Exception:
    exc = error(text or sqlstate)
    exc.__cause__ = DriverError(sqlstate)
    return exc


@pytest.mark.parametrize("error,code", [
    (OperationalError, "40P01"),  # deadlock detected
    (OperationalError, "40001"),  # serialization failure
    (OperationalError, "55P03"),  # lock not available
    (IntegrityError, "23505"),  # unique violation
    (IntegrityError, "23503"),  # foreign key violation (a row removed a moment earlier)
])
def test_a_race_the_database_refuses_is_answered_409(error: type[Exception], code: str) -> None:
    middleware = AnswerDatabaseConflicts(lambda request: HttpResponse())
    request = RequestFactory().post("/c/x/mk/winter/buy/")
    request.htmx = False  # type: ignore[attr-defined]
    exc = raised_by_driver(error, code)
    assert is_conflict(exc)
    response = middleware.process_exception(request, exc)
    assert response is not None and response.status_code == 409
    assert CONFLICT_MESSAGE.replace("'", "&#x27;") in response.content.decode()


def test_sqlite_says_the_same_in_words() -> None:
    assert is_conflict(OperationalError("database is locked"))
    assert is_conflict(IntegrityError("UNIQUE constraint failed: campaign_campaign.slug"))


@pytest.mark.parametrize("exc", [
    raised_by_driver(OperationalError, "42P01"),  # undefined table: a bug, not a race
    raised_by_driver(IntegrityError, "23502"),  # not-null violation: a bug too
    OperationalError("no such column: x"),
    ValueError("anything else"),
])
def test_other_errors_stay_errors(exc: Exception) -> None:
    middleware = AnswerDatabaseConflicts(lambda request: HttpResponse())
    assert not is_conflict(exc)
    assert middleware.process_exception(RequestFactory().get("/"), exc) is None


def test_a_claim_made_a_moment_earlier_is_refused_not_overwritten(campaign: Campaign) -> None:
    ann, ben = make_user("ann"), make_user("ben")
    first = Membership.objects.create(campaign=campaign, user=ann, role=Role.PLAYER)
    second = Membership.objects.create(campaign=campaign, user=ben, role=Role.PLAYER)
    kingdom = Kingdom.objects.create(campaign=campaign, name="Grey", colour="#777777")
    stale = Kingdom.objects.get(pk=kingdom.pk)  # Ben's page, read before Ann's claim
    services.claim_kingdom(kingdom, ann, first)
    events = Event.objects.filter(campaign=campaign).count()
    with pytest.raises(services.ConflictError,
                       match="Grey already has a player: someone claimed it a moment earlier."):
        services.claim_kingdom(stale, ben, second)
    assert Kingdom.objects.get(pk=kingdom.pk).player_id == first.pk
    assert Event.objects.filter(campaign=campaign).count() == events


def test_a_player_holds_one_kingdom_per_campaign_in_the_database_too(
        campaign: Campaign, player: User) -> None:
    membership = Membership.objects.get(campaign=campaign, user=player)
    with pytest.raises(IntegrityError), transaction.atomic():
        Kingdom.objects.create(campaign=campaign, name="Second", colour="#123456",
                               player=membership)
    assert Kingdom.objects.filter(player=membership).count() == 1


def test_a_slug_taken_at_the_same_moment_is_a_conflict(gm: User) -> None:
    services.create_campaign(gm, name="Taken", slug="taken", rule_system="mighty-kingdoms")
    # The other request checked before this one committed: its check saw no campaign.
    with mock.patch.object(QuerySet, "exists", return_value=False), \
            pytest.raises(services.ConflictError, match="The address 'taken' is taken"):
        services.create_campaign(gm, name="Taken too", slug="taken",
                                 rule_system="mighty-kingdoms")
    assert list(Campaign.objects.values_list("name", flat=True)) == ["Taken"]


def test_locks_come_campaign_first_then_kingdoms_by_id(campaign: Campaign, player: User,
                                                       other_player: User) -> None:
    """The order of docs/architecture.md: the campaign row, then kingdoms by ascending id."""
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = lock_campaign(campaign.pk)
        kingdoms = lock_kingdoms(locked)
    assert list(kingdoms) == sorted(kingdoms) and len(kingdoms) == 2
    sql = [q["sql"] for q in queries.captured_queries]
    assert '"campaign_campaign"' in sql[0] and '"campaign_kingdom"' in sql[1]
    assert sql[1].rstrip().split("ORDER BY")[1].strip().startswith('"campaign_kingdom"."id" ASC')
    if connection.vendor == "postgresql":
        assert all(s.endswith("FOR NO KEY UPDATE") for s in sql)
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked_campaign, row = lock_kingdom(red)
    assert (locked_campaign.pk, row.pk) == (campaign.pk, red.pk)
    tables = [q["sql"].split(" FROM ")[1].split()[0] for q in queries.captured_queries]
    assert tables == ['"campaign_campaign"', '"campaign_kingdom"']


def test_a_kingdom_edit_takes_the_campaign_before_the_kingdom(campaign: Campaign,
                                                              player: User) -> None:
    """The deadlock of issue 19: the edit locked the kingdom, then (recording its event) the
    campaign, while a purchase held the campaign and booked entries pointing to the kingdom."""
    red = Kingdom.objects.get(campaign=campaign, name="Red")
    with CaptureQueriesContext(connection) as queries:
        services.update_kingdom(red, player, name="Red", colour="#bb0000")
    tables = [q["sql"].split(" FROM ")[1].split()[0] for q in queries.captured_queries
              if q["sql"].startswith("SELECT")]
    assert tables[:2] == ['"campaign_campaign"', '"campaign_kingdom"']
    assert Kingdom.objects.get(pk=red.pk).colour == "#bb0000"
