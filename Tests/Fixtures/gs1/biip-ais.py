"""Prints biip's table of GS1 Application Identifiers as JSON: {AI: [min, max, predefined]}.

min and max are the lengths of the data after the AI, read from biip's format string as the GS1
General Specifications write it ("N4+N6[+N4]": six digits, then four more or none); predefined
is 1 where biip needs no FNC1 separator after the element.
"""
import json
import re
import sys

from biip.gs1_application_identifiers import _GS1_APPLICATION_IDENTIFIERS


def lengths(form):
    body = form.split("+", 1)[1] if "+" in form else ""
    low = high = 0
    for m in re.finditer(r"(\[\+?|\+)?(?:([NXYZ])(\.\.)?(\d+)|(-))", "+" + body):
        optional = (m.group(1) or "").startswith("[")
        if m.group(5):
            a = b = 1
        elif m.group(3):
            a, b = 1, int(m.group(4))
        else:
            a = b = int(m.group(4))
        low += 0 if optional else a
        high += b
    return low, high


json.dump(
    {ai: [*lengths(e.format), 0 if e.separator_required else 1] for ai, e in _GS1_APPLICATION_IDENTIFIERS.items()},
    sys.stdout,
)
