"""A body weight taken again (writer/facts.py). A person or a pet has one weight at a time, so a new reading replaces
the old one even when no word announces a change ("I weigh 82 kg" / "Weighed myself this morning: 77 kg", 体重75公斤 /
今早称了一下，70公斤, "Our dog Biscuit weighs 12 kg" / "Biscuit weighed in at 14 kg at the vet today"). It must be the
same one's weight: the names and relation words of one side are among the other's, or neither side has any (the
user's). A goal, a limit or a gain is no reading ("My goal weight is 75 kg", "lost 3 kg", 限重20公斤)."""

import re

from .stages import whose
from .statements import Statement

_WEIGH = {
    False: re.compile(r"\bweigh(?:s|ed|ing)?\b|\bweight\b|\bon the scales?\b", re.IGNORECASE),
    True: re.compile(r"体重|称了|称重|上秤|秤上"),
}
_NO_READING = {
    False: re.compile(
        r"\b(?:goal|target|aim|want|wants|hope|hoping|ideal|lose|losing|lost|gain|gained|put on|limit|max|maximum|"
        r"allowance|allowed|up to|under|over|by|should|needs? to|birth|born)\b",
        re.IGNORECASE,
    ),
    True: re.compile(r"目标|想|希望|争取|减到|减了|瘦了|胖了|长了|重了|轻了|限重|上限|以内|以下|应该|出生"),
}
# words of a weighing that name no one ("Weighed myself", "my weight")
_NOT_WHO = frozenset({"weigh", "weighs", "weighed", "weighing", "weight", "myself", "in", "at"})


def weighed_again(old: Statement, new: Statement) -> bool:
    """Both are a reading of one and the same body weight, with no goal, limit or gain in either (the caller has
    seen the numbers differ)."""
    cjk = old.cjk
    if new.cjk != cjk or not all(_WEIGH[cjk].search(s.body) for s in (old, new)):
        return False
    if any(_NO_READING[cjk].search(s.body) for s in (old, new)):
        return False
    x, y = _kilos(old.body), _kilos(new.body)
    if any(abs(i - j) <= 0.02 * max(i, j) for i in x for j in y):
        return False  # one weight in two units: 70 kg / 154 lbs
    a, b = (_owners(s, other) for s, other in ((old, new), (new, old)))
    return a == b or bool(a and b and (a <= b or b <= a))


def _owners(s: Statement, other: Statement) -> frozenset[str]:
    """Names and relation words; the capitalised opening word only where it weighs ("Tom weighs ...") or the other
    text names it too, not where it opens the sentence ("Stepped on the scale ...")."""
    found = (whose(s.body, s.cjk) or frozenset()) - _NOT_WHO | set(s.names)
    words = s.body.split()
    opening = words[0].casefold() if words else ""
    if len(words) > 1 and (_WEIGH[False].match(words[1]) or opening in other.body.casefold()):
        return found
    return found - {opening}


_READING = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*(kg|kgs|kilos?|kilograms?|kilogrammes?|lbs?|pounds?)(?![a-z])",
    re.IGNORECASE,
)


def _kilos(body: str) -> list[float]:
    """The readings a text gives, in kilograms (Chinese 斤 are kg already in a statement's body)."""
    return [
        float(n) * (0.4536 if unit.casefold().startswith(("lb", "pound")) else 1.0)
        for n, unit in _READING.findall(body)
    ]
