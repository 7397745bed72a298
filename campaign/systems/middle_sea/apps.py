from django.apps import AppConfig


class MiddleSeaConfig(AppConfig):
    """Kingdoms of the Middle Sea as an app of its own, so that its game table lives with it."""

    name = "campaign.systems.middle_sea"
    label = "middle_sea"
    verbose_name = "Kingdoms of the Middle Sea"
    default_auto_field = "django.db.models.BigAutoField"
