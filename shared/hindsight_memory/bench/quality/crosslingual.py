"""A cross-lingual recall set of our own: 40 facts, each asked about in the other language (20 Chinese facts asked
in English, 20 English facts asked in Chinese), stored together with everyday chatter in both languages, plus
questions in either language about things never said. Written for this project; no benchmark data."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Pair:
    fact: str  # stored as "user: <fact>"
    question: str  # asked in the other language


ZH_FACTS_EN_QUESTIONS = [
    Pair("我对花生过敏，吃了会呼吸困难。", "Does the user have any food allergy?"),
    Pair("我女儿叫小雨，今年九岁，在上三年级。", "How old is my daughter?"),
    Pair("我们下个月搬到杭州，新家在西湖区。", "Which city are we moving to next month?"),
    Pair("我每天早上六点去游泳，一般游一千米。", "What exercise do I do in the morning?"),
    Pair("我的车是一辆白色的丰田卡罗拉。", "What car do I drive?"),
    Pair("我妈妈的生日是十月三号。", "When is my mother's birthday?"),
    Pair("我在一家做医疗器械的公司当产品经理。", "What is my job?"),
    Pair("我们家的猫叫团子，是一只橘猫。", "What is the name of our cat?"),
    Pair("我大学学的是土木工程，在同济读的。", "What did I study at university?"),
    Pair("我最近在学吉他，每周六上一节课。", "Which instrument am I learning?"),
    Pair("我不吃香菜，一点都不能放。", "Is there any herb I refuse to eat?"),
    Pair("我们的婚礼定在明年五月，在厦门办。", "Where will the wedding take place?"),
    Pair("我老板叫王磊，他下周去德国出差。", "Who is my boss?"),
    Pair("我的血型是O型。", "What is my blood type?"),
    Pair("我每个月房租是四千五，押一付三。", "How much rent do I pay each month?"),
    Pair("我儿子对乳糖不耐受，只能喝无乳糖牛奶。", "Can my son drink regular milk?"),
    Pair("我弟弟在温哥华读研究生，学计算机。", "Where does my brother study?"),
    Pair("我最喜欢的作家是余华，尤其是《活着》。", "Who is my favourite author?"),
    Pair("我家的 WiFi 密码贴在冰箱上。", "Where can I find the WiFi password at home?"),
    Pair("我打算明年春天跑第一个全程马拉松。", "What race am I planning to run next spring?"),
]

EN_FACTS_ZH_QUESTIONS = [
    Pair("I'm allergic to penicillin, it gives me a bad rash.", "我对哪种药过敏？"),
    Pair("My husband's name is Tom and he works as a nurse.", "我丈夫是做什么工作的？"),
    Pair("We adopted a golden retriever called Maple last spring.", "我们家的狗叫什么名字？"),
    Pair("My flight to Osaka leaves on the 14th at 8 in the morning.", "我去大阪的航班是几号？"),
    Pair("I switched to a vegetarian diet two years ago.", "我现在吃肉吗？"),
    Pair("Our team's standup is every day at 9:30 on Zoom.", "我们团队每天几点开站会？"),
    Pair("My grandmother lives in a small village near Porto.", "我奶奶住在哪里？"),
    Pair("I take the number 42 bus to work, it takes about forty minutes.", "我怎么去上班？"),
    Pair("My favourite dish is my dad's lamb stew.", "我最喜欢吃什么菜？"),
    Pair("I play badminton with my colleagues every Thursday evening.", "我每周四晚上做什么运动？"),
    Pair("My sister is getting married in Edinburgh in August.", "我姐姐在哪里结婚？"),
    Pair("I have a mild fear of heights, so I avoid glass elevators.", "我害怕什么？"),
    Pair("Our apartment is on the 12th floor and has no balcony.", "我们住在几楼？"),
    Pair("I'm saving for a down payment, aiming for 60,000 by next year.", "我在为什么存钱？"),
    Pair("My laptop is a three-year-old ThinkPad with a cracked hinge.", "我用的是什么电脑？"),
    Pair("I speak Portuguese at home with my parents.", "我在家和父母说什么语言？"),
    Pair("My dentist appointment was moved to next Wednesday afternoon.", "我的牙医预约改到什么时候了？"),
    Pair("I volunteer at the food bank on the first Saturday of each month.", "我在哪里做志愿者？"),
    Pair("My son is learning to swim at the community pool.", "我儿子在学什么？"),
    Pair("I can't drink coffee after 3 pm or I won't sleep.", "我下午可以喝咖啡吗？"),
]

# Everyday chatter in both languages: what the facts must be found among.
CHATTER = [
    "assistant: 好的，我记下了。",
    "user: 今天天气真不错，适合出去走走。",
    "assistant: 听起来是个愉快的周末计划。",
    "user: 这周工作有点忙，晚上都在加班。",
    "user: 昨天看了一部电影，结尾有点仓促。",
    "assistant: 需要我帮你整理一下待办事项吗？",
    "user: 周末想去超市买点水果和酸奶。",
    "user: 我们小区门口新开了一家面包店。",
    "assistant: Sure, I can help you plan that.",
    "user: The weather has been really grey this week.",
    "assistant: That sounds like a busy day, take a break when you can.",
    "user: I finally cleaned out the garage yesterday.",
    "user: Traffic was terrible on the way home tonight.",
    "assistant: Let me know if you want a reminder for that.",
    "user: We watched a documentary about octopuses last night.",
    "user: I need to buy new running shoes at some point.",
]

# Asked in the other language of the stored facts: nothing stored answers them.
NEVER_SAID = [
    "Which football team does the user support?",
    "What is the name of my piano teacher?",
    "Do I have a tattoo?",
    "我最喜欢哪支篮球队？",
    "我的钢琴老师叫什么名字？",
    "我有没有纹身？",
]

PAIRS = ZH_FACTS_EN_QUESTIONS + EN_FACTS_ZH_QUESTIONS


NAMESPACE = "bench/crosslingual"


def store_items() -> list[dict[str, Any]]:
    facts = [{"content": f"user: {p.fact}", "metadata": {"pair": i}} for i, p in enumerate(PAIRS)]
    return facts + [{"content": c} for c in CHATTER]


def run_crosslingual(
    store: Callable[[str, list[dict[str, Any]]], None], recall: Callable[[str, str, int], Any]
) -> dict[str, Any]:
    """Store the set through `store(namespace, items)`, ask each question through `recall(namespace, query, k)`
    (a RecallResult); the share of pairs whose fact is in the top 5, per direction, and how often a question
    about something never said answers `missing`."""
    store(NAMESPACE, store_items())
    found: dict[str, list[bool]] = {"en->zh": [], "zh->en": []}
    misses = []
    for i, p in enumerate(PAIRS):
        res = recall(NAMESPACE, p.question, 5)
        hit = any(m.metadata.get("pair") == i for m in res.memories)
        found["en->zh" if i < len(ZH_FACTS_EN_QUESTIONS) else "zh->en"].append(hit)
        if not hit:
            misses.append(p.question)
    missing = [recall(NAMESPACE, q, 5).missing for q in NEVER_SAID]
    every = found["en->zh"] + found["zh->en"]
    return {
        "pairs": len(every),
        "found_at_5": sum(every) / len(every),
        "en_question_zh_fact": sum(found["en->zh"]) / len(found["en->zh"]),
        "zh_question_en_fact": sum(found["zh->en"]) / len(found["zh->en"]),
        "never_said_missing": sum(missing) / len(missing),
        "not_found": misses,
    }
