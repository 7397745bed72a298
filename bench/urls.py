"""The site's URLs plus a minimal view, the baseline every benchmark is compared with."""

from django.http import HttpResponse
from django.urls import path

from campaign.urls import urlpatterns as site_patterns


def minimal(request):  # type: ignore[no-untyped-def]
    return HttpResponse("ok")


urlpatterns = [path("bench-minimal/", minimal), *site_patterns]
