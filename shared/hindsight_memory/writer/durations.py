"""Spans of time in one form, read before the words are compared (writer/values.py): a duration in hours is the same
value in minutes ("two hours" / "a 120-minute drive", 一个半小时 / 90分钟, "three quarters of an hour" / "45
minutes"), an age said either way ("a 4-year-old
beagle" / "beagle, age 4"), Monday to Friday and the weekdays (Mon-Fri / every weekday, 周一到周五 / 工作日)."""

import re

from .zh_numerals import zh_number

_EN_NUMBER_WORDS = "one two three four five six seven eight nine ten eleven twelve".split()
_EN_HOURS = {w: i for i, w in enumerate(_EN_NUMBER_WORDS, 1)} | {"a": 1, "an": 1}
_HOURS_EN = re.compile(
    r"\b(\d+(?:\.\d+)?|an?|" + "|".join(_EN_NUMBER_WORDS) + r")(?:\s+|\s*-\s*)(?:hours?|hrs?)\b",
    re.IGNORECASE,
)
_HALF_HOUR = re.compile(r"\bhalf an hour\b", re.IGNORECASE)
_QUARTER_HOUR = re.compile(r"\b(?:an?|one|(three))\s+quarters?\s+of\s+an\s+hour\b", re.IGNORECASE)
_HALF_MINUTE = re.compile(r"\bhalf a minute\b", re.IGNORECASE)
_AGE = re.compile(r"\b(\d{1,3})[- ]years?[- ]old\b", re.IGNORECASE)
_MON_FRI = re.compile(r"\bmon(?:day)?s?\s*(?:-|–|to|through|thru)\s*fri(?:day)?s?\b", re.IGNORECASE)
_ZH_MON_FRI = re.compile(r"(?:周|星期|礼拜)一\s*(?:到|至|-|–|~)\s*(?:周|星期|礼拜)?五")
_HOUR_AND_HALF = re.compile(r"\b(?:an|one) hour and a half\b", re.IGNORECASE)
# not the end of a rate (按400一小时: 400 an hour, not 400 and 60 minutes)
_ZH_HOURS = re.compile(
    r"((?<!\d)\d+(?:\.\d+)?|(?<![\d一二两三四五六七八九十百千万])[一二两三四五六七八九十]{1,3})个?(半)?(?:小时|钟头)(?!候)"
)
# 三十分钟 in digits before the words are cut: 十分 alone is "very"
_ZH_MINUTES = re.compile(
    r"(?<![\d零一二两三四五六七八九十百])([一二两三四五六七八九十][零一二两三四五六七八九十百]{0,3})分钟"
)
_ZH_HALF_HOUR = re.compile(r"(?<![\d一二两三四五六七八九十])半个?(?:小时|钟头)(?!候)")


def en_durations(body: str) -> str:
    body = _MON_FRI.sub("weekdays", _AGE.sub(r"age \1", _HALF_MINUTE.sub("30 seconds", body)))
    body = _HOUR_AND_HALF.sub("90 minutes", _HALF_HOUR.sub("30 minutes", body))
    body = _QUARTER_HOUR.sub(lambda m: "45 minutes" if m.group(1) else "15 minutes", body)
    return _HOURS_EN.sub(_en_minutes, body)


def zh_durations(body: str) -> str:
    body = _ZH_MON_FRI.sub("工作日", body).replace("半分钟", "30秒")
    body = _ZH_HALF_HOUR.sub("30分钟", _ZH_HOURS.sub(_zh_minutes, body))
    return _ZH_MINUTES.sub(lambda m: f"{zh_number(m.group(1)) or m.group(1)}分钟", body)


def _en_minutes(m: re.Match[str]) -> str:
    n = m.group(1).casefold()
    hours = float(_EN_HOURS.get(n, n))
    return f"{hours * 60:g} minutes" if hours < 1e6 else m.group(0)


def _zh_minutes(m: re.Match[str]) -> str:
    n = m.group(1)
    hours = float(n) if n[0].isdigit() else zh_number(n)
    if hours is None:
        return m.group(0)
    return f"{hours * 60 + (30 if m.group(2) else 0):g}分钟"
