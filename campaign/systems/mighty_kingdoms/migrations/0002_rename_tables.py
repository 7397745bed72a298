"""Mighty Kingdoms' tables take its name, and the chronicle follows them.

Every event keeps before-images of the rows it touched, labelled by model ("battles.ship");
undo finds the model by that label, so the labels of the moved models are rewritten too, and
content types keep their ids (permissions and admin history stay attached)."""

from django.db import migrations

MOVED = {
    "battles.ship": "mighty_kingdoms.ship",
    "battles.order": "mighty_kingdoms.order",
    "battles.artefact": "mighty_kingdoms.artefact",
    "battles.wizardquest": "mighty_kingdoms.wizardquest",
    "ledger.tithe": "mighty_kingdoms.tithe",
    "ledger.purchase": "mighty_kingdoms.purchase",
}


def relabel(apps, schema_editor, mapping):
    Event = apps.get_model("campaign", "Event")
    for event in Event.objects.only("pk", "changes").iterator():
        changes = event.changes or []
        touched = False
        for change in changes:
            if isinstance(change, dict) and change.get("model") in mapping:
                change["model"] = mapping[change["model"]]
                touched = True
        if touched:
            Event.objects.filter(pk=event.pk).update(changes=changes)
    ContentType = apps.get_model("contenttypes", "ContentType")
    for old, new in mapping.items():
        old_app, old_model = old.split(".")
        new_app, new_model = new.split(".")
        if not ContentType.objects.filter(app_label=new_app, model=new_model).exists():
            ContentType.objects.filter(app_label=old_app, model=old_model).update(
                app_label=new_app)


def forwards(apps, schema_editor):
    relabel(apps, schema_editor, MOVED)


def backwards(apps, schema_editor):
    relabel(apps, schema_editor, {new: old for old, new in MOVED.items()})


class Migration(migrations.Migration):

    dependencies = [
        ("mighty_kingdoms", "0001_initial"),
        ("battles", "0004_mighty_kingdoms_owns_its_tables"),
        ("ledger", "0002_mighty_kingdoms_owns_its_tables"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.AlterModelTable(name="ship", table=None),
        migrations.AlterModelTable(name="order", table=None),
        migrations.AlterModelTable(name="artefact", table=None),
        migrations.AlterModelTable(name="wizardquest", table=None),
        migrations.AlterModelTable(name="tithe", table=None),
        migrations.AlterModelTable(name="purchase", table=None),
        migrations.RunPython(forwards, backwards),
    ]
