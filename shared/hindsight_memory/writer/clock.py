"""Times of day: how two statements' times compare (writer/facts.py, writer/reworded.py: said with and without the
half of the day, one time; both saying it, as written), and a Chinese time in one form (下午三点 -> 15:00)."""

import re
from collections.abc import Callable

from .zh_numerals import zh_number


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


# (a word after it is a unit or a count, "at 5 km", "at 3 people", unless it says when: "at 8 these days")
_AT_HOUR = re.compile(
    r"\bat (1[0-2]|[1-9])\b(?![:.,]?\d|\s*(?:%|percent|kg|km|(?!(?:these|now|every|each|on|tonight|sharp)\b)[a-z]))",
    re.IGNORECASE,
)


# A Chinese time of day in one form before the words are compared (writer/statements.py): 下午三点 -> 15:00.
ZH_TIME = re.compile(
    # 点 as a clock, not 一点都不 ("not at all"), 一点儿, 点心, 点菜, 点赞...
    # the hour from where its numeral starts (百分之三点九 is a percentage, 十三点 no 三点), or right after a weekday
    # (周二五点 is Tuesday at five, 周三六点半 Wednesday at half past six)
    r"(?:(?P<part>凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜里|晚|早)|(?<!\s))\s*"
    r"(?:(?<=周[一二三四五六日天])|(?<=星期[一二三四五六日天])|(?<=礼拜[一二三四五六日天])|(?<![之零一二两三四五六七八九十\d周期拜]))"
    r"(?P<h>[零一二两三四五六七八九十\d]{1,3})点(?![儿都也点头子心菜赞击评])"
    r"(?:(?P<half>半)|(?P<quarter>[一三])刻|(?P<m>[零一二三四五六七八九十\d]{1,3})分?)?"
)


_CLOCK_AFTER = re.compile(r"\s*(?:钟|整|左右|前|后|开|到|见|出发|起|上|下|去|来|吃|睡|[—–~-])")


def zh_clock(m: re.Match[str]) -> str:
    def number(run: str) -> int | None:
        return int(run) if run.isdigit() else zh_number(run)

    # 一点 with nothing of a clock around it is "a little", as 一些 is (简洁一点, 一点香菜都不吃): no one o'clock
    clock = m.group("part") or m.group("half") or m.group("quarter") or m.group("m")
    if m.group("h") == "一" and not clock and not _CLOCK_AFTER.match(m.string, m.end()):
        return "一些"
    hour = number(m.group("h"))
    # minutes read digit by digit are a decimal's (利率三点八五 is 3.85): a clock's are counted (三点十五, 三点零五)
    spelled = m.group("m") or ""
    if (
        hour is not None
        and not m.group("part")
        and len(spelled) >= 2
        and re.fullmatch(r"[一二三四五六七八九]+", spelled)
    ):
        return f"{hour}." + "".join(str(zh_number(c)) for c in spelled)
    minute = 30 if m.group("half") else number(m.group("m")) if m.group("m") else 0
    if m.group("quarter"):  # 八点一刻, 八点三刻
        minute = 15 if m.group("quarter") == "一" else 45
    if hour is None or minute is None or not (0 <= hour <= 24 and 0 <= minute < 60):
        return m.group(0)
    # 夜里2点, 晚上1点 are small hours, not the afternoon's
    late = m.group("part") in ("夜里", "晚上", "晚") and hour <= 4
    if m.group("part") in ("下午", "傍晚", "晚上", "夜里", "晚") and hour < 12 and not late:
        hour += 12
    return f"{hour:02d}:{minute:02d}"
