"""How two statements' times of day compare (writer/facts.py, writer/reworded.py): said with and without the half of
the day, one time; both saying it, as written."""

import re
from collections.abc import Callable


def on_the_clock(n: str) -> str:
    """A time or a bare hour as a 12-hour clock reads it: "4", "04:00" and "16:00" alike."""
    hour, _, minutes = n.partition(":")
    if hour.isdigit() and (minutes.isdigit() or not minutes) and int(hour) <= 23:
        return f"{int(hour) % 12}:{minutes or '00'}"
    return n


# A time said with its half of the day: "4 pm", "16:30", "in the morning", 下午
_HALF_OF_DAY = re.compile(
    r"\b\d{1,2}(?::\d\d)?\s*[ap]\.?m\b|\b(?:1[3-9]|2[0-3]):\d\d\b|"
    r"\b(?:morning|afternoon|evening|night|tonight|noon|midnight)\b|凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里",
    re.IGNORECASE,
)


def clock_fold(old: str, new: str) -> Callable[[str], str]:
    """How two texts' numbers compare: where only one says the half of the day, a time reads as a 12-hour clock
    ("lessons Thursdays 4:30" / "... at 4:30 pm", "at 3:15 pm" / "quarter past three": one time); where both say
    it, as written ("6:30 am" / "6:30 pm": two)."""
    if _HALF_OF_DAY.search(old) and _HALF_OF_DAY.search(new):
        return _unpadded
    # a bare number is an hour only where said as one ("at 5"); "4核8G" / "8核16G" are no times
    hours = set(_AT_HOUR.findall(old)) | set(_AT_HOUR.findall(new))
    return lambda n: on_the_clock(n) if ":" in n or n in hours else _unpadded(n)


def _unpadded(n: str) -> str:
    """A number without its leading zeros: "April 9" (04-09) and "4/9" give one day."""
    return n.lstrip("0") or "0" if n.isdigit() else n


_AT_HOUR = re.compile(r"\bat (1[0-2]|[1-9])\b(?![:.,]?\d|\s*(?:%|percent|kg|km|[a-z]))", re.IGNORECASE)
