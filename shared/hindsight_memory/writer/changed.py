"""Which thing a change names (writer/facts.py): "We changed the DB timeout to 10 seconds" changed the DB timeout, no
new value of "The API timeout is 30 seconds"; "The prod cluster now has 8 nodes" is no news of the staging cluster,
测试集群扩容到5个节点 none of 生产集群：3个节点. e5 reads any two such sentences close, and the change word alone made the second
supersede the first, hiding a fact still true. Only a word standing where the other has another before the same
noun counts: a change naming a word the old note lacks elsewhere ("the doctor raised my dose to 10 mg", "changed
my gym time to evenings") is still a new value of it."""

import re

from .frames import tagged

# verbs changing a thing to a value: "<verb> the <thing> to <value>", "<thing> was <verb> to <value>"
_VERBS = (
    r"changed|switched|moved|extended|shortened|reduced|raised|lowered|increased|decreased|scaled|upgraded|"
    r"downgraded|pushed|bumped|cut|upped|rescheduled|postponed|delayed|expanded|updated|migrated|swapped"
)
_TO = r"(?:back\s+|up\s+|down\s+|over\s+)?(?:to|through|till|until)\b"
# the thing as a noun phrase: "the DB timeout", "our staging cluster", "Bob's contract", "Vet appointment"
# (the writer's statements spell a possessive "Anna poss")
_DET = r"(?:the|my|our|your|his|her|their|this|that|[A-Z][a-z]+(?:'s|’s|\s+poss))\s+"
_THING = rf"(?P<thing>(?:{_DET})?(?:[\w#.-]+\s+){{1,4}}?)"
_ACTIVE = re.compile(rf"\b(?:{_VERBS})\s+(?P<thing>{_DET}(?:[\w#.-]+\s+){{1,4}}?){_TO}", re.IGNORECASE)
_PASSIVE = re.compile(
    rf"^{_THING}(?:(?:was|were|got|gets|has been|have been|is being)\s+(?:\w+ly\s+)?)?(?:{_VERBS}|replaced)\b",
    re.IGNORECASE,
)
_NOW = re.compile(
    rf"^(?P<thing>{_DET}(?:[\w#.-]+\s+){{1,4}}?)(?:is\s+|are\s+|has\s+|have\s+)?now\b", re.IGNORECASE
)
# the old statement's subject: what stands before its verb ("Our cat eats ...", "Dentist appointment: ...")
_SUBJECT = re.compile(
    rf"^(?:{_DET})?(?P<thing>(?:[\w#.-]+\s+){{1,3}}?)(?:is|are|was|were|has|have|runs|run|eats|uses|use|lives|"
    rf"works|takes|take|costs|starts|ends|opens|renews|sits|goes)\b",
    re.IGNORECASE,
)
_ZH_TO = re.compile(
    r"现在|目前|如今|改成|改为|改到|改由|换成|换到|调到|调成|调整为|切到|切换到|推迟到|提前到|挪到|降到|涨到|提高到|降低到|"
    r"增加到|减少到|加到|减到|升级到|延到"
)
_EN_TOKEN = re.compile(r"[a-z][a-z0-9-]*(?:'s)?|\d[\w.-]*", re.IGNORECASE)
_LIGHT = frozenset(
    "the a an my our your his her their its this that these those we i you they he she it is are was were has have "
    "of for from in on at to by with and or all new old current user poss ve ll re just fully finally already "
    "recently officially completely also since then".split()
)


def another_thing_changed(old_body: str, new_body: str, cjk: bool) -> str:
    """The word of the thing the new statement changes that says it is another one than the old statement's: a word
    before the same noun ("DB" timeout / "API" timeout, 测试集群 / 生产集群), or another noun in the same place ("Our
    dog now eats ..." / "Our cat eats ..."); "" when none does."""
    thing = _thing(new_body, cjk)
    for x, head in _pairs(thing, cjk):
        if _said(x, old_body, cjk):
            continue
        if any(
            h == head and _other(x, y, cjk) and not _said(y, new_body, cjk) for y, h in _pairs(old_body, cjk)
        ):
            return x
    if cjk:
        return ""
    m = _SUBJECT.match(re.split(r"[:;,.!?]\s|:", old_body)[0] + " ")
    old_words, new_words = (_words(t) for t in (m.group("thing") if m else "", thing))
    if old_words and old_words[:-1] == new_words[:-1] and len(old_words) == len(new_words):
        x, y = new_words[-1], old_words[-1]
        if not _said(x, old_body, cjk) and not _said(y, new_body, cjk):
            return x
    return ""


def _other(x: str, y: str, cjk: bool) -> bool:
    """Two words for two things; in Chinese from another first character (牙科 / 牙医 name one clinic, 宠物医院 / 牙医
    two)."""
    return x != y and not (cjk and x[0] == y[0])


def _said(word: str, body: str, cjk: bool) -> bool:
    """Whether a text holds the word, or a word it shortens or that shortens it ("prod" / "production", "appt" /
    "appointment")."""
    if cjk:
        return word.casefold() in body.casefold()
    words = [t for t in _EN_TOKEN.findall(body.casefold()) if t not in _LIGHT]  # "we" shortens no "weekly"
    return any(_shortens(word, t) or _shortens(t, word) for t in words)


def _shortens(short: str, long: str) -> bool:
    """Its letters in order in the longer word, from the same first letter."""
    if len(short) < 2 or short[0] != long[0] or len(short) > len(long):
        return short == long
    rest = iter(long)
    return all(ch in rest for ch in short)


def _thing(body: str, cjk: bool) -> str:
    """The words naming the thing changed, "" without a change to a value."""
    if cjk:
        m = _ZH_TO.search(body)
        # from its clause's start; what follows 从 is the old value (公司从钉钉切到飞书)
        return re.split(r"[，,。；;：:！!？?]", body[: m.start()])[-1].split("从")[0] if m else ""
    clause = re.split(r"[,;:.!?]\s", body)[0] + " "
    m = _ACTIVE.search(body) or _PASSIVE.match(clause) or _NOW.match(clause)
    return m.group("thing") if m else ""


def _noun(flag: str) -> bool:
    return flag[0] == "n" or flag == "vn"  # 测试 / 生产 (集群) are verbal nouns to jieba


def _pairs(text: str, cjk: bool) -> list[tuple[str, str]]:
    """Nouns with the word right before them, in order: ("api", "timeout"), ("生产", "集群"). English has no tagger
    here: a word before the last word of a noun phrase, light words and numbers aside."""
    if cjk:
        tags = tagged(text)
        return [
            (a, b)
            for (a, fa), (b, fb) in zip(tags, tags[1:], strict=False)
            if _noun(fa) and min(len(a), len(b)) >= 2
        ]
    pairs: list[tuple[str, str]] = []
    for part in re.split(r"[,;:!?()]|\.\s", text):  # no pair across a colon ("host: db1")
        words = _words(part)
        pairs += zip(words, words[1:], strict=False)
    return pairs


def _words(text: str) -> list[str]:
    """English content words in order, light words and numbers aside, a possessive's name as the name."""
    tokens = [t.casefold().removesuffix("'s") for t in _EN_TOKEN.findall(text.replace("’", "'"))]
    return [t for t in tokens if t not in _LIGHT and not t[0].isdigit()]
