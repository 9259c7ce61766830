"""Quantities in one unit before the words are compared (writer/values.py), so that one value said in two units
is one value and a new value in the same unit is still another number of it: seconds from a minute up in minutes
("Cache TTL: 900 seconds" / "15 minutes", 300秒 / 5分钟, 90 seconds 1.5 minutes), two weeks or more in days
("two-week sprints" / "14 days", 两周 / 14天), metres from a kilometre up in km ("5,000 meters" / "5 km", 五千米 /
5公里; a "5k" run is 5 km, not 5,000 of anything), a length in metres under three in cm ("1.80 m" / "180 cm", 1.6米
/ 160厘米), "60s" as seconds ("timeout is now 60s", not "the 60s"), bytes by their short names ("10 megabytes" /
"10 MB"), a dose under 10 g in mg ("0.5 g" / "500 mg", 0.5克 / 500毫克); hours are read in minutes by
writer/durations.py. Only a number with its unit is read: "room 300", "once a week", 一周三次, "$2M" are left as
written."""

import re
from collections.abc import Callable

from .zh_numerals import zh_number

_EN_SMALL = {
    w: i
    for i, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
    )
}
# a number starts where a run of digits starts: tried from every digit of a long run, each try reads the rest of it
_DIGITS = r"(?<!\d)\d+(?:\.\d+)?"
_NUM = f"({_DIGITS})"
_N = f"({_DIGITS}|" + "|".join(_EN_SMALL) + ")"
_SECONDS = re.compile(_N + r"[\s-]*(?:seconds?|secs?)\b", re.IGNORECASE)
# "60s" is sixty seconds ("timeout is now 60s"), unless it is an age or a decade ("in my 30s", "the 60s", 1960s)
_S = re.compile(
    r"(?<!\bthe )(?<!\bmy )(?<!\bher )(?<!\bhis )(?<!\btheir )(?<!\bour )(?<!\byour )(?<!\bmid-)(?<!\blate )(?<!\bearly )"
    r"(?<![\w'’.])(\d{1,3})s\b(?!['’])",
    re.IGNORECASE,
)
_MINUTES = re.compile(_N + r"[\s-]*(?:minutes?|mins?)\b", re.IGNORECASE)
_WEEKS = re.compile(_N + r"[\s-]*(?:weeks?|wks?)\b", re.IGNORECASE)
_KM = re.compile(_NUM + r"\s*(?:km|kms|kilomet(?:er|re)s?)\b", re.IGNORECASE)
# a capital M after a number is millions ("$2M", "5M users"), and a price is no length
_METRES = re.compile(r"(?<![$€£¥.\d])" + _NUM + r"\s*(?:(?-i:m)|meters?|metres?)\b(?![-/]\w)", re.IGNORECASE)
_CM = re.compile(_NUM + r"\s*(?:cm|centimet(?:er|re)s?)\b", re.IGNORECASE)
# "a 5k", "jogs 5k": a distance where the sentence is about running, thousands of something elsewhere ("$5k")
_RUN = re.compile(r"\b(?:run|runs|running|ran|jog|jogs|jogging|race|races|marathon|parkrun)\b", re.IGNORECASE)
_RUN_K = re.compile(r"(?<![\w.$])(\d{1,2}(?:\.\d)?)[kK](?![a-zA-Z\d])")


def _number(n: str) -> float | None:
    """A number in digits, an English word (five) or Chinese numerals (五千)."""
    if n[0].isdigit():
        return float(n)
    if n.casefold() in _EN_SMALL:
        return float(_EN_SMALL[n.casefold()])
    return zh_number(n)


def _in(unit: str, per: int, bigger: str, sep: str = " ") -> Callable[[re.Match[str]], str]:
    """Said in `bigger` from one `per` of `unit` up, else in `unit` ("90 seconds" -> "1.5 minutes", 300秒 -> 5分钟)."""

    def say(m: re.Match[str]) -> str:
        n = _number(m.group(1))
        if n is None:
            return m.group(0)
        return f"{n / per:g}{sep}{bigger}" if n >= per else f"{n:g}{sep}{unit}"

    return say


def _weeks(days: str) -> Callable[[re.Match[str]], str]:
    """Two weeks or more in days ("two-week sprints" / "14 days", 两周 / 14天); "a week", 一周 as said ("once a
    week", 一周三次 / 每周三次)."""

    def say(m: re.Match[str]) -> str:
        n = _number(m.group(1))
        return f"{n * 7:g}{days}" if n is not None and n >= 2 else m.group(0)

    return say


# bytes by their short names ("10 megabytes" / "10 MB")
_BYTES = re.compile(r"(?<![\w.])" + _NUM + r"\s*(kilo|mega|giga|tera)bytes?\b", re.I)


# a dose in grams is one in milligrams ("0.5 g" / "500 mg", 0.5克 / 500毫克): under 10 g, in mg; a capital G is no
# gram ("5G" is a network, "8G" memory)
_GRAMS = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s*(?:g|(?i:grams?))\b(?![/-])")
_ZH_GRAMS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:克|g(?![a-zA-Z]))")


def _milligrams(unit: str) -> Callable[[re.Match[str]], str]:
    def read(m: re.Match[str]) -> str:
        n = float(m.group(1))
        return f"{n * 1000:g}{unit}" if n < 10 else m.group(0)

    return read


def en_measures(body: str) -> str:
    body = _GRAMS.sub(_milligrams(" mg"), body)
    body = _BYTES.sub(lambda m: f"{m.group(1)} {m.group(2)[0].upper()}B", body)
    if _RUN.search(body):
        body = _RUN_K.sub(r"\1 km", body)
    body = _SECONDS.sub(_in("seconds", 60, "minutes"), _S.sub(r"\1 seconds", body))
    body = _MINUTES.sub(lambda m: f"{_number(m.group(1)):g} minutes", body)
    body = _WEEKS.sub(_weeks(" days"), body)
    body = _KM.sub(r"\1 km", _CM.sub(r"\1 cm", body))
    return _METRES.sub(_metres, body)


def _metres(m: re.Match[str]) -> str:
    n = float(m.group(1))
    if n >= 1000:
        return f"{n / 1000:g} km"
    if "." in m.group(1) and n < 3:  # a height or a width: 1.80 m
        return f"{round(n * 100):g} cm"
    return f"{n:g} meters"


_ZH_N = f"({_DIGITS}|[零一二两三四五六七八九十百千]{{1,8}})"
_ZH_SECONDS = re.compile(_ZH_N + r"\s*秒钟?")
_ZH_WEEKS = re.compile(_ZH_N + r"\s*个?(?:周|星期|礼拜)(?![一二三四五六日天末])")
_ZH_METRES = re.compile(_ZH_N + r"\s*米(?![饭粉线色])")
_ZH_CM = re.compile(_NUM + r"\s*(?:厘米|公分)")


def zh_measures(body: str) -> str:
    body = _ZH_GRAMS.sub(_milligrams("毫克"), body)
    body = _ZH_SECONDS.sub(_in("秒", 60, "分钟", sep=""), body)
    body = _ZH_WEEKS.sub(_weeks("天"), body)
    body = _ZH_CM.sub(r"\1cm", body)
    return _ZH_METRES.sub(_zh_metres, body)


def _zh_metres(m: re.Match[str]) -> str:
    n = _number(m.group(1))
    if n is None:
        return m.group(0)
    if n >= 1000:
        return f"{n / 1000:g}km"
    if n < 3 and n % 1:  # 1.6米 is a height or a width
        return f"{round(n * 100):g}cm"
    return m.group(0)


# what a number measures, by the unit written after it (or the currency before it)
_DIMENSIONS = (
    ("distance", r"km|kms|kilomet(?:er|re)s?|miles?|mi|meters?|metres?|公里|千米|米|里"),
    ("duration", r"minutes?|mins?|hours?|hrs?|h|seconds?|secs?|days?|weeks?|分钟|小时|秒|天|周"),
    ("weight", r"kg|kgs|kilos?|lbs?|pounds?|公斤|斤|克"),
    ("money", r"dollars?|usd|yuan|rmb|euros?|元|块"),
)
_MEASURED = re.compile(
    r"([$€£¥])\s*\d[\d,.]*|(?<![A-Za-z\d.,])\d[\d,.]*\s*("
    + "|".join(f"(?P<{name}>{units})" for name, units in _DIMENSIONS)
    + r")(?![a-zA-Z])",
    re.IGNORECASE,
)


def dimensions(text: str) -> set[str]:
    """What the numbers of a text measure: {"distance"} for "My bike ride to work is 4 km"."""
    out = set()
    for m in _MEASURED.finditer(text):
        out |= {"money"} if m.group(1) else {name for name, _ in _DIMENSIONS if m.group(name)}
    return out
