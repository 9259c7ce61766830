"""One favourite of a kind (writer/facts.py): "my favourite show is The Office" and, later, "my favourite show is
Succession" say the favourite changed, with no change word. Someone else's favourite ("Anna's", "my son's"), a
favourite of another kind ("favourite book", "favourite winter drink" / "... summer drink"), one of several ("one of
my favourite bands") or the same value again is no new value of it."""

import re

from .statements import statement

_EN = re.compile(
    r"\bfavou?rite\s+(?P<kind>(?:[a-z-]+\s+){0,2}?[a-z-]+)\s*(?:is|was|:|=|-|,)\s*(?P<value>[^.;!?]+)",
    re.IGNORECASE,
)
_ZH = re.compile(
    r"最(?:喜欢|爱)(?P<kind>[\u4e00-\u9fff]{0,5}?[\u4e00-\u9fff])\s*(?:是|：|:)(?P<value>[^。；！？，,]+)"
)
# 最爱吃的菜 / 最喜欢的菜: the kind is what follows 的; "restaurant in town": the kind is "restaurant"
_ZH_KIND_LEAD = re.compile(r"^[吃喝看听玩穿用读去]?的")
_WHERE = re.compile(r"(?<!\s)\s+(?:in|at|for|of|to|on|from|with|near|around)\b.*", re.IGNORECASE)
_SAID_OF_IT = re.compile(
    r"(?i)\s*(?:\w+(?:ing|ed)\b|(?:back|open|closed|gone|still|always|never|not|now|so|very|too|really|also|"
    r"getting|being|great|good|bad|amazing|awesome|expensive|cheap|busy|crowded|far|near|nearby|the best|the worst)\b)"
)
_SEVERAL = re.compile(r"\bone of\b|(?<!没有)之一", re.IGNORECASE)  # 没有之一: "and no other"
# how much it is a favourite, not whose: "my absolute favourite", "all-time favourite"
_DEGREE = frozenset(
    statement("absolute all-time alltime total ultimate personal current very top most").words
)


def _favourite(body: str, cjk: bool) -> tuple[tuple[str, ...], frozenset[str], frozenset[str]] | None:
    """The kind of favourite (its words), its value's words, and whose it is (the words before it)."""
    m = (_ZH if cjk else _EN).search(body)
    if m is None or _SEVERAL.search(body):
        return None
    kind = (
        (_ZH_KIND_LEAD.sub("", m.group("kind")),) if cjk else statement(_WHERE.sub("", m.group("kind"))).words
    )
    first = re.split(r"[,，]", m.group("value"))[0]  # "Fleetwood Mac, no contest": the value, then a remark
    if not cjk and _SAID_OF_IT.match(
        first
    ):  # "... is closing next month", "... is back on Netflix": news of it
        return None
    value = frozenset(w for w in statement(first).words if not w.startswith("#"))
    owner = frozenset(statement(body[: m.start()]).words) - _DEGREE
    return (kind, value, owner) if kind and kind[-1] and value else None


def new_favourite(old_body: str, new_body: str, cjk: bool) -> bool:
    """Both name the same person's favourite of one kind (编程语言 / 语言, "TV show" / "show"), with no value word in
    common."""
    a, b = _favourite(old_body, cjk), _favourite(new_body, cjk)
    if a is None or b is None:
        return False
    (kind_a, value_a, owner_a), (kind_b, value_b, owner_b) = a, b
    if owner_a != owner_b:
        return False
    # Chinese is compared by character: 绿色 / 橙色 share the 色 of any colour, 红烧肉 / 酸菜鱼 nothing
    other_value = (
        len(value_a & value_b) <= max(len(value_a), len(value_b)) / 2 if cjk else not value_a & value_b
    )
    return _same_kind(kind_a, kind_b, cjk) and value_a != value_b and other_value


def _same_kind(a: tuple[str, ...], b: tuple[str, ...], cjk: bool) -> bool:
    if cjk:
        return a[0].endswith(b[0]) or b[0].endswith(a[0])
    short, long = sorted((set(a), set(b)), key=len)
    return a[-1] == b[-1] and short <= long
