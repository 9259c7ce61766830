"""What the writer's sharper look at a statement reads (writer/reworded.py asks for it): the text as its statement
reads it, with the user named as "I" however a note names them, short forms spelled out, a note's "Preference:" key
as "I prefer", and a message typed fast as one written with care. The model behind it is cased and reads "User is
vegetarian" further from "I'm vegetarian" than two rewordings."""

import re
from functools import lru_cache

from ..text import has_cjk
from .asides import compared
from .lexicon import READ_AS
from .names import spelled_like
from .speakers import one_person
from .statements import _read, statement

# "user" where it names a thing, not the person ("the user table", 用户表)
_USER_THING_EN = (
    r"(?!\s+(?:table|tables|id|ids|name|names|account|accounts|service|services|data|model|interface|experience|"
    r"story|stories|agent|agents|group|groups|guide|base|input|manual|profile|profiles|settings|session|sessions|"
    r"record|records|role|roles|research|testing|flow|journey|count|list|login|management|api|db|database)\b)"
)
# what an agent notes the user said is the user saying it ("User mentioned they are allergic ...")
_REPORTING = (
    r"\b(?:the )?user (?:mentioned|said|says|noted|stated|reported|indicated|shared|explained|told (?:me|us)|"
    r"reiterated|repeated|confirmed|reminded (?:me|us))(?: that)?"
)
_REPORTED = _REPORTING + r" (?:they|he|she)"
_FIRST_PERSON_EN = [
    (re.compile(r"^\s*user\s*:\s*", re.I), ""),
    (re.compile(_REPORTED + r"(?:'re| are)\b", re.I), "I am"),
    (re.compile(_REPORTED + r"\b", re.I), "I"),
    # "The user mentioned their router is ...", "... mentioned Leo is ...": what was said, said
    (re.compile(_REPORTING + r" their\b", re.I), "my"),
    (re.compile(_REPORTING + r"\s+", re.I), ""),
    (re.compile(r"\b(?:the )?user's\b", re.I), "my"),
    (re.compile(r"\b(?:the )?user is\b", re.I), "I am"),
    (re.compile(r"\b(?:the )?user has\b", re.I), "I have"),
    # the object of a verb or preposition is "me" ("Remind the user the day before")
    (
        re.compile(
            r"\b(to|for|with|from|about|of|at|by|remind|tell|call|email|text|ask|give|send|show|help|let|notify|ping)"
            r"\s+(?:the )?user\b" + _USER_THING_EN,
            re.I,
        ),
        r"\1 me",
    ),
    (re.compile(r"\b(?:the )?user\b" + _USER_THING_EN, re.I), "I"),
]
_FIRST_PERSON_ZH = re.compile(
    r"用户(?:提到|说|表示|称|反馈)?(?!表|名|数|量|体验|界面|协议|手册|画像|反馈|群|组|数据|端|侧|态|id|ID)"
)


def first_person(text: str) -> str:
    """The user named as "I" / 我 wherever a text names them in the third person ("User prefers ...", "The user's
    car", 用户的): the model reads "I'm vegetarian" and "User is vegetarian" further apart than two rewordings, and
    the same person either way is what the writer compares."""
    if has_cjk(text):
        return _FIRST_PERSON_ZH.sub("我", text)
    for pattern, repl in _FIRST_PERSON_EN:
        text = pattern.sub(repl, text)
    return text


_SHORT_FORMS = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, READ_AS), key=len, reverse=True)) + r")\b", re.I
)


# The sharper reading of a long text stops here: embedding 15,000 characters whole took tens of seconds, and a long
# text is split into passages that must each agree before it merges (writer/storing.py), so its beginning suffices.
READING_CHARS = 2000


@lru_cache(maxsize=4096)
def reading(text: str) -> str:
    """What the sharper (query-side) embedding of a text reads: the text as its statement reads it (no speaker,
    contractions expanded, dates, times and amounts in one form), the user as "I", short forms spelled out ("prod
    DB" / "production database"); of a long text, its beginning."""
    body = first_person(_read(text[:READING_CHARS])[2].replace(" poss", "'s"))
    body = _PREFERENCE_KEY.sub(lambda m: "我偏好" if m.group(1) else "I prefer ", body)
    body = _SHORT_FORMS.sub(lambda m: READ_AS[m.group(1).casefold()], body)
    # A message typed fast ("im based in lisbon btw") reads as written with care: the model is cased, and read
    # "I am based in Lisbon" 0.96 from "The user lives in Lisbon" where the lowercase reading stood at 0.90.
    body = _I.sub("I", _FILLER_EN.sub(" ", body)).strip()
    return body[:1].upper() + body[1:]


_I = re.compile(r"\bi\b(?!\.e\.)")
_FILLER_EN = re.compile(r"\b(?:btw|lol|pls|plz|tbh|haha|hah|ugh|fyi)\b[,.!]?", re.IGNORECASE)


# A note's "Preference:" key is the user preferring: "Preference: no emojis" reads as "I prefer no emojis"
_PREFERENCE_KEY = re.compile(
    r"^\s*(?:(?:my|I) )?preference\s*:\s*|^\s*(?:我的?)?(偏好)\s*[:：]\s*", re.IGNORECASE
)


def readings(a: str, b: str) -> tuple[str, str]:
    """What the sharper look reads of two texts side by side: each one's reading, a short form the other spells
    out written as there ("I'm on CET" beside "Central European Time"), and a named speaker's words beside a note
    about them told by one person (below)."""
    a, b = one_person(a[:READING_CHARS], b[:READING_CHARS])  # what reading() reads of each
    # what one says beside its fact and the other does not name is left out, as the decision leaves it
    sa, sb = statement(a), statement(b)
    ca, cb = compared(sa, sb)
    a, b = (ca.body if ca is not sa else a), (cb.body if cb is not sb else b)
    return reading(spelled_like(a, b)), reading(spelled_like(b, a))
