"""Ages and stages that only move on (writer/facts.py): someone's age ("Maya is 29." / "celebrated my 30th birthday",
小悦今年29岁 / 过了30岁生日), a school grade ("2nd grade" / "3rd grade", 三年级 / 四年级, 中班 / 大班) or a year of
study ("second year of my PhD" / "a third-year PhD student", 博士第二年 / 博三) said with another number is the same
fact grown older, with no change word. Read from the statement's body, so a speaker's name is no part of it."""

import re
from functools import lru_cache

from .lexicon import OTHER_PERSON
from .values import EN_NUMBERS
from .zh_numerals import zh_number

_NUMBERS = EN_NUMBERS | {"second": "2"}  # "second" is no unit of time before "year" or "grade"
_N = r"(\d{1,3}|" + "|".join(sorted(_NUMBERS, key=len, reverse=True)) + r")"
_ORD = r"(?:st|nd|rd|th)?"
_EN = (
    (
        "age",
        re.compile(
            rf"\bage {_N}\b|\bturn(?:ed|s|ing)? {_N}\b|\b{_N}{_ORD} birthday\b|\b(?:is|am|are) {_N}\s*(?:now)?\s*[.!]?$"
        ),
    ),
    ("grade", re.compile(rf"\b{_N}{_ORD}[ -]grade|\bgrade {_N}\b|\b{_N}{_ORD}[ -]graders?\b")),
    (
        "study",
        re.compile(
            rf"\b{_N}{_ORD}[ -]year(?: of (?:my |her |his |their )?| )(?:phd|doctorate|master|masters|college|"
            r"university|uni|undergrad|med school|law school|residency)"
        ),
    ),
)
_ZH_N = r"([\d一二两三四五六七八九十]{1,3})"
_ZH = (
    ("age", re.compile(_ZH_N + r"岁")),
    ("grade", re.compile(_ZH_N + r"年级")),
    ("kindergarten", re.compile(r"([小中大])班")),
    ("study", re.compile(r"博士?(?:读到|在读)?第?" + _ZH_N + r"年|博([一二三四五六])(?![士])|研([一二三])")),
)
_KINDERGARTEN = {"小": 1, "中": 2, "大": 3}  # 小班, 中班, 大班: the first, second and third year


# capitalised or possessed words that name no one: days, months, the user, the sentence's opening word ("Just
# turned 35.")
_NOT_WHO_EN = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april may june july august "
    "september october november december phd user i my our the as noted daughter son a in first second just finally "
    "today yesterday recently now officially celebrated turned update correction actually".split()
)


def _number(run: str) -> int | None:
    if run.isdigit():
        return int(run)
    if run.casefold() in _NUMBERS:
        return int(_NUMBERS[run.casefold()])
    if run in _KINDERGARTEN:
        return _KINDERGARTEN[run]
    n = zh_number(run)
    return None if n is None else int(n)


@lru_cache(maxsize=4096)  # asked twice a pair: another stage of it (other_stages), then a new one (new_stage)
def _stages(body: str, cjk: bool) -> dict[str, int]:
    found: dict[str, int] = {}
    for kind, pattern in _ZH if cjk else _EN:
        for m in pattern.finditer(body if cjk else body.casefold()):
            n = _number(next(g for g in m.groups() if g))
            if n is not None:
                found.setdefault(kind, n)
    return found


def new_stage(old_body: str, new_body: str, cjk: bool) -> bool:
    """Both say one age, grade or year of study of one and the same one, and the numbers differ."""
    a, b = _stages(old_body, cjk), _stages(new_body, cjk)
    shared = a.keys() & b.keys()
    if not (len(a) == len(b) == 1 and shared and all(a[k] != b[k] for k in shared)):
        return False
    owners = whose(old_body, cjk), whose(new_body, cjk)
    return not (_OTHER.search(old_body) or _OTHER.search(new_body)) and owners[0] == owners[1]


# "my other cat, Pepper, is 2", 另一只猫: another one's age; whose it is, as far as a name or a relation says
_OTHER = re.compile(r"\b(?:other|another)\b|另一|另外", re.IGNORECASE)
_ZH_THINGS = "猫狗鱼鸟兔车房树楼"
_ZH_WHO = re.compile(
    "|".join(sorted((w for w in OTHER_PERSON if not w.isascii()), key=len, reverse=True))
    + "|[大小老][女儿子娃]|["
    + _ZH_THINGS
    + "]"
)
_EN_WHO = re.compile(r"\b(?:older|younger|elder|eldest|youngest|oldest|big|little)\b|\b[A-Z][a-z]+\b")
_EN_WHOSE = re.compile(r"(?<=\bmy )[a-z]+|(?<=\bour )[a-z]+")  # "my cat" / "our house"


def whose(body: str, cjk: bool) -> frozenset[str] | None:
    """The names and relation words in a statement ("older", "Zoe", 外婆, 大女儿), or None where it has none
    (said of the same one as any other: "Ivy is in 3rd grade." after "Daughter Ivy is in 2nd grade.")."""
    if cjk:
        found = set(_ZH_WHO.findall(body))
    else:
        found = {w.casefold() for w in _EN_WHO.findall(body)} | set(_EN_WHOSE.findall(body.casefold()))
        found = {w for w in found if w not in _NOT_WHO_EN}
    return frozenset(found) or None


def other_stages(old_body: str, new_body: str, cjk: bool) -> bool:
    """One says a grade and the other a year of study, or an age ("My son is in 2nd grade." / "My son is in his 2nd
    year of college."): the same number of other things, never one fact."""
    a, b = _stages(old_body, cjk), _stages(new_body, cjk)
    return bool(a and b and not a.keys() & b.keys())
