"""Whose words a question asks about, and which speaker it names: "what did I say..." is about the user's turns,
"what did you suggest..." about the assistant's, "What did Caroline..." about Caroline's."""

import re

from ..text import ROLES, has_cjk, normalize

_SUMMARY = re.compile(r"\b(?:summar\w+|overview|recap)\b|总结|概括|回顾", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself)\b|我(?!们)", re.IGNORECASE)
_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|you've|you'd|you're|yourself)\b|你|您", re.IGNORECASE)

# How a request is put to the assistant ("can you walk me through...", "remind me"), not whose words it is about.
_REQUEST_FORM = re.compile(
    r"\b(?:can|could|would|will) you(?: please)?\b|\b(?:remind|tell|show|give|walk|help) me\b|\bplease\b"
    r"|^\W*(?:你|您)(?:能|可以)|(?:帮|告诉|提醒)我",
    re.IGNORECASE,
)


def _as_word(name: str, tail: str = "") -> str:
    """A pattern for `name` as a whole word (then `tail`), not inside another ("Carol" in "Carolina")."""
    return rf"(?<![^\W_]){re.escape(name)}{tail}(?![^\W_])"


def without_name(question: str, name: str) -> str:
    """The question with a speaker's name (and an English possessive after it) taken out."""
    if has_cjk(name):
        return normalize(question.replace(name, " "))
    return normalize(re.sub(_as_word(name, "(?:'s|’s)?"), " ", question, flags=re.IGNORECASE))


def named_in(question: str, labels: set[str]) -> str:
    """The one speaker label (a name, not a role) the question names, or "" for none or several."""
    folded = question.casefold()
    hits = [
        lab
        for lab in labels
        if lab and lab not in ROLES and (lab in folded if has_cjk(lab) else re.search(_as_word(lab), folded))
    ]
    return hits[0] if len(hits) == 1 else ""


# the first person of a question, and the plural a speaker also speaks of themselves in
_SPEAKER_SELF = re.compile(_FIRST_PERSON.pattern + r"|\b(?:we|we're|we've|our|ours|us)\b|我们", re.IGNORECASE)


def asks_the_other(turn: str) -> bool:
    """Whether a turn (its label taken off) only asks the other speaker something, saying nothing of its own
    speaker: "Caleb: How's work at Desert Paws?" is about Nadia's work, not Caleb's."""
    return bool(re.search(r"[?？]", turn)) and not _SPEAKER_SELF.search(turn)


def side_asked_about(question: str) -> str:
    """Whose words a question is about: "user" for the first person only ("what did I say..."), "agent" for
    the second person only ("what did you suggest..."), "" when both or neither appear. The form of a request
    ("can you walk me through the order in which I...") does not count."""
    if _SUMMARY.search(question):
        return ""  # a summary of what "I" did covers both sides of the exchange
    question = _REQUEST_FORM.sub(" ", question)
    first, second = bool(_FIRST_PERSON.search(question)), bool(_SECOND_PERSON.search(question))
    return "user" if first and not second else "agent" if second and not first else ""


# "the order in which I brought up..." lists what one side raised: each item is one of that side's turns.
_RAISED = re.compile(
    r"\b(?:in (?:what|which) order (?:did )?|the order in which )(i|you) (?:first )?(?:brought up|bring up"
    r"|mentioned|mention|raised|raise|asked about|ask about|shared|share|suggested|suggest)\b",
    re.IGNORECASE,
)


def raised_by(question: str) -> str:
    """ "user" / "agent" when a question asks for the order in which that side brought things up, else ""."""
    m = _RAISED.search(question.replace("’", "'"))
    return "" if not m else "user" if m.group(1).casefold() == "i" else "agent"


# A question asking for breadth (the order things came up in, a summary, how something went over time) is mostly
# words about the form of the answer ("Can you walk me through the order in which I brought up different aspects
# of..."); they match every turn that talks of orders and summaries, and blur the topic in the query's vector.
_CONVS = r"(?:conversations?|chats?|discussions?|sessions?|messages?|talks?|exchanges?)"
_OUR_CONVS = (
    r"(?:throughout|across|over|during|in) (?:the course of |all )?(?:of )?(?:our|my|the)(?: \w+)? " + _CONVS
)
# "How did Caleb's work life change over the year?": the span of the whole conversation, said as its time
_YEAR = r"(?:over|during|throughout|across) (?:the course of )?(?:the|this) (?:year|months)"
_BREADTH = re.compile(
    _SUMMARY.pattern
    + r"|\b(?:in (?:what|which) order|the order (?:in which|of)|in order|chronolog\w*|over time|"
    + _YEAR
    + "|"
    + _OUR_CONVS
    + r")\b|按(?:时间)?顺序|先后",
    re.IGNORECASE,
)
_FRAME = re.compile(
    "|".join(
        (
            r"\bmention only and only \w+ items?\b\.?",
            # "list" and "provide" only open a request: "my reading list" keeps its list
            r"^\W*(?:(?:(?:can|could|would|will) you(?: please)?|please)\s+)?(?:list|provide)\b",
            r"^\W*(?:(?:can|could|would|will) you(?: please)?|please)\s+",
            r"\b(?:walk me through|give me|tell me|remind me of|summari[sz]e|recap)\b",
            r"\bthe order in which (?:i|we) (?:first )?(?:brought up|mentioned|discussed|raised|talked about"
            r"|asked about|shared|covered|explored|addressed|went through)\b",
            r"\b(?:a |an |the )?(?:(?:comprehensive|complete|brief|detailed|quick|short|full) )?(?:summary|overview"
            r"|recap)\b(?: of)?",
            r"\b(?:the )?different\b",
            r"\b" + _OUR_CONVS + r"\b",
            r"\bin (?:chronological )?order\b",
            r"\b(?:so far|over time|up to now|until now)\b",
            r"\b" + _YEAR + r"\b",
            r"\b(?:we've|we have|i've|i have) (?:discussed|talked about)\b",
            r"(?:请|能不能|能否|可以)?(?:帮我)?(?:总结|概括|回顾)(?:一下)?",
            r"按(?:时间)?顺序(?:说说|列出|讲讲)?",
            r"(?:在)?我们(?:之前|以前)?的(?:对话|聊天|讨论)(?:中|里)?",
        )
    ),
    re.IGNORECASE,
)

# what is left may open on the kind of item listed: "aspects of using AI in hiring"
_KINDS_OF = re.compile(
    r"^(?:aspects|ideas|topics|things|details|points|issues|kinds|types) (?:of|related to|about|for|regarding|on) ",
    re.IGNORECASE,
)


def topic_of(question: str) -> str:
    """What a question asking for breadth is about: the question without the words that frame its answer
    ("Can you give me a summary of how my savings plan developed?" -> "how my savings plan developed"); any other
    question, or one with too little left, as asked."""
    if not _BREADTH.search(question):
        return question
    rest = _FRAME.sub(" ", question.replace("’", "'"))
    rest = re.sub(r"\s+([?,.])", r"\1", re.sub(r"\s+", " ", rest)).strip(" ,.?？，。")
    rest = _KINDS_OF.sub("", rest)
    return rest if len(rest) >= 8 or (has_cjk(rest) and len(rest) >= 3) else question
