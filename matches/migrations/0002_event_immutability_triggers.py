"""Make the database itself refuse UPDATE and DELETE of events."""

from django.db import migrations


def install(apps, schema_editor):
    from matches.immutability import install_triggers

    install_triggers(schema_editor.connection)


def remove(apps, schema_editor):
    from matches.immutability import remove_triggers

    remove_triggers(schema_editor.connection)


class Migration(migrations.Migration):
    dependencies = [("matches", "0001_initial")]

    operations = [migrations.RunPython(install, remove)]
