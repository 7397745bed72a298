from django.apps import AppConfig


class MightyKingdomsConfig(AppConfig):
    """Mighty Kingdoms as an app of its own, so that the tables only it uses live with it."""

    name = "campaign.systems.mighty_kingdoms"
    label = "mighty_kingdoms"
    verbose_name = "Mighty Kingdoms"
    default_auto_field = "django.db.models.BigAutoField"
