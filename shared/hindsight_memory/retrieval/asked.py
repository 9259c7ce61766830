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


def side_asked_about(question: str) -> str:
    """Whose words a question is about: "user" for the first person only ("what did I say..."), "agent" for
    the second person only ("what did you suggest..."), "" when both or neither appear. The form of a request
    ("can you walk me through the order in which I...") does not count."""
    if _SUMMARY.search(question):
        return ""  # a summary of what "I" did covers both sides of the exchange
    question = _REQUEST_FORM.sub(" ", question)
    first, second = bool(_FIRST_PERSON.search(question)), bool(_SECOND_PERSON.search(question))
    return "user" if first and not second else "agent" if second and not first else ""
