"""Someone in a role a person has one of at a time, named again with another name: the role's new holder, an update
with no change word ("Ethan's girlfriend is called Megan." / "Ethan: my girlfriend Nora and I just hit six months
together.", "Nadia's manager is a guy called Steve." / "Nadia: my manager Laura is the best boss I've ever had.",
阿东的女朋友叫小琳 / 阿东：我和女朋友晓晴刚好在一起半年了). The new name stands right after the role or as its value,
and neither name is in the other statement. Roles held by several at once (a doctor, a friend, a teacher) are not
read: "My doctor referred me to Dr. Patel" names someone else."""

import re

from .statements import Statement

_ROLE_EN = (
    r"girlfriend|boyfriend|wife|husband|fianc[eé]e?|manager|boss|landlord|landlady|therapist|dentist|"
    r"pediatrician|accountant|tutor|team lead|tech lead"
)
# the role, then its holder's name: "my manager Laura", "girlfriend is called Megan", "manager is a guy called Steve"
_HELD_EN = re.compile(
    rf"\b(?:(?P<owner>[a-z]+) poss |(?P<mine>my|user poss) )(?P<role>{_ROLE_EN})\s+"
    r"(?:(?:is|was)\s+(?:now\s+)?(?:(?:a|an)\s+\w+\s+)?(?:called\s+|named\s+)?)?"
    r"(?P<name>(?-i:[A-Z][a-z]+))\b",
    re.IGNORECASE,
)
_ROLE_ZH = r"女朋友|男朋友|对象|老婆|老公|领导|老板|上司|房东|牙医|家教|班主任"
# a name of two characters after the role (阿东的女朋友叫小琳, 我和女朋友晓晴); not a word that goes on the sentence
_HELD_ZH = re.compile(
    rf"(?:(?P<owner>[\u4e00-\u9fff]{{1,3}})的|(?P<mine>我的|我和|我))(?P<role>{_ROLE_ZH})(?:叫做|名叫|叫|是)?"
    r"(?P<name>(?![刚也在说去和的很最都今昨前现一已还又就才是不没要会想让给把被跟对从这那])[\u4e00-\u9fff]{2})"
)


def _held(s: Statement) -> tuple[str, str, str] | None:
    """(whose, role, name) of a role's holder the statement names; the speaker's own where it says "my"."""
    m = (_HELD_ZH if s.cjk else _HELD_EN).search(s.body)
    if m is None:
        return None
    owner = (m.group("owner") or "").casefold()
    if m.group("mine") or owner in ("user", "用户", "我"):
        # the speaker's own: a "Name: ..." turn, which the writer reads as "Name my girlfriend ..." beside a note
        # about that person (writer/speakers.py)
        lead = s.body[: m.start()].split()
        speaker = s.speaker or (lead[0] if len(lead) == 1 else "")
        owner = speaker.casefold() if speaker and speaker.casefold() not in ("user", "用户") else "me"
    return owner, m.group("role").casefold(), m.group("name").casefold()


def new_holder(old: Statement, new: Statement) -> bool:
    """Whether `new` names another holder of a role of the same person that `old` names a holder of."""
    was, now = _held(old), _held(new)
    if was is None or now is None or was[:2] != now[:2] or was[2] == now[2]:
        return False
    return was[2] not in new.body.casefold() and now[2] not in old.body.casefold()
