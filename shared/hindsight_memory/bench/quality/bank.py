"""The shape of a language's template bank: fact slots, time-bound plans, two-session lists, absent topics, filler."""

from dataclasses import dataclass, field

Alternatives = tuple[str, ...]


@dataclass(frozen=True)
class Slot:
    """A fact about the user (or a result the assistant handed back) that a question can ask for."""

    key: str
    values: Alternatives
    state: Alternatives  # the speaker states it: "{v}" is the value
    question: Alternatives
    speaker: str = "user"  # "assistant" for IDs and codes the assistant returned
    request: Alternatives = ()  # assistant-speaker slots: the user's request that precedes the result
    lead: Alternatives = ()  # neighbour form: the user opens the topic...
    ask: Alternatives = ()  # ...the assistant asks for the value...
    reply: Alternatives = ()  # ...and the user answers with the bare value
    update: Alternatives = ()  # a later correction; empty when the fact does not change
    near: Alternatives = ()  # lines on the same topic that carry no value (lexical distractors)

    @property
    def has_neighbour_form(self) -> bool:
        return bool(self.lead and self.ask and self.reply)


@dataclass(frozen=True)
class Plan:
    """Something the user says they will do; said in several sessions with different values."""

    key: str
    values: Alternatives
    state: Alternatives
    question: Alternatives  # "{when}" is the time expression


@dataclass(frozen=True)
class Multi:
    """A list built across sessions: one item per session, asked for together."""

    key: str
    values: Alternatives
    state: Alternatives
    question: Alternatives


@dataclass(frozen=True)
class Absent:
    """A question about something never mentioned; `terms` must appear in no turn of the conversation."""

    question: str
    terms: Alternatives


@dataclass(frozen=True)
class Bank:
    lang: str
    slots: tuple[Slot, ...]
    plans: tuple[Plan, ...]
    multis: tuple[Multi, ...]
    absents: tuple[Absent, ...]
    # filler threads: each is a sequence of turns (user first, alternating); each turn lists alternatives
    threads: tuple[tuple[Alternatives, ...], ...]
    vocab: dict[str, Alternatives]  # fills "{name}", "{city}", "{food2}" ... in filler
    acks: Alternatives  # the assistant's reply to a stated fact, never repeating the value
    replies: Alternatives  # the assistant's reply to a passing remark or question on a fact's topic
    openers: Alternatives  # how the user starts a session
    asides: Alternatives  # glue before a fact said in passing: "Oh, before I forget: "
    when_words: dict[str, str] = field(default_factory=dict)  # "yesterday" -> "昨天"; "month:3" -> "in March"
    joiner: str = " and "


def parse_threads(text: str) -> tuple[tuple[Alternatives, ...], ...]:
    """Filler threads from a compact text: "U:"/"A:" lines alternate, " | " separates alternatives, "---" ends one.

    Raises:
        ValueError: a thread does not start with the user, does not alternate, or ends with the user.
    """
    threads = []
    for block in text.strip().split("\n---\n"):
        turns = []
        for i, line in enumerate(ln.strip() for ln in block.strip().splitlines()):
            role, _, body = line.partition(": ")
            if role != ("U" if i % 2 == 0 else "A"):
                raise ValueError(f"thread turns must alternate U/A starting with U: {line!r}")
            turns.append(tuple(alt.strip() for alt in body.split(" | ")))
        if len(turns) % 2:
            raise ValueError(f"thread must end with the assistant: {block.strip()[:60]!r}")
        threads.append(tuple(turns))
    return tuple(threads)
