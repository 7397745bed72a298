from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    default_auto_field = "django.db.models.BigAutoField"
