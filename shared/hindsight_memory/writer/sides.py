"""Which side of a thing a change is about (writer/changed.py): a new time of something whose place was noted, a
new price of something whose time was, or a value the old statement never held, is a change of another side of it,
and the old statement still holds ("Tom's party now starts at 3 instead of 2" after "Tom's party is on Saturday at
the bowling alley"; "Mr. Ortiz raised his rate to $60" after "Mia's piano lesson is Saturdays at 10 with Mr.
Ortiz")."""

import re

from .frames import WEEKDAY
from .statements import statement

# When and where: a new time of something whose place was noted, or a new place of something whose time was, is
# another side of it, and the old one still holds ("Weekly sync is in Room 4B" / "... rescheduled to 10am").
_WHEN = {
    False: re.compile(
        r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|"
        r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b|\b(?:noon|midnight|tonight)\b|"
        r"\b(?:\d{4}-)?\d{2}-\d{2}\b",  # the writer's statements spell a date 05-03
        re.IGNORECASE,
    ),
    True: re.compile(
        r"\d{1,2}[:：]\d{2}|[零一二两三四五六七八九十\d]{1,3}点|(?:周|星期|礼拜)[一二三四五六日天]|上午|下午|晚上|早上|中午|凌晨|"
        r"\d{1,2}月\d{1,2}[日号]|时间"
    ),
}
_WHERE = {
    False: re.compile(
        r"\b(?:room|floor|auditorium|hall|gate|terminal|park|building|venue|location|address|studio|campus)\b"
        r"|\bat (?-i:[A-Z][a-z]+)(?:'s| poss) (?:place|house|home|flat|apartment)\b",  # at Jo's place
        re.IGNORECASE,
    ),
    True: re.compile(
        r"会议室|[\d一二三四五六七八九十]+楼|礼堂|地点|少年宫|登机口|公园|办公室|教室|场地|体育馆|场馆|会场"
        r"|在[\u4e00-\u9fff]{1,3}家(?![具长人庭务])"  # 在小林家办: at someone's home
    ),
}
# how much of a medicine: a new time to take it is another side of it ("10mg of lisinopril" / "... at night now")
_DOSE = {
    False: re.compile(r"\d\s*(?:mg|mcg|ml|units?|tablets?|pills?)\b", re.IGNORECASE),
    True: re.compile(r"(?:\d|[一两二三四五六七八九十半])\s*(?:mg|毫克|克|片|粒|颗|毫升)", re.IGNORECASE),
}
_WHEN_TAKEN = {
    False: re.compile(
        r"\b(?:at night|in the morning|in the evening|before bed|bedtime|with (?:breakfast|dinner))\b", re.I
    ),
    True: re.compile(r"早上|晚上|睡前|饭前|饭后|早饭|晚饭"),
}


# what someone does at work, and a move of theirs to another office or city: two sides of one person ("Sarah is the
# tech lead on billing" / "Sarah moved to the Seattle office", 小王是支付项目的技术负责人 / 小王搬到深圳办公室去了)
_ROLE = {
    False: re.compile(
        r"\b(?:lead|manager|engineer|director|designer|developer|analyst|architect|owner|head of|in charge of)\b",
        re.I,
    ),
    True: re.compile(r"负责人|经理|主管|组长|总监|工程师|设计师|架构师|负责"),
}
_MOVED_AWAY = {
    False: re.compile(
        r"\b(?:moved|relocated|transferred)\s+(?:over\s+)?to\s+(?:the\s+)?(?:[A-Z][\w-]*\s+)*"
        r"(?:office|branch|campus|HQ|headquarters)\b"
    ),
    True: re.compile(r"(?:搬|调|转|去)(?:到|去)?[^，。,；;]{1,8}(?:办公室|分公司|总部|园区|分部)"),
}
_LIVES = {
    False: re.compile(
        r"\b(?:office|branch|campus|lives?|living|based|located|works? from|works? in)\b", re.I
    ),
    True: re.compile(r"办公室|分公司|总部|园区|住|在[^，。,；;]{0,6}(?:办公|上班)"),
}


def another_side_of_it(old_body: str, new_body: str, cjk: bool) -> str:
    """ "time" or "place" when the old statement says only where and the new one only when, or the reverse; "time"
    when the old one says only how much of a medicine and the new one only when to take it; "place" when the old
    one says what someone does at work and nothing of where, and the new one moves them to another office; "part of
    the day" when the new one is of another part of the day and changes more than when (below)."""
    for side, (one, other) in (
        ("time", (_WHERE[cjk], _WHEN[cjk])),
        ("place", (_WHEN[cjk], _WHERE[cjk])),
        ("time", (_DOSE[cjk], _WHEN_TAKEN[cjk])),
        ("place", (_ROLE[cjk], _MOVED_AWAY[cjk])),
    ):
        if other is _MOVED_AWAY[cjk] and _LIVES[cjk].search(old_body):
            continue
        if (
            one.search(old_body)
            and not other.search(old_body)
            and other.search(new_body)
            and not one.search(new_body)
        ):
            return side
    return _another_part_of_the_day(old_body, new_body, cjk)


# Parts of the day. Another one with something else that differs too (not a time: a weekday or a clock time is the
# when of the same thing) is another habit or setting, and the old one still holds: "I take vitamin D every morning"
# / "I now take magnesium every evening", "thermostat 68°F during the day" / "62°F at night". With nothing else
# changed it is the same one moved ("Yoga moved from Wednesday evenings to Saturday mornings").
_PARTS = {
    False: (
        re.compile(r"\b(?:mornings?|breakfast)\b", re.I),
        re.compile(r"\b(?:evenings?|nights?|nighttime|bedtime|before bed|dinner)\b", re.I),
        re.compile(r"\b(?:daytime|during the day)\b", re.I),
    ),
    True: (
        re.compile(r"早上|上午|早饭|早餐"),
        re.compile(r"晚上|夜里|夜间|睡前|晚饭|晚餐"),
        re.compile(r"白天"),
    ),
}
_WHEN_VALUE = re.compile(
    WEEKDAY.pattern
    + r"|\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}[:：]\d{2}|[零一二两三四五六七八九十\d]{1,3}点半?",
    re.I,
)
_PART_WORD = re.compile(r"[a-z][a-z-]+|\d[\d.,]*|[\u4e00-\u9fff]")
_PART_LIGHT = frozenset(
    "the a an my our i we is are at in on to of every each now no longer just started start starting set take "
    "takes taking 我 们 的 了 在 是 每 天 都 现 开 始 最 近 改 成 换 到".split()
)


def _another_part_of_the_day(old_body: str, new_body: str, cjk: bool) -> str:
    def says(body: str) -> list[bool]:
        return [bool(p.search(body)) for p in _PARTS[cjk]]

    def rest(body: str) -> set[str]:
        for p in _PARTS[cjk]:
            body = p.sub(" ", body)
        return {w for w in _PART_WORD.findall(_WHEN_VALUE.sub(" ", body.casefold())) if w not in _PART_LIGHT}

    old, new = says(old_body), says(new_body)
    if not any(o and not n for o, n in zip(old, new, strict=True)) or not any(
        n and not o for o, n in zip(old, new, strict=True)
    ):
        return ""
    before, after = rest(old_body), rest(new_body)
    least = 2 if cjk else 1  # one character is no other thing (上瑜伽课 / 瑜伽课改到周六上午)
    return "part of the day" if len(before - after) >= least and len(after - before) >= least else ""


# the value a change replaced, as the new statement names it: "now starts at 3 instead of 2", "from 9:30 to 10",
# 从周三改到周五, 而不是...
_REPLACED = {
    False: re.compile(
        r"\b(?:instead of|rather than|in place of)\s+(?:the |a |an |my |our )?([\w:.$€£'@-]+(?:\s+(?:am|pm))?)"
        r"|\bfrom\s+(?:the |a |my |our )?([\w:.$€£'-]+(?:\s+(?:am|pm))?)\s+(?:to|->|→)\s",
        re.IGNORECASE,
    ),
    True: re.compile(r"而不是([^，。,；;]{1,8})"),
}
# a Chinese change from one value to another (从周三改到周五, 从禅道换到了飞书项目): the old value, then the new
FROM_TO_ZH = re.compile(
    r"从([^，。,；;到从起]{1,8}?)(?:改|调|换|迁|搬|转|推迟|提前|涨|降|升|减|加|延)?(?:到|成|为)了?([^，。,；;了]{0,8})"
)


def its_old_value_elsewhere(old_body: str, new_body: str, cjk: bool) -> str:
    """The value the new statement says it replaced, which the old statement does not hold: the change is of
    another one's ("Tom's party now starts at 3 instead of 2" after "Tom's party is on Saturday at the bowling
    alley": its time, not its day)."""
    m = (cjk and FROM_TO_ZH.search(new_body)) or _REPLACED[cjk].search(new_body)
    if not m:
        return ""
    was = (m.group(1) or m.group(2)).strip(" .,;!?。，")
    if not was or was.casefold() in old_body.casefold():
        return ""
    said, held = statement(was), statement(old_body)
    if said.numbers:
        return "" if said.numbers & held.numbers else was
    return "" if not said.words or set(said.words) & set(held.words) else was


# Kinds of value a change can set: a price, a time of day, a day, a length of time. What an old statement holds
# none of, a change to one of them is of another side ("Our sprint length is 14 days" / "Sprint planning moved to
# Monday mornings", 房租每月4500元 / 房东把交租日期改成每月5日了).
_KINDS = {
    False: {
        "price": re.compile(
            r"\$\s?\d|(?<![\w,.])\d[\d,.]*\s*(?:dollars?|euros?|usd|eur|gbp|pounds|yuan|rmb)\b|[€£]\s?\d",
            re.I,
        ),
        "clock": re.compile(
            r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d{2}\b|\b(?:noon|midnight)\b", re.I
        ),
        "day": re.compile(
            r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b\d{1,2}(?:st|nd|rd|th)\b|\b(?:\d{4}-)?\d{2}-\d{2}\b"
            r"|\b(?:weekends?|weekdays?)\b",
            re.I,
        ),
        "span": re.compile(
            r"\b\d+(?:\.\d+)?\s*(?:minutes?|hours?|days?|weeks?|months?|years?)\b"
            r"|\b(?:weekly|monthly|daily|biweekly|every other)\b",
            re.I,
        ),
    },
    True: {
        "price": re.compile(
            r"(?<!\d)\d+\s*(?:元|块|万)|(?<![一二两三四五六七八九十百千万])[一二两三四五六七八九十百千万]+(?:元|块)|费|每[节次课个]\d"
        ),
        "clock": re.compile(
            r"\d{1,2}[:：]\d{2}|[零一二两三四五六七八九十\d]{1,3}点|上午|下午|晚上|早上|中午"
        ),
        "day": re.compile(
            r"(?<!每)(?:周|星期|礼拜)[一二三四五六日天末](?![十百])|\d{1,2}[日号]|[一二三四五六七八九十]{1,3}[日号]"
        ),
        "span": re.compile(
            r"(?<!\d)\d+\s*(?:分钟|小时|天|周|个月|年)|(?<![一二两三四五六七八九十])[一二两三四五六七八九十]+(?:分钟|小时|天|周|个月|年)"
        ),
    },
}
_RATE = {
    False: re.compile(
        r"(?<![\w,.])\d[\d,.]*\s*(?:/\s?|per |an? )(?:hour|hr|day|week|month|year|lesson|session|class)\b",
        re.I,
    ),
    True: re.compile(r"(?<!\d)\d+\s*(?:元|块)?\s*(?:一|每)个?(?:小时|天|周|月|年|节|次|课)"),
}
# a change by an amount ("pushed back two weeks", 推迟一周) sets no value of that kind
_BY = re.compile(
    r"\bby\s+\d|\b(?:back|forward|out)\s+(?:by\s+)?(?:a|an|one|two|three|\d+)\s+(?:days?|weeks?|months?|hours?)"
    r"|推迟|延后|提前|延长|缩短",
    re.IGNORECASE,
)


def another_kind_of_value(old_body: str, new_body: str, at: int | None, cjk: bool) -> str:
    """The kind of value the change sets ("clock", "price"...) when the old statement holds values of other kinds
    only; `at`: where the new statement's change word starts."""
    if at is None or _BY.search(new_body):
        return ""
    kinds, after = _KINDS[cjk], new_body[at:]
    set_now = {k for k, p in kinds.items() if p.search(after)}
    if _RATE[cjk].search(after):  # 按400一小时收, "$100/hr": a price per hour, no length of time
        set_now = (set_now - {"span"}) | {"price"}
    held = {k for k, p in kinds.items() if p.search(old_body)}
    return min(set_now) if set_now and held and not set_now & held else ""
