"""Mighty Kingdoms takes over its own tables from the battles and ledger apps.

The tables stay where they are in the database (this step only tells Django who owns them);
0002 renames them and points the chronicle's records at their new names."""

import django.db.models.deletion
import django.db.models.functions.text
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('battles', '0003_artefact_wizardquest'),
        ('campaign', '0003_crest_names'),
        ('ledger', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Artefact',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=100)),
                        ('points', models.PositiveSmallIntegerField()),
                        ('in_pool', models.BooleanField(default=True)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='artefacts', to='campaign.campaign')),
                        ('captured_in', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='captured_artefacts', to='battles.battle')),
                        ('held_by_capital_of', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='capital_artefacts', to='campaign.kingdom')),
                        ('holder_unit', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='artefacts', to='battles.unit')),
                    ],
                    options={
                        'db_table': 'battles_artefact',
                        'ordering': ['campaign', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='Purchase',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('year', models.PositiveIntegerField()),
                        ('kind', models.CharField(max_length=20)),
                        ('tile_label', models.CharField(blank=True, max_length=40)),
                        ('from_state', models.CharField(blank=True, max_length=20)),
                        ('to_state', models.CharField(blank=True, max_length=20)),
                        ('gold', models.PositiveSmallIntegerField(default=0)),
                        ('food', models.PositiveSmallIntegerField(default=0)),
                        ('seq', models.PositiveIntegerField()),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='purchases', to='campaign.campaign')),
                        ('event', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='campaign.event')),
                        ('kingdom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='purchases', to='campaign.kingdom')),
                    ],
                    options={
                        'db_table': 'ledger_purchase',
                        'ordering': ['year', 'seq'],
                    },
                ),
                migrations.CreateModel(
                    name='Ship',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('number', models.PositiveSmallIntegerField()),
                        ('on_side', models.BooleanField(default=False)),
                        ('data', models.JSONField(blank=True, default=dict)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ships', to='campaign.campaign')),
                        ('kingdom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ships', to='campaign.kingdom')),
                        ('paired_army', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='ship', to='battles.army')),
                        ('tile', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='ships', to='campaign.tile')),
                    ],
                    options={
                        'db_table': 'battles_ship',
                        'ordering': ['kingdom', 'number'],
                    },
                ),
                migrations.CreateModel(
                    name='Order',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('year', models.PositiveIntegerField()),
                        ('month', models.PositiveSmallIntegerField()),
                        ('token', models.CharField(max_length=30)),
                        ('kind', models.CharField(choices=[('move', 'Move'), ('defend', 'Defend'), ('raze', 'Raze'), ('regroup', 'Regroup')], max_length=10)),
                        ('given_seq', models.PositiveIntegerField()),
                        ('resolved_seq', models.PositiveIntegerField(blank=True, null=True)),
                        ('outcome', models.JSONField(blank=True, default=dict)),
                        ('army', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='orders', to='battles.army')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='orders', to='campaign.campaign')),
                        ('from_tile', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='campaign.tile')),
                        ('kingdom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='orders', to='campaign.kingdom')),
                        ('target', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='campaign.tile')),
                        ('ship', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='orders', to='mighty_kingdoms.ship')),
                    ],
                    options={
                        'db_table': 'battles_order',
                        'ordering': ['year', 'month', 'given_seq'],
                    },
                ),
                migrations.CreateModel(
                    name='Tithe',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('year', models.PositiveIntegerField()),
                        ('gold', models.PositiveSmallIntegerField(default=0)),
                        ('food', models.PositiveSmallIntegerField(default=0)),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tithes', to='campaign.campaign')),
                        ('event', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='campaign.event')),
                        ('giver', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tithes_given', to='campaign.kingdom')),
                        ('receiver', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tithes_received', to='campaign.kingdom')),
                    ],
                    options={'db_table': 'ledger_tithe'},
                ),
                migrations.CreateModel(
                    name='WizardQuest',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('year', models.PositiveIntegerField(help_text='The winter of the quest.')),
                        ('die', models.PositiveSmallIntegerField()),
                        ('modifier', models.PositiveSmallIntegerField()),
                        ('total', models.PositiveSmallIntegerField()),
                        ('result', models.CharField(choices=[('hero_lost', 'The Hero never comes back'), ('injured', 'Injured: -1 Unit Strength'), ('nothing', 'Back with nothing'), ('artefact', 'Success: an artefact of 5-15 points'), ('great_artefact', 'Great success: an artefact of 20-30 points'), ('rare_artefact', 'Outstanding: a rare artefact of 35-50 points')], max_length=20)),
                        ('artefact', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='quests', to='mighty_kingdoms.artefact')),
                        ('campaign', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='quests', to='campaign.campaign')),
                        ('event', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='campaign.event')),
                        ('hero', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='quests', to='battles.unit')),
                        ('kingdom', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='quests', to='campaign.kingdom')),
                        ('tower', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='quests', to='campaign.tile')),
                    ],
                    options={
                        'db_table': 'battles_wizardquest',
                        'ordering': ['campaign', 'year', 'pk'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='artefact',
                    constraint=models.UniqueConstraint(django.db.models.functions.text.Lower('name'), models.F('campaign'), name='artefact_unique_in_campaign'),
                ),
                migrations.AddConstraint(
                    model_name='artefact',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('held_by_capital_of__isnull', True), ('holder_unit__isnull', True), ('in_pool', True)), models.Q(('held_by_capital_of__isnull', True), ('holder_unit__isnull', False), ('in_pool', False)), models.Q(('held_by_capital_of__isnull', False), ('holder_unit__isnull', True), ('in_pool', False)), _connector='OR'), name='artefact_in_one_place'),
                ),
                migrations.AddConstraint(
                    model_name='ship',
                    constraint=models.UniqueConstraint(fields=('kingdom', 'number'), name='ship_number_unique'),
                ),
                migrations.AddConstraint(
                    model_name='order',
                    constraint=models.UniqueConstraint(fields=('campaign', 'year', 'month', 'token'), name='one_order_per_token_per_month'),
                ),
                migrations.AddConstraint(
                    model_name='tithe',
                    constraint=models.UniqueConstraint(fields=('year', 'giver', 'receiver'), name='one_tithe_per_pair_per_winter'),
                ),
                migrations.AddConstraint(
                    model_name='wizardquest',
                    constraint=models.UniqueConstraint(fields=('campaign', 'year', 'hero'), name='quest_once_per_hero_per_winter'),
                ),
                migrations.AddConstraint(
                    model_name='wizardquest',
                    constraint=models.UniqueConstraint(fields=('campaign', 'year', 'kingdom', 'tower'), name='quest_once_per_tower_per_winter'),
                ),
            ],
            database_operations=[],
        ),
    ]
