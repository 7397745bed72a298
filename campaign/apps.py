from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    default_auto_field = "django.db.models.BigAutoField"
