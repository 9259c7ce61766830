"""Whether two statements name other things (writer/facts.py). A name is a capitalised word past the first; one
written another way is the same name: plural ("Tuesdays"), short form ("Postgres" / "PostgreSQL"), initials ("NYC"
/ "New York City", "WFH" / "works from home"), a short day or month ("Fri", "Dec"), inside an address
("github.com/..."), or a shared name written longer ("Lincoln Elementary School", "St. Luke's Hospital"). Each
text is indexed once, so two long texts full of names compare in linear time."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from ..text import ZH_SURNAMES, has_cjk
from .lexicon import OTHER_PERSON, OTHER_PERSON_ZH, READ_AS, one_meaning
from .statements import EN_WORD, Statement, _stem

_SHORT_DAYS_MONTHS = frozenset(
    "mon tue tues wed thu thur thurs fri sat sun jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
# Postal codes of US states and common country short forms: "Austin, TX" is "Austin, Texas".
_PLACES = {
    code: tuple(name.split("_"))
    for code, name in (
        item.split("=")
        for item in (
            "al=alabama ak=alaska az=arizona ar=arkansas ca=california co=colorado ct=connecticut de=delaware "
            "fl=florida ga=georgia hi=hawaii id=idaho il=illinois in=indiana ia=iowa ks=kansas ky=kentucky "
            "la=louisiana me=maine md=maryland ma=massachusetts mi=michigan mn=minnesota ms=mississippi "
            "mo=missouri mt=montana ne=nebraska nv=nevada nh=new_hampshire nj=new_jersey nm=new_mexico "
            "ny=new_york nc=north_carolina nd=north_dakota oh=ohio ok=oklahoma or=oregon pa=pennsylvania "
            "ri=rhode_island sc=south_carolina sd=south_dakota tn=tennessee tx=texas ut=utah vt=vermont "
            "va=virginia wa=washington wv=west_virginia wi=wisconsin wy=wyoming dc=district_of_columbia "
            "uk=united_kingdom us=united_states usa=united_states uae=united_arab_emirates"
        ).split()
    )
}
# Units and currencies written in capitals name no one ("1850 USD", "7 AM").
# units, currencies and the titles and ranks written short ("Sr. backend eng."): no names
_NOT_NAMES = frozenset("am pm usd eur gbp rmb cny jpy km kg mg gb mb tb sr jr dr mr mrs ms".split())


@dataclass(frozen=True)
class _Vocab:
    """What one text holds, for matching another text's names against."""

    words: frozenset[str]
    by_five: dict[str, tuple[str, ...]]  # words by their first five letters (postgres / postgresql)
    heads: frozenset[str]  # every word's first three to five letters (fri / friday)
    short: tuple[str, ...]  # the short days and months the text holds
    initials: str
    runs: tuple[tuple[str, ...], ...]  # runs of capitalised words, casefolded
    capitals: frozenset[str]  # words written in capitals ("OS", "DB")
    # words not written as a name, which may shorten one ("nvim", "TS"), and what "k8s"-like forms stand for
    short_forms: frozenset[str]


def _parts(text: str) -> list[str]:
    words = [w.replace("-", "") for w in re.findall(r"[a-z0-9-]+", text.casefold()) if w.strip("-")]
    # the letters of a name written with its number ("RAV4", "S3"): statements read them as the name
    return words + [m.group(1) for w in words if (m := _LETTERS_THEN_DIGITS.fullmatch(w))]


_LETTERS_THEN_DIGITS = re.compile(r"([a-z]{2,})\d+")


@lru_cache(maxsize=1024)
def _vocab(text: str) -> _Vocab:
    words = _parts(text)
    by_five: dict[str, list[str]] = {}
    for w in set(words):
        if len(w) >= 5:
            by_five.setdefault(w[:5], []).append(w)
    raw = EN_WORD.findall(text)
    # a run of a name's words ends at punctuation: "Caroline: Melanie moved" names two people
    runs = [
        r
        for part in _BREAK.split(text)
        for r in _runs(EN_WORD.findall(part), lambda w: w[0].isupper() and w != "I")
    ]
    return _Vocab(
        words=frozenset(words),
        by_five={k: tuple(v) for k, v in by_five.items()},
        heads=frozenset(w[:k] for w in words for k in (3, 4, 5) if len(w) > k),
        short=tuple(sorted(set(words) & _SHORT_DAYS_MONTHS)),
        initials="".join(w[0] for w in words),
        runs=tuple(tuple(w.casefold() for w in r) for r in runs),
        capitals=frozenset(w.casefold() for w in raw if w.isupper()),
        short_forms=frozenset(
            [w.casefold() for w in raw if w.isupper() or w.islower()]
            + [READ_AS[w] for w in words if w in READ_AS]  # "k8s" is Kubernetes
        ),
    )


def _known(name: str, other: _Vocab) -> bool:
    if "-" in name.strip("-") and all(_known(p, other) for p in name.split("-") if p):
        return True  # O-negative / O negative
    n = name.replace("-", "")
    if n in other.words or n.rstrip("s") in other.words or f"{n}s" in other.words:
        return True
    if len(n) >= 5 and any(
        0 < abs(len(w) - len(n)) <= 2 and (w.startswith(n) or n.startswith(w))
        for w in other.by_five.get(n[:5], ())
    ):
        return True
    if (n in _SHORT_DAYS_MONTHS and n in other.heads) or any(n.startswith(w) for w in other.short):
        return True
    if n in _PLACES and all(w in other.words for w in _PLACES[n]):
        return True
    if n in _PLACE_WORDS:  # "Texas" where the other has "TX"
        return any(code in other.words and n in _PLACES[code] for code in _PLACES)
    if any(_shortens(w, n) for w in other.short_forms):
        return True
    return len(n) >= 3 and n.isalpha() and n in other.initials


def _shortens(short: str, name: str) -> bool:
    """Whether `short` is `name` written short, its letters in order from the first ("nvim" / "Neovim", "TS" /
    "TypeScript"); only a word not written as a name may be one ("Mia" is not "Maria")."""
    if short == name:
        return True
    if len(short) < 2 or len(short) > len(name) - 2 or short[0] != name[0]:
        return False
    rest = iter(name)
    return all(ch in rest for ch in short)


def _spelled_out(s: Statement, other: _Vocab) -> set[str]:
    """The names of `s` in a run of capitalised words whose initials the other text writes in capitals
    ("Central European Time" / "CET", "Mountain Time" / "MT")."""
    found: set[str] = set()
    for run in _vocab(s.text).runs:
        for letters, words in _initials(run).items():
            if letters in other.capitals:
                found.update(words)
    return found


ACRONYM_WORDS = 5  # an acronym spells out at most this many words (the capitals it is read from: 2-5 letters)


# what ends a run: a label's colon ("Caroline: Melanie ..."); not a comma ("Tucson, Arizona" is one place) nor a
# full stop (the next sentence's first word is capitalised as no name is)
_BREAK = re.compile(r"[:;：；]")


def _runs(words: list[str], in_name: Callable[[str], bool]) -> list[list[str]]:
    """The runs of consecutive words that `in_name` takes as part of a name ("Central European Time")."""
    runs: list[list[str]] = [[]]
    for w in words:
        if in_name(w):
            runs[-1].append(w)
        elif runs[-1]:
            runs.append([])
    return [r for r in runs if r]


def _initials(run: list[str] | tuple[str, ...]) -> dict[str, list[str]]:
    """The initials of every stretch of 2 to ACRONYM_WORDS words of a run, casefolded: linear in the run's length,
    however long a run a client sends."""
    out: dict[str, list[str]] = {}
    for i in range(len(run)):
        for j in range(i + 2, min(len(run), i + ACRONYM_WORDS) + 1):
            out.setdefault("".join(w[0] for w in run[i:j]).casefold(), list(run[i:j]))
    return out


_PLACE_WORDS = frozenset(w for place in _PLACES.values() for w in place)


def _unmatched(s: Statement, other: _Vocab) -> list[str]:
    spelled = _spelled_out(s, other)
    return [
        n
        for n in s.names
        if n not in _NOT_NAMES
        and n not in spelled
        and not all(_known(p, other) for p in _hyphened(n))
        and not _dotted(n, other)
    ]


def _dotted(name: str, other: _Vocab) -> bool:
    """Node.js / Node, Vue.js / Vue: a name with a short ending after a dot is the name."""
    head, _, tail = name.rpartition(".")
    return bool(head) and len(tail) <= 3 and _known(head, other)


def _hyphened(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9-]+", text.casefold()) if w.strip("-")]


def _explained(s: Statement, names: list[str], other: _Vocab) -> bool:
    """Whether each of `names` stands in a run of capitalised words holding a name `other` has too ("Honda Civic" /
    "Civic"), or is a short acronym of a common noun ("the OS", "our DB")."""
    own = _vocab(s.text)
    anchored = {
        m for run in own.runs if any(all(_known(p, other) for p in _parts(w)) for w in run) for m in run
    }
    return all(n in anchored or (len(n) <= 3 and n in own.capitals) for n in names)


def names_differ(old: Statement, new: Statement) -> bool:
    """A name in one statement that the other does not hold in any form: "Dana leads the team" / "The team is led
    by Dana" name the same person, in another place."""
    if old.cjk and new.cjk:  # 小王 / 小刘, 王老师 / 李老师
        old_body, new_body = one_meaning(old.body), one_meaning(new.body)
        return any(n not in new_body for n in old.names) or any(n not in old_body for n in new.names)
    a, b = _vocab(old.text), _vocab(new.text)
    lost, put = _unmatched(old, b), _unmatched(new, a)
    if lost and put:  # two names swapped (two acronyms too: AWS / GCP)
        return True
    return not (_explained(old, lost, b) and _explained(new, put, a))


def spelled_places(lost: set[str], put: set[str]) -> set[str]:
    """The words (as statements compare them, stemmed) that are a place on one side and its code on the other
    ("texas" / "tx"): one word for another that names nothing new."""
    found: set[str] = set()
    for a, b in ((lost, put), (put, lost)):
        for code in a & _PLACES.keys():
            stems = {_stem(w) for w in _PLACES[code]}
            if stems <= b:
                found |= {code, *stems}
    return found


# Words between a relation and the name it is given: "wife's name is Priya", "manager is Dana", "son named Leo".
_TO_NAME = frozenset("s name is named called the".split())
_LETTERS = re.compile(r"[^\W\d_]+")


# Words shaped like a name by 小/老/阿 (老王, 小李) that are common words: 老家 (hometown), 小区, 阿姨...
_ZH_COMMON = frozenset(
    "老家 老师 老板 老公 老婆 老妈 老爸 老人 老大 老友 老乡 老总 老外 老年 老式 小孩 小时 小区 小学 小姐 小说 小吃 小狗 小猫 "
    "小组 阿姨".split()
)


def named_person(text: str, other: str) -> bool:
    """Whether `text` gives a relation the name of someone `other` names too ("Daughter Maya has swim practice" /
    "Maya swims Tue & Thu", 女儿朵朵 / 朵朵): then "daughter" names no one else, it says who Maya is."""
    if has_cjk(text):
        for word in OTHER_PERSON_ZH:
            at = text.find(word)
            if at >= 0:
                name = text[at + len(word) :].removeprefix("是")[:2]
                # a name: a surname first (李静, 小王) or a doubled character (朵朵); 妹妹在学 is no name
                named = len(name) == 2 and (name[0] in ZH_SURNAMES + "小老阿" or name[0] == name[1])
                named = named and name not in _ZH_COMMON  # 我老婆老家...: 老家 is a place, not 老X
                if named and has_cjk(name) and name in other:
                    return True
        return False
    words, said = _LETTERS.findall(text), {w.casefold() for w in _LETTERS.findall(other)}
    folded = [w.casefold() for w in words]
    for i, w in enumerate(folded):
        if w in OTHER_PERSON or w.rstrip("s") in OTHER_PERSON:
            after = next(
                (words[j] for j in range(i + 1, min(i + 5, len(words))) if folded[j] not in _TO_NAME), ""
            )
            for name in (after, _name_before(words, folded, i)):
                if name[:1].isupper() and name.casefold() in said and name.casefold() not in OTHER_PERSON:
                    return True
    return False


_IS_A = frozenset("is was the my our a an".split())


def _name_before(words: list[str], folded: list[str], i: int) -> str:
    """The name a relation at `i` is said of ("Sarah is the product manager", "Anna, my sister"), or ""; never
    across a possessive ("Anna's daughter" is someone else) or a verb ("Tom said my daughter ...")."""
    for j in range(i - 1, max(-1, i - 6), -1):
        if folded[j] == "s":
            return ""
        title = j == i - 1 and words[j].islower()  # a title's first word: "product manager"
        if not (title or folded[j] in _IS_A):
            return words[j] if words[j][:1].isupper() else ""
    return ""


_CAPITALS = re.compile(r"\b[A-Z]{2,5}\b")


def spelled_like(text: str, other: str) -> str:
    """`text` with each short form in capitals that `other` writes out spelled as there: "I'm on CET" read beside
    "Central European Time", "use TS" beside "TypeScript". The model reads an acronym far from its long form."""
    if has_cjk(text) or has_cjk(other):
        return text
    words = EN_WORD.findall(other)
    by_letter: dict[str, set[str]] = {}
    for w in words:
        if w[:1].isupper() and not w.isupper():
            by_letter.setdefault(w[0].casefold(), set()).add(w)
    runs = _runs(words, lambda w: w[:1].isupper() and not w.isupper())
    own = set(EN_WORD.findall(text))
    spelled: dict[str, list[str]] = {}
    for run in runs:
        for letters, stretch in _initials(run).items():
            spelled.setdefault(letters, stretch)  # the first stretch with these initials wins

    def long_form(m: re.Match[str]) -> str:
        short = m.group(0).casefold()
        if short in _NOT_NAMES:
            return m.group(0)
        if short in spelled:
            return " ".join(spelled[short])
        found = sorted(
            n for n in by_letter.get(short[0], ()) if n not in own and _shortens(short, n.casefold())
        )
        return found[0] if len(found) == 1 and short not in _PLACES else m.group(0)

    return _CAPITALS.sub(long_form, text)
