"""Time expressions in a query ("last week", "in March", "上周", "三天前") -> a window relative to `now`."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        "january february march april may june july august september october november december".split()
    )
}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTHS.pop("may", None)  # "may" is mostly a verb; only the full-word pattern below takes it with "in"
_EN_NUM = {
    w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
_ZH_NUM = {c: i for i, c in enumerate("零一二三四五六七八九十")}
_ZH_NUM["两"] = 2
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_ZH_UNIT = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "个星期": "week",
    "个月": "month",
    "月": "month",
    "年": "year",
}


@dataclass(frozen=True)
class TimeWindow:
    since: datetime
    until: datetime
    expression: str


def _day(dt: datetime) -> datetime:
    return dt.replace(hour=0, minute=0, second=0, microsecond=0)


def _zh_int(s: str) -> int | None:
    if s.isdigit():
        return int(s)
    if s in _ZH_NUM:
        return _ZH_NUM[s]
    if len(s) == 2 and s[0] == "十":
        return 10 + _ZH_NUM.get(s[1], 0)
    if len(s) == 2 and s[1] == "十":
        return _ZH_NUM.get(s[0], 0) * 10
    return None


def _week_start(now: datetime) -> datetime:
    return _day(now) - timedelta(days=now.weekday())


def _month_window(now: datetime, month: int, expr: str, year: int | None = None) -> TimeWindow:
    if year is None or not 1900 <= year <= 9000:
        year = now.year if month <= now.month else now.year - 1  # "in March" means the most recent March
    start = now.replace(year=year, month=month, day=1, hour=0, minute=0, second=0, microsecond=0)
    end = start.replace(year=year + 1, month=1) if month == 12 else start.replace(month=month + 1)
    return TimeWindow(start, end, expr)


def _ago(now: datetime, n: int, unit: str, expr: str) -> TimeWindow:
    """ "three days ago" is that day; "two weeks ago" is a window around it, since people round."""
    days = n * _UNIT_DAYS[unit]
    if unit == "day":
        start = _day(now) - timedelta(days=days)
        return TimeWindow(start, start + timedelta(days=1), expr)
    slack = timedelta(days=max(1, days // 4))
    centre = now - timedelta(days=days)
    return TimeWindow(_day(centre - slack), _day(centre + slack) + timedelta(days=1), expr)


def parse_time_window(query: str, now: datetime) -> TimeWindow | None:
    """The first time expression in the query as a [since, until) window, or None; None too where the window would
    leave the calendar ("last year" in year 1: the gateway keeps `now` within 1900-9000, callers of the library may
    not)."""
    try:
        return _window(query, now)
    except (ValueError, OverflowError):
        return None


def _window(query: str, now: datetime) -> TimeWindow | None:
    q = query.casefold()
    today = _day(now)
    fixed: list[tuple[str, Callable[[], tuple[datetime, datetime]]]] = [
        (
            r"\b(today|this morning|this afternoon|tonight)\b|今天|今早|今晚",
            lambda: (today, today + timedelta(days=1)),
        ),
        (r"\byesterday\b|昨天|昨晚", lambda: (today - timedelta(days=1), today)),
        (r"\bday before yesterday\b|前天", lambda: (today - timedelta(days=2), today - timedelta(days=1))),
        (r"\blast weekend\b|上个?周末", lambda: (_week_start(now) - timedelta(days=2), _week_start(now))),
        (
            r"\bthis weekend\b|这个?周末",
            lambda: (_week_start(now) + timedelta(days=5), _week_start(now) + timedelta(days=7)),
        ),
        (
            r"\blast week\b|上周|上个星期|上星期",
            lambda: (_week_start(now) - timedelta(days=7), _week_start(now)),
        ),
        (r"\bthis week\b|这周|本周|这个星期", lambda: (_week_start(now), now + timedelta(seconds=1))),
        (r"\blast month\b|上个月", lambda: _last_month(now)),
        (r"\bthis month\b|这个月|本月", lambda: (today.replace(day=1), now + timedelta(seconds=1))),
        (
            r"\blast year\b|去年",
            lambda: (today.replace(year=now.year - 1, month=1, day=1), today.replace(month=1, day=1)),
        ),
        (r"\bthis year\b|今年", lambda: (today.replace(month=1, day=1), now + timedelta(seconds=1))),
        (
            # "most recently" asks for the newest value, however old: no window.
            r"(?<!most )\b(recently|lately|the other day)\b|最近|前几天",
            lambda: (today - timedelta(days=7), now + timedelta(seconds=1)),
        ),
    ]
    # Longer, more specific expressions first ("day before yesterday" before "yesterday").
    fixed.insert(0, fixed.pop(2))
    found: list[tuple[int, TimeWindow]] = []
    for pattern, window in fixed:
        m = re.search(pattern, q)
        if m:
            since, until = window()
            found.append((m.start(), TimeWindow(since, until, m.group())))
            if "before" in pattern:
                break
    m = re.search(r"\b(\d+|" + "|".join(_EN_NUM) + r"|a|an)\s+(day|week|month|year)s?\s+ago\b", q)
    if m:
        n = (
            1
            if m.group(1) in ("a", "an")
            else int(m.group(1))
            if m.group(1).isdigit()
            else _EN_NUM[m.group(1)]
        )
        found.append((m.start(), _ago(now, n, m.group(2), m.group())))
    # 前后 is "around" (6月前后: around June), and a four-digit year is no count (2024年前).
    m = re.search(
        r"(?<![0-9])([0-9零一二两三四五六七八九十]{1,3})\s*(个星期|星期|个月|天|日|周|月|年)(?:以)?前(?!后)",
        q,
    )
    if m and (count := _zh_int(m.group(1))) is not None:
        found.append((m.start(), _ago(now, count, _ZH_UNIT[m.group(2)], m.group())))
    # A year written with the month is that year's month ("in April 2023", "2024年6月"), not the latest one.
    m = re.search(
        r"\b(?:in|during|back in|since|on)\s+("
        + "|".join(sorted(_MONTHS, key=len, reverse=True))
        + r"|may)\b(?:,?\s+(\d{4})\b)?",
        q,
    )
    if m:
        year = int(m.group(2)) if m.group(2) else None
        found.append((m.start(), _month_window(now, _MONTHS.get(m.group(1), 5), m.group(), year)))
    m = re.search(
        r"(?:(\d{4})\s*年\s*)?(?<![0-9零一二两三四五六七八九十])([0-9]{1,2}|十[一二]?|[一二三四五六七八九])\s*月份?(?!前(?!后))",
        q,
    )
    if m and "个月" not in q[m.start() : m.end() + 1] and (month := _zh_int(m.group(2))) and 1 <= month <= 12:
        year = int(m.group(1)) if m.group(1) else None
        found.append((m.start(), _month_window(now, month, m.group(), year)))
    found.extend(_spans(q, now))
    # "the past two weeks" before "last week" and 最近 where both start alike, and so a season before a year
    found[:0] = [*_rolling(q, now), *_parts_of_a_year(q, now)]
    if not found:
        return None
    return min(found, key=lambda f: f[0])[1]


_HOW_MANY = {**_EN_NUM, "a": 1, "couple of": 2, "few": 4, "several": 5}
# "the past two weeks", "over the last 3 months", "in the past few days", "past week" (not "last week": a calendar
# week); 最近三天, 过去两周, 近一个月, 这几天
_ROLLING = re.compile(
    r"\b(?:past|last|previous)\s+(?:(\d+|"
    + "|".join(sorted(_HOW_MANY, key=len, reverse=True))
    + r")\s+)?(day|week|month|year)s?\b"
)
_ROLLING_ZH = re.compile(
    r"(?:最近|过去|近|这)\s*([0-9零一二两三四五六七八九十几]{1,3})\s*(个星期|星期|个月|天|日|周|年)"
)
_SEASONS = {"spring": (3, 6), "summer": (6, 9), "fall": (9, 12), "autumn": (9, 12)}
# "in the summer of 2023", "during Q3 2023", "the first half of 2024"
# ("by spring 2023", "after summer 2024" say a bound, not a window)
_SEASON = re.compile(
    r"\b(?:in|during|over|throughout|the)\s+(spring|summer|fall|autumn)\s+(?:of\s+)?(\d{4})\b"
    r"|\b(?:in|during|over|throughout|the)\s+q([1-4])\s+(?:of\s+)?(\d{4})\b"
)
_HALF = re.compile(r"\b(first|second)\s+half\s+of\s+(\d{4})\b")


def _rolling(q: str, now: datetime) -> list[tuple[int, TimeWindow]]:
    """Windows that end now: "the past two weeks", 最近三天."""
    out = []
    m = _ROLLING.search(q)
    if m and (m.group(1) or not m.group().startswith("last")):
        n = int(m.group(1)) if (m.group(1) or "").isdigit() else _HOW_MANY.get(m.group(1) or "a", 1)
        out.append((m.start(), _up_to_now(now, n, m.group(2), m.group())))
    m = _ROLLING_ZH.search(q)
    if m and (k := 3 if m.group(1) == "几" else _zh_int(m.group(1))):
        out.append((m.start(), _up_to_now(now, k, _ZH_UNIT[m.group(2)], m.group())))
    return out


def _up_to_now(now: datetime, n: int, unit: str, expr: str) -> TimeWindow:
    return TimeWindow(_day(now) - timedelta(days=n * _UNIT_DAYS[unit]), now + timedelta(seconds=1), expr)


_MONTH_NAME = "|".join(sorted([*_MONTHS, "may"], key=len, reverse=True))
# "between October 2022 and March 2023", "from January to the end of August 2024", "from July through September"
_MONTH_RANGE = re.compile(
    rf"\b(?:between|from)\s+({_MONTH_NAME})\b(?:,?\s+(\d{{4}}))?\s+(?:and|to|through|until|till|-)\s+"
    rf"(?:the\s+(?:end|start|beginning)\s+of\s+|early\s+|late\s+|mid-?)?({_MONTH_NAME})\b(?:,?\s+(\d{{4}}))?"
)
# a year said as the time of what is asked: "in 2023", "during 2024", "late 2024", "2023年" (not 2023年3月)
# ("my goals for 2025", "the budget of 2024" name what is asked about, not when it was said)
_YEAR = re.compile(r"\b(?:in|during|throughout|over)\s+(early\s+|late\s+|mid-?)?(\d{4})\b(?![-–/]\d)")
_YEAR_ZH = re.compile(r"(?<!\d)(\d{4})\s*年(?!\s*[0-9零一二两三四五六七八九十]{1,2}\s*月)(?![以之]?[前后])")
# "the winter of 2022-2023": December to February
_WINTER = re.compile(r"\bwinter of (\d{4})\s*[-–/]\s*(?:\d{2})?\d{2}\b")


def _on(now: datetime, year: int, month: int) -> datetime:
    """The first of a month, in `now`'s time zone."""
    return _day(now).replace(year=year, month=month, day=1)


def _parts_of_a_year(q: str, now: datetime) -> list[tuple[int, TimeWindow]]:
    """A season, a quarter or a half of a year: "in the summer of 2023", "during Q3 2023", "the first half of 2024"."""
    out = []
    for m in (_SEASON.search(q), _HALF.search(q)):
        if not m:
            continue
        if m.re is _HALF:
            y, (a, b) = int(m.group(2)), ((1, 7) if m.group(1) == "first" else (7, 13))
        elif m.group(1):
            y, (a, b) = int(m.group(2)), _SEASONS[m.group(1)]
        else:
            y, a = int(m.group(4)), 3 * int(m.group(3)) - 2
            b = a + 3
        if 1900 <= y <= 9000:
            until = _on(now, y + 1, 1) if b == 13 else _on(now, y, b)
            out.append((m.start(), TimeWindow(_on(now, y, a), until, m.group())))
    return out


def _spans(q: str, now: datetime) -> list[tuple[int, TimeWindow]]:
    """Windows of months and years: a range of two months, a winter across two years, a year (its early or late
    half where said)."""
    out: list[tuple[int, TimeWindow]] = []
    if m := _MONTH_RANGE.search(q):
        first, second = _MONTHS.get(m.group(1), 5), _MONTHS.get(m.group(3), 5)
        y2 = int(m.group(4) or m.group(2) or 0) or None
        end = _month_window(now, second, "", y2)
        y1 = int(m.group(2)) if m.group(2) else end.since.year - (1 if first > second else 0)
        start = _month_window(now, first, "", y1)
        if start.since < end.until:
            out.append((m.start(), TimeWindow(start.since, end.until, m.group())))
    if m := _WINTER.search(q):
        y = int(m.group(1))
        if 1900 <= y <= 9000:
            out.append((m.start(), TimeWindow(_on(now, y, 12), _on(now, y + 1, 3), m.group())))
    for m in (*_YEAR.finditer(q), *_YEAR_ZH.finditer(q)):
        part, y = (m.group(1) or "", int(m.group(2))) if m.re is _YEAR else ("", int(m.group(1)))
        if not 1900 <= y <= 9000:
            continue
        months = (1, 7) if part.startswith("early") else (7, 13) if part.startswith("late") else (1, 13)
        if part.startswith("mid"):
            months = (4, 10)
        since = _on(now, y, months[0])
        until = _on(now, y + 1, 1) if months[1] == 13 else _on(now, y, months[1])
        out.append((m.start(), TimeWindow(since, until, m.group())))
    return out


def _last_month(now: datetime) -> tuple[datetime, datetime]:
    first = _day(now).replace(day=1)
    prev = (first - timedelta(days=1)).replace(day=1)
    return prev, first


# Dates as people and transcripts write them ("1:56 pm on 8 May, 2023", "May 8th, 2023", "March-15-2024"), read
# only with the month named: an all-digit form ("03/04/2023") stays an error, its day and month cannot be told.
_DATES = ("%d %B %Y", "%B %d %Y", "%d %b %Y", "%b %d %Y")
_CLOCKS = ("%I:%M %p", "%I %p", "%H:%M")
_WRITTEN = (
    *_DATES,
    *(f"{t} {d}" for t in _CLOCKS for d in _DATES),
    *(f"{d} {t}" for d in _DATES for t in _CLOCKS),
)
_NOISE = re.compile(
    r"\b(?:on|at|the|of)\b|,|(?<=\d)(?:st|nd|rd|th)\b|^(?:mon|tues|wednes|thurs|fri|satur|sun)day\b",
    re.IGNORECASE,
)


def written_date(text: str) -> datetime | None:
    """The date (and time) a text like "1:56 pm on 8 May, 2023" names, naive; None when it is no such text."""
    if not re.search(r"[A-Za-z]{3}", text) or len(text) > 60:
        return None
    plain = _NOISE.sub(" ", text.replace("a.m.", "am").replace("p.m.", "pm"))
    plain = " ".join(re.sub(r"(?<=[A-Za-z])-(?=\d)|(?<=\d)-(?=\d{4}\b)", " ", plain).split())
    for fmt in _WRITTEN:
        try:
            return datetime.strptime(plain, fmt)
        except ValueError:
            continue
    return None
