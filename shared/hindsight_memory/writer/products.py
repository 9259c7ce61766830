"""Things one uses one of at a time, by name (writer/facts.py): a change to another of the kind is a new value of
the old statement's fact however few words the two share ("Editor: Sublime Text" / "switched to Neovim full time",
浏览器：Firefox / 我现在改用 Chrome 了, 团队沟通用钉钉 / 公司从钉钉切到飞书了). Services one may hold several of at once
(streaming, banks) are not here: writer/kinds.py keeps those apart."""

import re
from functools import cache, lru_cache

from .people import someone_else
from .reworded import announces
from .statements import Statement

# kind: members, a member's other names after "|", "_" for a space; a name written with a capital is matched as
# written ("Linear", "Teams", "Edge": words too)
_KINDS = {
    "editor": "vs_code|vscode|visual_studio_code vim neovim|nvim emacs sublime_text|sublime intellij|intellij_idea "
    "pycharm webstorm goland xcode android_studio Atom Zed Cursor notepad++",
    "browser": "chrome|google_chrome firefox safari Edge|microsoft_edge brave Arc Opera vivaldi",
    "phone": "iphone pixel Galaxy|samsung_galaxy|samsung oneplus 华为mate|华为_mate|Mate pura|华为pura 华为p40|p40 "
    "小米14|小米_14|xiaomi oppo vivo 荣耀|honor",
    "database": "postgres|postgresql|PG mysql mariadb sqlite mongodb|mongo Oracle sql_server|mssql dynamodb "
    "clickhouse cockroachdb tidb",
    "cloud": "AWS|amazon_web_services GCP|google_cloud Azure 阿里云 腾讯云 华为云 digitalocean hetzner linode heroku",
    "chat": "Slack microsoft_teams|Teams Discord 钉钉|dingtalk 飞书|Lark|feishu 企业微信|wecom mattermost",
    "queue": "rabbitmq kafka SQS Pulsar NATS rocketmq activemq",
    "passwords": "lastpass 1password bitwarden dashlane keepass|keepassxc",
    "ci": "jenkins gitlab_ci github_actions circleci travis|travis_ci buildkite teamcity",
    "code host": "github gitlab bitbucket gitee",
    "watch": "apple_watch 小米手环|mi_band garmin fitbit 华为手表|huawei_watch",
    "isp": "comcast|xfinity at&t verizon Spectrum 电信 联通 移动",
    "energy": "Octopus|octopus_energy british_gas EDF e.on OVO",
    "notes": "Notion obsidian evernote onenote Bear logseq",
    "tracker": "jira Linear trello asana 禅道 飞书项目 tapd",
    # a car, by its maker (its models are its other names: "Honda Civic" names one member; Civic -> Accord is left
    # to the other rules); not a maker's name that is also a word (现代 "modern", 理想 "ideal", 大众 "the public")
    "car": "tesla|特斯拉|Model_3|Model_Y|Model_S|Model_X toyota|丰田|rav4|rav_4|camry|corolla|prius|highlander "
    "honda|本田|civic|accord|cr-v|crv ford|福特|f-150|f150|Mustang|Bronco subaru|Outback|Forester|crosstrek "
    "mazda|马自达|cx-5|cx-50|miata hyundai|tucson|elantra|ioniq kia|起亚|sorento|sportage volvo|沃尔沃|xc60|xc90 "
    "bmw|宝马 mercedes|benz|奔驰 audi|奥迪 volkswagen|VW|大众汽车|一汽大众|上汽大众|朗逸|帕萨特|速腾|jetta|Golf "
    "nissan|日产汽车|Leaf|Rogue jeep|wrangler 比亚迪|byd 理想汽车|理想l6|理想l7|理想l8|理想l9|li_auto 蔚来|nio "
    "小鹏|xpeng 问界|aito 小米su7|xiaomi_su7|su7 极氪|zeekr 吉利汽车|geely",
}


_WORD = re.compile(r"[\w&+]+")  # a name's word, as the names are bounded ("at&t", "notepad++")


class _Names:
    """One member's names: one word written with a capital (matched as written), one word in any case, and the rest
    (several words, a hyphen or a dot, Chinese) as patterns. A text's words are read once and looked up: recall asks
    this of each candidate, and a pattern per name took 7 ms a long memory."""

    def __init__(self, cased: frozenset[str], uncased: frozenset[str], patterns: tuple[re.Pattern[str], ...]):
        self.cased, self.uncased, self.patterns = cased, uncased, patterns

    @classmethod
    def of(cls, member: str) -> "_Names":
        cased: set[str] = set()
        uncased: set[str] = set()
        patterns: list[re.Pattern[str]] = []
        for name in (n.replace("_", " ") for n in member.split("|")):
            chinese = bool(re.search(r"[\u4e00-\u9fff]", name))
            if _WORD.fullmatch(name) and not chinese:
                (cased if name[0].isupper() else uncased).add(name if name[0].isupper() else name.casefold())
                continue
            text = re.escape(name) if chinese else rf"(?<![\w&]){re.escape(name)}(?![\w&+])"
            patterns.append(re.compile(text if name[0].isupper() else f"(?i:{text})"))
        return cls(frozenset(cased), frozenset(uncased), tuple(patterns))

    def named_in(self, body: str, words: set[str], folded: set[str]) -> bool:
        return bool(self.cased & words or self.uncased & folded or any(p.search(body) for p in self.patterns))


@cache
def _lexicon() -> list[tuple[str, list[_Names]]]:
    return [(kind, [_Names.of(member) for member in members.split()]) for kind, members in _KINDS.items()]


@lru_cache(maxsize=4096)
def _named(body: str) -> dict[str, frozenset[int]]:
    """The members of each kind a text names. Cached: a stored statement is read against each of its candidates, and
    twice per pair (relate's cosine gate and its few-words gate)."""
    words = set(_WORD.findall(body))
    folded = {w.casefold() for w in words}
    return {
        kind: found
        for kind, members in _lexicon()
        if (found := frozenset(i for i, m in enumerate(members) if m.named_in(body, words, folded)))
    }


def _kind_replaced(old_body: str, new_body: str) -> str:
    """The kind, where the old statement names one member of it and the new one names another (the old one may be
    named too, as what was left: 从钉钉切到飞书, "shut AWS down")."""
    old, new = _named(old_body), _named(new_body)
    for kind, members in old.items():
        if len(members) == 1 and new.get(kind, frozenset()) - members:
            return kind
    return ""


# what a change moved, and what it is for: "We moved analytics to ClickHouse", "switched to Vim for my side
# projects", 把日记迁到了 Obsidian; words that only say how much ("everything", "full time") name nothing
_MOVED = re.compile(
    r"\b(?:moved|switched|migrated|changed|upgraded|ported)\s+(?P<what>(?:[\w-]+\s+){1,3}?)(?:over\s+)?(?:to|onto)\b"
    r"|\bfor\s+(?P<for>(?:[\w-]+\s*){1,3})"
    r"|把(?P<zh>[\u4e00-\u9fff]{1,6}?)(?:迁|换|搬|切|转|改)",
    re.IGNORECASE,
)
_ONLY_HOW_MUCH = frozenset(
    "everything all it them us over back good now everyday daily work a an the my our i we".split()
)


def _scoped_elsewhere(old_body: str, new_body: str) -> bool:
    """Whether the change names what it moved, or what it is for, in words the old statement lacks."""
    old = old_body.casefold()
    for m in _MOVED.finditer(new_body):
        if m.group("zh"):
            if m.group("zh") not in old:
                return True
            continue
        words = re.findall(r"[\w-]+", (m.group("what") or m.group("for") or "").casefold())
        if any(len(w) > 2 and w not in _ONLY_HOW_MUCH and w not in old for w in words):
            return True
    return False


def another_of_its_kind(old: Statement, new: Statement) -> bool:
    """A change to another of a kind above, by the same person, for the same use: "My wife has an iPhone" / "I
    switched to a Pixel", "Our prod database is Postgres" / "We moved analytics to ClickHouse" are not."""
    kind = _kind_replaced(old.body, new.body)
    return (
        announces(old, new)
        and bool(kind)
        and not someone_else(old, new)
        and not _scoped_elsewhere(old.body, new.body)
        and bool(_REPLACED.get(kind, _ANY).search(new.body))
    )


# A household may keep two cars: a change of another car replaces one only where it says so ("traded in the Civic
# for a RAV4", 换车了，现在开特斯拉); 比亚迪的年检推迟到六月了 after 那辆大众该保养了 is news of the other car.
_REPLACED = {
    "car": re.compile(
        r"\b(?:switched|traded|sold|replaced|bought|got|drive|drives|driving)\b|换|卖|提了|提车|买了|开",
        re.IGNORECASE,
    )
}
_ANY = re.compile("")


# A question that asks which one of a kind ("which phone do I use?", 我用什么手机？): its words for the kind.
_ASKED = {
    "phone": r"\bphones?\b|\bsmartphones?\b|手机",
    "editor": r"\b(?:editor|ide)s?\b|编辑器",
    "browser": r"\bbrowsers?\b|浏览器",
    "database": r"\bdatabases?\b|数据库",
    "cloud": r"\bcloud\b|云服务|云平台",
    "chat": r"\b(?:team chat|chat app|messaging app)\b|聊天工具|沟通工具",
    "queue": r"\b(?:message )?(?:queue|broker)s?\b|消息队列",
    "passwords": r"\bpassword managers?\b|密码管理",
    "ci": r"\bci\b|持续集成",
    "code host": r"\b(?:code|git|repo) host",
    "watch": r"\b(?:smart)?watch(?:es)?\b|\bfitness tracker\b|手表|手环",
    "isp": r"\b(?:isp|internet provider|broadband)\b|宽带",
    "energy": r"\b(?:energy|electricity|power) (?:supplier|provider|company)\b|电力公司",
    "notes": r"\bnotes? app\b|笔记软件",
    "tracker": r"\b(?:issue|bug|task) tracker\b|项目管理工具",
    "car": r"\b(?:car|vehicle)s?\b|\bdrive\b|开什么车|什么车",
}


@cache
def _asked_patterns() -> list[tuple[str, re.Pattern[str]]]:
    return [(kind, re.compile(words, re.IGNORECASE)) for kind, words in _ASKED.items()]


def kinds_asked(query: str) -> frozenset[str]:
    """The kinds above a question names ("which phone do I use?": phone)."""
    return frozenset(kind for kind, said in _asked_patterns() if said.search(query))


def names_one_of(text: str, kinds: frozenset[str]) -> bool:
    """Whether a text names a member of one of these kinds ("I switched to a Pixel.": a phone). Recall asks it of its
    candidates: only the kinds asked are read (all of them, over 2,000 characters, took over a millisecond)."""
    head = text[:2000]
    words = set(_WORD.findall(head))
    folded = {w.casefold() for w in words}
    lexicon = dict(_lexicon())
    return any(m.named_in(head, words, folded) for kind in kinds for m in lexicon[kind])
