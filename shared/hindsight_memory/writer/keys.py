"""A note's key ("Team standup:", "宽带：") named in another statement (writer/facts.py): the same slot given another
value, with or without a change word, however few other words the two share."""

import re

from .clock import on_the_clock
from .people import someone_else
from .reworded import announces
from .sides import another_side_of_it
from .statements import Statement, statement


def key_changed(old: Statement, new: Statement) -> bool:
    """The old statement's slot named in a new one that announces a change ("宽带：中国电信 200M" / "家里宽带换成联通
    千兆了", "The landlord is Mr. Haddad." / "Building was sold; new landlord is Greenway Properties.") is the same
    slot, however few other words they share."""
    if (
        not (old.slot and announces(old, new))
        or (new.slot and new.slot != old.slot)
        or someone_else(old, new)
        or another_side_of_it(old.body, new.body, new.cjk)  # 小王是技术负责人 / 小王搬到深圳办公室了
    ):
        return False
    return _key_named(old, new)


def _key_named(old: Statement, new: Statement) -> bool:
    """Whether the new statement names the old one's slot as it is, not one of its kind another word picks out
    ("the guest Wi-Fi password", 公司宽带)."""
    at = new.body.casefold().find(old.slot or "\0")
    if at < 0:
        return False
    before = statement(_CLAUSE.split(new.body[:at])[-1]).words  # the words naming which one, in its clause
    return not before or before[-1] in old.words or before[-1] in _HOME


_CLAUSE = re.compile(r"[,.;:!?，。；：！？]")
_HOME = frozenset(("家", "里", "hom"))  # 家里宽带 / 宽带: one's own, as a note without a word before it is


KEYED_EXTRA = 1  # words the sentence may hold beyond the note's key and words: "Weekly" team standup


def keyed_value(old: Statement, new: Statement) -> bool:
    """A note's key ("Team standup:", "Redis 缓存端口：") named whole in a sentence that gives it another value
    ("Weekly team standup is Mondays at 9:30", "Redis 缓存跑在 6379 端口") with at most KEYED_EXTRA word more: the
    same slot, so the new value replaces the old without a change word. A sentence that adds more ("return flight
    from Berlin") or a time said with and without "pm" ("at 4" / "4:00 pm") is no other value of it."""
    if bool(old.slot) == bool(new.slot):
        return False
    keyed, other = (old, new) if old.slot else (new, old)
    key = statement(keyed.slot or "")
    key_words = {w for w in key.words if not w.startswith("#")}
    # a number in the key names which one ("2024 travel budget:", "Room 101 code:"): the sentence must name it too
    if not key_words or not key_words <= set(other.words) or not key.numbers <= other.numbers:
        return False
    a, b = ({on_the_clock(n) for n in s.numbers} for s in (old, new))
    if not ((a - b) and (b - a)):  # "Wednesdays at 4" / "Wed 4:00 pm" is one time
        return False
    extra = {w for w in set(other.words) - set(keyed.words) if not any(ch.isdigit() for ch in w)}
    return len(extra) <= KEYED_EXTRA
