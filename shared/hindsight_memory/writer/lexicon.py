"""The word lists statements are read with (writer/statements.py): short forms and regional words read as one
form, words with one meaning, qualities and their opposites, and nouns that name another person. Each entry has one
meaning only; a word with two stays out (see the note on READ_AS)."""

import re

from ..text import has_cjk

# Short forms that name one thing only, read as the long form: "Staging DB" is "the staging database". Left out:
# forms with a second meaning ("dev": development or developer, "auth": authentication or authorisation, "min";
# "lift": elevator or to raise, "gas": petrol or any gas).
READ_AS = {
    "db": "database",
    "dbs": "databases",
    "repo": "repository",
    "repos": "repositories",
    "config": "configuration",
    "configs": "configurations",
    "env": "environment",
    "envs": "environments",
    "prod": "production",
    "k8s": "kubernetes",
    "postgres": "postgresql",
    "docs": "documentation",
    "info": "information",
    "app": "application",
    "apps": "applications",
    "msg": "message",
    "msgs": "messages",
    "approx": "approximately",
    "dept": "department",
    "govt": "government",
    "yr": "year",
    "yrs": "years",
    "hrs": "hours",
    "mins": "minutes",
    "secs": "seconds",
    "appt": "appointment",
    "wfh": "remote",
    "svc": "service",
    "req": "requests",
    "reqs": "requests",
    "appts": "appointments",
    "mgr": "manager",
    "tl": "tech lead",
    "pref": "preference",
    "prefs": "preferences",
    "pls": "please",
    "bday": "birthday",
    "ppl": "people",
    "wk": "week",
    "wks": "weeks",
    "usd": "dollars",
    "char": "character",
    "chars": "characters",
    "mg": "milligrams",
    "kg": "kilograms",
    "km": "kilometres",
    "tmrw": "tomorrow",
    # British and American words for one thing, and verbs and nouns with one meaning between them.
    "flat": "apartment",
    "flats": "apartments",
    "holiday": "vacation",
    "holidays": "vacations",
    "lorry": "truck",
    "lorries": "trucks",
    "petrol": "gasoline",
    "motorway": "highway",
    "pavement": "sidewalk",
    "postcode": "zipcode",
    "reply": "answer",
    "replies": "answers",
    "replied": "answered",
    "response": "answer",
    "responses": "answers",
    "coriander": "cilantro",
    "studying": "learning",
    "studied": "learned",
    "dob": "birthdate",
    # Everyday short forms and family words with one meaning.
    "mom": "mother",
    "mum": "mother",
    "moms": "mothers",
    "mums": "mothers",
    "dad": "father",
    "dads": "fathers",
    "bike": "bicycle",
    "bikes": "bicycles",
    "kid": "child",
    "kids": "children",
    "tv": "television",
    "tvs": "televisions",
    "fridge": "refrigerator",
    "fridges": "refrigerators",
    "photo": "photograph",
    "photos": "photographs",
    "exam": "examination",
    "exams": "examinations",
    "maths": "math",
    "mathematics": "math",
    # chat words for family, and units said in full
    "hubby": "husband",
    "wifey": "wife",
    "gf": "girlfriend",
    "secondhand": "used",
    "megabytes": "mb",
    "megabyte": "mb",
    "gigabytes": "gb",
    "gigabyte": "gb",
    "st": "street",
    "ave": "avenue",
    "rd": "road",
    "blvd": "boulevard",
}

# A negated quality is its opposite ("isn't far" is "near", "can't stand" is "hate"): read so, a re-statement of
# "near" in other words meets it, and "not far" / "far" still meet as opposites, which never merge.
EN_OPPOSITE = {
    a: b
    for x, y in (
        ("far", "near"),
        ("heavy", "light"),
        ("expensive", "cheap"),
        ("long", "short"),
        ("big", "small"),
        ("large", "small"),
        ("hot", "cold"),
        ("early", "late"),
        ("fast", "slow"),
        ("high", "low"),
        ("primary", "secondary"),
        ("easy", "hard"),
        ("open", "closed"),
        ("like", "dislike"),
        ("likes", "dislikes"),
        ("liked", "disliked"),
    )
    for a, b in ((x, y), (y, x))
}

# Single characters of opposite meaning. One swapped for the other inside an otherwise equal sentence (导入/导出,
# 上午/下午, 楼上/楼下, 最高/最低) names the opposite thing, however close the model reads the two sentences. The
# qualities among them also read a negation: 不远 is 近, 不多 is 少 (as in English above).
_ZH_QUALITY_PAIRS = (
    "远近 高低 大小 多少 长短 早晚 新旧 冷热 快慢 轻重 深浅 宽窄 强弱 难易 粗细 厚薄 明暗 对错".split()
)
ZH_OPPOSITES = {
    frozenset(pair)
    for pair in "上下 左右 前后 内外 里外 出入 进出 开关 东西 南北 买卖 来去 男女 正负 增减 升降 涨跌 收发 老少 黑白 "
    "真假 胜负 输赢 先后 首末 主次 单双 加减 借还 存取 推拉 干湿 生死 昼夜 日夜 阴晴 冬夏 春秋 有无 是非 起落 攻守 敌友".split()
    + _ZH_QUALITY_PAIRS
}
ZH_QUALITIES = {p[i]: p[1 - i] for p in _ZH_QUALITY_PAIRS for i in (0, 1)}


# Words with one meaning read as one form (longest first): 星期三 / 礼拜三 / 周三, 母亲 / 妈妈.
ZH_SYNONYMS = {
    "芫荽": "香菜",
    "上司": "领导",
    "上级": "领导",
    "直属领导": "领导",
    # 线上 of a system is its production (线上库 / 生产库); 线上 alone also says "online" (线上课), left as it is
    "线上环境": "生产环境",
    "线上数据库": "生产数据库",
    "线上库": "生产数据库",
    "生产库": "生产数据库",
    "线上集群": "生产集群",
    "线上服务": "生产服务",
    "线上接口": "生产接口",
    "测试库": "测试数据库",
    "顶头上司": "领导",
    # a bank's short name is its name (工行卡 / 工商银行卡)
    "工行": "工商银行",
    "建行": "建设银行",
    "招行": "招商银行",
    "农行": "农业银行",
    "中行": "中国银行",
    "交行": "交通银行",
    "块钱": "元",
    "块": "元",
    "圆": "元",
    "星期天": "周日",
    "星期日": "周日",
    "礼拜天": "周日",
    "礼拜日": "周日",
    "周天": "周日",
    "星期": "周",
    "礼拜": "周",
    "母亲": "妈妈",
    "老妈": "妈妈",
    "父亲": "爸爸",
    "老爸": "爸爸",
    "爸妈": "父母",
    "老婆": "妻子",
    "媳妇": "妻子",
    "老公": "丈夫",
    "闺女": "女儿",
    "电话号码": "手机号",
    "手机号码": "手机号",
    "计算机": "电脑",
    "大夫": "医生",
    "最爱": "最喜欢",
    "上班": "工作",  # 在深圳上班 / 在深圳工作
    # a wireless network is its Wi-Fi; holidays named by their day (十一 of a holiday is 国庆, 中秋 is the 15th day
    # of the eighth lunar month)
    "无线网络": "wifi",
    "无线网": "wifi",
    "十一假期": "国庆假期",
    "十一长假": "国庆假期",
    "十一黄金周": "国庆假期",
    "中秋节": "农历八月十五",
    "两室一厅": "两居室",
    "三室一厅": "三居室",
}


def one_meaning(text: str) -> str:
    """Chinese words of one meaning written as one (老婆 -> 妻子, 最爱 -> 最喜欢, 大夫 -> 医生)."""
    for word, same in ZH_SYNONYMS.items():
        text = text.replace(word, same)
    return text


# 用户 as "the user", not before a word that makes it the name of a thing (用户服务, 用户中心, 用户表)
THE_USER_ZH = r"用户(?!服务|中心|端|数据|表|库)"

# Nouns that name someone else: "Sam drinks coffee" vs "Sam's wife drinks coffee" are two people's facts.
OTHER_PERSON = {
    w: group.split()[0]
    for group in (
        "wife 妻子 老婆 媳妇 太太",
        "husband 丈夫 老公",
        "partner 对象 另一半 我家那位",
        "spouse 爱人 配偶 那口子",
        "boyfriend 男朋友 男友",
        "girlfriend 女朋友 女友",
        "roommate flatmate 室友",
        "son 儿子",
        "daughter 女儿 闺女",
        "child children kid kids 孩子 孩子们 小孩 娃",
        "mother mom mum 妈妈 母亲 我妈 老妈",
        "father dad 爸爸 父亲 我爸 老爸",
        "brother",
        "哥哥 我哥",
        "弟弟 我弟",
        "sister",
        "姐姐 我姐",
        "妹妹 我妹",
        "manager boss supervisor 老板 上司 领导 上级",
        "friend 朋友",
        "colleague coworker teammate 同事",
        "neighbour neighbor 邻居",
        "team 团队 我们组 组里 小组",
        "parent 父母 爸妈 我爸妈",
        "parent-in-law 岳父母 公婆",  # 岳父母 are not the parents
        "father-in-law 岳父 公公 老丈人",
        "mother-in-law 岳母 婆婆 丈母娘",
        "grandmother grandma granny 奶奶 外婆 姥姥",
        "grandfather grandpa 爷爷 外公 姥爷",
        "aunt 姑姑 姨妈 舅妈 婶婶",
        "uncle 叔叔 舅舅 伯伯 姑父 姨父",
        "cousin 表哥 表姐 表弟 表妹 堂哥 堂姐 堂弟 堂妹",
        "nephew 侄子 外甥",
        "niece 侄女 外甥女",
        "grandson 孙子 外孙",
        "granddaughter 孙女 外孙女",
    )
    for w in group.split()
}
# The Chinese ones, the longest first: 我爸妈 are the parents, not the father.
OTHER_PERSON_ZH = tuple(sorted((w for w in OTHER_PERSON if has_cjk(w)), key=len, reverse=True))

# Words announcing a change of value ("now", "no longer", "changed ... to", 改成, 不再, 搬到).
CHANGE_EN = re.compile(
    # "now", but not after a duration ("been there a while now", "for years now": how long, no change)
    r"\b(?:(?<!while )(?<!years )(?<!months )(?<!weeks )(?<!ages )now|no longer|any ?more|no more|changed|change[sd]?(?=\s+(?:\S+\s+){0,3}to\b)|changing|moved?|switched|(?<!status )(?<!incident )(?<!progress )(?<!weekly )(?<!daily )(?<!security )(?<!software )update[ds]?|correction|corrected|actually|"
    r"instead|(?-i:new|New(?!\s+[A-Z])|NEW)|newly|rescheduled|renamed|replaced|upgraded|downgraded|raised|lowered|increased|decreased|"
    r"went (?:up|down)|grown(?!\s+up)|grew(?!\s+up)|cut|pushed|postponed|delayed|these days|turns out|from now on|transferred|"
    r"migrated|relocated|upped|bumped|swapped|shifted|reset|dropped|extended|shortened|reduced|scaled|renamed|expanded|"
    r"(?<![a-z]{2}s )(?<!the )left|joined|sold|traded|rewrote|rewritten|gave up|quit|stopped|started|make that|becomes?|became|"
    r"promoted|demoted|retired|graduated|hired|"
    # a time from which the value holds ("as of this week", "from next month", "starting Monday")
    r"as of|from (?:next|this|today|tomorrow)|starting (?:next|this|today|tomorrow|on|in|\w+day)|effective|"
    r"going forward|from here on|(?:finished|completed|after) (?:the )?(?:[a-z]+ )?(?:upgrade|migration|rebrand)|change of plans?|(?:i )?meant|my (?:mistake|bad)|slipped|slid|cancell?ed|went with|down to|reassigned|took over|"
    # a past habit or state ("I used to work at Google"), not a tool's use ("is used to deploy", "I'm used to it")
    r"(?<!is )(?<!are )(?<!was )(?<!were )(?<!be )(?<!been )(?<!am )(?<!get )(?<!got )used to)\b",
    re.IGNORECASE,
)
CHANGE_ZH = re.compile(
    r"现在|如今|目前|改成|改为|改到|改用|改学|改去|换成|换了|换到|不再|更新|更正|其实|调整为|调整|调到|调去|调往|调成|看完|读完|分手|升级到|升级|"
    r"涨到|涨了|调走|换人|放宽|缩短|延长|重置|推到|搬回|搬来|改报|扩容|切到|切换到|改由|升职|晋升|升为|降职|退休|毕业|改(?=[吃喝坐买穿骑练做])|从[^，。,；;]{1,8}起|起改|降到|降了|增加到|减少到|加到|减到|推迟到|推迟|延到|延期|提前到|挪到|搬到|搬家|迁到|迁移|改名|重命名|更名|转到|转网|说错|写错|记错|搞错|纠正|改签|改期|提高到|降低到|搬回|搬去|转给|升任|最近|(?<![\d点半分刻:：零一二三四五六七八九十两])开始|新的|新(?!区|闻|鲜|疆|加坡|西兰|年|春|娘|郎|生|华|手(?!机)|奇|颖|潮|人|版)|变成|变为|离职|辞职|辞了|卖了|取消|(?<![警训告])戒(?![指备律严心])"
)

# Change words that say a fact ended ("the meeting on Monday was cancelled", 我不再吃素): said of the same words,
# news, not a re-statement.
ENDED = frozenset(
    {
        "cancelled",
        "canceled",
        "quit",
        "stopped",
        "left",
        "sold",
        "retired",
        "gave up",
        "no longer",
        "no more",
        "used to",
    }
    | {"取消", "不再", "离职", "卖了", "退休", "看完", "读完", "分手", "戒"}
)

# Words that open a re-statement and say nothing of the fact: "Just a reminder, ...", "As I said, ...", 提醒一下，
LEAD_IN = re.compile(
    r"^\s*(?:(?:just )?(?:a (?:quick )?)?reminder|as i (?:said|mentioned)(?: before| earlier)?|as mentioned|"
    r"like i said|to recap|fyi|for the record|just so you know|quick note|again|heads up|noted|"
    r"(?:再)?提醒(?:你)?一下|(?:我)?之前(?:也)?说过|重申一下|再说一遍|顺便说一下|记录|备忘)\s*[,:，：;；!！]\s*"
    # a conversation's summary: "In today's chat the user mentioned ...", 今天聊天中用户提到...
    r"|^\s*(?:in (?:today's|this|our|the|my) (?:chat|conversation|session)|(?:今天|这次|本次)?的?(?:聊天|对话)[中里])"
    r"\s*[,:，：]?\s*",
    re.IGNORECASE,
)

# "still", 还是: the same fact said again ("I still live in Portland", 每日站会还是九点半); beside it a word that only
# says the present ("these days", 现在) announces no change
STILL = re.compile(r"\bstill\b|仍然|仍旧|依然|依旧|照旧|还是", re.IGNORECASE)
PRESENT = frozenset({"now", "these days", "as of", "最近", "现在", "目前", "如今"})
# A clause saying that nothing changed negates no fact and changes none (", nothing changed", "— the office
# address hasn't changed", 地址没变, 时间不变); read after contractions are expanded ("has not").
UNCHANGED_EN = re.compile(
    r"(?:[,;(]|\s[—–-])\s*(?:and\s+)?(?:(?:the|my|our|its|it|that|this|your)\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:has|have|had|did|does|do|is|was|are)\s+not\s+(?:been\s+)?changed?\b\)?"
    r"|(?:[,;(]|\s[—–-])\s*nothing\s+(?:has\s+)?changed\b\)?|\bnothing\s+(?:has\s+)?changed\b\)?|\(?\bunchanged\b\)?"
    r"|\bsame as (?:before|always|ever)\b",
    re.IGNORECASE,
)
UNCHANGED_ZH = re.compile(
    r"[，,；;]?(?:时间|地点|地址|价格|安排|其他|别的)?都?(?:没有?(?:任何)?(?:变化|改变|变|改)|不变|照旧|老样子)了?"
)

# A change only proposed or weighed, not made ("We're thinking of making the demo async", 有人提议把站会改到十点，还没定):
# the old value still holds. A recommendation acted on (兽医建议…现在改吃…) is a change; "建议" is not here.
PROPOSED = re.compile(
    r"\b(?:thinking (?:of|about)|considering|might|maybe|perhaps|proposed|proposal|propose|not (?:yet )?"
    r"(?:decided|confirmed|final)|undecided|tentative(?:ly)?|whether to|talking about|discussing)\b"
    r"|提议|考虑|打算|可能|也许|还没定|没定|未定|讨论|商量|还没确定|待定|还没结论",
    re.IGNORECASE,
)
