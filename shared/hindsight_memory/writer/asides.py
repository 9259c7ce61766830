"""What a statement says beside its fact, which the writer leaves out when it compares two statements (the text stored
keeps it): a value it corrects away ("default branch = main (not master)", 我今年32岁，不是31) and an instruction to
whoever reads it ("User has a penicillin allergy — flag it for anything medical", 小周芒果过敏，点饮料别点芒果味的).
Either one made a re-statement read as another fact: "master" and "31" are values the other side lacks, and an
instruction adds words the fact does not hold."""

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .statements import Statement

# ", not master", "(not the 14th)": a short value denied after the one that holds, at the end of a clause
_NOT_EN = re.compile(
    r"[,(]\s*(?:not|rather\s+than)\s+(?:the\s+|a\s+|an\s+)?[\w@:/+-]+(?:\.[\w@:/+-]+)*(?:\s+[\w@:/+-]+)?\s*\)?(?=\s*[.,;!)]|\s*$)"
)
_NOT_ZH = re.compile(r"[，,]\s*(?:而)?不是[^，,。；;！!？?（(]{1,10}?(?=[。；;！!，,]|$)")

# An instruction after the fact, set off by a dash, a semicolon or ", so": its first words say what to do.
_DO_EN = (
    r"(?:so\s+|and\s+)?(?:please\s+|pls\s+)?(?:always|never|do\s+not|make\s+sure|remember\s+to|be\s+sure\s+to|"
    r"flag|keep|book|avoid|skip|use|remind|suggest|recommend|order|pick|check|note|ask|include|exclude|"
    r"schedule|plan|default\s+to|stick\s+to|route|send|mention)\b"
)
_INSTRUCTION_EN = re.compile(
    r"(?:\s[—–-]\s|;|,(?=\s*so\b)|\.\s)\s*" + _DO_EN + r"[^.;]{0,200}[.!]?\s*$", re.IGNORECASE
)
# Chinese: a clause that tells what (not) to do (别, 记得, 避免, 务必, 千万), after a comma or a full stop; not 不要
# (我吃面，不要香菜 is a preference) nor 请 (请客)
_INSTRUCTION_ZH = re.compile(
    r"[，,。；;]\s*[^，,。；;]{0,6}?(?:(?<![特区分告级类差性识离个])别(?![的人处家扭墅])|记得|避免|务必|千万|请勿)[^。；;]{0,100}[。！!]?\s*$"
)


# where to look it up, in brackets: "We're on Node 20.11 (see .nvmrc)", "(per the runbook)"
_SEE = re.compile(r"\((?:see|per|cf\.?|via|ref|source:)\s[^()]{1,80}\)", re.IGNORECASE)


def set_aside(body: str, cjk: bool) -> tuple[str, str] | None:
    """(the fact, what the body says beside it) when it says something beside its fact and the fact keeps words of
    its own ("Always book me an aisle seat" is all instruction, and stays as it is); else None."""
    seen = " ".join(m.group(0) for m in _SEE.finditer(body))
    body = _SEE.sub("", body)
    denied = _NOT_ZH if cjk else _NOT_EN
    fact, aside = denied.sub("", body), " ".join(m.group(0) for m in denied.finditer(body))
    told = (_INSTRUCTION_ZH if cjk else _INSTRUCTION_EN).search(fact)
    if told is not None and _enough(fact[: told.start()], cjk):
        fact, aside = fact[: told.start()], f"{aside} {fact[told.start() :]}"
    return (fact, f"{seen} {aside}") if (fact != body or seen) and _enough(fact, cjk) else None


def compared(old: "Statement", new: "Statement") -> tuple["Statement", "Statement"]:
    """The statements as the decision compares them: each one's fact alone where what it says beside it names
    nothing the other says ("I'm allergic to penicillin" / "... — flag it for anything medical"); whole where it
    does ("Call me Sam, not Samuel" / "... Sam rather than Samuel", 提醒发短信就行，别发邮件 / 偏好短信而不是邮件)."""

    def alone(s: "Statement", other: "Statement") -> "Statement":
        return s.fact if s.fact is not None and not (s.aside & set(other.words) or other.negated) else s

    return alone(old, new), alone(new, old)


def _enough(fact: str, cjk: bool) -> bool:
    return (
        len(re.findall(r"[\u4e00-\u9fff]", fact)) >= 3 if cjk else len(re.findall(r"[A-Za-z0-9]+", fact)) >= 2
    )
