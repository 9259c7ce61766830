"""A change told again (writer/facts.py): the new statement says the change, or the state, that the old one already
holds, so its change word announces nothing. Taken for news, each of these superseded a memory saying the same."""

from .lexicon import PRESENT
from .sides import FROM_TO_ZH
from .statements import Statement

# words that say a thing ended; two of them about one thing tell one end ("User quit coffee" / "I no longer drink
# coffee", 戒咖啡了 / 不再喝咖啡了)
_STOPPED = frozenset({"quit", "stopped", "gave up", "no longer", "no more", "不再", "戒"})


def told_again(old: Statement, new: Statement, old_numbers: set[str], new_numbers: set[str]) -> bool:
    """Whether `new` retells what `old` holds; the numbers as the two texts compare them (writer/clock.py)."""
    same_numbers = bool(old_numbers) and old_numbers == new_numbers
    # both tell the change, to the same value: "Rent went up to $1,950" / "My rent is $1,950 a month now"
    if old.change and (same_numbers or told_twice(old, new)):
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


def told_twice(old: Statement, new: Statement) -> bool:
    """Both statements tell the same change, from and to the same values: "We switched from Jira to Linear last
    year" / "A year ago we moved off Jira onto Linear", 去年我们从禅道换到了飞书项目 / 一年前需求管理就从禅道迁到飞书项目了."""
    a, b = FROM_TO_ZH.search(old.body), FROM_TO_ZH.search(new.body)
    if a and b:
        return bool(a.group(2)) and a.groups() == b.groups()
    names = set(old.names)  # the capitalised words inside a sentence (statements.capitalised)
    return len(names) >= 2 and names == set(new.names)
