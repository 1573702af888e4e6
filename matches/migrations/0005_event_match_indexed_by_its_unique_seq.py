"""Drop the events' own index on `match`: UNIQUE(match, seq) leads with it and serves every
lookup, and each index costs every append. SQLite makes the table anew to alter a column,
which drops its triggers: they are installed again in the same migration."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from matches.immutability import install_triggers

    install_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("matches", "0004_event_refuse_replace")]

    operations = [
        # Unapplied, the operations run backwards: this one comes last, after the table is
        # made anew once more.
        migrations.RunPython(migrations.RunPython.noop, install),
        migrations.AlterField(
            model_name="event",
            name="match",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.deletion.PROTECT,
                related_name="events",
                to="matches.match",
            ),
        ),
        migrations.RunPython(install, migrations.RunPython.noop),
    ]
