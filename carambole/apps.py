from django.apps import AppConfig


class CaramboleConfig(AppConfig):
    """The project itself, as an app: its system checks."""

    name = "carambole"
    verbose_name = "carambole"

    def ready(self) -> None:
        from carambole import serving  # noqa: F401  (registers the deployment check)
