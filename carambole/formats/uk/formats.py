"""Ukrainian dates in one form on every page: 09.03.2026, times on 24 hours.

Django's Ukrainian writes a day two ways, «09 березня 2026 р.» (DATE_FORMAT) and
09.03.2026 (SHORT_DATE_FORMAT), so a page that shows both (a caption and its table)
mixed them. What is not set here is Django's own (`django/conf/locale/uk/formats.py`).
"""

DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "d.m.Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y, H:i"
