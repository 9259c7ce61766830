"""A change word that changes nothing the old statement holds (writer/facts.py): the new statement retells the
change, or the state, the old one already holds (`told_again`), or the old one tells the past, which no news of
today ends (`of_the_past`). Taken for news, each of these superseded a memory still true."""

import re

from .frames import WEEKDAY
from .lexicon import PRESENT
from .sides import FROM_TO_ZH
from .statements import Statement

# words that say a thing ended; two of them about one thing tell one end ("User quit coffee" / "I no longer drink
# coffee", 戒咖啡了 / 不再喝咖啡了)
_STOPPED = frozenset(
    {"quit", "stopped", "gave up", "no longer", "no more", "anymore", "any more", "不再", "戒"}
)


def told_again(old: Statement, new: Statement, old_numbers: set[str], new_numbers: set[str]) -> bool:
    """Whether `new` retells what `old` holds; the numbers as the two texts compare them (writer/clock.py)."""
    same_numbers = bool(old_numbers) and old_numbers == new_numbers
    # both tell the change, to the same value: "Rent went up to $1,950" / "My rent is $1,950 a month now", "The
    # newsletter now goes out on Mondays" / "Newsletter was changed to Monday sends"
    days = [{d.casefold().rstrip("s") for d in WEEKDAY.findall(s.body)} for s in (old, new)]
    same_days = bool(days[0]) and days[0] == days[1] and old_numbers == new_numbers
    if old.change and (same_numbers or same_days or _told_twice(old, new)):
        return True
    if both_stopped(old, new):
        return True
    # the value the old one holds, said to hold now ("Learning Japanese, around N4" / "my Japanese is N4 right
    # now"), unless a name was put in another's place ("piano on Wednesdays at 4pm" / "on Thursdays at 4pm now")
    a, b = set(old.names), set(new.names)
    return same_numbers and bool(new.changes) and new.changes <= PRESENT and not (a - b and b - a)


def both_stopped(old: Statement, new: Statement) -> bool:
    """Both say the thing ended: the one negated ("no longer") is no other fact than the one that "quit"."""
    return bool(old.changes & _STOPPED) and bool(new.changes & _STOPPED)


_FROM_TO = re.compile(r"\bfrom (?:an? |the |my |our )?([\w-]+) to (?:an? |the |my |our )?([\w-]+)", re.I)
_INSTEAD_OF = re.compile(r"\binstead of (?:an? |the |my |our )?([\w-]+)", re.I)


def _told_twice(old: Statement, new: Statement) -> bool:
    """Both statements tell the same change, from and to the same values: "We switched from Jira to Linear last
    year" / "A year ago we moved off Jira onto Linear", 去年我们从禅道换到了飞书项目 / 一年前需求管理就从禅道迁到飞书项目了."""
    a, b = FROM_TO_ZH.search(old.body), FROM_TO_ZH.search(new.body)
    if a and b:
        return bool(a.group(2)) and a.groups() == b.groups()
    # "User switched from iPhone to a Pixel" / "I use a Google Pixel now instead of an iPhone"
    if _instead(old, new) == "same":
        return True
    names = set(old.names)  # the capitalised words inside a sentence (statements.capitalised)
    return len(names) >= 2 and names == set(new.names)


# what was so once, said as such: "I used to live in Boston", 我以前学过日语 ("I lived in Boston" is no such mark: a
# past tense often only tells when it was said)
_PAST = re.compile(
    r"\b(?:used to|as a kid|as a child|when I was|back in (?:college|school|high school|the day))\b"
    r"|以前|曾经|小时候|上学的时候|大学时",
    re.IGNORECASE,
)


def of_the_past(old: Statement, new: Statement) -> bool:
    """The old statement tells what was so once, the new one does not: "用户以前学过日语" stays true beside
    "用户现在在学日语"."""
    return bool(_PAST.search(old.body)) and not _PAST.search(new.body)


def turned_round(old: Statement, new: Statement) -> bool:
    """The same two things, the change the other way round: "switched from iPhone to a Pixel" / "I use an iPhone now
    instead of a Pixel"."""
    return _instead(old, new) == "turned"


def _instead(old: Statement, new: Statement) -> str:
    """How a change "from X to Y" in one statement and "instead of ..." in the other relate: "same" (instead of X,
    Y named), "turned" (instead of Y, X named) or ""."""
    for x, y in ((old.body, new.body), (new.body, old.body)):
        if (moved := _FROM_TO.search(x)) and (instead := _INSTEAD_OF.search(y)):
            before, after = (w.casefold() for w in moved.groups())
            replaced = instead.group(1).casefold()
            for gone, kept, how in ((before, after, "same"), (after, before, "turned")):
                if replaced == gone and re.search(rf"\b{re.escape(kept)}\b", y, re.IGNORECASE):
                    return how
    return ""
