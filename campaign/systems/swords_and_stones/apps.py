from django.apps import AppConfig


class SwordsAndStonesConfig(AppConfig):
    """Swords & Stones as an app of its own: the Grand Campaign's games, Kings, Titles, crate
    items, points spends and each Territory's history live in its tables."""

    name = "campaign.systems.swords_and_stones"
    label = "swords_and_stones"
    verbose_name = "Swords & Stones"
    default_auto_field = "django.db.models.BigAutoField"
