"""A competition's log hashes its global ids (README, "The event store"): each event says
which hash covers it (`hash_version`, 1 for every event stored before), and a competition
how far an import moved its ids (`id_offset`). SQLite makes the events table anew to add
a column that is not null, which drops its triggers: they are dropped first and installed
again last. No row is changed: every stored hash stays as it was."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from matches.immutability import install_triggers

    install_triggers(schema_editor.connection)


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from matches.immutability import remove_triggers

    remove_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0011_pin_issued"),
    ]

    operations = [
        migrations.RunPython(remove, install),
        migrations.AddField(
            model_name="competition",
            name="id_offset",
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="event",
            name="hash_version",
            field=models.PositiveSmallIntegerField(db_default=1),
        ),
        migrations.RunPython(install, remove),
    ]
