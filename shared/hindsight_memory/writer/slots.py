"""Whether two statements give a value to one fact slot (writer/facts.py): the slot their sentences name
(text.extract_slot) compared as written, or named with a word for the kind of value it holds, or in the same words
in another order; or the key both hold a value for (writer/keys.py). A slot read as one makes a new value an update
whatever the cosine, so the comparison stays strict."""

import re
from collections import Counter

from .keys import key_changed, keyed_value
from .lexicon import one_meaning
from .statements import Statement, _stem, statement


def one_slot(old: Statement, new: Statement) -> bool:
    named = bool(
        old.slot and new.slot and (_same_slot(_slot(old.slot), _slot(new.slot)) or _slot_words(old, new))
    )
    return (
        (named or keyed_value(old, new) or key_changed(old, new))
        and _both_or_neither_due(old, new)
        and not _other_scope(old, new)
    )


# what a value is said to hold for, at the end of the sentence: "TTL is 10 minutes for product pages"
_FOR = re.compile(
    r"\bfor (?:the |my |our |all |each |every )?(?P<x>[a-z][\w-]*(?: [a-z][\w-]*){0,3})\s*[.!]?$",
    re.IGNORECASE,
)


def _other_scope(old: Statement, new: Statement) -> bool:
    """Both values are said to hold for something, and not for the same thing: "Redis cache TTL is 10 minutes for
    product pages" / "... is 1 minute for cart data" are two settings, not one changed."""
    a, b = (_FOR.search(re.split(r"(?<=[.!?])\s", s.body.strip())[0]) for s in (old, new))
    if not (a and b):
        return False
    x, y = (set(m.group("x").casefold().split()) - {"and", "of"} for m in (a, b))
    return not x & y


_DUE = re.compile(r"\bdue\b|到期|截止", re.IGNORECASE)


def _both_or_neither_due(old: Statement, new: Statement) -> bool:
    """When something is due is another attribute than what it costs: "rent is $2,100" / "rent is due on the 1st"."""
    return bool(_DUE.search(old.body)) == bool(_DUE.search(new.body))


def _slot(slot: str) -> str:
    """A fact slot as compared: "home Wi-Fi password" / "home wifi password", 默认的Node版本 / 默认Node版本."""
    slot = re.sub(r"[\s\-的]", "", one_meaning(slot.casefold()))
    return _WHERE_I_LIVE.get(slot, _MY_MANAGER.get(slot, slot))


# Where the user lives, however a note names it ("I live in Austin" / "Home address: ...", 住址 / 家庭住址).
_WHERE_I_LIVE = dict.fromkeys(
    "address homeaddress homecity currentaddress 住址 家庭住址 家庭地址 居住地 现住址 住处".split(),
    "residence",
)


# Whom one reports to, however a note names it ("Manager: Priya", 我的直属领导是王经理, "I report to Tom")
_MY_MANAGER = dict.fromkeys(
    "manager mymanager boss linemanager directmanager 领导 上司 上级".split(), "manager"
)


def manager_named_again(old: Statement, new: Statement) -> bool:
    """Both give whom one reports to, and the one named is the same ("Manager: Priya Shah" / "I report to Priya"):
    the slot said in other words, not a new manager."""
    if not (old.slot and new.slot and _slot(old.slot) == _slot(new.slot) == "manager"):
        return False
    a, b = _names(old), _names(new)
    return bool(a and b) and (a <= b or b <= a)


# How one eats, one value per kind however it is said ("I'm vegetarian" / 吃素的，肉一口都不碰)
_DIETS = (
    ("vegan", re.compile(r"\bvegan\b|纯素|全素", re.IGNORECASE)),
    ("pescatarian", re.compile(r"\bpesc[ae]tarian\b|只吃鱼", re.IGNORECASE)),
    ("vegetarian", re.compile(r"\bvegetarian\b|素食|吃素", re.IGNORECASE)),
)


def diet_named_again(old: Statement, new: Statement) -> bool:
    """Both say how one eats and name the same diet: the slot said again, not a new diet."""
    if not (old.slot and new.slot and _slot(old.slot) == _slot(new.slot) == "diet"):
        return False
    a, b = ({name for name, said in _DIETS if said.search(s.body)} for s in (old, new))
    return len(a) == 1 and a == b


def _names(s: Statement) -> set[str]:
    """The names a statement holds, initials aside ("Dr. A. Okafor": an initial names no one else)."""
    return {n for n in s.names if len(n) > 1}


# A slot named with a word that only says what kind of value it holds is the same slot ("check-in" / "check-in
# date", 生产服务器 / 生产服务器配置); "email" / "work email" are two.
_SLOT_KIND = (
    "date",
    "day",
    "time",
    "number",
    "name",
    "address",
    "日期",
    "时间",
    "号码",
    "名字",
    "名称",
    "地址",
    "配置",
)


def _slot_words(old: Statement, new: Statement) -> bool:
    """Slots named in the same words, in any order, a project's name with or without "project" ("Project Atlas
    deadline" / "Atlas deadline", "mobile team lead" / "team lead for mobile"), given another value: a number, or
    where neither holds one, a name, each side holding one the other lacks. Read as one slot, a value said
    otherwise ("Dr. Amara Okafor" / "Dr. A. Okafor", PostgreSQL 15 / PG 15) was taken for a new one."""
    a, b = (Counter(w for w in statement(s.slot or "").words if w not in _GENERIC) for s in (old, new))
    if not a or a != b:
        return False
    if old.numbers or new.numbers:
        return bool(old.numbers - new.numbers and new.numbers - old.numbers)
    x, y = _names(old), _names(new)
    return bool(x - y and y - x)


_GENERIC = frozenset({_stem("project"), "项", "目"})


def _same_slot(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return a == b or (len(short) >= 2 and long.startswith(short) and long[len(short) :] in _SLOT_KIND)
