"""Which thing a change names (writer/facts.py). e5 reads any two sentences about things of one kind close, and a
change word alone made the second supersede the first, hiding a fact still true. A change is of another one when
- another word stands before the same noun: "We changed the DB timeout to 10 seconds" after "The API timeout is 30
  seconds", 测试集群扩容到5个节点 after 生产集群：3个节点, or after it and the same preposition ("The sync with marketing
  moved" after "The sync with design is"), or another noun where the old subject stood ("Our dog now eats ..." after
  "Our cat eats ...");
- a word of a kind stands before the change word whose other member the old one says (weekends / school nights);
- a word the old one never says stands before words it does, where the old one named its own with a word of its
  own ("My parking spot rent was raised" after "Rent for my apartment is $1,800");
- it changes another side of the thing (writer/sides.py: a time after a place, a price after a time, a value the old
  one never held named as the one replaced);
- someone else now does what the user, or the old statement's person, does.
A word the old one lacks elsewhere in the changed thing is no other thing ("the doctor raised my dose to 10 mg",
"changed my gym time to evenings"): taking it for one lost labelled updates (docs/benchmarks.md). Also here, for facts.py: whose
the thing now is (`someone_elses_now`)."""

import re

from .frames import WEEKDAY, WHICH_ONE, tagged
from .lexicon import CHANGE_EN, CHANGE_ZH, OTHER_PERSON, PRESENT, THE_USER_ZH, one_meaning
from .reworded import has_word, member_swapped
from .sides import another_kind_of_value, another_side_of_it, its_old_value_elsewhere

# verbs changing a thing to a value: "<verb> the <thing> to <value>", "<thing> was <verb> to <value>"
_VERBS = (
    r"changed|switched|moved|extended|shortened|reduced|raised|lowered|increased|decreased|scaled|upgraded|"
    r"downgraded|pushed|bumped|cut|upped|rescheduled|postponed|delayed|expanded|updated|migrated|swapped|renamed|"
    r"turned|set|went up|went down|rose|fell|jumped|climbed"
)
_TO = r"(?:back\s+|up\s+|down\s+|over\s+)?(?:to|through|till|until)\b"
# the thing as a noun phrase: "the DB timeout", "our staging cluster", "Bob's contract", "Vet appointment"
# (the writer's statements spell a possessive "Anna poss")
_DET = r"(?:the|my|our|your|his|her|their|this|that|(?:[\w-]+\s+){1,2}?(?:poss|'s|’s))\s+"
# words of a noun phrase, no verb or preposition among them
_WORD = r"(?:(?!(?:is|are|was|were|has|have|had|in|at|to|on|for|from|and|but|now)\b)[\w#.-]+\s+)"
_THING = rf"(?P<thing>{_DET}{_WORD}{{1,7}}?|{_WORD}{{1,3}}?)"
_ACTIVE = re.compile(rf"\b(?:{_VERBS})\s+(?P<thing>{_DET}{_WORD}{{1,7}}?){_TO}", re.IGNORECASE)
_PASSIVE = re.compile(
    rf"^{_THING}(?:(?:was|were|got|gets|has been|have been|is being)\s+(?:\w+ly\s+)?)?(?:{_VERBS}|replaced)\b",
    re.IGNORECASE,
)
# (a bare subject of two or three words opens with no determiner: "Log rotation now runs ...")
_NOW = re.compile(
    rf"^(?P<thing>{_DET}{_WORD}{{1,7}}?|{_WORD}{{2,3}}?)(?:is\s+|are\s+|has\s+|have\s+)?now\b", re.IGNORECASE
)
# the whole subject of a passive change, prepositions too ("The return flight from Tokyo was moved to ...")
_SUBJECT_OF_PASSIVE = re.compile(
    rf"^(?P<thing>(?:[\w#.'-]+\s+){{1,8}}?)(?:was|were|got|has been|have been|is being)\s+(?:\w+ly\s+)?(?:{_VERBS})\b",
    re.IGNORECASE,
)
# the old statement's subject: what stands before its verb ("Our cat eats ...", "Dentist appointment: ...")
_SUBJECT = re.compile(
    rf"^(?:{_DET})?(?P<thing>(?:[\w#.-]+\s+){{1,3}}?)(?:is|are|was|were|has|have|runs|run|eats|uses|use|lives|"
    rf"works|takes|take|costs|starts|ends|opens|renews|sits|goes|needs?|requires?)\b",
    re.IGNORECASE,
)
_ZH_TO = re.compile(
    r"现在|目前|如今|改成|改为|改到|改由|换成|换到|调到|调成|调整为|切到|切换到|推迟到|提前到|挪到|降到|涨到|提高到|降低到|"
    r"增加到|减少到|加到|减到|升级到|延到|迁到|迁移到|转到|扩容|缩容|延长|缩短|放宽|推到|重置"
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
    # what stands before the change word names the thing; after it, the new value ("I now work weekends")
    m = (CHANGE_ZH if cjk else CHANGE_EN).search(new_body)
    as_written = new_body[: m.start()] if m else ""  # "Conference room B": the letter's capital counts
    before, old, new = as_written.casefold(), old_body.casefold(), new_body.casefold()
    # "new" is said of the thing it stands before: "opened a new savings account" after "checking account"
    named = before + (
        new_body[m.end() : m.end() + 20].casefold() if m and m.group() in ("new", "新的") else ""
    )
    if (
        said := (
            member_swapped(
                old, named, new, cjk
            )  # "On weekends the kids' bedtime is now ..." after "school nights"
            or _another_numbered(old_body, as_written)
            or another_side_of_it(old_body, new_body, cjk)
            or (before and _someone_else_does_it(old, as_written, cjk))
            or ("" if cjk else _another_name_does_it(old_body, new_body))
            or its_old_value_elsewhere(old_body, new_body, cjk)
            or another_kind_of_value(old_body, new_body, m.start() if m else None, cjk)
            or ("" if cjk or not m else _another_after(as_written, old_body, new_body, new_body[m.end() :]))
        )
    ):
        return said
    thing = _thing(new_body, cjk)
    old_pairs = _pairs(old_body, cjk)
    for x, head in _pairs(thing, cjk):
        if not _said(x, old_body, cjk) and any(
            h == head and _other(x, y, cjk) and not _said(y, new_body, cjk) for y, h in old_pairs
        ):
            return x
    if cjk:
        return _zh_other_one(thing, old_body, new_body)
    if put := _put_in_front(thing, old_body, new_body[new_body.find(thing) + len(thing) :]):
        return put
    m = _SUBJECT.match(re.split(r"[:;,.!?]\s|:", old_body)[0] + " ")
    old_words, new_words = (_words(t) for t in (m.group("thing") if m else "", thing))
    # another noun where the old subject stood, one word each ("Our cat" / "Our dog"; "GitHub username" / "GitHub
    # account" is one thing), where the new statement opens with it rather than changes it ("migrated our ticketing")
    opens_with_it = not _ACTIVE.search(new_body)
    if opens_with_it and len(old_words) == len(new_words) == 1:
        x, y = new_words[0], old_words[0]
        if not _said(x, old_body, cjk) and not _said(y, new_body, cjk):
            return x
    # a changed thing of two words or more and an old subject, none of either said in the other: another thing ("Log
    # rotation now runs at 3am" after "Database backups run nightly at 2am", "Our parking spot fee went up" after
    # "Our rent is ...")
    apart = not any(_said(x, old_body, cjk) for x in new_words) and not any(
        _said(y, new_body, cjk) for y in old_words
    )
    if opens_with_it and len(old_words) >= 1 and len(new_words) >= 2 and apart:
        return new_words[0]
    return ""


# words before a noun that say how often or whose, not which one ("the monthly rent", "our team standup")
_GENERIC = frozenset(
    "daily weekly biweekly monthly yearly annual nightly quarterly team home usual regular main default primary "
    "current total overall whole entire official standard typical normal planned scheduled actual own".split()
)


# what a value is counted in names no one thing ("30 seconds" / "1 minutes" once measures.py has read them)
_UNITS = frozenset(
    "second seconds minute minutes hour hours day days week weeks month months year years dollar dollars euro euros "
    "yuan pounds km meters cm mm mb gb tb kg lbs percent mbps gbps".split()
)


def _put_in_front(thing: str, old_body: str, value: str) -> str:
    """A word the old statement never says, standing before words it does, narrows the thing to another one of
    them: "My parking spot rent was raised" after "Rent for my apartment is $1,800", "Next week's standup" after
    "This week's standup", "The guest Wi-Fi password" after "Our Wi-Fi network name". Only where the old statement
    named its own one with a word of its own: after a bare "The timeout is 30 seconds", "We raised the API timeout
    to 60 seconds" only says which timeout was meant (`value`: what the new statement says after the thing)."""
    words, old_words = _words(thing), _words(old_body)
    for x, head in zip(words, words[1:], strict=False):
        if (
            x not in _GENERIC
            and not x[0].isdigit()
            and not _said(x, old_body, False)
            and _said(head, old_body, False)
            and any(w != head and w not in _UNITS and not _said(w, value, False) for w in old_words)
        ):
            return x
    return ""


# a noun and what follows it naming which one: "sync with design", "backup job on db-01", "budget for the trip"
_NAMED_AFTER = re.compile(
    r"(?<![\w-])([a-z][\w-]*)\s+(with|on|for|at|of|in)\s+(?:the\s+|our\s+|my\s+)?([a-z][\w-]*)"
)


def _another_after(before: str, old_body: str, new_body: str, after: str) -> str:
    """Another word after the same noun and preposition, before the change word: "The weekly sync with marketing
    moved to ..." after "The weekly sync with design is ...", "The backup job on db-02 now runs ..." after "... on
    db-01 runs ...". Not when the change word ends the statement ("My son is in fourth grade now"): the value is
    before it then (`after`: what follows the change word)."""
    if not re.search(r"\w", after):
        return ""
    theirs = {(h, p): y for h, p, y in _NAMED_AFTER.findall(old_body.casefold())}
    for h, p, x in _NAMED_AFTER.findall(before.casefold()):
        y = theirs.get((h, p), "")
        if not y or x == y or {x, y} & (_LIGHT | _GENERIC | _UNITS):
            continue
        if not _said(x, old_body, False) and not _said(y, new_body, False):
            return str(x)
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
    """Its letters in order in the longer word, from the same first letter; or the count of letters between ("k8s"
    / "kubernetes")."""
    if len(short) < 2 or short[0] != long[0] or len(short) > len(long):
        return short == long
    if m := re.fullmatch(r"[a-z](\d+)[a-z]", short):
        return long[-1] == short[-1] and len(long) == int(m.group(1)) + 2
    rest = iter(long)
    return all(ch in rest for ch in short)


def _thing(body: str, cjk: bool) -> str:
    """The words naming the thing changed, "" without a change to a value."""
    if cjk:
        m = _ZH_TO.search(body)
        # from its clause's start; what follows 从 is the old value (公司从钉钉切到飞书)
        return re.split(r"[，,。；;：:！!？?]", body[: m.start()])[-1].split("从")[0] if m else ""
    clause = re.split(r"[,;:.!?]\s", body)[0] + " "
    m = (
        _ACTIVE.search(body)
        or _PASSIVE.match(clause)
        or _NOW.match(clause)
        or _SUBJECT_OF_PASSIVE.match(clause)
    )
    thing = m.group("thing") if m else ""
    # after any change word it holds ("Turns out the due date got moved ...": "the due date")
    ends = [c.end() for c in CHANGE_EN.finditer(thing)]
    return thing[ends[-1] if ends else 0 :]


def _noun(flag: str) -> bool:
    """A noun to jieba, verbal nouns too (测试 / 生产 before 集群)."""
    return flag[0] == "n" or flag == "vn"


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
    return [t for t in tokens if t not in _LIGHT and (not t[0].isdigit() or _YEAR.fullmatch(t))]


_YEAR = re.compile(r"(?:19|20)\d\d")  # a year names which one ("the 2025 marketing budget")


# who did it and when, not which one (我已经..., 现在..., 下周开始...), whose when it is the user's own (我家, 家里;
# 用户 unless it names a thing: 用户服务, 用户中心), and the particles between
_ZH_LIGHT = re.compile(
    r"(?:下|这|本|上)?(?:周|个?月|星期)(?:开始|起)|(?:明天|明年|今年|今天)(?:开始|起)?|我们家|我家|家里|我们|我|"
    + THE_USER_ZH
    + r"|已经|现在|"
    r"最近|目前|以后|今后|往后|之后|从此|都|也|又|就|被|和|跟|的|了"
)
# who made the change: what follows is the thing (医生把氨氯地平..., 甲方说验收...)
_ZH_AGENT = re.compile(r"把|让|说|建议|要求")
_ZH_SOFT = re.compile(r"[\s，,。；;：:！!？?（）()、]|和|跟|在|是|用|给")


def _zh_other_one(thing: str, old_body: str, new_body: str) -> str:
    """Chinese: the words before the same thing in the two ("卫生间的灯" / "厨房的灯", "iOS版" / "安卓版", "日志清理任务" /
    "数据备份的定时任务"): the longest end of the changed thing the old text holds is the thing; what stands before it
    on each side, when neither text holds the other's, names two of it."""
    whole, old_body, new_body = (one_meaning(t).casefold() for t in (thing, old_body, new_body))
    agents = [m.end() for m in _ZH_AGENT.finditer(whole)]
    thing = _ZH_LIGHT.sub("", whole[agents[-1] if agents else 0 :]).strip()
    for n in range(len(thing) - 1, 0, -1):
        head, mine = thing[-n:], thing[:-n]
        at = old_body.find(head)
        if at < 0 or not mine:
            continue
        theirs = _ZH_SOFT.split(_ZH_LIGHT.sub("", old_body[max(0, at - 6) : at]))[-1][-4:]
        # one character (灯, 课, 版) names the thing only as what 的 points to on both sides (卫生间的灯 / 厨房的灯), or
        # after two words of two characters or more that share none (瑜伽课 / 动感单车课, 安卓版 / iOS版)
        two_named = (
            len(mine) >= 2
            and len(theirs) >= 2
            and not {c for c in mine if not c.isascii()} & set(old_body + _WHEN_ZH)
        )
        if len(head) < 2 and not (old_body[:at].endswith("的") and f"的{head}" in whole) and not two_named:
            return ""
        if theirs and mine[0] != theirs[0] and mine not in old_body and theirs not in new_body:
            return mine
        # nothing before it in the old one, a word of two characters or more in the new (管理层的团建 after 团建地点
        # 在...): a narrower one, as "the leadership offsite" is after "the offsite location"
        if not theirs and at == 0 and len(mine) >= 2 and not set(mine) & set(old_body + _WHEN_ZH):
            return mine
        return ""
    return ""


_WHEN_ZH = "年月周日天号点"  # a time before the thing says when, not which one (上个月全部迁到...)


_I = {False: re.compile(r"^(?:i|i'm|i've|i'll|my)\b", re.IGNORECASE), True: re.compile(r"^我(?!的|们|家)")}


_THEIR_OWN = re.compile(r"^([A-Z][a-z]+)\s+(?:now\s+|just\s+)?[a-z]+\s+(?:up\s+)?(?:her|his|their)\b")


def _someone_else_does_it(old: str, as_written: str, cjk: bool) -> str:
    """The person the new statement opens with, before its change word, when the old one is the user's own doing:
    "My teammate Leo now works from home on Wednesdays" after "I work from home on Mondays", 同事小李现在改成周三在家
    办公 after 我每周一在家办公."""
    own = old.strip()
    if not _I[cjk].match(own) or (cjk and any(own[1:].startswith(w) for w in OTHER_PERSON)):
        return ""  # 我女儿... is the daughter's, not the user's own doing
    before = as_written.casefold()
    return next((w for w in OTHER_PERSON if has_word(before, w, cjk) and not has_word(old, w, cjk)), "")


def someone_elses_now(old_body: str, new_body: str, cjk: bool) -> str:
    """Whose the thing is, when the new statement gives it to someone else than the old one's owner: the person the
    old fact named, or a name doing it to their own ("Emma upped her running goal to 25 miles" after "My running
    goal is 20 miles"; a capital opening a sentence is no name by itself: "Doctor raised my dose")."""
    if said := _the_value_owns_it(old_body, new_body, cjk):
        return said
    named = None if cjk else _THEIR_OWN.match(new_body)
    if not named or WEEKDAY.fullmatch(named.group(1)) or not _I[cjk].match(old_body.strip()):
        return ""
    return "" if has_word(old_body.casefold(), named.group(1).casefold(), cjk) else named.group(1)


def _the_value_owns_it(old_body: str, new_body: str, cjk: bool) -> str:
    """The person the user's own fact named, now owning the thing (changed): "Priya's manager is now David" after "My
    manager is Priya Shah", 王经理的上级现在换成了刘总 after 我的直属领导是王经理 (someone else's manager, not the user's)."""
    m = (CHANGE_ZH if cjk else CHANGE_EN).search(new_body)
    before = new_body[: m.start()] if m else new_body
    # theirs ("Priya's", 王经理的), or what they now do, opening the statement (陈总现在改向李总汇报了)
    # ("Lucia left; our product manager is now Omar", 王敏调走了: the old value gone is the change itself)
    present = bool(m and m.group().casefold() in PRESENT)
    owner = re.search(
        r"([\u4e00-\u9fff]{2,4})的|^([\u4e00-\u9fff]{2,4})$"
        if cjk
        else r"\b([A-Z][\w-]+) poss\b|^([A-Z][\w-]+)\s+$",
        before.strip() + ("" if cjk else " "),
    )
    if not owner:
        return ""
    if owner.group(2) and not present:
        return ""
    name = owner.group(1) or owner.group(2)
    if cjk:
        name = name[-3:] if name[-3:] in old_body else name[-2:]
        mine = re.match(rf"^(?:我|我们|用户)的.*是.*{re.escape(name)}", old_body)
        return name if mine and f"{name}的" not in old_body else ""
    mine = re.match(
        rf"^(?:my|our|the user poss|user poss)\b.*\b(?:is|are|was)\b.*\b{re.escape(name)}\b", old_body, re.I
    )
    return name if mine and not re.search(rf"\b{re.escape(name)} poss\b", old_body) else ""


# a name opening a statement, then the verb it does ("Mark reports to Lisa"); a word that only opens one is no name
_NAMED_DOER = re.compile(
    r"^(?:(?:actually|update|correction|so|btw)\W+)*(?!(?:My|The|Our|Your|Their|His|Her|Its|This|That|Team|User)\b)"
    r"([A-Z][\w-]+)\s+(?:now\s+|also\s+|just\s+)?([a-z]+)\b"
)
_NO_DOING = frozenset("is are was were has have had will would can got gets poss".split())


def _another_name_does_it(old_body: str, new_body: str) -> str:
    """Another named person now doing what the old statement's person does: "Priya now reports to Lisa" after
    "Mark reports to Lisa" (two people can; a role held by one, "Tom is the on-call engineer", is said with "is")."""
    a, b = _NAMED_DOER.match(old_body), _NAMED_DOER.match(new_body)
    if not (a and b) or WEEKDAY.fullmatch(a.group(1)) or WEEKDAY.fullmatch(b.group(1)):
        return ""
    (x, did), (y, does) = a.groups(), b.groups()
    if x == y or did in _NO_DOING or does in _NO_DOING or did[:4] != does[:4]:
        return ""
    return y if not re.search(rf"\b{y}\b", old_body) and not re.search(rf"\b{x}\b", new_body) else ""


# one named by a letter: "Conference room B", "Gate C12", "Plan A"
_LETTERED = re.compile(
    r"\b(?i:room|building|gate|terminal|wing|block|zone|tower|unit|plan|option|phase|lot|hall)\s+[A-Z]\d*\b"
)


def _another_numbered(old_body: str, before: str) -> str:
    """Another one by its number before the change word ("Sprint 15's end date was pushed" after "Sprint 14 ends",
    五楼会议室新装了 after 三楼会议室, 四季度 after 三季度); a number after it is the new value ("moved to Room 102")."""
    # a weekday says when, not which one ("every other Thursday at 11am from now on")
    mine, theirs = (
        {
            w.casefold()
            for w in (*WHICH_ONE.findall(text), *_LETTERED.findall(text))
            if not WEEKDAY.fullmatch(w)
        }
        for text in (before, old_body)
    )
    return sorted(mine)[0] if mine and theirs and not mine & theirs else ""
