"""The Celery application; configured from Django settings prefixed CELERY_."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "carambole.settings")

app = Celery("carambole")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
