"""Make the database itself refuse UPDATE and DELETE of events."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from matches.immutability import install_triggers

    install_triggers(schema_editor.connection)


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from matches.immutability import remove_triggers

    remove_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
