from django.apps import AppConfig


class WarOfKingsConfig(AppConfig):
    """War of Kings as an app of its own, so that the tables only it uses live with it."""

    name = "campaign.systems.war_of_kings"
    label = "war_of_kings"
    verbose_name = "War of Kings"
    default_auto_field = "django.db.models.BigAutoField"
