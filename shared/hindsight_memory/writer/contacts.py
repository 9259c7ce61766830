"""A new address to reach someone at (writer/facts.py): "Primary email: mark.t@gmail.com" / "Please use
markthompson@proton.me for everything from now on", 常用邮箱：zhangsan@163.com / 以后联系我用zhangsan@qq.com. Each holds
one address of one kind, of the same person and the same use, and the two differ: the new one replaces the old one,
however few other words they share."""

import re

from .statements import Statement

_EMAIL = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")
_PHONE = re.compile(r"(?<![\d.])\+?\d(?:[ -]?\d){6,14}(?![\d.])")
_PHONE_WORDS = re.compile(r"\b(?:phone|mobile|cell|number|whatsapp|signal)\b|手机|电话|号码", re.IGNORECASE)
# the one speaking or noted about: "I", "my", "me", "User ...", a note's key ("Email: ...", 邮箱：...)
_OWN = re.compile(
    r"\b(?:i|my|me|user'?s?)\b|^\s*(?:primary\s+|main\s+|contact\s+)?(?:e-?mail|phone|mobile|cell)\b|我|用户"
    r"|^\s*(?:常用|主)?(?:邮箱|手机号?|电话)",
    re.IGNORECASE,
)
# what an address is for: a work and a personal address are two
_USE = re.compile(
    r"\b(?:work|personal|school|business|private|home|office|backup|secondary)\b|工作|私人|公司|学校|备用|家里",
    re.IGNORECASE,
)


def new_address(old: Statement, new: Statement) -> bool:
    """Both give the speaker's one address of a kind (an email, a phone number), for the same use, and it differs."""
    if not (_OWN.search(old.body) and _OWN.search(new.body)):
        return False
    if {u.casefold() for u in _USE.findall(old.body)} != {u.casefold() for u in _USE.findall(new.body)}:
        return False
    # another service's account: "My Netflix account email" / "My Spotify account email"
    if old.names and new.names and set(old.names) != set(new.names):
        return False
    for found in (_emails, _phones):
        a, b = found(old.body), found(new.body)
        if a or b:
            return len(a) == len(b) == 1 and a != b
    return False


def _emails(body: str) -> set[str]:
    return {e.casefold() for e in _EMAIL.findall(body)}


def _phones(body: str) -> set[str]:
    return {re.sub(r"\D", "", p) for p in _PHONE.findall(body)} if _PHONE_WORDS.search(body) else set()
