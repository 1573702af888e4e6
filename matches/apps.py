from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches (write side)"

    def ready(self) -> None:
        from matches import checks  # noqa: F401  (registers the system checks)
