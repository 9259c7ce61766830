"""How two statements line up word for word (writer/facts.py): one word or phrase put in another's place with the
frame kept ("The input files are..." / "The output files are...") is another thing named; a sentence rebuilt around
the same things ("I drive a Civic" / "My car is a Civic") is a rewording; a count changed in place ("6 nodes" / "9
nodes") is a new value."""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cached_property, lru_cache

from .lexicon import one_meaning
from .statements import Statement, _stem, statement
from .values import EN_CARDINALS

Opcode = tuple[str, int, int, int, int]
_IN_PLACE_MAX = 400  # tokens
TOKEN = re.compile(r"[a-z0-9]+(?:['.-][a-z0-9]+)*|[^\W_]", re.IGNORECASE)


@dataclass(frozen=True)
class Alignment:
    """Two texts' tokens as written, as compared (`_folded`), and how the compared ones align."""

    raw_old: list[str]
    raw_new: list[str]
    old: list[str]
    new: list[str]
    ops: Sequence[Opcode]

    @cached_property
    def changed(self) -> list[Opcode]:
        """The ops that change a compared token (用户 for 我, folded to nothing, changes nothing)."""
        a, b = self.old, self.new
        return [op for op in self.ops if op[0] != "equal" and any(a[op[1] : op[2]] + b[op[3] : op[4]])]


def in_place(old: Statement, new: Statement) -> bool:
    """Whether the new sentence is the old one with words put in place of others, all else as it was ("The input
    files are..." / "The output files are...", 周报发给财务部 / 月报发给财务部): a different thing named in the same
    frame. A rewording rebuilds the frame ("I drive a Civic" / "My car is a Civic", 我在X上班 / 我的工作单位是X).
    Every word counts here, the light ones too; Chinese character by character."""
    lined = aligned(old, new)
    if lined is None:
        return True  # a document, not a sentence: the high bar
    cjk = old.cjk and new.cjk
    if cjk:
        return _frame_kept(lined, cjk) or _word_in_place(old, new)
    return _frame_kept(lined, cjk) or _last_phrase(lined)


def _frame_kept(lined: Alignment, cjk: bool) -> bool:
    a, b, changed = lined.old, lined.new, lined.changed
    if not all(tag == "replace" for tag, *_ in changed):
        return False  # words added or dropped: a sentence rebuilt
    if cjk:  # a Chinese word put in another's place may be a character longer or shorter (办公室 / 仓库)
        return all(_one_word(a[i1:i2], b[j1:j2]) for _, i1, i2, j1, j2 in changed)
    # An English word is one word, or one phrase for another inside a frame kept on both sides ("Tom's birthday is
    # July 8" / "Tom's wedding anniversary is July 8")
    if all(i2 - i1 == j2 - j1 for _, i1, i2, j1, j2 in changed):
        return True
    return (
        len(changed) == 1
        and changed[0][1] > 0
        and changed[0][2] < len(a)
        and max(changed[0][2] - changed[0][1], changed[0][4] - changed[0][3]) <= 3
    )


def _last_phrase(lined: Alignment) -> bool:
    """English: a phrase of up to three words for another at the end, after at least three words kept ("I pay $120
    a month for car insurance" / "... for my phone plan")."""
    if len(lined.changed) != 1:
        return False
    tag, i1, i2, j1, j2 = lined.changed[0]
    return (
        tag == "replace"
        and i1 >= 3
        and i2 == len(lined.old)
        and j2 == len(lined.new)
        and max(i2 - i1, j2 - j1) <= 3
    )


def _word_in_place(old: Statement, new: Statement) -> bool:
    """Chinese, word by word: one word or phrase for another inside a kept frame, whatever their lengths (支付宝 /
    微信支付, 护照号码 / 身份证号, 工资卡 / 房贷还款卡), which character by character reads as a rebuilt sentence."""
    a = _zh_words(old.body)
    b = _zh_words(_without(new.body, new.changes - old.changes))
    changed = [op for op in SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(changed) != 1 or changed[0][0] != "replace":
        return False
    _, i1, i2, j1, j2 = changed[0]
    # inside the frame, or up to two words at the end after three kept (最喜欢的运动是羽毛球 / 最爱的运动：网球)
    return (i1 > 0 and i2 < len(a)) or (i1 >= 3 and j2 == len(b) and max(i2 - i1, j2 - j1) <= 2)


_DEGREE_ZH = frozenset("比较 挺 很 蛮 非常 特别 十分 相当".split())  # how much, not what: 喜欢 / 比较喜欢


def _zh_words(text: str) -> list[str]:
    """jieba's words, punctuation aside, one word for words of one meaning (最爱 / 最喜欢), the user named either
    way one subject (用户的 / 我)."""
    out: list[str] = []
    for w, _ in tagged(one_meaning(text)):
        w = "我" if w == "用户" else w
        if TOKEN.search(w) and w not in _DEGREE_ZH and not (w == "的" and out[-1:] == ["我"]):
            out.append(w)
    return out


# jieba's model of unknown words costs up to half a millisecond a character (a run of "博一" repeated); past this
# many characters only its dictionary's words are read, so a long hostile note cannot hold the writer for seconds.
_GUESS_CHARS = 120


@lru_cache(maxsize=4096)
def tagged(text: str) -> tuple[tuple[str, str], ...]:
    """jieba's words of a Chinese text with their parts of speech."""
    import jieba.posseg

    from ..text import _jieba

    _jieba()  # initialised once, quietly
    head, rest = text[:_GUESS_CHARS], text[_GUESS_CHARS:]
    words = jieba.posseg.lcut(head) + (jieba.posseg.lcut(rest, HMM=False) if rest else [])
    return tuple((p.word, p.flag) for p in words)


def _one_word(a: list[str], b: list[str]) -> bool:
    """Whether two Chinese spans read as one word for another: as long give or take a character, or a Latin word for
    Chinese characters (logo / 标题栏)."""
    if any(t.isascii() and t.isalnum() for t in (*a, *b)):
        return True
    return abs(sum(1 for t in a if t and t != "的") - sum(1 for t in b if t and t != "的")) <= 1


def aligned(old: Statement, new: Statement) -> Alignment | None:
    """The two texts' tokens (every word, the light ones too; Chinese character by character; the change words the
    new one announces left out) and how they align; None past _IN_PLACE_MAX tokens, where aligning 16,000
    characters would cost seconds."""
    a, b = TOKEN.findall(old.body), TOKEN.findall(_without(new.body, new.changes - old.changes))
    if max(len(a), len(b)) > _IN_PLACE_MAX:
        return None
    fa, fb = _folded(a), _folded(b)
    return Alignment(a, b, fa, fb, SequenceMatcher(a=fa, b=fb, autojunk=False).get_opcodes())


_USER_EN = frozenset({"user", "users", "i"})
_USER_POSS_EN = frozenset({"user's", "users'", "my"})


def _folded(tokens: list[str]) -> list[str]:
    """Tokens as compared, one for one: casefolded, English stemmed ("works" / "work"), and the user named either
    way one subject ("User's phone" / "my phone", 用户的车 / 我的车: 用户 reads 我 and an empty token)."""
    out = [t.casefold() for t in tokens]
    for i, t in enumerate(out):
        if t in _USER_EN:
            out[i] = "i"
        elif t in _USER_POSS_EN:
            out[i] = "my"
        elif t == "用" and i + 1 < len(out) and out[i + 1] == "户":
            out[i], out[i + 1] = "我", ""
        elif t == "的" and i > 0 and out[i - 1 - (out[i - 1] == "")] == "我":
            out[i] = ""  # 我的 / 用户的: whose, said once
        elif t.isascii():
            out[i] = _stem(t)
    return out


# A number after one of these names a thing ("Room 101", "flight 432", "v2"), not how many there are.
_NUMBERED = re.compile(
    r"(?:\b(?:no|number|room|flight|gate|line|bus|route|version|v|ticket|order|case|issue|table|seat|floor|level|"
    r"step|chapter|page|phase|sprint|week|day|year|port|id|#)|号|第)\W{0,2}$",
    re.IGNORECASE,
)


def new_count(old: Statement, new: Statement) -> bool:
    """Only numbers changed, each a count or an amount of something ("has 6 nodes" -> "has 9 nodes", 睡六个小时 ->
    睡八个小时), the rest word for word the same: a new value even with no change word. A number naming a thing
    ("Room 101", "flight 432", a name before it) may be another thing, and stays apart."""
    lined = aligned(old, new)
    if lined is None or not _frame_kept(lined, old.cjk and new.cjk) or old.names != new.names:
        return False
    a, b, ops = lined.raw_old, lined.raw_new, lined.ops
    swapped = [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in ops if tag != "equal"]
    for i1, i2, j1, j2 in swapped:
        if all(_AMOUNT.fullmatch(t) for t in (*a[i1:i2], *b[j1:j2])):
            continue  # a number with its unit, read as one token: 75kg -> 70kg
        if i2 - i1 == j2 - j1 == 1 and _in_clock(old.body, a, i1) and _in_clock(new.body, b, j1):
            continue  # the time of the same thing: "on Thursday at 3 pm" -> "at 4 pm", 下午三点 -> 四点
        if not all(_NUMERAL.fullmatch(t) for t in (*a[i1:i2], *b[j1:j2])):
            return False
        before, after = " ".join(a[max(0, i1 - 2) : i1]), a[i2] if i2 < len(a) else ""
        if not _counted(after) or _NUMBERED.search(before) or (i1 > 0 and a[i1 - 1][:1].isupper()):
            return False
    return bool(swapped)


# A number that names which one rather than how much or when (Room 101, v2, 第二季度, 二楼, week 3), or a day of a
# weekly schedule (周五 / 周一: both may hold): the same words with another such number are another thing.
# a weekday names which class or shift of a schedule (瑜伽课在周三 / 周四 are two)
WEEKDAY = re.compile(
    r"(?:周|星期|礼拜)[一二三四五六日天]|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b", re.IGNORECASE
)
WHICH_ONE = re.compile(
    r"\b(?:room|v|version|floor|q|level|building|suite|gate|terminal|sprint|season|chapter|part|phase|step|stage"
    r"|episode|day|week|ticket|issue|pr|order|invoice|case|bug|incident|build|job|task|table|seat|row|apartment|apt"
    r"|unit|lot|bus|line|route|platform|channel|lane|zone|exit)\s*#?\d+|#\s*\d+|第[一二三四五六七八九十\d]+"
    r"|(?<![一二三四五六七八九十\d])[一二三四五六七八九十\d]+号?(?:楼|层|会议室|季度|期|线|门|床|桌|房|车厢|站台)|"
    + WEEKDAY.pattern,
    re.IGNORECASE,
)
# a number after a name or before what it numbers: "Flight 432", "TP 1357", "the 101 bus"
_NAMED_NUMBER = re.compile(r"\b[A-Z][A-Za-z]*\.?\s+#?\d+\b|\b\d+\s+(?:bus|line|route|train|tram)\b")
# An amount: a number with its unit or currency ("4.2 kg", "$500", "3 weeks", 100兆, 两万). A bare number after a word
# counts nothing ("acknowledged note number 7", "fact 3", "port 8080"): numbered notes are other notes.
_AMOUNT_SAID = re.compile(
    r"[$€£¥]\s*\d|\d\s*(?:%|(?:kg|kgs|kilos?|lbs?|pounds?|km|miles?|cm|mm|g|mg|mcg|ml|gb|mb|tb|hours?|hrs?|minutes?"
    r"|mins?|seconds?|secs?|days?|weeks?|months?|years?|yrs?|dollars?|euros?|yuan|rmb|mbps|gbps)\b)"
    r"|(?<![两\d一二三四五六七八九十百千])[两\d一二三四五六七八九十百千]+(?:万|千)|\d\s*(?:元|块|公斤|斤|克|米|公里|兆|分钟|小时|天|周|个月|年|岁|度)"
    # a rate: 房租每月3500, 月费30, 3500/月
    r"|(?:每个?|一个)(?:月|年|周|天|小时)\s*\d|月费\s*\d|\d\s*/\s*(?:月|年|小时|mo|month|hr|hour|h)\b",
    re.IGNORECASE,
)
# once more, one more: "I walk the dog again at 6 PM", "我下下周四也值班"
_ONCE_MORE = re.compile(r"\b(?:again|also|too|as well)\b|再|又|也", re.IGNORECASE)


def new_number(old: Statement, new: Statement) -> bool:
    """The same content words in any order and another amount among them ("月薪两万" / "月薪两万五", "Luna weighs 4.2
    kg." / "... 4.8 kg."): a new value of the one thing they say. Over every pair set, 65 such pairs were updates and
    none distinct once numbers that name which one, weekdays, "again" and bare numbers were set aside (those were 13
    distinct and 100 updates); of those, a number changed only in what is said of the subject ("Our office is on
    the 12th floor") was 6 updates and no distinct pair on 2026-12-05."""
    # a reason told after the new value is no other fact: "My rent is $1,600 a month since the lease renewal",
    # "我房租每月3800，续约之后就是这个数"
    told = _before_a_reason(new.text)
    if told != new.text:
        new = statement(told)
    # a letter of a code read apart from its digits ("4B", "7A") is part of the number
    words = [
        {w for w in s.words if not w.startswith("#") and not _CODE_LETTER.fullmatch(w)} for s in (old, new)
    ]
    if not words[0] or words[0] != words[1]:
        return False
    texts = (old.text, new.text)  # as written: the body reads "v1" as the number 1
    if _ONCE_MORE.search(new.body):
        return False
    if any(WHICH_ONE.search(t) or _NAMED_NUMBER.search(t) or not _AMOUNT_SAID.search(t) for t in texts):
        # a number naming which one is a new value only in what the statement says of its subject ("Our office
        # is on the 12th floor", 办公室在12楼, "listens on port 9000"), not in the subject ("Room 102 has a ...")
        return _said_of_the_same_subject(texts)
    return True


_CODE_LETTER = re.compile(r"[a-z]")
# a clause after a statement's first number: what follows a comma (not one inside a number), "since", "because"...
_BREAK = re.compile(r",(?!\d)|[，;；]|\s(?=(?:since|because|after|as of|so)\s)|\s(?=[—–]\s)", re.IGNORECASE)
_FIRST_DIGIT = re.compile(r"\d")


def _before_a_reason(text: str) -> str:
    digit = _FIRST_DIGIT.search(text)
    m = _BREAK.search(text, digit.end()) if digit else None
    return text[: m.start()].rstrip(",，;； ") if m else text


# where a statement starts saying something of its subject
_PREDICATE = re.compile(
    r"\s(?:is|are|was|were|has|have|runs?|listens?|ends?|starts?|costs?|meets?|lives?|sits?|uses?|relocated|moved)"
    r"\b|:|：|在|是|有|要|为",
    re.IGNORECASE,
)


def _said_of_the_same_subject(texts: tuple[str, str]) -> bool:
    """Both statements name their subject in the same words and numbers (A项目 / B项目 are two), and no weekday is
    among them (a weekday names which class or shift: 瑜伽课在周三 / 周四 were two)."""
    subjects = [_PREDICATE.search(t) for t in texts]
    if any(m is None for m in subjects) or any(WEEKDAY.search(t) for t in texts):
        return False
    return (
        len({frozenset(statement(t[: m.start()]).words) for t, m in zip(texts, subjects, strict=True) if m})
        == 1
    )


def _in_clock(body: str, tokens: list[str], i: int) -> bool:
    """Whether tokens[i] is the hour or the minutes of a time of day written HH:MM in the text."""
    t = tokens[i]
    if not t.isdigit():
        return False
    after = tokens[i + 1] if i + 1 < len(tokens) else ""
    before = tokens[i - 1] if i else ""
    return any(
        re.search(rf"(?<!\d){h}:{m}(?!\d)", body)
        for h, m in ((t, after), (before, t))
        if h.isdigit() and m.isdigit()
    )


def _counted(after: str) -> bool:
    """Whether the word after a number says what it counts: a plural or a unit ("6 nodes", "3 pm", "5000 yuan"),
    a Chinese measure word (六个小时, 三台); "the 101 bus", 101会议室 name one thing."""
    w = after.casefold()
    return bool(w) and (
        w in UNITS
        or (w.isascii() and w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 2)
        or w[0] in _MEASURE_ZH
    )


MEASURES = frozenset("km kg g mg lb lbs cm mm gb mb tb".split())  # a weight, a length, a size
UNITS = MEASURES | frozenset("am pm k m ms h min yuan rmb usd eur gbp dollars percent".split())
# a number with its measure, read as one token (75kg, 3.5km) or a share (15%)
_AMOUNT = re.compile(r"(?<!\d)\d+(?:\.\d+)?(?:" + "|".join(sorted(MEASURES)) + "|%)", re.IGNORECASE)
_MEASURE_ZH = frozenset("个只台本件辆位名人次元块天岁斤米杯张条套家种倍分周年月小")
# a count in digits, in Chinese, or in English words ("two kids" -> "three kids"; ordinals name one of many)
_NUMERAL = re.compile(
    r"\d+(?:[.,:]\d+)*|[零一二两三四五六七八九十百千万]+|" + "|".join(EN_CARDINALS), re.IGNORECASE
)


def _without(text: str, words: frozenset[str]) -> str:
    """`text` without the change words the new statement announces, read on their own ("... a full marathon now")."""
    for w in words:
        text = re.sub(re.escape(w), " ", text, flags=re.IGNORECASE)
    return text
