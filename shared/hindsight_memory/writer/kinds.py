"""Kinds of things whose members are other things (writer/reworded.py, writer/changed.py): one member put in another's
place is never a rewording of it, and a change naming one after a statement of another is a change of that other one
("home" / "guest" Wi-Fi, weekdays / weekends, Netflix / Spotify, 电费 / 宽带费); and the words that make a thing another
one than the one named plainly (`variant`: "the backup YubiKey" is not "my YubiKey")."""

import re

from .statements import Statement, _stem


def _kinds(*groups: str) -> list[list[list[str]]]:
    """Groups of members separated by spaces, a member's synonyms by "|"."""
    return [[member.split("|") for member in group.split()] for group in groups]


CONTRASTS_EN = _kinds(
    "weekday|weekdays|school night|school nights|weeknight|weeknights weekend|weekends",
    "home guest",
    "personal work|business side",
    "staging production|prod dev|development sandbox",
    "primary backup replica",
    "frontend backend",
    "inbound|incoming outbound|outgoing",
    "checking savings",
    "debit credit",
    "internal external",
    "public private",
    "upstairs downstairs",
    "husband wife",
    "son daughter",
    "mom|mother|mum dad|father",
    "brother sister",
    "aunt uncle",
    "niece nephew",
    "daily weekly biweekly|fortnightly monthly quarterly yearly|annual",
    "day|days week|weeks month|months quarter|quarters year|years",
    "dog|dogs|puppy cat|cats|kitten rabbit|rabbits|bunny hamster|hamsters",
    "red orange yellow green blue purple black white grey|gray pink brown",
    "spring summer autumn|fall winter",
    "day|daytime|morning|mornings night|nights|nighttime|evening|evenings",
    "bike|bicycle motorcycle|motorbike scooter car",
    "netflix spotify hulu youtube peacock audible",  # services named by brand: one plan is not another's
)
CONTRASTS_ZH = _kinds(
    "工作日 周末",
    "出差 旅游|旅行",
    "公司|单位 副业|个人",
    "工作 家里|家用|私人",
    "测试环境|测试 生产环境|线上|生产 预发",
    "前端 后端",
    "儿子 女儿|闺女",
    "丈夫|老公|先生 妻子|老婆|太太|爱人",
    "爸爸|父亲|爸 妈妈|母亲|妈",
    "哥哥 弟弟 姐姐 妹妹",
    "爷爷 奶奶 外公|姥爷 外婆|姥姥",
    "每日|每天 每周|每星期 每月|每个月 每季度|每个季度 每年",
    "以前 现在",
    "移动 联通 电信 广电",
    "花呗 借呗",
    "栋 楼",
    "狗 猫 兔 仓鼠",
    "红色 橙色 黄色 绿色 蓝色 紫色 黑色 白色 灰色 粉色 棕色",
    "春天|春季 夏天|夏季 秋天|秋季 冬天|冬季",
    "白天|早上|上午 晚上|夜里|夜间",
    "上学|开学|上学期间 暑假|寒假|假期|放假",
    "自行车|单车 电动车|电瓶车 摩托车 汽车|轿车",
    "左眼 右眼",
    "住院 出院",  # 爷爷在住院 / 爷爷出院回家了: in hospital, then out
    "左耳 右耳",
    "公网|外网 内网",
    "家里|家用 访客",
    "去 回来|回程|返程",  # 去东京的航班 / 从东京回来的航班: the flight out and the flight back
    "电费 水费 燃气费|煤气费 宽带费|网费 话费 物业费 房租",
    "爱奇艺 腾讯视频 优酷 芒果TV 哔哩哔哩|B站 网易云音乐|网易云 QQ音乐 喜马拉雅",  # services by brand, as in English
)


# words that make a thing another one than the one named plainly, said before it: a guest network, a backup key, a
# test server (a word the other side holds in the other language is no other one: 测试环境 / test环境)
_VARIANTS = {
    **{_stem(w): {w} for w in "guest backup spare secondary staging sandbox".split()},
    "访客": {"guest", "visitor"},
    "备用": {"backup", "spare"},
    "测试": {"test", "testing", "staging"},
}


def variant(one: Statement, other: Statement) -> bool:
    """Whether `one` names a variant, right before a word both hold, that `other` does not name."""
    theirs, text = set(other.words), other.text.casefold()
    for v, said in _VARIANTS.items():
        if v in theirs or set(v) <= theirs and len(v) == 2 or any(re.search(rf"\b{t}", text) for t in said):
            continue
        written = v if len(v) == 2 else rf"\b{v}\w*"
        for m in re.finditer(rf"{written}\s*([\w-]+)", one.text.casefold()):
            nxt = m.group(1)
            first = nxt[:1] if "\u4e00" <= nxt[:1] <= "\u9fff" else ""
            if {_stem(nxt), _stem(nxt.replace("-", "")), first} & theirs:
                return True
    return False
