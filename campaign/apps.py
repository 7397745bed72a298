from django.apps import AppConfig


class CampaignConfig(AppConfig):
    name = "campaign"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Notifications follow the chronicle: each committed event queues a background task.
        from campaign import notifications

        notifications.connect()
