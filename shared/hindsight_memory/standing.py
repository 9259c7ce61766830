"""Standing instructions and preferences: statements that apply to later requests on other topics ("Always
include cultural context when I ask about social norms.", "I prefer e-books", "以后回答我都用要点"), the topic an
instruction is for, and the requests they apply to. No LLM: the writer tags them, recall keeps them in view."""

import re

from .text import side_of_turn, speaker_of, terms

# A standing instruction or preference: it applies to later requests on other topics ("Always include cultural
# context when I ask about social norms.", "I prefer e-books for their portability", "以后回答我都用要点").
# An instruction says how to answer; a preference says what the user likes.
_INSTRUCTION = re.compile(
    r"^\W*(?:please\s+)?(?:always|never)\s+\w+"
    r"|\b(?:always|never)\b[^.?!]{0,160}\b(?:when|whenever|if)\s+(?:i|we)\s+"
    r"(?:ask|talk|request|need|want|mention|bring up|discuss)\b"
    r"|\b(?:from now on|going forward)\b"
    r"|^\W*(?:以后|今后|从现在起)|每次.{0,20}(?:都|请)|请(?:总是|始终|一直)",
    re.IGNORECASE,
)
_PREFERENCE = re.compile(
    r"\bi\s+(?:really\s+|much\s+|generally\s+|usually\s+|strongly\s+)?(?:prefer|would rather|'d rather)\b"
    r"|\bmy\s+(?:preference|preferred)\b"
    r"|我(?:更)?(?:喜欢|偏好|倾向于)",
    re.IGNORECASE,
)


STANDING_TAG = "standing"  # the store's mark on standing instructions and preferences


def standing_statement(text: str) -> bool:
    """Whether a turn states a standing instruction or preference of its speaker (the user's side: a role label,
    if any, must not be the assistant's)."""
    return standing_kind(text) != ""


def standing_kind(text: str) -> str:
    """ "instruction" ("always ... when I ask"), "preference" ("I prefer ...") or "" for a turn that states
    neither, or is the assistant's."""
    if side_of_turn(text) == "agent":
        return ""
    _, rest = speaker_of(text)
    return "instruction" if _INSTRUCTION.search(rest) else "preference" if _PREFERENCE.search(rest) else ""


# The topic an instruction is for: "Always include platform details when I ask about movie options."
_TRIGGER = re.compile(
    r"\b(?:when|whenever|if)\s+(?:i|we)\s+(?:ask|talk|request|inquire|mention|bring up|discuss)"
    r"(?:\s+(?:you\s+)?(?:about|for|on|regarding))?\s+([^.?!;\n]{2,80})",
    re.IGNORECASE,
)
_TRIGGER_ZH = re.compile(r"我(?:问到|问起|询问|提到|谈到|说到|问)(.{1,20}?)(?:的时候|时)")


def condition_of(instruction: str) -> str:
    """The topic an instruction is for ("when I ask about movie options": "movie options"), or ""."""
    m = _TRIGGER.search(instruction) or _TRIGGER_ZH.search(instruction)
    return m.group(1).strip() if m else ""


# A question whose answer is a date ("When is my meeting at the studio?", "the date of the workshop", 哪天), and an
# instruction about how to give dates ("Always format dates as MM/DD/YYYY when I ask about scheduling details"): it
# applies to that answer whatever topic its condition names.
_ASKS_DATE = re.compile(
    r"^\W*when\b|\b(?:what|which|by what) (?:date|day)\b|\bthe date of\b|什么时候|哪天|哪一天|几号|几月几",
    re.IGNORECASE,
)
_ABOUT_DATES = re.compile(r"\bdates?\b|日期", re.IGNORECASE)


def asks_for_a_date(query: str) -> bool:
    return bool(_ASKS_DATE.search(query))


def about_dates(instruction: str, condition: str) -> bool:
    """Whether an instruction says how to give dates (outside its condition, `condition_of(instruction)`)."""
    said = instruction.replace(condition, " ") if condition else instruction
    return bool(_ABOUT_DATES.search(said))


def trigger_share(instruction: str, query: str) -> float:
    """The share of an instruction's topic words ("when I ask about movie options": movie, option) that a query
    holds, plurals aside; 0 for an instruction that names no topic."""
    condition = condition_of(instruction)
    if not condition:
        return 0.0
    topic = {_singular(w) for w in terms(condition)}
    if not topic:
        return 0.0
    asked = {_singular(w) for w in terms(query)}
    return len(topic & asked) / len(topic)


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


# A request for advice or a suggestion, about now or what comes next ("what should I...", "can you suggest...",
# "how would you..."), as opposed to a question about what was said or done ("what did you recommend...").
_ADVICE = re.compile(
    r"\b(?:should (?:i|we)|(?:i|we) should|can you (?:suggest|recommend|help|give|tell me (?:about|how))|"
    r"could you (?:suggest|recommend|help)|how (?:would|should|can|do) (?:you|i|we)|"
    r"what (?:are|would be) (?:some|the best|good)|recommend|suggest|any (?:tips|ideas|advice)|what should|"
    r"how to|what can you tell me|ideas? for|i'm (?:looking|planning|trying|thinking)|i want to|i need)\b"
    r"|建议|推荐|怎么(?:做|办|安排)|应该|有什么(?:好|办法)",
    re.IGNORECASE,
)
_ABOUT_THE_PAST = re.compile(
    r"\b(?:did (?:i|you|we)|have i|had i|was i|were we|when (?:did|was)|how many|how long|what was|"
    r"who (?:did|was)|in what order|the order|summar\w+|mention(?:ed)?|brought up|told you|said)\b"
    r"|说过|提到过|之前|上次",
    re.IGNORECASE,
)


def asks_for_advice(question: str) -> bool:
    """Whether a question asks for advice or a suggestion rather than about what was said or done: where a
    standing instruction or preference applies."""
    return bool(_ADVICE.search(question)) and not _ABOUT_THE_PAST.search(question)
