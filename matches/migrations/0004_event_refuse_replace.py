"""SQLite: refuse REPLACE INTO / INSERT OR REPLACE of a stored event (its implicit delete fires
no DELETE trigger). PostgreSQL has no such statement; its triggers are unchanged."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def install(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from matches.immutability import install_triggers

    install_triggers(schema_editor.connection)  # idempotent: adds only the missing trigger


def remove(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS matches_event_no_replace")


class Migration(migrations.Migration):
    dependencies = [("matches", "0003_referees_are_text_and_logins_are_assigned")]

    operations = [migrations.RunPython(install, remove)]
