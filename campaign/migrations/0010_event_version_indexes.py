"""The latest public event and a kingdom's latest secret one each found at the end of a
partial index of its own, for every page's version (campaign/live.py)."""

from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('campaign', '0009_map_tiles_version'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name='event',
            name='event_kingdom_seq',
        ),
        migrations.AddIndex(
            model_name='event',
            index=models.Index(condition=models.Q(('visibility', 'kingdom')),
                               fields=['kingdom', 'seq'], name='event_kingdom_secret_seq'),
        ),
        migrations.AddIndex(
            model_name='event',
            index=models.Index(condition=models.Q(('visibility', 'public')),
                               fields=['campaign', 'seq'], name='event_public_seq'),
        ),
    ]
