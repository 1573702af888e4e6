"""English dates in one unambiguous form on every page: 9 Mar 2026, times on 24 hours.

Django's English default writes 03/09/2026, which half the world reads as 3 September.
What is not set here is Django's own (`django/conf/locale/en/formats.py`).
"""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
