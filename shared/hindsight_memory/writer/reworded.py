"""Whether a statement says what another says in other words (writer/facts.py): what each side has that the other
lacks, and where it sits, against a sharper look at the two whole sentences. A word standing in for another
("billing" for "shipping", 猪肉 for 牛肉) is another fact unless the sentences read as near-identical; a value, a name
or an opposite swapped, a word put in front ("the old API key"), "also", one more item in a list: never a rewording."""

import itertools
import re
from collections import Counter
from collections.abc import Callable

from .clock import clock_fold
from .frames import in_place, tagged
from .kinds import CONTRASTS_EN, CONTRASTS_ZH, variant
from .lexicon import ENDED, PRESENT, ZH_OPPOSITES
from .names import names_differ, spelled_places
from .statements import EN_OPPOSITES, EN_WORD, Statement, _stem
from .thresholds import Thresholds

# Change words that also just describe the present ("these days"): no news on their own.
SOFT_CHANGES = frozenset({"最近", "现在", "目前", "如今"})


def announces(old: Statement, new: Statement) -> bool:
    """Whether `new` holds a change word `old` does not ("9点半开始" / "改成10点15": 开始 there only says when)."""
    return (new.change and not old.change) or bool(new.changes - old.changes - SOFT_CHANGES)


def reworded(
    old: Statement,
    new: Statement,
    th: Thresholds,
    sharper: Callable[[], float] | None,
    announced: bool,
) -> tuple[str, bool] | None:
    """(reason, whether the new text says more) when `new` says what `old` says in other words, else None."""
    shift = th.cjk_shift if (old.cjk and new.cjk) else 0.0
    # What each side says that the other does not, regardless of word order and of repeats (a word the other
    # also has, elsewhere, names nothing new: 王老师教数学 / 王老师是数学老师). Both: a word stands in for
    # another. One only: a word more or less. Neither: the same words, maybe reordered.
    fold = clock_fold(old.text, new.text)
    ow, nw = ({f"#{fold(w[1:])}" if w.startswith("#") else w for w in s.words} for s in (old, new))
    lost, put = ow - nw, nw - ow
    same_place = spelled_places(lost, put)  # "Austin, Texas" / "Austin TX"
    lost, put = lost - same_place, put - same_place
    if put:  # a change word of the old statement that the new one replaced ("the left drawer" -> "right")
        lost |= old.changes - new.changes
    if not (lost or put):
        # unless the new one says it ended ("The meeting is on Monday" / "... on Monday was cancelled") or names
        # one of the thing's own ("my manager" / "my manager's manager", 领导 / 领导的领导)
        if (new.changes - old.changes) & ENDED or len(_CHAIN.findall(new.body)) > len(
            _CHAIN.findall(old.body)
        ):
            return None
        return "same content words", new.alone and not old.alone  # the new text says more: what it set aside
    values = any(_is_value(w) for w in (*lost, *put)) or names_differ(old, new) or _opposed(lost, put)
    values |= contrasted(old, new, lost, put)
    values |= _counts_other_things(old, new) or _codes_swapped(lost, put)
    values |= _called_otherwise(old, new)
    values |= variant(old, new) or variant(new, old)  # "the backup YubiKey", 访客 Wi-Fi: not the plain one
    values |= bool(set(_TITLE.findall(new.body)) - set(_TITLE.findall(old.body)))  # 《活着》 after 《三体》
    # A word put in front of everything both share narrows what the statement is about: "the old API key",
    # "the board meeting", 旧密钥 are other things than "the API key", "the meeting", 密钥.
    first_shared = next((i for i, w in enumerate(new.words) if w in old.words), len(new.words))
    # A Chinese verb in front (养了2只猫 / 我有两只猫) does that less often than a modifier does, and nothing
    # narrows a number ("Pays 2100 dollars", "owns 2 cats").
    narrowed = (
        not lost
        and 0 < first_shared < len(new.words)
        and not new.words[first_shared].startswith("#")
        # the same address or code on both sides pins the same thing ("Contact email: x@y.com")
        and not any(_is_value(w) and not w.startswith("#") for w in set(old.words) & set(new.words))
        and not _verbs_only(old, new, Counter(), Counter(new.words[:first_shared]))
        and _modifies(new, first_shared)
    )
    narrowed = narrowed or (not lost and (_put_before_shared(old, new, put) or _part_of(old, new, put)))
    need = th.addition
    if lost and put:
        need = th.verb_synonym if _verbs_only(old, new, Counter(lost), Counter(put)) else th.synonym
        if not in_place(old, new):
            need = min(need, th.rebuilt)
    # A change announced with words added or swapped is news ("now ... a full marathon instead of the half"),
    # unless the only change word is one that also just describes the present (最近, 现在: "these days").
    news = announced and not new.changes <= SOFT_CHANGES and not _told_again(old, new, ow, nw)
    # "also", 也: the same said of one more thing (腾讯视频会员绑的也是我的手机号), not the same fact again
    another = bool(ALSO.search(new.body)) and not ALSO.search(old.body)
    # One more item in a list ("allergic to peanuts" / "to peanuts and shellfish"): merged, the new item would be
    # lost from recall; kept apart, both are found.
    another |= not lost and (_grown(old, new, put) or _appended(old, new, put))
    if (
        not values
        and not narrowed
        and not news
        and not another
        and sharper is not None
        and sharper() >= need + shift
    ):
        return ("reworded" if lost and put else "reworded, a word more or less"), bool(put and not lost) or (
            new.alone and not old.alone and not lost
        )
    return None


def _told_again(old: Statement, new: Statement, ow: set[str], nw: set[str]) -> bool:
    """English: the new statement gives the values the old one gives (numbers, names), and its only change words
    say it holds now: the same value told again ("My car is a Tesla Model 3" / "These days I drive a Tesla Model
    3"), no news."""
    if new.cjk or not new.changes or not {c.casefold() for c in new.changes} <= PRESENT:
        return False
    # (Statement.names are casefolded already)
    values = [{w for w in words if w.startswith("#")} | set(s.names) for words, s in ((ow, old), (nw, new))]
    return bool(values[1]) and values[0] == values[1]


_TITLE = re.compile(r"《([^》]{1,40})》")  # a book's or a film's title: a value, like a name
_CALLED = re.compile(r"(?:叫做|叫|称呼为|称为)(?:她|他|我|它)?\s*[“\"「]?([\u4e00-\u9fffA-Za-z0-9]{1,6})")


# what a Chinese statement says something is, at its end: 最爱喝的奶茶是喜茶 / ...是霸王茶姬 (compared character by
# character, the two share 茶 and the swap reads as a word more)
_IS_ZH = re.compile(r"是([\u4e00-\u9fffA-Za-z0-9]{2,8})[了啦吧呀。！!]*$")


def _called_otherwise(old: Statement, new: Statement) -> bool:
    """What someone or something is called, or is, said on both sides, differs: 叫她小婷 / 叫她婷婷, 是喜茶 / 是霸王茶姬."""
    a, b = (_CALLED.search(s.body) for s in (old, new))
    if a and b and a.group(1)[:2] != b.group(1)[:2]:
        return True
    x, y = (_IS_ZH.search(s.body.strip()) for s in (old, new))
    if not (x and y and old.cjk and new.cjk):
        return False
    # neither side says the other's anywhere (李娜是我大学室友 / 我大学时的室友是李娜 turn it round)
    u, v = (re.sub(r"^(?:一|两)?[只个位条]|的$", "", m.group(1).casefold()) for m in (x, y))
    return bool(u and v) and u not in new.body.casefold() and v not in old.body.casefold()


_OPPOSITES = ZH_OPPOSITES | EN_OPPOSITES
_CHAIN = re.compile(
    r"\b(\w+) poss \1\b|([\u4e00-\u9fff]{1,3})的\2", re.IGNORECASE
)  # manager's manager, 领导的领导


_CONTRASTS_EN = {
    frozenset((_stem(a), _stem(b)))
    for group in CONTRASTS_EN
    for i, one in enumerate(group)
    for other in group[i + 1 :]
    for a in one
    for b in other
}


# Times said from today: "last year" / "this year", 去年 / 今年 name two years, whatever else both say.
DEICTIC = re.compile(
    r"\b(?:this|last|next|previous|coming) (?:year|month|week|quarter|summer|winter|spring|fall|autumn|weekend)\b"
    r"|\b(?:today|yesterday|tomorrow|tonight)\b|今年|去年|明年|前年|后年|今天|昨天|明天|本周|上周|下周|这周|本月|上个?月|下个?月",
    re.IGNORECASE,
)


_SAME_WHEN = {"这周": "本周", "上个月": "上月", "下个月": "下月"}


def contrasted(old: Statement, new: Statement, lost: set[str], put: set[str]) -> bool:
    """One word of a kind put in place of another of it (lexicon.CONTRASTS_*): home / guest, 出差 / 旅游; a word
    and its synonym (妈妈 / 母亲) are one member of a kind."""
    said, now_said = (
        {_SAME_WHEN.get(m.casefold(), m.casefold()) for m in DEICTIC.findall(s.body)} for s in (old, new)
    )
    if said and now_said and said != now_said:
        return True
    if not (old.cjk and new.cjk):
        return any(frozenset((a, b)) in _CONTRASTS_EN for a in lost for b in put)
    return bool(member_swapped(old.body, new.body, new.body, cjk=True))


def has_word(text: str, word: str, cjk: bool) -> bool:
    """The word in the text, as a whole word in English ("son" is not in "person")."""
    return word in text if cjk else bool(re.search(rf"\b{re.escape(word)}\b", text))


def member_swapped(old: str, said: str, new: str, cjk: bool) -> str:
    """A member of a kind (lexicon.CONTRASTS_*) that `said` (the new text, or the part of it that matters) holds and
    the old text does not, while the old holds another member the new does not (home / guest, 出差 / 旅游); ""
    when none. A member's synonyms (妈妈 / 母亲) are one member."""

    def says(text: str, member: list[str]) -> bool:
        return any(has_word(text, w, cjk) for w in member)

    for group in CONTRASTS_ZH if cjk else CONTRASTS_EN:
        for mine in group:
            if (
                says(said, mine)
                and not says(old, mine)
                and any(
                    theirs is not mine and says(old, theirs) and not says(new, theirs) for theirs in group
                )
            ):
                return mine[0]
    return ""


def _opposed(lost: set[str], put: set[str]) -> bool:
    """A word swapped for its opposite: a Chinese character (入/出, 上/下, 高/低), an English quality (near/far)."""
    return any(frozenset((a, b)) in _OPPOSITES for a in lost for b in put)


def _verbs_only(old: Statement, new: Statement, gone: Counter[str], added: Counter[str]) -> bool:
    """Chinese: whether every word holding a gone or an added character is a verb (or an adverb)."""
    if not (old.cjk and new.cjk):
        return False
    flags = [f for s, chars in ((old, gone), (new, added)) for w, f in tagged(s.text) if set(w) & set(chars)]
    return bool(flags) and all(f in ("v", "vd", "d", "ad") for f in flags)


# 还 before a verb is "also" (我最近还开了B站会员); 还是, 还在, 还没... say "still" or "not yet"
ALSO = re.compile(
    r"\b(?:also|as well)\b|,\s*too\b|\btoo\s*[.!]?\s*$|也(?!许)|同样|还(?=[开去报买办加学练养种订约])",
    re.IGNORECASE,
)
_AND = re.compile(r"\b(?:and|or|plus|as well as|along with)\b|[&,，、]|和|与|及|以及|还有|跟", re.IGNORECASE)


_QUALIFIER = re.compile(
    r"\b(?:for|to|on|in|at|with|from|by|during|except|only|when|if|unless)\b[^.;:!?]*[.!]?\s*$", re.I
)


def _appended(old: Statement, new: Statement, put: set[str]) -> bool:
    """Whether the words the new statement adds all come after everything both say: a qualifier appended ("Atlas
    uses Postgres" / "... for billing", "run the tests before deploying" / "... to staging") narrows or extends the
    fact; merged either way, one reading would be lost."""
    if new.cjk or not put:
        return False
    last_shared = max((i for i, w in enumerate(new.words) if w in old.words), default=-1)
    if not all(i > last_shared for i, w in enumerate(new.words) if w in put):
        return False
    m = _QUALIFIER.search(new.body)
    return m is not None and any(w in m.group(0).casefold() for w in put)


def _grown(old: Statement, new: Statement, put: set[str]) -> bool:
    """Whether the new statement lists one more item: a separator more, with a word put after the last one."""
    # An aside between commas that says only what the old statement says is no item ("Tom, my brother, works as a
    # firefighter" / "My brother Tom is a firefighter").
    body = (
        new.body if new.cjk else _ASIDE.sub(lambda m: " " if _said(m.group(1), old) else m.group(0), new.body)
    )
    seps = list(_AND.finditer(body))
    if not put or len(seps) <= len(_AND.findall(old.body)):
        return False
    tail = body[seps[-1].end() :].casefold()
    return any(w in tail for w in put)


# an apposition: a noun phrase with its determiner between two commas (", my brother,"; not ", Jira," of a list)
_ASIDE = re.compile(r",\s*((?:my|our|his|her|their|your|the|a|an)\s[^,]{1,40}?)\s*,", re.IGNORECASE)


def _said(words: str, old: Statement) -> bool:
    stems = [_stem(w.casefold()) for w in EN_WORD.findall(words)]
    return bool(stems) and all(s in old.words for s in stems if len(s) > 2 and s not in ("the", "and"))


_SAME_UNIT = {"号": "日", "块": "元"}
_COUNTED_ZH = re.compile(r"((?<!\d)\d+(?:\.\d+)?)\s*([号元块天周个岁月年日点次台斤米%])")


def _counts_other_things(old: Statement, new: Statement) -> bool:
    """Chinese: one number counting another thing on each side (每月15号 / 每月15元: a day, a price)."""
    if not (old.cjk and new.cjk):
        return False
    units: list[dict[str, set[str]]] = [{}, {}]
    for side, s in zip(units, (old, new), strict=True):
        for number, unit in _COUNTED_ZH.findall(s.body):
            side.setdefault(number, set()).add(_SAME_UNIT.get(unit, unit))
    return any(not (units[0][n] & units[1][n]) for n in units[0].keys() & units[1].keys())


def _modifies(s: Statement, first_shared: int) -> bool:
    """English: whether the word before the first shared one stands right before it, as a modifier does ("the old
    API key"); a verb is followed by an article or more ("owns a cat called Mochi" / "I have a cat named Mochi")."""
    if s.cjk or first_shared == 0:
        return True
    tokens = _stems(s)
    before, shared = s.words[first_shared - 1], s.words[first_shared]
    return any(a == before and b == shared for a, b in itertools.pairwise(tokens))


def _put_before_shared(old: Statement, new: Statement, put: set[str]) -> bool:
    """A word put between two words that stood side by side ("I like coffee" / "I like iced coffee", "play guitar" /
    "play bass guitar", "the project's deadline" / "the project's draft deadline", 喜欢咖啡 / 喜欢冰咖啡, 女儿学钢琴 /
    女儿的同学学钢琴) narrows what the second names: another thing, not the same one said again."""
    if not put or _pinned(old, new):
        return False
    if old.cjk and new.cjk:
        return _zh_put_before_noun(old, new)
    if new.cjk:
        return False
    a, b = ([t for t in _stems(s) if t != "poss"] for s in (old, new))
    side_by_side = set(itertools.pairwise(a))
    shared = set(old.words) & set(new.words)  # content words: "saving up for a house" narrows nothing
    # one to three words put there ("the database" / "the database's read replica")
    return any(
        b[i + k] in shared and (b[i - 1], b[i + k]) in side_by_side and all(w in put for w in b[i : i + k])
        for k in (1, 2, 3)
        for i in range(1, len(b) - k)
    )


def _zh_put_before_noun(old: Statement, new: Statement) -> bool:
    """Chinese, word by word (jieba): a noun or an adjective (with 的 before it or not) put between two words that
    stood side by side, the second a noun. An adverb put there (正在学, 都跑步) narrows nothing."""
    a, b = _zh_tagged(old), _zh_tagged(new)
    old_words = {w for w, _ in a}
    side_by_side = set(itertools.pairwise(w for w, _ in a))
    for i in range(1, len(b) - 1):
        for k in (1, 2):
            if i + k >= len(b) or (k == 2 and b[i][0] != "的"):
                continue
            (before, _), (after, after_flag), (last, last_flag) = b[i - 1], b[i + k], b[i + k - 1]
            if (
                (before, after) in side_by_side
                and last not in old_words
                and (last_flag.startswith("n") or last_flag == "a")
                and after_flag.startswith("n")
            ):
                return True
    return False


def _part_of(old: Statement, new: Statement, put: set[str]) -> bool:
    """A part or a property of a thing both name, put after it ("the checkout service" / "the checkout service's
    database", 客厅 / 客厅的天花板): another thing."""
    if old.cjk and new.cjk:
        a, b = _zh_tagged(old), _zh_tagged(new)
        had = {w for w, _ in a}
        owners = {x for (x, _), (d, _) in itertools.pairwise(a) if d == "的"}
        # the owner a noun of its own: not the user (用户的住址), not a verb's object (放香菜的菜: dishes with it)
        return any(
            x in had
            and x not in owners | {"用户", "我"}
            and fx.startswith("n")
            and d == "的"
            and y not in had
            and fy.startswith("n")
            and (i == 0 or b[i - 1][1] != "v")
            for i, ((x, fx), (d, _), (y, fy)) in enumerate(zip(b, b[1:], b[2:], strict=False))
        )
    if new.cjk or old.cjk:
        return False
    before, after = _stems(old), _stems(new)
    owners = {x for x, p in itertools.pairwise(before) if p == "poss"}
    return any(
        x in old.words and x not in owners and p == "poss" and y in put
        for x, p, y in zip(after, after[1:], after[2:], strict=False)
    )


def _stems(s: Statement) -> list[str]:
    """English: every word of the text in order, stemmed as `words` are, "poss" where a possessive stood."""
    return [t if t == "poss" else _stem(t.casefold()) for t in EN_WORD.findall(s.body)]


def _zh_tagged(s: Statement) -> list[tuple[str, str]]:
    """Chinese: jieba's words of the text with their parts of speech, punctuation aside."""
    return [(w, f) for w, f in tagged(s.body) if f != "x"]


def _pinned(old: Statement, new: Statement) -> bool:
    """The same code, address or number of three digits or more on both sides pins the same thing ("The garage
    code is 4417" / "Garage door code: 4417")."""
    return any(_code(w) for w in set(old.words) & set(new.words))


def _code(word: str) -> bool:
    """A number of three digits or more, an address, a code of letters and digits (not a date: "03-03")."""
    digits = sum(ch.isdigit() for ch in word)
    if word.startswith("#"):
        return digits >= 3
    return "@" in word or (digits > 0 and any(ch.isalpha() for ch in word))


def _is_value(word: str) -> bool:
    """Numbers, codes, addresses, versions: never a synonym of anything."""
    return word.startswith("#") or any(ch.isdigit() or ch in "@./" for ch in word)


def _codes_swapped(lost: set[str], put: set[str]) -> bool:
    """A name written as code ("tf-state-eu", order_prod) in place of another: two values. One side only
    (订单服务 / order-service) may be the same thing named in another language."""
    return any(_code_name(w) for w in lost) and any(_code_name(w) for w in put)


def _code_name(word: str) -> bool:
    return "-" in word or "_" in word
