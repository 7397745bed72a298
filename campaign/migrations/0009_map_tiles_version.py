"""Each map's ``tiles_version`` (PostgreSQL): a random token the database replaces whenever a
tile of the map is added, changed or removed, read by campaign/tile_versions.py. Not a model
field, so that Django never writes it; nothing on other databases, whose pages read their tiles
every time."""

from django.db import migrations

FORWARD = [
    "ALTER TABLE campaign_map ADD COLUMN tiles_version text NOT NULL "
    "DEFAULT gen_random_uuid()::text",
    """CREATE FUNCTION campaign_tiles_written() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        UPDATE campaign_map SET tiles_version = gen_random_uuid()::text
        WHERE id IN (SELECT map_id FROM added);
    ELSIF TG_OP = 'UPDATE' THEN
        UPDATE campaign_map SET tiles_version = gen_random_uuid()::text
        WHERE id IN (SELECT map_id FROM added UNION SELECT map_id FROM gone);
    ELSE
        UPDATE campaign_map SET tiles_version = gen_random_uuid()::text
        WHERE id IN (SELECT map_id FROM gone);
    END IF;
    RETURN NULL;
END
$$""",
    "CREATE TRIGGER campaign_tiles_added AFTER INSERT ON campaign_tile "
    "REFERENCING NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION campaign_tiles_written()",
    "CREATE TRIGGER campaign_tiles_changed AFTER UPDATE ON campaign_tile "
    "REFERENCING OLD TABLE AS gone NEW TABLE AS added "
    "FOR EACH STATEMENT EXECUTE FUNCTION campaign_tiles_written()",
    "CREATE TRIGGER campaign_tiles_removed AFTER DELETE ON campaign_tile "
    "REFERENCING OLD TABLE AS gone "
    "FOR EACH STATEMENT EXECUTE FUNCTION campaign_tiles_written()",
]

BACKWARD = [
    "DROP TRIGGER campaign_tiles_removed ON campaign_tile",
    "DROP TRIGGER campaign_tiles_changed ON campaign_tile",
    "DROP TRIGGER campaign_tiles_added ON campaign_tile",
    "DROP FUNCTION campaign_tiles_written()",
    "ALTER TABLE campaign_map DROP COLUMN tiles_version",
]


def _run(schema_editor, sql):
    if schema_editor.connection.vendor == "postgresql":
        for statement in sql:
            schema_editor.execute(statement, params=None)


def forward(apps, schema_editor):
    _run(schema_editor, FORWARD)


def backward(apps, schema_editor):
    _run(schema_editor, BACKWARD)


class Migration(migrations.Migration):

    dependencies = [
        ("campaign", "0008_event_kingdom_seq"),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
