"""Who a statement is about besides its speaker: the words naming someone else ("wife", "妹妹", "my manager"), and
whether two statements name the same people, one of them maybe more closely ("my kid Mila" / "daughter Mila")."""

import re

from .lexicon import OTHER_PERSON, OTHER_PERSON_ZH, READ_AS
from .names import named_person
from .statements import Statement

_THING_MANAGER = re.compile(
    r"\b(?:package|password|file|window|task|resource|download|display|version)\s+manager\b"
    # a team's meeting is one the user attends: "Team standup is at 9:30" / "Daily standup: 9:30"
    r"|\bteam(?: poss)?\s+(?:standup|stand-up|meeting|sync|retro|retrospective|lunch|offsite|chat|channel)s?\b"
)


def people(s: Statement) -> frozenset[str]:
    """The words naming someone else in a statement ('wife', '妹妹'...)."""
    if s.cjk:
        found, text = set(), _IN_LAW_ZH.sub(_in_law_zh, s.text)
        for w in OTHER_PERSON_ZH:
            if w in text:
                found.add(OTHER_PERSON[w])
                text = text.replace(w, " ")
        return frozenset(found)
    # a package manager is no person, nor is the user as a kid ("allergic since I was a kid")
    text = _AS_A_KID.sub(" ", _THING_MANAGER.sub(" ", s.body.casefold()))
    text = _SPOUSE_POSS.sub(lambda m: f"{_IN_LAW_OF[m.group(1)]}-in-law", text)
    in_law = set(_IN_LAW.findall(text))  # a mother-in-law is not the mother
    words = [READ_AS.get(w, w) for w in re.findall(r"[a-z]+", _IN_LAW.sub(" ", text))]  # "mgr" is the manager
    found = {OTHER_PERSON[w] for w in (*words, *(w[:-1] for w in words)) if w in OTHER_PERSON}
    return frozenset(found | in_law)


_IN_LAW = re.compile(r"\b[a-z]+-in-laws?\b")
# a spouse's mother is the mother-in-law ("My spouse's mother lives in Denver", 我老婆的妈妈住在杭州)
_SPOUSE = r"(?:wife|husband|spouse|partner)(?:\s+poss|'s|’s)\s+"
_IN_LAW_OF = {"mother": "mother", "mom": "mother", "mum": "mother", "father": "father", "dad": "father"}
_IN_LAW_OF |= {"parents": "parent", "parent": "parent"}
_SPOUSE_POSS = re.compile(rf"\b{_SPOUSE}({'|'.join(_IN_LAW_OF)})\b")
_IN_LAW_ZH = re.compile(r"(?:老婆|妻子|媳妇|太太|爱人|老公|丈夫)的(妈妈|母亲|妈|爸爸|父亲|爸|父母|爸妈)")
# the in-law each names (a father, 岳父, otherwise)
_IN_LAW_ZH_OF = {"妈妈": "岳母", "母亲": "岳母", "妈": "岳母", "父母": "岳父母", "爸妈": "岳父母"}


def _in_law_zh(m: re.Match[str]) -> str:
    return _IN_LAW_ZH_OF.get(m.group(1), "岳父")


_AS_A_KID = re.compile(
    r"\b(?:as|since (?:i was|we were)|when (?:i was|we were)) (?:a |little )?(?:kid|child)s?\b"
)


def someone_else(old: Statement, new: Statement) -> bool:
    """Whether one statement names someone the other does not ("Sam" / "Sam's wife"); not when one gives the
    relation a name the other names too ("My manager is Dana" / "I report to Dana")."""
    a, b = people(old), people(new)
    if a == b or _one_of(a, b) or _one_of(b, a) or _our_team(old, new, a, b):
        return False
    return not ((not b and named_person(old.text, new.text)) or (not a and named_person(new.text, old.text)))


def _our_team(old: Statement, new: Statement, a: frozenset[str], b: frozenset[str]) -> bool:
    """The team, or the spouse, on one side and "we" / "our" / 我们 on the other: the user's team is us, and so is
    the couple ("The team deploys on Thursdays" / "We deploy every Thursday", 团队每周五发版 / 我们每周五上线, "我和老公的
    结婚纪念日" / "我们俩的结婚纪念日"). The team is also the user's where the other side names no one at all ("The team
    deploys to production on Thursdays" / "prod deploys happen every Thursday")."""
    if len(a ^ b) != 1 or not (a ^ b) <= _US_TOO:
        return False
    who = next(iter(a ^ b))
    us = new if who in a else old
    return bool(_US.search(us.body)) or (who == "team" and not (a & b) and not us.names)


_US = re.compile(r"\b(?:we|our|us|we're|we've)\b|我们|咱们|我俩|用户所在", re.IGNORECASE)
_US_TOO = frozenset({"team", "spouse", "wife", "husband", "partner"})


# A word for someone that another names more closely: 爱人 a wife or a husband ("我老婆叫李娜" / "我爱人叫李娜"), a
# kid a son or a daughter ("daughter Mila" / "my kid Mila"), the parents a mother and a father ("my parents" / "mom
# and dad").
_NAMED_MORE_CLOSELY = {
    "spouse": ({"wife"}, {"husband"}),
    "partner": ({"wife"}, {"husband"}, {"spouse"}),
    "child": ({"son"}, {"daughter"}),
    "parent": ({"mother", "father"},),
}


def _one_of(a: frozenset[str], b: frozenset[str]) -> bool:
    for general, closer in _NAMED_MORE_CLOSELY.items():
        rest = a - {general}
        if rest != a and any(b == rest | one for one in closer):
            return True
    return False


# "my sister's address", "Karen's manager", 我儿子的牙医: whose the thing named after it is
_POSSESSED_EN = re.compile(r"\b([A-Za-z]+) poss ([a-z]+)(?: ([a-z]+))?")
_USER = frozenset({"user", "users", "my", "our", "your", "i", "we"})
_PRONOUN = re.compile(r"\b(?:he|she|his|her|him|they|their|them)\b|[他她]", re.IGNORECASE)
_POSSESSED_ZH = re.compile("(" + "|".join(OTHER_PERSON_ZH) + ")的([\u4e00-\u9fff]{1,2})")
_KIN_OF_ZH = re.compile("([\u4e00-\u9fff]{2,3}?)(?:的|他|她)(" + "|".join(OTHER_PERSON_ZH) + ")")


def someone_elses(old: Statement, new: Statement) -> bool:
    """Whether `new` gives a thing `old` names to someone `old` does not name ("My address is 42 Elm St." / "My
    sister's address changed to 9 Pine Ave.", "Dentist: Dr. Alvarez" / "My son's dentist is now Dr. Kim", 我的牙医是
    李医生。/ 我儿子的牙医换成王医生了。, "My mom lives in Tucson." / "My mom's sister moved to Phoenix."): a change
    of theirs, not of it, whatever change word it holds."""
    named = people(old)
    # "My daughter's school pickup is at 3:15." / "Her pickup time changed...": hers, said with a pronoun
    if _PRONOUN.search(old.text):
        return False
    if new.cjk:
        # 大刘住在杭州 / 大刘他爸妈刚搬到苏州了: someone of theirs, whose news it is
        if any(
            who in old.text and OTHER_PERSON[kin] not in named for who, kin in _KIN_OF_ZH.findall(new.text)
        ):
            return True
        theirs = [
            (who, rest) for who, rest in _POSSESSED_ZH.findall(new.text) if OTHER_PERSON[who] not in named
        ]
        theirs += [
            (n, new.text[at + len(n) + 1 :]) for n in new.names if (at := new.text.find(f"{n}的")) >= 0
        ]
        # the thing: two characters the old statement holds, or one it names after 的 (我的车 / 小王的车)
        return any(
            who not in old.text and (rest[:2] in old.text or f"的{rest[:1]}" in old.text)
            for who, rest in theirs
            if rest
        )
    said = old.text.casefold()
    for m in _POSSESSED_EN.finditer(new.body):
        who, *things = m.groups()
        person = OTHER_PERSON.get(READ_AS.get(who.casefold(), who.casefold()))
        kin = OTHER_PERSON.get(READ_AS.get(things[0], things[0])) or OTHER_PERSON.get(
            things[0].removesuffix("s")
        )
        # someone the old statement names too, by a name or a word for them
        also_old = who.casefold() in said or bool(person and person in named)
        called = new.body[m.end(2) :].split()[:1]  # "Oscar's son Theo": the one the other side names
        known = bool(called) and called[0][:1].isupper() and called[0].casefold() in said
        if kin and kin not in named and not known and also_old:
            return True  # "my mom's sister" after "my mom": someone of theirs
        # not "Project's staging server": a capital opening the sentence is no name
        name = who[0].isupper() and m.start() > 0
        mine = who.casefold() in _USER or person == "team"
        if mine or not (person or name) or also_old:
            continue  # a thing's ("the repo's branch"), or someone the old statement names too
        if any(t and re.search(rf"\b{t}", said) for t in things):
            return True
    return False
