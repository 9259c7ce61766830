"""A sentence read into the parts that fact comparison looks at (writer/facts.py): content words in order,
numbers (English and Chinese number words read as numbers), negation, the speaker, change words ("now", "改成"),
direction words ("over", "to", 比), names, and the fact slot. English words are stemmed; Chinese is read character by
character, since word segmentation varies between rewordings of one sentence."""

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache

from ..text import ROLES, STOPWORDS, ZH_SURNAMES, extract_slot, has_cjk, key, normalize, speaker_of
from .asides import set_aside
from .clock import ZH_TIME, zh_clock
from .lexicon import (
    CHANGE_EN,
    CHANGE_ZH,
    EN_OPPOSITE,
    LEAD_IN,
    PRESENT,
    READ_AS,
    STILL,
    THE_USER_ZH,
    UNCHANGED_EN,
    UNCHANGED_ZH,
    ZH_QUALITIES,
    one_meaning,
)
from .values import EN_NUMBERS, en_dates, en_values, zh_values
from .zh_numerals import ZH_DIGITS, ZH_UNITS, zh_number

# --- English words
EN_WORD = re.compile(r"[a-z0-9]+(?:[./@:_'-][a-z0-9]+)*", re.IGNORECASE)
_CONTRACTIONS = [
    (re.compile(r"\bcan't\b|\bcannot\b", re.I), "can not"),
    (re.compile(r"\bwon't\b", re.I), "will not"),
    (re.compile(r"n't\b", re.I), " not"),
    (re.compile(r"'m\b", re.I), " am"),
    (re.compile(r"\bim\b"), "i am"),  # "im allergic", typed fast; "IM" (instant messaging) is left
    (re.compile(r"'re\b", re.I), " are"),
    (re.compile(r"'ve\b", re.I), " have"),
    (re.compile(r"'ll\b", re.I), " will"),
    (re.compile(r"'d\b", re.I), " would"),
    (re.compile(r"['’]s\b", re.I), " poss"),  # a possessive: what follows belongs to someone
]
# Words that carry no fact of their own: pronouns, articles, auxiliaries, fillers.
_LIGHT_EN = STOPWORDS | frozenset(
    """am is are was were be been being get gets got go goes going has have had having do does did will would
    shall should can could may might must also really just please remember note fyi noted keep kept called named
    name use uses used using longer anymore more our ours we us my mine i me you your yours he she they it its
    one ones very about around roughly approximately usually always currently every each poss user users
    btw lol ugh anyway anyways haha hah ok okay oh tbh imo honestly basically pls plz mentioned reiterated reminded still""".split()
)
_NEGATION_EN = frozenset({"not", "no", "never", "none", "nothing", "nobody", "neither", "nor", "without"})
# After these, the next word gives a direction: "email over Slack", "from Tokyo to Paris", "reports to Bob".
_EN_DIRECTIONS = frozenset({"over", "than", "to", "from", "vs", "versus", "instead", "rather", "poss"})
_EN_LITOTES = re.compile(
    r"\b(?:(?:is|are|was|were|am|be|do|does|did)\s+)?not\s+(?:(?:very|too|that|so)\s+)?("
    + "|".join(EN_OPPOSITE)
    + r")\b",
    re.IGNORECASE,
)
_EN_IDIOMS = [
    (re.compile(r"\bcan not (?:stand|bear)\b", re.I), "hate"),
    # a restriction said as what one does not eat or cannot take ("I don't eat meat, I'm vegetarian", "can't take
    # penicillin, I'm allergic"): the same fact as the diet or the allergy, no negation of it
    (re.compile(r"\b(?:do|does) not eat (?:any )?meat\b", re.I), "vegetarian"),
    (re.compile(r"\bcan not (?:really )?(?:eat|take|have|drink|tolerate)\b", re.I), "avoid"),
    # not eating or liking something is avoiding or disliking it ("I don't eat pork" / "I avoid eating pork")
    (re.compile(r"\b(?:do|does) not eat\b", re.I), "avoid eating"),
    (re.compile(r"\b(?:(?:am|is|are) not a (?:big )?fan of|(?:do|does) not like)\b", re.I), "dislike"),
    (re.compile(r"\btwice\b", re.I), "2 times"),
    # working from home is working remote, as "WFH" reads ("I work from home on Fridays" / "Fridays I'm WFH")
    (re.compile(r"\bwork(?:s|ing|ed)?(?: remotely)? (?:from|at) home\b", re.I), "remote"),
    # whom one reports to is one's manager ("I report to Priya" / "My manager is Priya")
    (
        re.compile(
            r"\b(?:i|user|the user)\s+(now\s+|still\s+)?(?:directly\s+)?reports?\s+(?:directly\s+)?to\b",
            re.I,
        ),
        r"my manager is \1",
    ),
    # "X, not Y" contrasts, as "X rather than Y" does; it negates nothing ("Call me Sam, not Samuel")
    (
        re.compile(
            r",\s*not\s+(?!(?:sure|yet|really|much|very|too|so|quite|always|only|just|even|at|that|because)\b)"
            r"(?=(?:\w+\s+){0,2}\w+\s*(?:[,.;!?]|$))",
            re.I,
        ),
        ", rather than ",
    ),
    # and so does "(not Y)", "(don't use Y)" after X: "We use pnpm (don't use npm)"
    (re.compile(r"\(\s*(?:do not|not)\s+(?:use\s+)?(?=[^()]{1,30}\))", re.I), "(rather than "),
]
_NUM_UNIT = re.compile(r"^(\d+(?:[.,:]\d+)*)([a-z]+)$")
_DIGITS = re.compile(r"\d+(?:[.:]\d+|,\d{3}(?!\d))*")  # "3,18" is two numbers, "2,100" one
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
_NUM_WORD = re.compile(r"(\d+)-([a-z]{2,})")

# --- Chinese: compared character by character (word segmentation varies between rewordings of one sentence)
# Numerals before a measure word or unit ("三点", "一万五千元"), or any run with 十/百/千/万 in it; at most 20
# numerals, so a long run of them is read in linear time.
_ZH_NUMBER = re.compile(
    r"(?<![统唯之同单专逐])"  # not from the 一 that ends a word: 统一四个 is 统一 and 四个, no 14
    r"(?:[零〇一二三四五六七八九]{3,20}"  # a code read digit by digit (六零二一一八)
    r"|[零〇一二两三四五六七八九]{1,20}(?=[个点号日月年岁天次元块分周位辆只件种层楼级台名人米斤公倍型代季小毫克升页份首杯瓶双套间节门遍届场轮回碗盒袋勺罐])"
    r"|[零〇一二两三四五六七八九]{0,20}[十百千万亿][零〇一二两三四五六七八九十百千万亿]{0,20})"
)
_LIGHT_ZH_WORDS = re.compile(
    r"正好|刚好|恰好|(?<=[节日号])那天|记住|注意|仍然|仍旧|依然|依旧|照旧|提到|使用|采用|位于|举行|举办|名字|名叫|一点(?=[儿都也点])|大概|大约|差不多|左右|一般|通常|平时|平常|固定(?!电话|资产|工资|收入)|一下|一些|已经|正在|"
    + THE_USER_ZH
    + r"|助手|我们|你们|他们|她们|一直|"
    r"的话|的是|备注|请|我家|我们家|挺|蛮|比较|十分|特别|相当|非常|那边|这边|千万(?=[别不要记])|(?<![一二两三四五六七八九十百千万亿])一(?=[个辆只件位名天次本张台条年周]|月(?![\d一二三四五六七八九十]))"
    r"|每(?=[天周月年日晚次个\d一二两三四五六七八九十]|星期)|用户家|(?<=[我你他她们天周月年上次])都(?!市)"
    r"|(?<=[一这那每])[个辆只件位名本张台条部把]"
)
_LIGHT_ZH = frozenset(
    "的了是为在吗呢吧啊呀哈啦嘛哦呗也就还和与着把被由将我你他她它们个这那有会能要很得地之所其以叫用"
)
_ZH_DIRECTIONS = frozenset("比从到给向")
_ZH_NOT_DIRECTION = re.compile("到期|到底|从来|从小|比如|比赛|给力")  # words, not a marker before one
# (要不 is "or else", and 晚上, 早饭 are times of day: 要不晚上失眠 is no "not late")
_ZH_LITOTES = re.compile(
    r"(?<!要)不(?:太|很|算|怎么)?([" + "".join(ZH_QUALITIES) + r"])(?!兴|方|概|家|人|学|气|上|饭|餐|班)"
)
_NEGATION_ZH = re.compile(r"不|没|未|别|无|非")
_NOT_NEGATION_ZH = re.compile(
    r"无线|非常|别人|别的|特别|分别|区别|差别|级别|类别|性别|个别|告别|识别|未来|没错|(?:^|[，,。；;])不过|不错|并非|不久|不仅|不管|无论"
)


@dataclass(frozen=True)
class Statement:
    """The parts of a text the decision compares, computed once per text."""

    text: str
    speaker: str
    words: tuple[str, ...]  # content words in order (numbers as '#n'); English stemmed, Chinese per character
    numbers: frozenset[str]
    negated: bool
    change: bool  # announces a change ("now", "改成"...)
    slot: str | None
    cjk: bool
    names: tuple[str, ...] = ()  # capitalised words after the first, in order (English)
    directions: tuple[tuple[str, str], ...] = ()  # (marker, the word after it): ("over", "slack")
    entities: frozenset[str] = field(default_factory=frozenset)
    # the change words ("now", "left", "改成"), which `words` leaves out
    changes: frozenset[str] = field(default_factory=frozenset)
    body: str = (
        ""  # the text as read: no speaker, contractions expanded, negated qualities as their opposites
    )
    # beside its fact ("... — flag it", "main (not master)"): the fact alone, the words set aside (writer/asides.py)
    fact: "Statement | None" = None
    aside: frozenset[str] = field(default_factory=frozenset)
    alone: bool = False  # this is the fact alone


def statement(text: str, entities: tuple[str, ...] | list[str] = (), slot: str | None = None) -> Statement:
    """The parts of `text` the decision reads; `slot`: the fact slot the client named (else read from the text)."""
    t, speaker, body, cjk = _read(text)
    whole = _statement(t, speaker, body, cjk, frozenset(key(e) for e in entities), slot or extract_slot(t))
    cut = set_aside(body, cjk)
    if cut is None:
        return whole
    fact = _statement(t, speaker, cut[0], cjk, whole.entities, whole.slot)
    aside = frozenset((_zh_words if cjk else _en_words)(cut[1])[0]) - set(fact.words)
    return replace(whole, fact=replace(fact, aside=aside, alone=True), aside=aside)


def _statement(
    t: str, speaker: str, body: str, cjk: bool, entities: frozenset[str], slot: str | None
) -> Statement:
    words, numbers, directions = _zh_words(body) if cjk else _en_words(body)
    raw = EN_WORD.findall(body)
    changes = (CHANGE_ZH if cjk else CHANGE_EN).findall(body)
    if STILL.search(body) and all(c.casefold() in PRESENT for c in changes):
        changes = []  # "Jenna is still living in Portland these days": no change
    return Statement(
        text=t,
        speaker=speaker,
        words=words,
        numbers=numbers,
        negated=_negated(body, cjk),
        change=bool(changes),
        slot=slot,
        cjk=cjk,
        names=tuple(_ZH_NAME.findall(one_meaning(body))) if cjk else capitalised(raw[1:]),
        directions=directions,
        entities=entities,
        changes=frozenset(c.casefold() for c in changes),
        body=body,
    )


# cached: the sharper reading of a pair reads each text again (speakers.one_person, reading.reading)
@lru_cache(maxsize=4096)
def _read(text: str) -> tuple[str, str, str, bool]:
    """The text normalised, its speaker, its body and whether it is Chinese. Contractions expanded ("can't" -> "can
    not") and negated qualities read as their opposites, once: the words, the negation and the change words of a
    statement all read this body."""
    t = normalize(text)
    speaker, body = speaker_of(t)
    if speaker and speaker not in ROLES and not _PERSONAL.search(body):
        # a note's key, not someone speaking: "Dentist: Dr. Okafor (Brightsmile Dental)", "Daughter Maya: violin
        # Thursdays 4:30"; who speaks says "I", "my", "you" ("Caroline: my dog is called Biscuit")
        speaker, body = "", t
    body = LEAD_IN.sub("", body)
    cjk = has_cjk(body)
    return t, speaker, _litotes(body, cjk), cjk


_PERSONAL = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|we|we're|us|our|you|your|you're)\b|我|你|您|咱", re.IGNORECASE
)


def capitalised(words: list[str]) -> tuple[str, ...]:
    """The capitalised words (casefolded, in order), "I" aside: what reads as a name in English."""
    return tuple(w.casefold() for w in words if w[0].isupper() and w != "I")


def _expand(text: str) -> str:
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return text


# "one" standing for a thing already named ("the blue one", "a new one", "this one,"), not a count of it
_PRONOUN_ONE = re.compile(
    r"\b((?:the|a|an|this|that|which|another|any|each|every)(?:\s+[a-z]+)?)\s+one\b(?=\s*(?:[.,;:!?)]|$))",
    re.I,
)


def _en_words(body: str) -> tuple[tuple[str, ...], frozenset[str], tuple[tuple[str, str], ...]]:
    body = _HANDLE.sub(lambda m: re.sub(r"[.-]", "_", m.group(1)), _PRONOUN_ONE.sub(r"\1", body))
    numbers = {n.replace(",", "") for n in _DIGITS.findall(body)}
    out: list[str] = []
    directions: list[tuple[str, str]] = []
    marker: str | None = None
    previous = ""
    for w in EN_WORD.findall(CHANGE_EN.sub(" ", body)):
        lw = w.casefold()
        before, previous = previous, lw
        if lw in _EN_DIRECTIONS:
            # "the user's mother" is "my mother": the user's possessive names no one whose role could swap
            marker = None if lw == "poss" and before in ("user", "users") else lw
            if lw != "poss":
                continue
        if lw in EN_NUMBERS:
            numbers.add(EN_NUMBERS[lw])
            parts = [f"#{EN_NUMBERS[lw]}"]
        elif lw in _LIGHT_EN or lw in _NEGATION_EN:
            continue
        else:
            parts = _en_parts(lw)
        if marker and parts:
            directions.append((marker, parts[0]))
            marker = None
        out += parts
    return tuple(out), frozenset(numbers), tuple(directions)


def _en_parts(w: str) -> list[str]:
    """'64gb' -> ['#64', 'gb'], 'half-marathon' -> ['half', 'marath'], '555-0142' stays one value."""
    if _DIGITS.fullmatch(w):
        return [f"#{w.replace(',', '')}"]
    if _ORDINAL.fullmatch(w):  # 1st, 22nd: the number
        return [f"#{w[:-2]}"]
    if m := _NUM_WORD.fullmatch(w):  # 100-char, 5-day
        return [f"#{m.group(1)}", *_en_parts(m.group(2))]
    m = _NUM_UNIT.match(w)
    if m:
        return [f"#{m.group(1).replace(',', '')}", m.group(2)]
    if _CODE_NAME.fullmatch(w):  # "tf-state-eu", "order_prod": a name as written, a value like a number
        return [w]
    if "-" in w and all(p.isalpha() for p in w.split("-")):
        parts = w.split("-")
        if min(len(p) for p in parts) <= 2:  # one word written with a hyphen: "wi-fi", "e-mail", "x-ray"
            joined = "".join(parts)
            return [_stem(READ_AS.get(joined, joined))]
        return [_stem(READ_AS.get(p, p)) for p in parts if p not in _LIGHT_EN]
    stems = [_stem(p) for p in READ_AS.get(w, w).split()]  # a short form of two words: "tl" is "tech lead"
    return [_SAME_STEM.get(stem, stem) for stem in stems]


# An identifier: words joined by "_", or three or more by "-" with no small word among them ("up-to-date",
# "mother-in-law" are prose).
_CODE_NAME = re.compile(
    r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+|(?![a-z-]*-(?:to|of|in|on|the|a|by|and|or)(?:-|$))[a-z]+(?:-[a-z0-9]+){2,}"
)
# a handle ("@kwong-dev"): one name as written, its parts no words of their own ("@kwong" is another handle)
_HANDLE = re.compile(r"(?<![\w.@])@([a-z0-9][\w.-]*[a-z0-9]|[a-z0-9])", re.IGNORECASE)
_HYPHENATED = frozenset("wi-fi e-mail x-ray t-shirt e-book e-bike hi-fi k-pop co-op check-in".split())
_SAME_STEM = {"birth": "born", "birthd": "born"}  # "date of birth", "birthday": when one was born


def _stem(w: str) -> str:
    """A light stemmer, enough for 'runs'/'running'/'run' and 'shipped'/'shipping' to meet, and for British and
    American spellings ('colour'/'color', 'organise'/'organize')."""
    if not w.isalpha() or len(w) <= 3:
        return w
    w = re.sub(r"our(?=s?$|ite|ed|ing|able)", "or", w)
    w = re.sub(r"is(?=e[sd]?$|ing$|ation)", "iz", w)
    for suffix in ("ingly", "ing", "ied", "ies", "ed", "es", "er", "ly", "s"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if len(w) > 3 and w[-1] == w[-2] and w[-1] not in "aeiouls":
        w = w[:-1]  # runn -> run
    while len(w) > 3 and w.endswith("e"):
        w = w[:-1]  # live, lives, living, lived -> liv; coffee, coffees -> coff
    return w[:6]


# The negated-quality pairs as stems (the words statements compare): one swapped for the other never merges.
EN_OPPOSITES = {frozenset((_stem(a), _stem(b))) for a, b in EN_OPPOSITE.items()}


# a month and day written with a dot in Chinese text (项目ddl：6.30, 10.1–10.4) is the date 6月30日, not a decimal:
# never a version (after a name or 版本: Python 3.9, 版本：1.29), nor before a unit, a currency or 版
_ZH_DOT_DATE = re.compile(
    r"(?<![\w.])(1[0-2]|[1-9])\.(3[01]|[12]\d|[1-9])(?![\d.%])(?!\s*(?:版|元|块|倍|万|亿|级|分|米|斤|克|kg|g\b))"
)
_VERSION_BEFORE = re.compile(r"[A-Za-z][\w+-]*\s*$|版本?\s*[:：是为]?\s*$")


def _zh_date(m: re.Match[str]) -> str:
    if _VERSION_BEFORE.search(m.string[max(0, m.start() - 16) : m.start()]):
        return m.group()
    return f"{m.group(1)}月{m.group(2)}日"


def _zh_words(body: str) -> tuple[tuple[str, ...], frozenset[str], tuple[tuple[str, str], ...]]:
    body = _ZH_DOT_DATE.sub(_zh_date, body)
    numbers = {n.replace(",", "") for n in _DIGITS.findall(body)}
    text = one_meaning(CHANGE_ZH.sub(" ", _LIGHT_ZH_WORDS.sub(" ", body)))
    out: list[str] = []
    # Whose it is: the content character before 的 ("小王的经理是小李" / "小李的经理是小王" swap the possessor).
    directions: list[tuple[str, str]] = [
        ("的", m.group(1)) for m in re.finditer(r"(\w)的(?=\w)", body) if m.group(1) not in _LIGHT_ZH
    ]
    marker: str | None = None
    pos = 0
    token = re.compile(r"[a-z0-9]+(?:[./@:_'-][a-z0-9]+)*|" + _ZH_NUMBER.pattern + r"|.", re.IGNORECASE)
    while pos < len(text):
        m = token.match(text, pos)
        assert m is not None  # the last alternative matches any character
        pos = m.end()
        t = m.group()
        # A numeral alone, with no measure word after it, is a number only as an ordinal or a weekday (第一, 周三,
        # 初一); inside a word (统一, 一般, 唯一) it is a character.
        lone = (
            len(t) == 1
            and t in ZH_DIGITS
            and not _ZH_NUMBER.match(text, m.start())
            and not (m.start() and text[m.start() - 1] in "第周期拜初")
        )
        value = zh_number(t) if (t[0] in ZH_DIGITS or t[0] in ZH_UNITS) and not lone else None
        if value is not None:
            numbers.add(str(value))
            parts = [f"#{value}"]
        elif re.fullmatch(r"[a-z0-9]", t[0], re.IGNORECASE):
            # Latin words joined by "-" or "_" inside Chinese name a thing as written (order-prod, xm-code)
            code = re.fullmatch(r"[a-z0-9]+(?:[-_][a-z0-9]+)+", t, re.I) and t.casefold() not in _HYPHENATED
            parts = [t.casefold()] if code else _en_parts(t.casefold())
        elif t in _ZH_DIRECTIONS and not _ZH_NOT_DIRECTION.match(text, m.start()):
            marker = t
            continue
        elif not t.strip() or re.fullmatch(r"[\W_]", t) or t in _LIGHT_ZH:
            continue
        else:
            parts = [t]
        if marker:
            directions.append((marker, parts[0]))
            marker = None
        out += parts
    return tuple(out), frozenset(numbers), tuple(directions)


# whom one reports to is one's manager: 我向陈总汇报 / 我的领导是陈总
_REPORTS_TO_ZH = re.compile(r"(?:我|用户)(?:现在|目前|直接)?(?:改)?向([\u4e00-\u9fffA-Za-z]{1,4}?)汇报")


def _litotes(body: str, cjk: bool) -> str:
    """English contractions expanded, then a negated quality read as its opposite: 不远 -> 近, "isn't far" -> "near",
    "can't stand" -> "hate"."""
    if cjk:
        body = _REPORTS_TO_ZH.sub(r"我的领导是\1", UNCHANGED_ZH.sub("", body))
        body = body.replace("忌口", "不吃")  # 忌口：香菜 / 不吃香菜
        return _ZH_LITOTES.sub(lambda m: ZH_QUALITIES[m.group(1)], zh_values(ZH_TIME.sub(zh_clock, body)))
    body = UNCHANGED_EN.sub("", en_values(en_dates(_expand(body))))
    for pattern, repl in _EN_IDIOMS:
        body = pattern.sub(repl, body)
    return _EN_LITOTES.sub(lambda m: EN_OPPOSITE[m.group(1).casefold()], body)


_ZH_NAME = re.compile(
    f"[小老阿][{ZH_SURNAMES}]|[{ZH_SURNAMES}](?:老师|经理|总|医生|律师|主任|阿姨|叔叔|叔|大爷|奶奶|姐|哥)"
    r"|[\u4e00-\u9fff]{2}(?:银行|证券)"  # 招商银行 / 建设银行: two banks, not one reworded
)


def _negated(body: str, cjk: bool) -> bool:
    if cjk:
        return bool(_NEGATION_ZH.search(_NOT_NEGATION_ZH.sub("", body)))
    return any(w.casefold() in _NEGATION_EN for w in EN_WORD.findall(body))
