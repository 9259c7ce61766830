"""The generator's conversations between two named people instead of a user and an assistant: every turn is
labelled with its speaker's name ("Maya: My dog is called Biscuit.") and every question asks about them in the
third person ("What's Maya's dog's name?", "玛雅的狗叫什么名字?"). The same turns, answers and times as the
user/assistant rendering, so the two measure the same facts under the other shape real chat logs have."""

import random
import re
from dataclasses import replace

from .dataset import Conversation, Dataset, Question, Session, Turn

EN_NAMES = (
    "Maya",
    "Jonah",
    "Priya",
    "Tomas",
    "Leila",
    "Owen",
    "Ines",
    "Felix",
    "Nadia",
    "Caleb",
    "Rosa",
    "Emeka",
)
ZH_NAMES = ("小雨", "志明", "晓梅", "建华", "思远", "丽娜", "国强", "雅婷", "子轩", "秀英", "海波", "美玲")

# First and second person -> the two speakers, most specific first ("did I" before "I").
_EN_RULES = [
    (r"\bam I\b", "is {a}"),
    (r"\bdo I\b", "does {a}"),
    (r"\bdid I\b", "did {a}"),
    (r"\bwas I\b", "was {a}"),
    (r"\bI'd\b", "{a} would"),
    (r"\bI'm\b", "{a} is"),
    (r"\bI've\b", "{a} has"),
    (r"\bI want\b", "{a} wants"),
    (r"\bI\b", "{a}"),
    (r"\b[Mm]y\b", "{a}'s"),
    (r"\bme\b", "{a}"),
    (r"\bwe'd\b", "{a} and {b} would"),
    (r"\bwe\b", "{a} and {b}"),
    (r"\b[Oo]ur\b", "{a}'s"),
    (r"\byour\b", "{b}'s"),
    (r"\byou\b", "{b}"),
]
_ZH_RULES = [(r"我们", "{a}和{b}"), (r"我", "{a}"), (r"你", "{b}"), (r"您", "{b}")]


def third_person(text: str, lang: str, a: str, b: str) -> str:
    """A question in the first person (the user) and second person (the assistant) about speakers a and b."""
    for pattern, repl in _ZH_RULES if lang == "zh" else _EN_RULES:
        text = re.sub(pattern, repl.format(a=a, b=b), text)
    return text[0].upper() + text[1:] if text else text


def speakers(conversation_id: str, lang: str, seed: int) -> tuple[str, str]:
    """The two names of a conversation: deterministic for (conversation, seed)."""
    names = ZH_NAMES if lang == "zh" else EN_NAMES
    a, b = random.Random(f"hindsight-named:{seed}:{conversation_id}").sample(names, 2)
    return a, b


def named(ds: Dataset) -> Dataset:
    """The same dataset between two named speakers ("user" -> the first, "assistant" -> the second)."""
    convs = []
    for conv in ds.conversations:
        a, b = speakers(conv.conversation_id, conv.lang, ds.seed)
        who = {"user": a, "assistant": b}
        sessions = tuple(
            replace(s, turns=tuple(replace(t, role=who.get(t.role, t.role)) for t in s.turns))
            for s in conv.sessions
        )
        questions = tuple(replace(q, text=third_person(q.text, conv.lang, a, b)) for q in conv.questions)
        convs.append(replace(conv, sessions=sessions, questions=questions))
    return replace(ds, conversations=tuple(convs))


__all__ = ["Conversation", "Question", "Session", "Turn", "named", "speakers", "third_person"]
