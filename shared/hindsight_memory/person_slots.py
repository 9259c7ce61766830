"""The fact slots of a person's life that a sentence gives from its start, whatever words it uses (text.extract_slot):
where one lives and works, whom one reports to, how one eats, whether one has a partner; and where someone named or
of the family lives. Statements of one slot with two values are an update however few words they share."""

import re

# Where the speaker lives: "I live in Seattle" and "I moved to Portland last month" give one slot two values.
_RESIDENCE = re.compile(
    r"^(?:(?:i|we|(?:the\s+)?user)\s+(?:(?:now|currently|still|just|recently|have|has|had|finally)\s+)*"
    r"(?:(?:live|lives|am living|are living|is living|am based|are based|is based)\s+(?:in|at)\s+\w|"
    r"(?:moved|relocated)\s+(?:back\s+)?to\s+(?-i:[A-Z]))|(?:my|our|user's) (?:home|house|place) is in\s)"
    r"|^(?:我|用户)(?:们)?(?:家)?(?:现在|目前|最近|上个月|上周|去年|今年|已经|刚)*(?:住在|搬到|搬去|搬回|定居在|家在|在.{1,12}住)"
    # said with no subject, as people write of themselves: "just moved to denver last month", 上个月搬到了杭州
    # ("just moved to the cloud", 上个月搬到了新办公室: not a home)
    r"|^(?:(?:just|finally|recently|so|we)\s+)*(?:moved|relocated|finished moving)\s+(?:back\s+)?to\s+"
    r"(?!(?:the|a|an|our|my|new)\s)\w"
    r"|^(?:上个月|上周|去年|今年|最近|已经|刚刚|刚|终于|前几天)+(?:搬到|搬去|搬回|搬完家|搬家)"
    r"(?!了?新?的?(?:工位|办公室|办公楼|公司|座位|云|服务器|系统|平台|机房))",
    re.IGNORECASE,
)


# Where the speaker works: "I work at Stripe" and "I left Stripe, I'm at Shopify now" give one slot two values.
_WORKPLACE = re.compile(
    r"^(?:(?:i|we|(?:the\s+)?user)\s+(?:(?:now|currently|still|just)\s+)*(?:work|works|am working|is working)\s+"
    r"(?:at|for)\s+(?-i:[A-Z])|i\s+(?:just\s+)?(?:started|joined)\s+(?:a\s+new\s+job\s+at\s+)?(?-i:[A-Z]))"
    r"|^(?:我|用户)(?:现在|目前|已经)*在[^，,。在]{1,10}(?:工作|上班|任职|担任|做(?:前端|后端|开发|测试|产品|运营|设计|销售|算法|数据|研发))"
    r"|^(?:我|用户)?(?:现在|已经|刚|刚刚|上个月|上周|最近)*(?:跳槽|入职)"  # 跳槽去了美团, 已经入职字节
    # left one employer, or started at another, said with no subject: "已经从华为离职了", "Just started a new job
    # as head of product at Notion", "I left Deloitte, I'm a product manager at Shopify now"
    r"|^(?:我|用户)?(?:现在|已经|刚|刚刚|上个月|上周|最近)*从[^，,。]{1,10}(?:离职|辞职|跳槽)"
    r"|^(?:i\s+)?(?:just\s+|recently\s+)?(?:started|joined|began)\s+(?:a\s+|my\s+)?new\s+job\b"
    r"|^i\s+(?:just\s+)?(?:left|quit)\s+(?-i:[A-Z])\w+\s*[,;]"
    # a role at an employer ("Works as a product manager at Stripe", 用户在阿里做 P7 工程师, 现在在腾讯当技术专家)
    r"|^(?:(?:i|(?:the\s+)?user)\s+)?(?:now\s+|currently\s+)?(?:work|works|am working|is working)\s+as\s+"
    r"(?:an?\s+)?[\w -]{1,40}?\s+(?:at|for)\s+(?-i:[A-Z])"
    r"|^(?:我|用户)(?:现在|目前|已经)*在[^，,。在]{1,10}(?:做|当)[^，,。]{0,8}"
    r"(?:工程师|经理|专家|总监|设计师|分析师|主管|顾问|开发|产品|测试|运营)"
    # moved to another team of the same employer: 我上个月调到了风控组
    r"|^(?:我|用户)?(?:现在|已经|刚|上个月|上周|最近|今年)*调(?:到|去)了?[^，,。]{1,10}(?:组|部门|团队|分公司|总部)",
    re.IGNORECASE,
)


# Where someone named or one of the speaker's family lives: "Gabe lives in Austin", "My sister moved to Leeds",
# 我妈今年春天搬回老家宜昌了 (a place after "moved to" is capitalised: "Gabe moved to the sales team" is no move)
THEIR_RESIDENCE = re.compile(
    r"^(?:my\s+)?(?P<who>(?-i:[A-Z][a-z]+)|(?<=my )[a-z]+)\s+(?:(?:now|still|currently|just|recently|finally)\s+)*"
    r"(?:(?:lives|is living|is based)\s+in\s+\w|(?:moved|relocated)\s+(?:back\s+)?to\s+(?-i:[A-Z]))"
    r"|^我?(?P<kin>姐姐|姐|妈妈|妈|爸爸|爸|哥哥|哥|弟弟|妹妹|女儿|儿子|父母|爸妈|老婆|老公)"
    r"(?:现在|目前|最近|上个月|今年|去年|春天|夏天|秋天|冬天|已经|刚)*(?:住在|搬到|搬去|搬回|在.{1,8}住)",
    re.IGNORECASE,
)


# Whom the speaker reports to: "after the reorg I report to Aisha Patel", 我现在直接向刘总汇报, 我现在汇报给李总了 (the
# manager slot of "Manager: Tom Reyes", 我的直属领导是王经理; writer/slots.py reads those as one)
_REPORTS_TO = re.compile(
    r"^(?:(?:after|since|following)\s+[\w\s'-]{1,25}?[,，]?\s+|[\w\s'-]{1,30}[,，:]\s*)?"
    r"(?:i|(?:the\s+)?user)\s+(?:(?:now|currently|still|directly)\s+)*reports?\s+(?:directly\s+)?to\s+(?-i:[A-Z])"
    r"|^(?:[^，,。：:]{1,12}[，,：:]\s*)?(?:我|用户)(?:现在|目前|已经|直接)*(?:向[^，,。]{1,6}汇报|汇报给)",
    re.IGNORECASE,
)


# What a person has or is, one value at a time: where they live and work and whom they report to (read from the
# sentence's start), how they eat ("I'm vegetarian" / "I've gone pescatarian"), whether they have a partner ("I'm
# single" / "I got engaged last weekend", 我是单身 / 我最近谈恋爱了).
PERSON_SLOTS = (
    ("residence", _RESIDENCE),
    ("workplace", _WORKPLACE),
    ("manager", _REPORTS_TO),
    (
        "diet",
        re.compile(
            r"\b(?:i'm|i am|i've been|i have been|i became|i've become|i went|i've gone|i have gone|(?:the )?user is)"
            r"\s+(?:(?:now|a|fully|strictly|mostly|back to being)\s+)*(?:vegetarian|vegan|pescatarian|pescetarian|"
            r"flexitarian|omnivore)\b|^我(?:现在|目前|已经|开始)?(?:是|改吃|吃)?(?:素食者|素食主义者|吃素|纯素|全素)",
            re.IGNORECASE,
        ),
    ),
    (
        "relationship",
        re.compile(
            r"\b(?:i'm|i am|i've been|(?:the )?user is)\s+(?:(?:now|still|currently|happily|officially)\s+)*"
            r"(?:single|married|engaged|divorced|dating|in a relationship|seeing someone)\b"
            r"|(?:\b(?:i|(?:the )?user)\s+|^)(?:just\s+)?(?:got|am getting|is getting)\s+(?:married|engaged|divorced)\b"
            r"|\b(?:we|and i)\s+(?:just\s+)?broke\s+up\b"
            # a partner now: "I have a girlfriend now", "I've got a boyfriend", 我脱单了
            r"|^(?:(?:i|(?:the )?user)\s+(?:now\s+|finally\s+)?(?:have|has|'ve got|have got|got)\s+a\s+(?:new\s+)?"
            r"(?:girlfriend|boyfriend)\b)"
            r"|^(?:我|用户)(?:现在|目前|还是|已经|上个月|最近|去年|今年|刚)*(?:是)?"
            r"(?:单身|结婚|订婚|离婚|谈恋爱|恋爱|分手|脱单|有(?:了)?(?:女朋友|男朋友|对象))",
            re.IGNORECASE,
        ),
    ),
)
