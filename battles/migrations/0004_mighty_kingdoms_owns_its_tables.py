"""Ships, orders, artefacts, quests, tithes and purchases now belong to Mighty Kingdoms
(campaign.systems.mighty_kingdoms); the database is left alone here."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('battles', '0003_artefact_wizardquest'),
        ('mighty_kingdoms', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='wizardquest',
                    name='artefact',
                ),
                migrations.RemoveField(
                    model_name='order',
                    name='army',
                ),
                migrations.RemoveField(
                    model_name='order',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='order',
                    name='from_tile',
                ),
                migrations.RemoveField(
                    model_name='order',
                    name='kingdom',
                ),
                migrations.RemoveField(
                    model_name='order',
                    name='ship',
                ),
                migrations.RemoveField(
                    model_name='order',
                    name='target',
                ),
                migrations.RemoveField(
                    model_name='ship',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='ship',
                    name='kingdom',
                ),
                migrations.RemoveField(
                    model_name='ship',
                    name='paired_army',
                ),
                migrations.RemoveField(
                    model_name='ship',
                    name='tile',
                ),
                migrations.RemoveField(
                    model_name='wizardquest',
                    name='campaign',
                ),
                migrations.RemoveField(
                    model_name='wizardquest',
                    name='event',
                ),
                migrations.RemoveField(
                    model_name='wizardquest',
                    name='hero',
                ),
                migrations.RemoveField(
                    model_name='wizardquest',
                    name='kingdom',
                ),
                migrations.RemoveField(
                    model_name='wizardquest',
                    name='tower',
                ),
                migrations.DeleteModel(
                    name='Artefact',
                ),
                migrations.DeleteModel(
                    name='Order',
                ),
                migrations.DeleteModel(
                    name='Ship',
                ),
                migrations.DeleteModel(
                    name='WizardQuest',
                ),
            ],
            database_operations=[],
        ),
    ]
