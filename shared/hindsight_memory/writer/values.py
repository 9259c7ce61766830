"""How values are read in a statement, whatever their form: number words (English and Chinese), dates ("March 3,
2018", "2018-03-03", "3/14", "June 2027"), times of day ("3pm", "9:30 in the morning", 下午3点, 每晚八点) and
thousands ("$2,100"), each rewritten to one form before the words are compared (writer/statements.py)."""

import re

from .durations import en_durations, zh_durations
from .measures import en_measures, zh_measures
from .zh_numerals import ZH_DIGITS, zh_number

EN_CARDINALS = {
    w: str(i)
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen twenty".split()
    )
}
# Ordinals read as their number ("the first of each month" / "the 1st"); "second" also names a unit of time.
EN_NUMBERS = EN_CARDINALS | {
    w: str(i)
    for i, w in enumerate("first _ third fourth fifth sixth seventh eighth ninth tenth".split(), 1)
    if w != "_"
}


_MONTHS = {
    name: i
    for i, names in enumerate(
        (
            "january jan",
            "february feb",
            "march mar",
            "april apr",
            "may",
            "june jun",
            "july jul",
            "august aug",
            "september sep sept",
            "october oct",
            "november nov",
            "december dec",
        ),
        start=1,
    )
    for name in names.split()
}
_MONTH_NAMES = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MONTH = r"(?P<m{n}>" + _MONTH_NAMES + r")\.?"
_DAY = r"(?P<d{n}>[0-3]?\d)(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<y{n}>(?:19|20)\d\d))?"
_EN_DATE = re.compile(
    r"\b(?:"
    + (_MONTH + r"\s+" + _DAY + _YEAR).format(n=1)
    + r"|"
    + (_DAY + r"\s+(?:of\s+)?" + _MONTH + _YEAR).format(n=2)
    + r"|(?P<y3>(?:19|20)\d\d)-(?P<m3>[01]?\d)-(?P<d3>[0-3]?\d)"
    # 3/3/2019 (the same either way), 3/14/2019 (a day past 12 says which is the month); 4/9/2019 left alone
    + r"|(?P<d9>[1-9])/(?P<m9>(?P=d9))/(?P<y9>(?:19|20)\d\d)"
    + r"|(?P<m10>[01]?\d)/(?P<d10>1[3-9]|2\d|3[01])/(?P<y10>(?:19|20)\d\d)"
    + r"|(?P<amb>[01]?\d/[0-3]?\d/(?:19|20)\d\d)"
    # 3/14 (a day past 12 says which is the month; 3/4 is left alone), 06/2027 and June 2027 (a month)
    + r"|(?P<m4>[01]?\d)/(?P<d4>1[3-9]|2\d|3[01])"
    # 22/11 (the day first), 9/9 (either way)
    + r"|(?P<d7>1[3-9]|2\d|3[01])/(?P<m7>[01]?\d)|(?P<d8>[1-9])/(?P<m8>(?P=d8))"
    + r"|(?P<m5>[01]?\d)/(?P<y5>(?:19|20)\d\d)|"
    + _MONTH.format(n=6)
    + r"\s+(?P<y6>(?:19|20)\d\d))\b",
    re.IGNORECASE,
)
_TENS = {
    w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)
}
_EN_TENS = re.compile(
    r"\b(" + "|".join(_TENS) + r")(?:[- ](one|two|three|four|five|six|seven|eight|nine))?\b", re.I
)
# "twelve hundred", "sixty thousand" (after the tens are read), "1.5 million", "a thousand" -> one number
_MULTIPLIERS = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}
_EN_TIMES = re.compile(
    r"\b(a|\d+(?:\.\d+)?|" + "|".join(EN_CARDINALS) + r")\s+(" + "|".join(_MULTIPLIERS) + r")\b", re.I
)


_DIGIT_WORD = r"(?:zero|one|two|three|four|five|six|seven|eight|nine)"
# a code said digit by digit: "four four seven one" is 4471 (three digits or more: "one or two" stays)
_DIGIT_RUN = re.compile(rf"\b{_DIGIT_WORD}(?:[\s-]+{_DIGIT_WORD}){{2,}}\b", re.IGNORECASE)
_AND_A_HALF = re.compile(  # "ten and a half" is 10.5
    r"\b(\d+|" + "|".join(EN_CARDINALS) + r")\s+and\s+a\s+half\b", re.IGNORECASE
)


def en_dates(body: str) -> str:
    """A date in any common English form as one value ("March 3, 2018", "3 March 2018", "2018-03-03" ->
    "2018-03-03"; "Oct 14", "October 14th" -> "10-14"), "thirty-four" as 34 and "sixty thousand" as 60000."""

    def date(m: re.Match[str]) -> str:
        if m.group("amb"):
            return m.group(0)
        n = next((i for i in ("1", "2", "3", "4", "7", "8", "9", "10") if m.group(f"d{i}")), "")
        if not n:  # a month of a year
            k = "5" if m.group("m5") else "6"
            month, year = m.group(f"m{k}"), m.group(f"y{k}")
            if month == "may":
                return m.group(0)
            month_no = int(month) if month.isdigit() else _MONTHS[month.casefold()]
            return f"{year}-{month_no:02d}" if 1 <= month_no <= 12 else m.group(0)
        month = m.group(f"m{n}")
        if month == "may":  # the verb; the month is written May
            return m.group(0)
        month_no = int(month) if month.isdigit() else _MONTHS[month.casefold()]
        day, year = int(m.group(f"d{n}")), m.group(f"y{n}") if n in ("1", "2", "3", "9", "10") else None
        if not (1 <= month_no <= 12 and 1 <= day <= 31):
            return m.group(0)
        return f"{year}-{month_no:02d}-{day:02d}" if year else f"{month_no:02d}-{day:02d}"

    def tens(m: re.Match[str]) -> str:
        unit = m.group(2)
        return str(_TENS[m.group(1).casefold()] + (int(EN_NUMBERS[unit.casefold()]) if unit else 0))

    def times(m: re.Match[str]) -> str:
        n = m.group(1).casefold()
        return _times("1" if n == "a" else EN_CARDINALS.get(n, n), _MULTIPLIERS[m.group(2).casefold()])

    body = _DIGIT_RUN.sub(
        lambda m: "".join(EN_CARDINALS[w.casefold()] for w in re.split(r"[\s-]+", m.group(0))), body
    )
    body = _AND_A_HALF.sub(lambda m: f"{EN_CARDINALS.get(m.group(1).casefold(), m.group(1))}.5", body)
    body = _DAY_RANGE.sub(r"\1 \2 to \1 \3", _THOUSANDS.sub(r"\1\2", _spoken_time(body)))
    body = _EN_TENS.sub(tens, _EN_DATE.sub(date, _EN_TIME.sub(_clock, body)))
    return _EN_TIMES.sub(times, _COMPOUND.sub(_compound, body))


# May 4-11 is May 4 to May 11 (days of one month)
_DAY_RANGE = re.compile(
    r"\b(" + _MONTH_NAMES + r")\.?\s+([0-3]?\d)\s*[-–]\s*([0-3]?\d)\b(?![-/:])", re.IGNORECASE
)
_W = r"(\d{1,3}|" + "|".join(EN_CARDINALS) + r")"
# "two thousand one hundred", "three thousand and fifty", "one hundred and twenty" (tens already read as digits)
_COMPOUND = re.compile(
    rf"\b{_W}\s+(thousand|hundred)\s+(?:and\s+)?{_W}(?:\s+(hundred))?(?:\s+(?:and\s+)?{_W})?\b(?!\s+(?:thousand|million))",
    re.IGNORECASE,
)


def _compound(m: re.Match[str]) -> str:
    def n(w: str | None) -> int:
        return 0 if w is None else int(EN_CARDINALS.get(w.casefold(), w))

    big = 1000 if m.group(2).casefold() == "thousand" else 100
    if big == 100 and m.group(4):  # "one hundred two hundred": no one number
        return m.group(0)
    middle = n(m.group(3)) * (100 if m.group(4) else 1)
    return str(n(m.group(1)) * big + middle + n(m.group(5)))


_HOURS = "one two three four five six seven eight nine ten eleven twelve".split()
_HOUR = r"(" + "|".join(_HOURS) + r"|1[0-2]|[1-9])"
# "a quarter past eight", "half past nine", "quarter to five", "six in the morning", "seven o'clock" -> digits
_PAST = re.compile(r"\b(?:(?:a )?(quarter)|(half)) (past|to) " + _HOUR + r"\b", re.IGNORECASE)
_WORD_HOUR = re.compile(
    r"\b(" + "|".join(_HOURS) + r")(?=\s*(?:[ap]\.?m\b|in the (?:morning|afternoon|evening)|o'clock))", re.I
)


def _spoken_time(body: str) -> str:
    def hour(h: str) -> int:
        return int(h) if h.isdigit() else _HOURS.index(h.casefold()) + 1

    def past(m: re.Match[str]) -> str:
        h, minutes = hour(m.group(4)), 15 if m.group(1) else 30
        if m.group(3).casefold() == "to":
            h, minutes = (h - 2) % 12 + 1, 60 - minutes
        return f"{h}:{minutes:02d}"

    body = _PAST.sub(past, body)
    return _WORD_HOUR.sub(lambda m: str(hour(m.group(1))), body).replace("o'clock", "")


# 下午3点 -> 15:00, 晚上6点45 -> 18:45, 上午十点 -> 10:00, 早上六点半 -> 06:30
# How Chinese names people: 小王, 老李, 阿强, 王老师, 刘经理, 张总 (a character swapped there is another person)


_THOUSANDS = re.compile(r"(\d),(\d{3})\b")
_THOUSANDS_ZH = re.compile(r"(\d),(\d{3})(?!\d)")  # 8,500元: 元 is a word character, no \b before it
# "3pm", "3:00 PM", "3 p.m.", "9:30 in the morning" -> "15:00", "09:30"
_EN_TIME = re.compile(
    r"\b(?P<h>[01]?\d)(?:[:.](?P<m>[0-5]\d))?\s*(?:(?P<ap>[ap])\.?m\b\.?|(?P<part>in the (?:morning|afternoon|evening)))",
    re.IGNORECASE,
)


def _clock(m: re.Match[str]) -> str:
    hour, minute = int(m.group("h")), int(m.group("m") or 0)
    pm = (m.group("ap") or "").lower() == "p" or "morning" not in (m.group("part") or "morning")
    if not 1 <= hour <= 12:
        return m.group(0)
    hour = hour % 12 + (12 if pm else 0)
    return f"{hour:02d}:{minute:02d}"


_CLOCK = re.compile(r"(?<![\d:.])(\d):(\d\d)(?![\d:])")
_PERCENT_ZH = re.compile(
    r"百分之([零〇一二两三四五六七八九十百千]{1,20}(?:点[零〇一二三四五六七八九]{1,6})?|\d+(?:\.\d+)?)"
)
# 35w: 万 written as a w (年薪35w)
_WAN = re.compile(r"(?<![A-Za-z0-9_.])(\d+(?:\.\d+)?)[wW](?![A-Za-z])")


def _percent(run: str) -> str:
    """百分之三点九 -> 3.9%, 百分之十二 -> 12%."""
    if run[0].isdigit():
        return f"{run}%"
    whole, _, tenths = run.partition("点")
    n = zh_number(whole)
    if n is None:
        return f"百分之{run}"
    return f"{n}.{''.join(str(ZH_DIGITS[c]) for c in tenths)}%" if tenths else f"{n}%"


def zh_values(body: str) -> str:
    """Chinese values in one form: 百分之十二 -> 12%, 7:00 -> 07:00 (as 早上七点 reads), 3万 -> 30000,
    2028-05-20 and 5/20 -> 2028年5月20日 and 5月20日, 138 1234 5678 -> 13812345678."""
    body = _THOUSANDS_ZH.sub(r"\1\2", body)
    body = _PERCENT_ZH.sub(lambda m: _percent(m.group(1)), body)
    body = _WAN.sub(lambda m: f"{float(m.group(1)) * 10000:g}", body)
    body = _ISO_DATE.sub(lambda m: f"{m.group(1)}年{int(m.group(2))}月{int(m.group(3))}日", body)
    body = _ZH_YEAR_MONTH.sub(lambda m: f"{m.group(1)}年{int(m.group(2))}月", body)
    body = _ZH_MODEL_YEAR.sub(r"20\1款", _ZH_FLOOR.sub(r"\1楼", _ZH_BUILDING.sub(r"\1栋", body)))
    body = _ZH_HEIGHT.sub(_height, _ZH_UNITS.sub(lambda m: _ZH_UNIT_AS[m.group(1)], _ZH_JIN.sub(_jin, body)))
    body = zh_measures(body)
    body = _PLATE.sub(r"\1\2", _LANDLINE.sub(r"\1\2\3", body))
    body = _ZH_TIMES.sub(lambda m: _times(m.group(1), 10_000 if m.group(2) == "万" else 1000), body)
    body = _ZH_K.sub(lambda m: m.group(1) + _times(m.group(2), 1000), body)
    body = _ZH_SHORT_YEAR.sub(lambda m: f"{20 if int(m.group(1)) < 50 else 19}{m.group(1)}年", body)
    body = _ZH_WEEKDAYS.sub(lambda m: "周" + "、周".join(re.findall(r"[一二三四五六日天]", m.group(0))), body)
    body = _ZH_MONTH_DAY.sub(lambda m: f"{int(m.group(1))}月{int(m.group(2))}日", body)
    body = zh_durations(_ZH_DAY_HAO.sub(r"\1日", body))
    return _common(_ZH_TIMES_HUI.sub("次", body))


# a height said in metres and the centimetres after: 一米七五 / 1米75 is 175厘米, 一米八 180厘米
_ZH_HEIGHT = re.compile(
    r"(?<![\d零一二两三四五六七八九十])(一|1)米([零一二三四五六七八九\d])([零一二三四五六七八九\d])?(?![\d厘])"
)


def _height(m: re.Match[str]) -> str:
    tens, ones = (str(ZH_DIGITS.get(c, c)) for c in (m.group(2), m.group(3) or "0"))
    return f"1{tens}{ones}厘米"


_ZH_TIMES_HUI = re.compile(r"(?<=[\d一二两三四五六七八九十])[回趟遍]")  # 两回, 两趟 / 两次


# 2028.03, 2028-03, 2028/03 -> 2028年3月 (a month, as 2028年3月 reads); 2028.03元 is an amount
_ZH_YEAR_MONTH = re.compile(r"(?<![\d.])((?:19|20)\d\d)[-/.](0[1-9]|1[0-2])(?![\d.元块%])")
# 18层 / 18楼 / 十八楼; a floor has at most 4 numerals, and a match starts where a run does (linear on long runs)
_ZH_FLOOR = re.compile(r"(?<![\d零一二两三四五六七八九十])([\d零一二两三四五六七八九十]{1,4})\s*层(?!楼)")
# 3号楼 / 3栋 / 3幢: building 3, not the third floor (3楼, 3层)
_ZH_BUILDING = re.compile(
    r"(?<![\d零一二两三四五六七八九十])([\d零一二两三四五六七八九十]{1,4})\s*(?:号楼|幢)"
)
_ZH_MODEL_YEAR = re.compile(r"(?<![\d.])([0-2]\d)款")  # 20款 / 2020款 (a car's model year)
# 70公斤 / 70千克 / 70kg; 千 here is no thousand
_ZH_UNIT_AS = {"公斤": "kg", "千克": "kg", "公里": "km", "千米": "km"}
# 二十八斤 / 14公斤: a jin is half a kilogram
_ZH_JIN = re.compile(r"((?<!\d)\d+(?:\.\d+)?|[一二两三四五六七八九十百]{1,6})\s*斤(?<!公斤)")


def _jin(m: re.Match[str]) -> str:
    n = float(m.group(1)) if m.group(1)[0].isdigit() else zh_number(m.group(1))
    return m.group(0) if n is None else f"{n / 2:g}kg"


_ZH_UNITS = re.compile(r"(?<=\d)\s*(" + "|".join(_ZH_UNIT_AS) + ")")
# A number with its area code (0571-8823 6610, 0571-88236610): one value. _PHONE below, for numbers in three
# groups, asks for both separators.
_LANDLINE = re.compile(r"(?<![\d-])(0\d{2,3})[ -](\d{3,4})[ -]?(\d{4})(?![\d-])")
_PLATE = re.compile(r"([\u4e00-\u9fff][A-Z])\s+([A-Z0-9]{5,6})\b")  # 沪A 7K321 -> 沪A7K321
_ZH_SHORT_YEAR = re.compile(r"(?<![\d.])(\d\d)年(?=\d{1,2}月)")  # 92年8月 -> 1992年8月, 28年3月 -> 2028年3月
_ZH_WEEKDAYS = re.compile(
    r"周[一二三四五六日天](?:[、和,，及]?[一二三四五六日天](?![\u4e00-\u9fff]?[点号月]))+"
)  # 周二、四, 周一三五
_ZH_DAY_HAO = re.compile(r"(月\s*(?:\d{1,2}|[一二三四五六七八九十]{1,3}))号")  # 三月十五号 / 3月15日
_ZH_MONTH_DAY = re.compile(r"(?<![\d/.])(0?[1-9]|1[0-2])/([0-2]?\d|3[01])(?![\d/])")  # 6/12 -> 6月12日


def en_values(body: str) -> str:
    """English values in one form: 7:00 -> 07:00 (as "7 a.m." reads), 45k -> 45000, $2100 -> 2100 dollars, "a day" ->
    daily, 555 123 4567 -> 5551234567, Tue/Thu -> Tuesday Thursday, '21 -> 2021."""
    body = _COUNT_WORD.sub(
        lambda m: EN_CARDINALS[m.group(1).casefold()] + "-", _BEDROOMS.sub(r"\1-bedroom", body)
    )
    body = en_measures(_PLAN.sub(r"\1", _EVERY_OTHER.sub(lambda m: f"biweekly {m.group(1) or ''}", body)))
    body = _DOLLARS.sub(r"\1 dollars ", _EN_K.sub(lambda m: _times(m.group(1), 1000), body))
    body = _BLOOD.sub(
        lambda m: f"{m.group(1)}{m.group(2)} {'positive' if m.group(3) == '+' else 'negative'}", body
    )
    body = _SHORT_YEAR.sub(
        r"20\1",
        _DAYS.sub(lambda m: " ".join(_DAY_NAMES[d[:3].casefold()] for d in m.group(0).split("/")), body),
    )
    body = _ONE_DAY.sub(lambda m: _DAY_NAMES[m.group(1)[:3].casefold()], body)
    body = _BLOOD_SHORT.sub(
        lambda m: f"{m.group(1)} {'negative' if m.group(2).casefold() == 'neg' else 'positive'}", body
    )
    for pattern, repl in _HOW_OFTEN:
        body = pattern.sub(repl, body)
    body = _HOST.sub(r"\1 ", _TIMES_X.sub(r"\1 times", _PERCENT_EN.sub(r"\1%", body)))
    body = en_durations(body)
    return _common(_PER.sub(lambda m: _PER_WORD[m.group(1).casefold()], body))


# How often, in one word where English has several ("every three months" / quarterly).
_HOW_OFTEN = [
    (re.compile(p, re.IGNORECASE), w)
    for p, w in (
        (r"\bevery (?:3|three) months\b", "quarterly"),
        (r"\b(?:every (?:6|six) months|twice a year|biannually)\b", "semiannually"),
        (r"\b(?:every (?:2|two) weeks|every other week|fortnightly)\b", "biweekly"),
        (r"\bevery (day|week|month|year)\b", "\\1ly"),
        (r"\bdayly\b", "daily"),
        (r"/(min|sec|hr)\b", " per \\1"),
        (r"\bper min\b", "per minute"),
        (r"\bper sec\b", "per second"),
        (r"\bper hr\b", "per hour"),
    )
]
# A weekday written short on its own (wed 17:00); sat and sun only before a time or a number (the verb, the star)
_ONE_DAY = re.compile(r"\b(mon|tue|tues|wed|thu|thur|thurs|fri|(?:sat|sun)(?=\.?\s*\d))\b\.?", re.IGNORECASE)
_BLOOD_SHORT = re.compile(r"\b(AB|A|B|O)[- ](neg|pos)\b", re.IGNORECASE)  # O-neg -> O negative
_PERCENT_EN = re.compile(r"(\d)\s*(?:percent|per cent)\b", re.IGNORECASE)  # 3.25 percent -> 3.25%
_TIMES_X = re.compile(r"\b(\d+)x(?=\b|/)")  # 3x a week -> 3 times a week
_HOST = re.compile(
    r"\b(github|gitlab|bitbucket)\.(?:com|org)/", re.IGNORECASE
)  # github.com/a/b -> github a/b
_DAY_NAMES = {d[:3]: d for d in "monday tuesday wednesday thursday friday saturday sunday".split()}
_DAY = r"(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?"
_DAYS = re.compile(rf"\b{_DAY}(?:/{_DAY})+\b", re.IGNORECASE)  # Tue/Thu -> Tuesday Thursday
_BLOOD = re.compile(
    r"(blood\s+(?:type|group)\W{0,3}(?:is\s+)?)(AB|A|B|O)\s?([+-])(?![\w+-])", re.IGNORECASE
)  # O- -> O negative
_SHORT_YEAR = re.compile(r"(?<![\w'’])['’]([0-3]\d)\b")  # since '21 -> since 2021
_ISO_DATE = re.compile(r"(?<!\d)((?:19|20)\d\d)[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
# a count written in a word before what it counts: "two-bedroom" is "2-bedroom" (a 2BR), "three-day" "3-day"
_COUNT_WORD = re.compile(
    r"\b(" + "|".join(w for w in EN_CARDINALS if w != "zero") + r")-(?=[a-z]{3,}\b(?!-))", re.IGNORECASE
)
# every other week, every second Wednesday, every two weeks, on alternating weeks: biweekly, never the weekly one
_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_EVERY_OTHER = re.compile(
    rf"\b(?:every\s+(?:other|second|2|two)|(?:on\s+)?alternat(?:e|ing))\s+(?:weeks?\b|({_DAY})s?\b)",
    re.IGNORECASE,
)
_BEDROOMS = re.compile(r"\b(\d)\s?(?:br|bdrm)\b", re.IGNORECASE)  # a 2BR, a 3 bdrm: a 2-bedroom
_DOLLARS = re.compile(r"(?<![\w$])(?:US)?\$\s?(\d[\d.]*)")  # $2100 -> 2100 dollars (thousands already joined)
# How often, one form: "a day", "per day", "/day", "each day" -> "daily" (and weekly, monthly, yearly).
_PER_WORD = {"day": " daily", "week": " weekly", "month": " monthly", "year": " yearly"}
_PER_WORD |= {"wk": " weekly", "mo": " monthly", "yr": " yearly"}
_PER = re.compile(r"(?<!\s)(?:\s+(?:a|per|each)\s+|\s*/\s*)(day|week|month|year|wk|mo|yr)\b", re.IGNORECASE)
_ZH_TIMES = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)([万千])")  # 3万, 5千
# and an amount of money as people type it in Chinese too (月租4.5k, 月薪25K), where a bare 10k may be a run
_ZH_K = re.compile(
    r"([薪租价费钱资算入款贷额付赚挣存¥￥][^\d，。,；;]{0,3}?)(\d+(?:\.\d+)?)[kK](?![A-Za-z\d])"
)
# a 401(k), 401k, 403(b) is a retirement plan, named by its number (not 401,000)
_PLAN = re.compile(r"\b(40[13]|457)\s*(?:\([kb]\)|[kb])(?!\w)", re.IGNORECASE)
_EN_K = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[kK](?![a-zA-Z\d])")  # 45k (miles, dollars...)
# A phone number written in groups (138 1234 5678, 555 012 3456): one value.
_PHONE = re.compile(r"(?<![\d-])(\d{3})[ -](\d{3,4})[ -](\d{4})(?![\d-])")


def _times(number: str, magnitude: int) -> str:
    value = float(number) * magnitude
    return str(int(value)) if value.is_integer() else number


# A name with its version or model number run together: Vue3 / Vue 3, py3.11 / py 3.11, Mate60; v15 is 15.
# Codes with longer numbers (KX4471, MU5101) stay one word.
_NAME_NUMBER = re.compile(r"(?<![A-Za-z0-9_])([A-Za-z]{2,})(\d{1,2}(?:\.\d+)?)(?![A-Za-z0-9_])")
_VERSION = re.compile(r"\bv(\d+(?:\.\d+)*)\b", re.IGNORECASE)


_CODE_DOT = re.compile(r"(?<=[A-Za-z0-9])[·・](?=[A-Za-z0-9])")  # 沪A·8K2Q7 -> 沪A8K2Q7


_POINT_ZERO = re.compile(r"(?<![\d.])(\d+)\.00?(?![\d.])")  # 7.0 is 7 (an IELTS band, $15.00)


def _common(body: str) -> str:
    body = _UTC.sub(r"UTC\1\2", body)
    body = _POINT_ZERO.sub(r"\1", _CODE_DOT.sub("", body))
    body = _VERSION.sub(r"\1", _NAME_NUMBER.sub(r"\1 \2", body))
    body = _HOST_PORT.sub(r"\1 \2", body)
    return _PHONE.sub(r"\1\2\3", _CLOCK.sub(r"0\1:\2", body))


# an offset from UTC in one form: UTC+09:00 / GMT+9 / UTC +9 are UTC+9 (half hours stay: UTC+05:30)
_UTC = re.compile(r"\b(?:UTC|GMT)\s*([+\-−])\s*0?(\d{1,2})(?::00)?(?![\d:])")


# a host and its port, one way or the other: "10.0.0.8:8080" / "10.0.0.8, port 8080", redis-03:6379
_HOST_PORT = re.compile(
    r"(?<![\w.:/-])((?:\d{1,3}\.){3}\d{1,3}|[A-Za-z][\w-]*(?:\.[\w-]+)*):(\d{2,5})(?![\d:])"
)
