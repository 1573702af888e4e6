"""Template words shared by every page: what stands between two players' names."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag
def versus() -> str:
    """Return the separator of two players' names, as the translation of "A v B" has it.

    One message for the pair ("%(a)s v %(b)s") gives every page, template or sentence,
    the same separator in each language, also where the names are links of their own.
    """
    return _("%(a)s v %(b)s") % {"a": "", "b": ""}
