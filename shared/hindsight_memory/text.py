"""Text handling shared by store and recall: normalisation, FTS tokens (with Chinese segmentation), slots."""

import hashlib
import logging
import re
import unicodedata
from functools import lru_cache
from typing import Any

from .person_slots import PERSON_SLOTS, THEIR_RESIDENCE

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_WS = re.compile(r"\s+")
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)

STOPWORDS = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being it its this that
    these those i me my we our you your he she they them his her their what which who whom when where why how
    do does did have has had not no so than too very can could should would will shall may might must about
    into over after before again there here all any both each few more most other some such only own same just
    tell say said know remember recall please any anything something me us 的 了 是 我 你 他 她 在 吗 呢 吧 啊
    什么 哪 哪里 哪个 怎么 多少 和 与 也 都 就 还 要 说 过 个""".split()
)


def normalize(text: str) -> str:
    """Unicode NFKC, collapsed whitespace: what gets embedded, hashed and indexed."""
    return _WS.sub(" ", unicodedata.normalize("NFKC", text)).strip()


def as_sent(sent: str, normalized: str) -> str | None:
    """The text as the client sent it (outer whitespace aside), kept beside its normalised form only where they
    differ: line breaks, indentation, full-width punctuation, ligatures. Recall, dedup and search read the
    normalised form; what is shown and exported is what was sent."""
    sent = sent.strip()
    return None if sent == normalized else sent


def embedding_text(content: str, context: str | None) -> str:
    """What is embedded for a memory. The context situates it ("session 3, 2026-03-02, talking about travel");
    embedding it with the content lets a query match what a turn is about even when the turn itself is short."""
    return normalize(f"{context}\n{content}" if context else content)


# A turn this short ("14 June.", "Her name is Ottilie.") means little alone.
SHORT_CHARS, SHORT_CJK_CHARS = 80, 30


def is_short(text: str) -> bool:
    return len(text) <= (SHORT_CJK_CHARS if has_cjk(text) else SHORT_CHARS)


def content_hash(text: str) -> str:
    return hashlib.sha256(normalize(text).casefold().encode()).hexdigest()[:32]


def key(value: str) -> str:
    """A stable hex digest of a user label (tag, entity, session). Filters compare digests, never raw text."""
    return hashlib.sha256(normalize(value).casefold().encode()).hexdigest()[:24]


def has_cjk(text: str) -> bool:
    return bool(_CJK.search(text))


_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


def mostly_cjk(text: str) -> bool:
    """Written mainly in Chinese (or another CJK script): at least a third of its letters are CJK characters. An
    English sentence with one Chinese name is English; "我的 WiFi 密码" is Chinese."""
    return script_of(text) == "cjk"


def script_of(text: str) -> str:
    """ "cjk" (mainly CJK characters), "other" (no CJK at all and at least a few words), or "" when too short
    or too mixed to say ("A presto.", "先学JavaScript还是TypeScript?"). A leading speaker label ("assistant:")
    does not count."""
    m = _LEAD_LABEL.match(text)
    body = text[m.end() :] if m else text
    cjk = len(_CJK.findall(body))
    letters = len(_LETTER.findall(body))
    if cjk and cjk * 3 >= letters:
        return "cjk"
    return "other" if not cjk and letters >= 20 else ""


_LEAD_LABEL = re.compile(r"^\s*[A-Za-z][\w .'-]{0,30}[:：]\s*")


@lru_cache(maxsize=1)
def _jieba() -> Any:  # jieba ships no type information
    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


# jieba's time grows with the square of an unbroken run of Chinese (16,000 characters: a second); runs in
# written text end at punctuation long before this, so only a hostile or broken text is cut
_RUN_CHARS = 500


def _segment_cjk(run: str) -> list[str]:
    pieces = (run[i : i + _RUN_CHARS] for i in range(0, len(run), _RUN_CHARS))
    return [w for piece in pieces for w in _jieba().cut_for_search(piece) if w.strip()]


def fts_text(text: str) -> str:
    """Text for the full-text index: Chinese runs segmented into space-separated words (LanceDB's tokenizer
    would otherwise treat a whole run of Chinese characters as one token)."""
    text = normalize(text)
    if not has_cjk(text):
        return text
    return _CJK_RUN.sub(lambda m: " " + " ".join(_segment_cjk(m.group())) + " ", text).strip()


def terms(text: str) -> list[str]:
    """Content words of a text (lowercased, stopwords out), in order: used for lexical coverage."""
    words = _WORD.findall(fts_text(text).casefold())
    return [w for w in words if w not in STOPWORDS and (len(w) > 1 or has_cjk(w))]


def value_tokens(text: str) -> frozenset[str]:
    """Numbers and number-like values: two texts that differ only here state different facts."""
    return frozenset(_NUMBER.findall(normalize(text)))


# --- fact slots: "the user's budget is 5000" -> slot "budget". A new value for a slot supersedes the old one.
_FILLER = re.compile(
    r"^(?:actually|update|correction|note|fyi|now|so|ok(?:ay)?|well|also|btw|by the way|remember that|"
    r"please remember(?: that)?|更正|更新|注意|其实|现在|另外)[\s,:：，]*",
    re.IGNORECASE,
)
# A note's kind before a colon ("Lesson: ...", 教训：...) is no slot: many lessons hold at once, and the sentence
# after it says what the note is about.
_NOTE_KIND = re.compile(
    r"^(?:lessons? learned|lesson|tip|reminder|to-?do|gotcha|caveat|warning|heads-?up|idea|教训|经验|提醒|备注|心得|"
    r"待办|小贴士)\s*[:：]\s*",
    re.IGNORECASE,
)
_OWNER = re.compile(
    r"^(?:the\s+)?(?:user's|users'|user|my|our|his|her|their|your|the|我的|我们的|用户的|他的|她的|你的|我|用户)\s*",
    re.IGNORECASE,
)
# "my new address is ...": the address, announced as changed (not "the old key": that one names another thing).
_CHANGED_ONE = re.compile(r"^(?:new|current|updated|latest|present)\s+", re.IGNORECASE)
_EN_COPULA = re.compile(
    r"^(?P<subj>[^,.;!?]{2,60}?)\s+(?:is now|are now|has changed to|changed to|was changed to|is changed to|"
    r"has been (?:changed|moved|updated|set) to|(?:was |were |has been )?(?:moved|updated|set|switched) to|"
    r"is|are|=|equals|costs?)\s+(?P<val>.+)$",
    re.IGNORECASE,
)
# a colon between digits is part of the subject ("Weekly 1:1 with my manager: Mondays at 10am")
# the value first, when it reads as one (an address, a host, a number, a code): "staging.shop.dev is the staging URL"
_EN_VALUE_FIRST = re.compile(
    r"^(?P<val>[\w+-]*[./@:\d][\w./@:+-]*) (?:is|are) (?:the|my|our|your|their) (?P<subj>[a-z][\w -]{1,30})$",
    re.IGNORECASE,
)
_EN_COLON = re.compile(r"^(?P<subj>(?:[^,.;!?:]|(?<=\d):(?=\d)){2,40}):\s*(?P<val>.+)$")
_ZH_COPULA = re.compile(
    r"^(?P<subj>[^，。；！？]{1,20}?)(?:现在是|现在为|改为|改成|变成|变为|调整为|更新为|是|为|：|:)(?P<val>.+)$"
)
# "Caroline: I went ..." / "user: ..." - a label before a colon followed by a whole sentence names who spoke.
_LABEL = re.compile(r"^(?P<label>[^:：\n]{1,40}?)\s*[:：]\s*(?P<rest>.+)$")
_SLOT_TRAILING = re.compile(r"\b(?:now|currently|still|also|actually)$", re.IGNORECASE)
# A value names a thing or an amount; "is visiting next week", "is in town", "is so tired" describe a state
# or an event, and two of those about one subject do not contradict each other.
_NOT_A_VALUE = re.compile(
    r"^(?:\w+ing\b|in|at|on|to|from|with|for|about|into|so|very|really|too|quite|not|no longer|also|still|"
    r"always|never|just|going|getting|being|like|such|more|less|kind of|sort of)\b"
    # "allergic to peanuts", "afraid of dogs", "good at chess": a relation that may hold for many things at once
    r"|^\w+ (?:to|of|at|with|about|for|from|on|in|by)\b",
    re.IGNORECASE,
)


_A_KIND_OF = re.compile(
    r"^(?:(?:my|our|his|her|their|your|a|an)\b|我的|我们的|他的|她的|你的|一个|一位|一名)", re.IGNORECASE
)


# "My phone is an iPhone 12", "My car is a 2017 Honda Civic": a named model or a number is the slot's one value, where
# "Tom is a doctor" names one thing among several.
_KIN_NAMED = re.compile(r"^(?:my|our)\s+[a-z-]+(?:\s+[a-z-]+)?,?\s+(?-i:[A-Z][a-z]+)\b", re.IGNORECASE)
_A_MODEL = re.compile(r"^(?:a|an)\s+(?:\S*\d|\S+\s+\S*\d|(?-i:[A-Z])|i(?-i:[A-Z]))", re.IGNORECASE)


ROLES = frozenset(
    {"user", "assistant", "system", "human", "ai", "bot", "agent", "tool", "q", "a", "用户", "助手"}
)


# "Update: ...", "Note: ...", "更正：..." lead into a statement; they name no speaker.
_LEAD_INS = frozenset(
    """update updated correction note notes fyi ps reminder remember important warning info pref prefs preference
    preferences todo tip tips fact facts status goal goals plan plans appt deadline location address schedule
    noted memo memory observation context summary saved logged recorded insight lesson decision constraint
    requirement rule instruction instructions feedback hobby hobbies allergy allergies diet health autopay
    更新 更正 注意 记住 提醒 备注 重要 记录 备忘 摘要 偏好 总结 要求 约束 决定 经验""".split()
)
# A short Chinese label ending in one of these is a key before its value (牙医预约：..., 座驾：..., 住址：...), not a name.
_KEY_END_ZH = frozenset("约址话期间号码驾注醒况态标单表型额率点好会票查车")
# Common surnames: a Chinese label before a colon is a name when it starts with one (or 小/老/阿) and holds no 的;
# 儿子：王子轩, 组里周会：每周一, 用户的车：比亚迪 are keys before their values.
ZH_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆"
    "汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
)
_NAME = re.compile(r"[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*){0,2}")


# "Tom: I'm vegan", 小周：我在阿里上班: short, and said ("Plus-one: my friend Omar" is a note)
_SPEAKS = re.compile(r"(?:i|i'm)\b|我", re.IGNORECASE)
_LABEL_IN = re.compile(r"[:：](?!\d)|(?<!\d)[:：]")  # "Caroline: Note: ..."; the colon of "18:00" is no label


def speaker_of(text: str) -> tuple[str, str]:
    """Split a leading speaker label off a sentence: ("caroline", "I went ...") or ("", text). A label is a role
    ("user", "助手") or a name ("Caroline", "Dr Smith", "小王") before a whole sentence; "Rate limit for the API:
    100 a minute" has a subject before its colon, not a speaker."""
    m = _LABEL.match(text)
    if not m:
        return "", text
    raw, rest = m.group("label").strip(), m.group("rest")
    label = raw.casefold()
    if label in ROLES:
        return label, rest
    long_rest = (
        len(rest.split(None, 4)) > 3
        or (has_cjk(rest) and len(rest) > 8)
        or bool(_LABEL_IN.search(rest) or _SPEAKS.match(rest))
    )
    named = bool(_NAME.fullmatch(raw)) or (
        has_cjk(raw)
        and 2 <= len(raw) <= 4
        and raw[0] in ZH_SURNAMES + "小老阿"
        and "的" not in raw
        and raw[-1] not in _KEY_END_ZH
    )
    return (label, rest) if long_rest and named and label not in _LEAD_INS else ("", text)


# A question or a request: the turn after it answers, and means little without it ("When is it?" / "14 June.").
# Read over the end of a turn, where the question of a longer turn sits.
_INVITES_REPLY = re.compile(
    r"[?？]|(?:吗|呢|什么|哪|谁|几|多少)[。!！]?\s*$|\b(?:please|can you|could you|would you|help me|let me know|"
    r"remind me)\b|请|帮我|麻烦|能不能|可以.{0,8}吗",
    re.IGNORECASE,
)


def invites_reply(text: str) -> bool:
    """Whether a turn asks something of the other side, so that the next turn is its answer."""
    return bool(_INVITES_REPLY.search(text[-120:]))


_USER_ROLES = frozenset({"user", "human", "用户", "我"})
_AGENT_ROLES = frozenset({"assistant", "ai", "bot", "agent", "助手"})


def side_of_turn(text: str) -> str:
    """ "user" or "agent" when a turn starts with a role label ("user: ...", "assistant: ..."), else ""."""
    label, _ = speaker_of(text)
    return "user" if label in _USER_ROLES else "agent" if label in _AGENT_ROLES else ""


_NAME_LABEL = re.compile(
    r"^\s*([A-Z][\w'.-]{0,30}(?: [A-Z][\w'.-]{0,30})?|[\u4e00-\u9fff]{2,4})\s*[:：]\s*\S"
)


def speaker_label(text: str) -> str:
    """Who a turn is by, from its leading label: a role ("user", "assistant") or a name ("Caroline: ...",
    "小雨: ..."), casefolded; "" without one."""
    label, _ = speaker_of(text)
    if label:
        return label
    m = _NAME_LABEL.match(text)
    return m.group(1).casefold() if m else ""


def with_speaker(content: str, speaker: str) -> str:
    """The content as its speaker said it ("Caroline: I went to a support group."), unless it opens with a speaker
    already. Who said a turn is part of what it means ("my dog" is Caroline's dog): embedded, indexed and compared
    with the words, as a label in the content would be."""
    name = normalize(speaker)
    if name.isascii() and name.islower() and name.casefold() not in ROLES:
        name = name.title()  # a name is told from a word by its capital
    if not name or content.casefold().startswith(f"{name.casefold()}:") or speaker_of(content)[0]:
        return content
    return f"{name}: {content}"


_A_REPLY = re.compile(
    r"(?i)[!?]|^\W*(?:yes|yeah|yep|yup|no|nope|nah|ok|okay|sure|thanks|thank|thx|ty|hi|hello|hey|bye|lol|haha|wow|"
    r"oh|ah|hmm|cool|nice|great|awesome|same|right|fine|good|sorry|please|pls|not|never|maybe|me|you|i|we|they|it|"
    r"that|this|so|well|agreed|exactly|true|totally|definitely|absolutely|of course)\b"
)


def extract_slot(text: str) -> str | None:
    """The subject a factual sentence assigns a value to, normalised, or None when it is not of that shape."""
    t = normalize(text)
    # a full stop ends a sentence before a space or the end, not inside "v2.3" or "shop.dev"
    first = re.split(r"(?<=[.!?])\s+|(?<=[。！？])\s*", t, maxsplit=1)[0].rstrip(".!?。！？")
    speaker, first = speaker_of(first)
    first = _NOTE_KIND.sub("", _FILLER.sub("", first))
    for name, pattern in PERSON_SLOTS:
        if pattern.search(first):
            return f"{speaker}: {name}" if speaker else name
    # someone named, or of the family: "Gabe lives in Austin" / "Gabe: moved to Denver", 我姐住在武汉 / 我姐搬去长沙了
    if theirs := THEIR_RESIDENCE.match(first):
        who = (theirs.group("who") or theirs.group("kin")).casefold()
        return f"{speaker}: {who}: residence" if speaker else f"{who}: residence"
    m = (
        _ZH_COPULA.match(first)
        if has_cjk(first[:12])
        else _EN_VALUE_FIRST.match(first) or _EN_COPULA.match(first) or _EN_COLON.match(first)
    )
    if not m:
        return None
    value = m.group("val").strip()
    if (
        m.re is not _EN_VALUE_FIRST
        and not has_cjk(value)
        and (len(value.split()) > 5 or _NOT_A_VALUE.match(value))
    ):
        return None
    # "Marco is my accountant", "Tom is a doctor", "马可是我的会计": what someone is to us, of which there may be
    # several; "my accountant is Marco" assigns the one value of a slot.
    # ... unless the value is a person named by relation and name ("My emergency contact is my sister Jenna",
    # "Emergency contact: my husband Mark"): one of ours, given as the value of a slot.
    if _A_KIND_OF.match(value) and not _A_MODEL.match(value) and not _KIN_NAMED.match(value):
        return None
    # "Caroline: Yes!", "Sam: lol same": a name and a reply; "Budget: 5000", "Editor: Sublime Text": facts
    if (
        m.re is _EN_COLON
        and not re.search(r"\d", value)
        and re.fullmatch(r"[A-Z][\w'-]*", m.group("subj").strip())
        and _A_REPLY.search(value)
    ):
        return None
    # "For the record: my flight is ..." - a lead-in before a colon is not part of the subject.
    subj = (
        re.split(r"(?<!\d)[:：]|[:：](?!\d)", m.group("subj"))[-1]
        if m.re is not _EN_COLON
        else m.group("subj")
    )
    subj = _SLOT_TRAILING.sub("", subj.strip()).strip()
    subj = _CHANGED_ONE.sub("", _OWNER.sub("", subj).strip()).strip().casefold()
    if not subj or subj in STOPWORDS or len(subj) > 40:
        return None
    # Pronoun subjects ("it is", "that was") say nothing about which fact they set.
    if subj in {"it", "this", "that", "there", "he", "she", "they", "i", "we", "you", "这", "那", "它"}:
        return None
    if len(subj.split()) > 5:
        return None
    # Two speakers' "favourite book" are two facts: the slot belongs to whoever said it.
    return f"{speaker}: {subj}" if speaker else subj
