"""Text handling: normalisation, Chinese segmentation for BM25, fact slots."""

import pytest

from hindsight_memory.retrieval.asked import (
    asks_the_other,
    raised_by,
    side_asked_about,
    topic_of,
    without_name,
)
from hindsight_memory.retrieval.coverage import QueryTerms
from hindsight_memory.standing import asks_for_advice, standing_kind, trigger_share
from hindsight_memory.text import (
    extract_slot,
    fts_text,
    key,
    normalize,
    script_of,
    side_of_turn,
    speaker_of,
    value_tokens,
    with_speaker,
)


def test_normalize_folds_width_and_whitespace():
    assert normalize("  Ｈello\u3000 world \n") == "Hello world"


def test_chinese_runs_are_segmented_into_words_for_full_text_search():
    assert "故宫" in fts_text("我上周去了北京的故宫").split()


@pytest.mark.parametrize(
    ("content", "speaker", "kept"),
    [
        ("My dog is called Biscuit.", "Caroline", "Caroline: My dog is called Biscuit."),
        ("Yes.", "user", "user: Yes."),
        ("hi there", "maya lee", "Maya Lee: hi there"),  # a name keeps its capital: it is read as one
        ("我对花生过敏", "小雨", "小雨: 我对花生过敏"),
        ("Update: my budget is 8000 yuan now", "user", "user: Update: my budget is 8000 yuan now"),
        # the content names its speaker already
        ("Caroline: My dog is called Biscuit.", "caroline", "Caroline: My dog is called Biscuit."),
        (
            "assistant: Here is the plan for the week ahead.",
            "Melanie",
            "assistant: Here is the plan for the week ahead.",
        ),
    ],
)
def test_a_turn_is_kept_as_its_speaker_said_it(content, speaker, kept):
    assert with_speaker(content, speaker) == kept


@pytest.mark.parametrize(
    ("text", "slot"),
    [
        ("The user's budget is 5000", "budget"),
        ("Actually, my budget is now 8000", "budget"),
        ("Budget changed to 9000 dollars", "budget"),
        ("favorite color: blue", "favorite color"),
        ("用户的预算是5000", "预算"),
        ("预算改为8000", "预算"),
        ("It is raining", None),
        ("user: My budget is 5000", "user: budget"),
        ("assistant: Ticket created: TCK-44620.", "assistant: ticket created"),
        ("user: Also, for the record: My flight is NH 118.", "user: flight"),
        ("Caroline: I went to the LGBTQ support group yesterday.", None),
        ("Caroline: Yes!", None),
        ("Caroline: lol same", None),
        ("Editor: Sublime Text", "editor"),
        ("Timezone: PST", "timezone"),
        ("Melanie: My favorite book is Charlotte's Web.", "melanie: favorite book"),
        ("My new address is 48 Oak Avenue.", "address"),
        ("The current CEO is Dana Ruiz.", "ceo"),
        ("The old API key is sk-123.", "old api key"),
        ("My sister is visiting next week", None),
        ("My sister is in town", None),
        ("Budget: 5000", "budget"),
        ("I went to the park", None),
        # where one lives and works, said with no subject as people write of themselves
        ("just moved to denver last month", "residence"),
        ("上个月搬到了杭州西湖区。", "residence"),
        ("刚搬完家，现在住海淀了。", "residence"),
        ("上个月搬到了新办公室。", None),
        ("just moved to the cloud", None),
        ("已经从华为离职了，现在在字节做产品经理。", "workplace"),
        ("Just started a new job as head of product at Notion.", "workplace"),
        ("Works as a product manager at Stripe.", "workplace"),
        ("用户在阿里做 P7 工程师。", "workplace"),
        ("我上个月调到了风控组。", "workplace"),
        ("我在家做饭。", None),
        # someone named, or of the family
        ("Gabe lives in Austin, near Zilker Park.", "gabe: residence"),
        ("Gabe: moved to Denver last month", "gabe: residence"),
        ("My sister moved to Leeds.", "sister: residence"),
        # whom one reports to is the manager slot
        ("after the reorg I report to Aisha Patel", "manager"),
        ("更新一下：我现在汇报给李总了。", "manager"),
        ("组织架构调整后，我现在直接向刘总汇报。", "manager"),
        ("I report to the board on Mondays", None),
        ("我妈今年春天搬回老家宜昌了。", "妈: residence"),
    ],
)
def test_fact_slots(text, slot):
    assert extract_slot(text) == slot


def test_keys_are_case_and_space_insensitive_digests():
    assert key("Node 7") == key("  node   7 ") and len(key("x")) == 24


def test_value_tokens_capture_numbers_and_times():
    assert value_tokens("flight UA 1234 at 10:30") == {"1234", "10:30"}


@pytest.mark.parametrize(
    "turn, side",
    [
        ("user: I like tea", "user"),
        ("assistant: Sure, noted.", "agent"),
        ("用户: 我想喝茶", "user"),
        ("助手: 好的", "agent"),
        ("Caroline: I went to the park yesterday with my dog", ""),
        ("I like tea", ""),
    ],
)
def test_a_role_label_says_whose_turn_it_is(turn, side):
    assert side_of_turn(turn) == side


@pytest.mark.parametrize(
    "question, side",
    [
        ("What did I say I would buy?", "user"),
        ("我说过想去哪两个城市?", "user"),
        ("What did you recommend?", "agent"),
        ("你推荐了什么书?", "agent"),
        ("What did you suggest for my trip?", ""),
        ("我们什么时候见面?", ""),
        ("Where is the meeting?", ""),
    ],
)
def test_a_question_in_one_grammatical_person_is_about_that_side(question, side):
    assert side_asked_about(question) == side


@pytest.mark.parametrize(
    "turn, only_asks",
    [
        ("How's work at the animal hospital going?", True),
        ("When do you hear back??", True),
        ("你最近工作怎么样？", True),
        ("How's the Biscuit situation? I demand an update.", False),  # says something of its speaker too
        ("Did we leave the stove on?", False),
        ("我该怎么办？", False),
        ("The bakery hired me.", False),
    ],
)
def test_a_turn_that_only_asks_the_other_speaker(turn, only_asks):
    assert asks_the_other(turn) is only_asks


@pytest.mark.parametrize(
    "question, side",
    [
        ("Can you walk me through the order in which I brought up different aspects of my garden?", "user"),
        ("In what order did I mention my dog and my move?", "user"),
        ("Can you list the order in which you suggested the tools?", "agent"),
        # not a list of what one side raised: both sides, or one thing
        ("Can you walk me through the order in which we discussed the budget?", ""),
        ("When did I mention my trip to Osaka?", ""),
        ("Can you summarize how my reading list has changed?", ""),
    ],
)
def test_a_question_listing_what_one_side_brought_up_names_that_side(question, side):
    assert raised_by(question) == side


@pytest.mark.parametrize(
    "question, topic",
    [
        (
            "Can you walk me through the order in which I brought up different aspects of using AI in our hiring "
            "process across our conversations, in order? Mention ONLY and ONLY six items.",
            "using AI in our hiring process",
        ),
        (
            "Can you give me a complete summary of how I can ensure my hiring process complies with the legal "
            "requirements we've discussed?",
            "how I can ensure my hiring process complies with the legal requirements",
        ),
        (
            "Can you summarize how I’ve been managing my time and stress throughout our recent conversations?",
            "how I've been managing my time and stress",
        ),
        ("Can you summarize how my reading list has changed over time?", "how my reading list has changed"),
        # a span of the whole conversation frames the answer as "over time" does
        ("How did Mara's running change over the course of the year?", "How did Mara's running change"),
        (
            "Which plants did Jon grow during the year, and which died?",
            "Which plants did Jon grow, and which died",
        ),
        ("Who has cooked for the club over the course of the conversation?", "Who has cooked for the club"),
        ("Is Jon still at the bakery late in the year?", "Is Jon still at the bakery late in the year?"),
        ("请帮我总结一下我们之前的对话中关于搬家的计划", "关于搬家的计划"),
        ("按顺序说说我提到过的旅行计划", "我提到过的旅行计划"),
        # no frame of a broad answer: as asked, and so is a frame with too little left
        ("Can you tell me what my budget is?", "Can you tell me what my budget is?"),
        ("Summarize.", "Summarize."),
        ("Can you give me an overview?", "Can you give me an overview?"),
    ],
)
def test_a_question_asking_for_breadth_is_matched_on_its_topic(question, topic):
    assert topic_of(question) == topic


@pytest.mark.parametrize(
    "text, script",
    [
        ("user: 我家的 WiFi 密码贴在冰箱上。", "cjk"),
        ("assistant: 好的", "cjk"),
        ("user: My flight to Osaka leaves on the 14th.", "other"),
        ("Caroline: I love the food in 北京 and the people there", ""),  # mixed: no verdict
        ('assistant: "A presto."', ""),  # too short to say
        ("先学JavaScript还是TypeScript?", ""),
    ],
)
def test_a_text_is_read_as_chinese_english_or_undecided(text, script):
    assert script_of(text) == script


def test_a_speakers_name_is_taken_out_of_a_question_with_its_possessive():
    assert (
        without_name("What did Caroline say about Caroline's dog?", "caroline") == "What did say about dog?"
    )
    assert without_name("What does Carolina like?", "carol") == "What does Carolina like?"
    assert without_name("小雨喜欢什么?", "小雨") == "喜欢什么?"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("user: Always include cultural context when I ask about social norms.", "instruction"),
        ("From now on, answer in bullet points.", "instruction"),
        ("user: 以后回答我都用要点", "instruction"),
        ("user: I prefer e-books for their portability.", "preference"),
        ("user: 我更喜欢靠窗的座位", "preference"),
        ("assistant: I prefer to double-check the numbers.", ""),
        ("user: I read two books last week.", ""),
    ],
)
def test_a_standing_statement_is_an_instruction_or_a_preference(text, kind):
    assert standing_kind(text) == kind


@pytest.mark.parametrize(
    "instruction, query, share",
    [
        (
            "user: Always include platform details when I ask about movie options.",
            "What movies should I see?",
            0.5,
        ),
        (
            "user: Always confirm allergies when I ask about snack options.",
            "Any snack options for a party?",
            1.0,
        ),
        ("user: Always provide alternatives when I ask about family-friendly options.", "What movies?", 0.0),
        ("user: Always answer in metric units.", "How far is it?", 0.0),  # names no topic
        ("user: 以后我问到旅行计划的时候，请附上预算。", "帮我做个旅行计划", 1.0),
    ],
)
def test_the_topic_an_instruction_is_for(instruction, query, share):
    assert trigger_share(instruction, query) == pytest.approx(share)


@pytest.mark.parametrize(
    ("query", "text", "as_written", "inflected"),
    [
        ("Where did Maya move to?", "Maya: I moved to Lisbon", 0.5, 1.0),
        ("running shoes", "I run in a new shoe", 0.0, 1.0),
        ("studies", "she studied law", 0.0, 1.0),
        ("classes", "two classes a week", 1.0, 1.0),
        ("cars", "a career in sales", 0.0, 0.0),  # a form of the word, not any word that starts like it
        ("猫 cats", "我的猫", 0.5, 0.5),
    ],
)
def test_a_query_word_counts_in_a_text_as_written_or_in_another_form(query, text, as_written, inflected):
    terms = QueryTerms(query)
    assert terms.coverage(text) == as_written
    assert terms.coverage(text, inflected=True) == inflected


def test_the_colon_of_a_time_is_no_speakers_label():
    assert speaker_of("Gym: Tue/Thu 18:00") == ("", "Gym: Tue/Thu 18:00")
    assert speaker_of("Caroline: Note: buy milk") == ("caroline", "Note: buy milk")


@pytest.mark.parametrize(
    "question, advice",
    [
        ("What features I should pay attention to in sneakers?", True),  # "I should" as people type it
        ("Should I buy the blue ones?", True),
        ("我应该怎么安排周末?", True),
        ("What did I say I should buy?", False),  # about what was said
        ("When is my dentist appointment?", False),
    ],
)
def test_a_request_for_advice_is_told_from_a_question_about_what_was_said(question, advice):
    assert asks_for_advice(question) == advice
