"""How a new statement relates to a stored one: the same fact again (`duplicate`), a new value of the same fact
(`update`), or another fact (`distinct`). The writer merges duplicates and supersedes updated facts; whatever it
cannot tell stays `distinct`, so both memories are kept and nothing is lost.

No single signal decides. The embedding cosine says whether two texts are about the same thing at all; the
content words each side has and the other lacks, and where they sit, say what differs: a word standing in for
another ("billing" for "shipping", "peanuts" for "shellfish", 猪肉 for 牛肉) is another fact, not a rewording;
numbers and dates (English and Chinese number words read as numbers), negation, the speaker ("user:", "Caroline:"),
the order around "over", "to", "from" and 的, names that swap places, a Chinese character swapped for its opposite
(入/出), words announcing a change ("now", "changed to", "no longer", "改成", "不再", "现在是"), the fact slot (the
subject a sentence gives a value to) and the client's entities. Where a word was swapped but nothing else differs,
a sharper look at the two whole sentences (the model's symmetric, query-side embedding) tells a synonym from a
different thing, as far as it can: it reads "older sister" / "younger sister" as close as a rewording, so where one
word was put in another's place and all else stayed, the bar is high and true synonyms below it ("answers" /
"replies") stay two memories; where the sentence was rebuilt around the same things ("I drive a Civic" / "My car is
a Civic"), a lower bar serves, since no sentence rebuilt around another thing read as close. Measured on bench/pairs.jsonl
(bench/pairs.py; docs/benchmarks.md, "Dedup and supersede")."""

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .asides import compared
from .changed import another_thing_changed, someone_elses_now
from .clock import clock_fold
from .contacts import new_address
from .favourite import new_favourite
from .frames import TOKEN, new_count, new_number, tagged
from .lexicon import PROPOSED
from .measures import dimensions
from .people import someone_else, someone_elses
from .products import another_of_its_kind
from .renamed import new_holder
from .retold import both_stopped, of_the_past, told_again, turned_round
from .reworded import ALSO, DEICTIC, announces, contrasted, reworded
from .slots import diet_named_again, manager_named_again, one_slot
from .speakers import about_the_speaker, same_speaker
from .stages import new_stage, other_stages
from .statements import EN_WORD, Statement, _stem, capitalised, statement
from .thresholds import Thresholds, thresholds_for
from .weighed import weighed_again

__all__ = ["Relation", "Statement", "Thresholds", "Verdict", "relate", "statement", "thresholds_for"]

Relation = Literal["duplicate", "update", "distinct"]


@dataclass(frozen=True)
class Verdict:
    relation: Relation
    reason: str
    # a duplicate whose new text holds every content word of the old and more: the merged memory takes its words
    fuller: bool = False


CHANGE_OVERLAP = 1 / 3  # share of the shorter statement's content words (numbers aside) the other must hold
OLDER = "a new age, grade or year of study"


# Chinese units of a date: shared, they say two statements both hold a date, not one subject ("信用卡每个月都全额还款"
# / "搬家定在8月17号" shared only 月 and read as a change of one thing; 号 is also a number: 手机号; 点 and 分 are in
# too many words)
_CALENDAR_ZH = frozenset("年月日")


def _same_text(a: str, b: str) -> bool:
    """The same text, or the same letters and numbers spaced or punctuated otherwise ("Editor: VS Code" / "editor:
    vscode", Wi-Fi / wifi); "👍" is only "👍"."""
    if a.casefold() == b.casefold():
        return True
    letters = [re.sub(r"[\W_]+", "", t.casefold()) for t in (a, b)]
    return letters[0] == letters[1] != "" and _DIGITS.findall(a) == _DIGITS.findall(b)


_DIGITS = re.compile(r"\d+")


def _overlap(old: Statement, new: Statement, aside: frozenset[str] = frozenset()) -> float:
    a = {w for w in old.words if not w.startswith("#") and w not in _CALENDAR_ZH and w not in aside}
    b = {w for w in new.words if not w.startswith("#") and w not in _CALENDAR_ZH and w not in aside}
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


_DUE_DATE = re.compile(r"\bdue\b|\bdeadline\b|截止|到期", re.IGNORECASE)
# a date or a day in a statement: a month's name or number with a day, a weekday, an ordinal day, 3/15, 5号
_A_DATE = re.compile(
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d|\b\d{1,2}(?:st|nd|rd|th)\b|"
    r"\b\d{1,2}[/.-]\d{1,2}\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:today|tomorrow|tonight)\b|"
    r"\b(?:january|february|march|april|june|july|august|september|october|november|december|q[1-4])\b|"
    r"\bend of (?:the )?(?:week|month|quarter|year)\b|"
    r"\d{1,2}\s*[月号日]|周[一二三四五六日天]|星期|明天|今天|下周|月底|月初",
    re.IGNORECASE,
)


def _other_measure(old: Statement, new: Statement) -> bool:
    """Each side measures something the other does not (a distance, a duration, a weight, an amount of money)."""
    a, b = dimensions(old.text), dimensions(new.text)
    return bool(a - b and b - a)


def _turned(old: Statement, new: Statement) -> bool:
    """Same words, but what follows 'over', 'to', 'from', 's... changed, or two names swapped places."""
    # Per marker, the words after it that both statements hold: none in common is a swap ("Slack over email" /
    # "email over Slack"); a marker repeated ("the user's wife's name") or followed by a word the other lacks (a
    # rebuilt sentence: 家里的狗 / 家里养的柯基犬) is no swap.
    for m in {m for m, _ in old.directions} & {m for m, _ in new.directions}:
        after_old = {w for k, w in old.directions if k == m and w in new.words}
        after_new = {w for k, w in new.directions if k == m and w in old.words}
        if after_old and after_new and not after_old & after_new:
            return True
    # the same place gone to instead of come from: "flight to Denver" / "flight from Denver"
    for m, other in (("to", "from"), ("from", "to")):
        if any(k == m and (other, w) in set(new.directions) - set(old.directions) for k, w in old.directions):
            return True
    if _sides_swapped(old, new) or _people_turned(old, new) or turned_round(old, new):
        return True
    # The first word counts here: "Alice pays Bob" / "Bob pays Alice" swap two names, one of them sentence-initial;
    # "Leo's" is the name Leo.
    a, b = (capitalised([t for t in EN_WORD.findall(s.body) if t != "poss"]) for s in (old, new))
    shared = [n for n in a if n in b]
    if len(shared) < 2 or shared == [n for n in b if n in shared]:
        return False
    # Only within one frame ("Alice pays Bob" / "Bob pays Alice"): "Bob's boss is Alice" and "We use GitHub
    # Actions for CI" rebuild the sentence around the names.
    frames = (
        [("" if t.casefold() in shared else t.casefold()) for t in TOKEN.findall(s.body)] for s in (old, new)
    )
    return next(frames) == next(frames)


# What only links two sides that can trade places: "Acme is our main customer" / "Our main customer is Acme".
# And what joins two sides that play one part: "我和小王是同事" / "小王和我是同事".
_LINKS = frozenset("is are was were am be equals = and 是 为 即 就是 和 跟 与 同".split())


def _sides_swapped(old: Statement, new: Statement) -> bool:
    """Whether the new sentence is the old one with what stands before and after its middle swapped ("The auth
    service calls the billing service" / "The billing service calls the auth service", 订单服务会调用库存服务 /
    库存服务会调用订单服务), or with two words trading places across it ("I send Marco the report" / "Marco sends
    me the report"): the relation turned round, unless the middle only links the two ("is", 是)."""
    a, b = (_tokens(s) for s in (old, new))
    if a == b or sorted(a) != sorted(b) or len(a) > 40:
        return False
    differ = [k for k, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    if len(differ) == 2:
        p, q = differ
        return a[p] == b[q] and a[q] == b[p] and not set(a[p + 1 : q]) <= _LINKS
    for i in range(1, len(a)):
        for j in range(i + 1, len(a)):
            middle = a[i:j]
            if b == a[j:] + middle + a[:i] and not set(middle) <= _LINKS:
                return True
    return False


_ZH_ME = re.compile(r"用户|我(?!们)")


def _people_turned(old: Statement, new: Statement) -> bool:
    """Chinese: the user and one named person, in the other order, neither text joining them ("和") nor linking them
    ("是"): 用户把钥匙放在王阿姨家 / 王阿姨把钥匙放在用户家."""
    if not (old.cjk and new.cjk and len(old.names) == 1 and old.names == new.names):
        return False
    name = old.names[0]
    order = []
    for s in (old, new):
        me, them = _ZH_ME.search(s.body), s.body.find(name)
        if me is None or them < 0:
            return False
        between = s.body[min(me.start(), them) : max(me.start(), them)]
        if re.search(r"和|跟|与|同|是|为", between):
            return False
        order.append(me.start() < them)
    return order[0] != order[1]


def _tokens(s: Statement) -> list[str]:
    """Words as compared in order (jieba's for Chinese), punctuation aside; the user one word however named."""
    if s.cjk:
        return ["我" if w == "用户" else w for w, f in tagged(s.body) if f != "x"]
    words = (t.casefold() for t in EN_WORD.findall(s.body))
    return [_ME.get(w, _THEIRS.get(w, _stem(w))) for w in words if w not in ("the", "a", "an", "poss")]


# a word, not part of an address or a name ("wang@old.com")
_OLD = re.compile(r"(?<![@./\w-])old(?![@./\w-])|旧", re.IGNORECASE)
_NEW = re.compile(r"(?<![@./\w-])new(?![@./\w-])|新", re.IGNORECASE)
_ME = {"i": "i", "me": "i", "my": "i", "mine": "i", "user": "i"}
# whose it is, said of either side: "the user keeps a key to their house with Ruth" / "Ruth keeps a key to her house
# with the user" turn the relation round
_THEIRS = dict.fromkeys(("his", "her", "their", "its"), "theirs")


# Software whose number after its name is its version: "Prod runs Postgres 14" / "Prod runs Postgres 16".
_SOFTWARE = frozenset(
    _stem(w)
    for w in "node node.js nodejs postgres postgresql mysql mariadb python java jdk go golang ruby php rust kotlin "
    "swift scala typescript kubernetes redis ubuntu debian centos react vue angular django rails spring nginx "
    "elasticsearch mongodb terraform gradle maven xcode android ios macos dotnet laravel".split()
)
_VERSION_WORDS = frozenset({_stem("version"), "版", "本"})
# how a statement says what it is on, which names no other thing ("run on Node 16" / "are on Node 20", 用 / 跑)
_ON_IT = frozenset({_stem(w) for w in ("run", "runs", "use", "uses", "using", "built")} | {"用", "跑"})


def _new_version(old: Statement, new: Statement) -> bool:
    """The same sentence but for the version number after the same software's name (a "version" word aside):
    a new value of it, with no change word needed."""
    a, b = ([w for w in s.words if not w.startswith("#")] for s in (old, new))
    if not (set(a) ^ set(b)) <= _VERSION_WORDS | _ON_IT:
        return False
    for s in (old, new):
        at = [i for i, w in enumerate(s.words) if w.startswith("#")]
        named = [s.words[i - 1] for i in at if i > 0]
        if len(at) != 1 or not named or not (named[0] in _SOFTWARE or named[0] in _VERSION_WORDS):
            return False
        if not _SOFTWARE & set(s.words):
            return False
    return True


_RECUR = re.compile(r"\b(?:every|each|biweekly)\b|每", re.IGNORECASE)  # (biweekly: "every other" as read)


def _occasion(rule: Statement, one: Statement) -> bool:
    """Whether `rule` says how often something happens and `one` when it happens this once ("this week", 这周)."""
    return bool(
        _RECUR.search(rule.body)
        and DEICTIC.search(one.body)
        and not _RECUR.search(one.body)
        and not _FROM_THEN.search(one.body)  # "from next month the rent goes up": the rule changes then
    )


_FROM_THEN = re.compile(
    r"\b(?:from|starting|as of|beginning)\s+(?:this|next)\b|从(?:这|本|下|明|今)"
    r"|(?:这周|本周|下周|下个?月|这个?月|本月|明年|今年)(?:起|开始)",
    re.IGNORECASE,
)


def _other_value(old: Statement, new: Statement, same_slot: bool) -> bool:
    """One slot named on both sides ("微信头像", "GitHub handle") given values with no word in common (一只橘猫 /
    一张海边日落照): another value of it, however close the sentences read."""
    if not (same_slot and old.slot and new.slot):
        return False
    key = set(statement(old.slot).words) | set(statement(new.slot).words)
    a, b = (set(s.words) - key for s in (old, new))
    return bool(a and b and not a & b)


def relate(
    old: Statement,
    new: Statement,
    cosine: float,
    th: Thresholds,
    sharper: Callable[[], float] | None = None,
    learned: Callable[[], float] | None = None,
) -> Verdict:
    """What `new` (stored later) does to `old`. `cosine`: of their passage embeddings; `sharper()`: of their
    query-side embeddings, asked for only when a swapped word is all that differs; `learned()`: the learned
    reader's probability that the two are one fact (writer/learned.py), asked for only where the rules see
    neither a sign of another fact nor a rewording."""
    spoken: frozenset[str] = frozenset()  # the words of a named speaker's name, read into their words below
    if not same_speaker(old.speaker, new.speaker):
        said = about_the_speaker(old, new)
        if said is None:
            return Verdict("distinct", "said by someone else")
        spoken = frozenset(statement((old.speaker or new.speaker).title()).words)
        old, new = said
    if old.entities and new.entities and not old.entities & new.entities:
        return Verdict("distinct", "about other entities")
    # what one says beside its fact and the other does not name is left out (writer/asides.py)
    old, new = compared(old, new)
    verdict = _relate(old, new, cosine, th, sharper, learned)
    # A speaker's name, shared once their words are read with it, says whose news it is, not what it is about:
    # "Caroline: Melanie moved to Denver." changes nothing Melanie said about her painting.
    # ("Maya is 29." / "Maya: celebrated my 30th birthday" shares only the number's kind, and is hers)
    if (
        spoken
        and verdict.relation == "update"
        and verdict.reason != OLDER
        and _overlap(old, new, spoken) < CHANGE_OVERLAP
    ):
        return Verdict("distinct", "news of someone they name, about something else")
    if verdict.relation == "duplicate" and cosine < th.merge_floor:
        return Verdict("distinct", "below the configured dedup threshold")
    return verdict


def _relate(
    old: Statement,
    new: Statement,
    cosine: float,
    th: Thresholds,
    sharper: Callable[[], float] | None,
    learned: Callable[[], float] | None = None,
) -> Verdict:
    shift = th.cjk_shift if (old.cjk and new.cjk) else 0.0
    same_slot = one_slot(old, new)
    if _same_text(old.text, new.text):
        return Verdict("duplicate", "same text")
    if cosine < th.candidate + shift and not same_slot and not another_of_its_kind(old, new):
        return Verdict("distinct", "not close enough")
    # "👍" / "👎", "..." / "???": no word to tell them apart by, nor to call them alike
    if not old.words and not new.words:
        return Verdict("distinct", "no content words to compare")
    gone = Counter(old.words) - Counter(new.words)
    # Reordered words are a rewording ("Acme is our main customer"), unless what follows "over", "to", "from"
    # changed or names swapped places ("Slack over email", "Alice reports to Bob").
    turned = _turned(old, new)
    fold = clock_fold(old.text, new.text)  # "Wednesdays at 4" / "Wed 4:00 pm" is one time
    a, b = {fold(n) for n in old.numbers}, {fold(n) for n in new.numbers}
    numbers_changed = bool((a - b) and (b - a))
    # a change word retelling what the old one holds announces nothing (writer/retold.py)
    announced = announces(old, new) and not told_again(old, new, a, b)
    # "Manager: Priya Shah" / "I report to Priya": the slot said otherwise, no new value; the rest decides
    same_slot = same_slot and (announced or not (manager_named_again(old, new) or diet_named_again(old, new)))
    negation_changed = old.negated != new.negated and not both_stopped(old, new)
    other_person = someone_else(old, new)
    other_stage = other_stages(old.body, new.body, old.cjk and new.cjk)  # "2nd grade" / "2nd year of college"
    if not (
        numbers_changed
        or negation_changed
        or turned
        or other_person
        or other_stage
        or _other_value(old, new, same_slot)
    ):
        same = reworded(old, new, th, sharper, announced)
        if same is not None:
            return Verdict("duplicate", *same)
    # A different fact, or a new value of the same one. A shared entity is no sign of either: it says what both
    # are about, as the cosine does ("Carol is allergic to peanuts" / "... to shellfish", both tagged `carol`).
    # Whoever a slot's value names is its value ("Emergency contact: brother Tom" / "...: wife Jen")
    if other_person and not (announced or same_slot):
        return Verdict("distinct", "about someone else")
    if PROPOSED.search(new.body) and not PROPOSED.search(old.body):
        return Verdict("distinct", "a change only proposed")
    if someone_elses(old, new) or someone_elses(new, old) or someone_elses_now(old.body, new.body, new.cjk):
        return Verdict("distinct", "another person's of the same kind")
    if _occasion(old, new) or _occasion(new, old):  # "on call every fourth week" / "on call this week"
        return Verdict("distinct", "a rule and one occasion")
    if announced and of_the_past(old, new):  # "用户以前学过日语" / "用户现在在学日语": both true
        return Verdict("distinct", "the old one tells the past")
    if numbers_changed and _other_measure(old, new):  # "bike ride to work is 4 km" / "... is 15 minutes"
        return Verdict("distinct", "another measure of it")
    if _DUE_DATE.search(new.body) and not (_DUE_DATE.search(old.body) or _A_DATE.search(old.body)):
        # "Rent ... is $1,850 a month" / "The landlord moved the rent due date to the 5th": when, not how much
        return Verdict("distinct", "when it is due, of a statement of no date")
    if _OLD.search(old.body) and _NEW.search(new.body) and not _NEW.search(old.body):
        return Verdict("distinct", "the old one and the new one")  # "My old laptop" / "My new laptop": two
    if new_address(old, new):  # "Primary email: a@x.com" / "Please use b@y.com from now on"
        return Verdict("update", "a new address to reach one at")
    if not (announced or same_slot):
        if numbers_changed and new_count(old, new):
            return Verdict("update", "a new count of the same things")
        if numbers_changed and not (negation_changed or turned) and new_number(old, new):
            return Verdict("update", "another number in the same words")
        if numbers_changed and _new_version(old, new):
            return Verdict("update", "a new version of the same software")
        if not (negation_changed or turned) and new_favourite(old.body, new.body, old.cjk and new.cjk):
            return Verdict("update", "another favourite of the same kind")
        if not (negation_changed or turned) and new_stage(old.body, new.body, old.cjk and new.cjk):
            return Verdict("update", OLDER)
        if numbers_changed and not (negation_changed or turned) and weighed_again(old, new):
            return Verdict("update", "the same weight weighed again")
        if not (negation_changed or turned) and new_holder(old, new):
            return Verdict("update", "another holder of the same role")
        # No sign of another fact or of a change, and no rewording the rules can see ("We run Postgres 15
        # for the prod DB"): the learned reader's turn. Never where a number or a negation differs.
        # Nor where one member of a kind stands for another (weekly / biweekly, 住院 / 出院).
        lost, put = set(old.words) - set(new.words), set(new.words) - set(old.words)
        unread = not (numbers_changed or negation_changed or turned or contrasted(old, new, lost, put))
        if unread and learned is not None and th.learned <= 1 and learned() >= th.learned:
            return Verdict("duplicate", "one fact in other words (learned reader)")
        return Verdict("distinct", "states something else, no sign of a change")
    if announced and not same_slot and (thing := another_thing_changed(old.body, new.body, new.cjk)):
        return Verdict("distinct", f"a change of another one: {thing}")  # "DB timeout" / "API timeout"
    if not same_slot and _overlap(old, new) < CHANGE_OVERLAP and not another_of_its_kind(old, new):
        # e5 puts any two sentences of one person's life above the candidate cosine: a change word ("moved",
        # 搬到) in a sentence that shares few content words with the old one is news about something else.
        # Kept apart, both stay recallable; a wrong supersede would hide a true fact. Unless it changes to
        # another of a kind one uses one at a time ("Editor: Sublime Text" / "switched to Neovim").
        return Verdict("distinct", "a change of something else: few words in common")
    if not (same_slot or negation_changed) and ALSO.search(new.body) and not ALSO.search(old.body):
        # "小雅会弹吉他" / "小雅：我最近也在学钢琴，吉他还在弹": one more thing, the old one still true
        return Verdict("distinct", "one more thing, said with also")
    if len(gone) > 3 and not (announced or same_slot):
        return Verdict("distinct", "too much differs")
    return Verdict("update", "announced change" if announced else "new value for the same slot")
