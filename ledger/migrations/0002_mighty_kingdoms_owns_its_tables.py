"""Ships, orders, artefacts, quests, tithes and purchases now belong to Mighty Kingdoms
(campaign.systems.mighty_kingdoms); the database is left alone here."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ledger', '0001_initial'),
        ('mighty_kingdoms', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='tithe',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='tithe',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='tithe',
                    name='giver',
                ),
                migrations.RemoveField(
                    model_name='tithe',
                    name='receiver',
                ),
                migrations.DeleteModel(
                    name='Purchase',
                ),
                migrations.DeleteModel(
                    name='Tithe',
                ),
            ],
            database_operations=[],
        ),
    ]
