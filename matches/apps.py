from django.apps import AppConfig
from django.db.models.signals import post_migrate


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches (write side)"

    def ready(self) -> None:
        from matches import checks  # noqa: F401  (registers the system checks)

        post_migrate.connect(triggers_in_force, sender=self)


TRIGGERS_MIGRATION = ("matches", "0002_event_immutability_triggers")


def triggers_in_force(using: str = "default", **kwargs: object) -> None:
    """Put back, at every migrate, an immutability trigger dropped, disabled or altered since."""
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    from matches.immutability import install_triggers, trigger_faults

    connection = connections[using]
    if not trigger_faults(connection):
        return
    # Only where the migrations installed them: migrated back before that, none belong.
    if TRIGGERS_MIGRATION in MigrationRecorder(connection).applied_migrations():
        install_triggers(connection)
