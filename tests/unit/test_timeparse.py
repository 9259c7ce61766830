"""Time expressions in English and Chinese become windows relative to the request's `now`."""

from datetime import UTC, datetime

import pytest

from hindsight_memory.timeparse import parse_time_window, written_date

NOW = datetime(2026, 11, 29, 15, 0, tzinfo=UTC)  # a Sunday


@pytest.mark.parametrize(
    ("query", "since", "until"),
    [
        ("what did I eat yesterday", "2026-11-28", "2026-11-29"),
        ("我昨天吃了什么", "2026-11-28", "2026-11-29"),
        ("plans from last week", "2026-11-16", "2026-11-23"),
        ("上周我说要做什么菜", "2026-11-16", "2026-11-23"),
        ("上个星期的会议", "2026-11-16", "2026-11-23"),
        ("what happened in March", "2026-03-01", "2026-04-01"),
        ("三月份去了哪里", "2026-03-01", "2026-04-01"),
        ("3月的预算", "2026-03-01", "2026-04-01"),
        ("three days ago I said", "2026-11-26", "2026-11-27"),
        ("三天前", "2026-11-26", "2026-11-27"),
        ("the day before yesterday", "2026-11-27", "2026-11-28"),
        ("前天的事", "2026-11-27", "2026-11-28"),
        ("last weekend", "2026-11-21", "2026-11-23"),
        ("last month's invoice", "2026-10-01", "2026-11-01"),
        ("上个月的发票", "2026-10-01", "2026-11-01"),
        ("in December", "2025-12-01", "2026-01-01"),
        ("today", "2026-11-29", "2026-11-30"),
        ("Which book was Nadia reading in April 2023?", "2023-04-01", "2023-05-01"),
        ("what happened in march, 2024", "2024-03-01", "2024-04-01"),
        ("2024年6月前后，阿杰忙吗", "2024-06-01", "2024-07-01"),
        ("6月前后去了哪里", "2026-06-01", "2026-07-01"),
        ("三个月前", "2026-08-09", "2026-09-23"),
        # months and years as spans
        ("How did his chess results change between October 2022 and March 2023?", "2022-10-01", "2023-04-01"),
        ("How did her swimming progress from January to August?", "2026-01-01", "2026-09-01"),
        ("from November to February", "2025-11-01", "2026-03-01"),
        ("from July through the end of September 2024", "2024-07-01", "2024-10-01"),
        ("Who helped Kofi over the winter of 2022-2023?", "2022-12-01", "2023-03-01"),
        ("What health problems did Rufus go through in 2023?", "2023-01-01", "2024-01-01"),
        ("Will she be free for weekend events in late 2024?", "2024-07-01", "2025-01-01"),
        ("小林2023年的考试计划有什么变化？", "2023-01-01", "2024-01-01"),
        # rolling windows up to now, seasons, quarters, halves
        ("what did I say in the past two weeks", "2026-11-15", "2026-11-29"),
        ("over the last 3 months", "2026-08-31", "2026-11-29"),
        ("in the past few days", "2026-11-25", "2026-11-29"),
        ("最近三天吃了什么", "2026-11-26", "2026-11-29"),
        ("过去两周的会议", "2026-11-15", "2026-11-29"),
        ("这几天", "2026-11-26", "2026-11-29"),
        ("What did we ship in Q3 2023?", "2023-07-01", "2023-10-01"),
        ("the summer of 2023", "2023-06-01", "2023-09-01"),
        ("in the first half of 2024", "2024-01-01", "2024-07-01"),
    ],
)
def test_expression_becomes_its_window(query, since, until):
    w = parse_time_window(query, NOW)
    assert w is not None
    assert (w.since.date().isoformat(), w.until.date().isoformat()) == (since, until)


@pytest.mark.parametrize(
    "query",
    [
        "what is my budget",
        "may I ask about the dog",
        "用户的预算是多少",
        "March of the penguins",
        # the newest value, however old; a year is no count of years
        "How many hours of overtime have I tracked most recently?",
        "2024年前的工作",
        "2024年以后的计划",
        "the 2024 budget",
        "the last time I went",
        "my last day at work",
        "what are my goals for 2025?",
    ],
)
def test_queries_without_a_time_expression_have_no_window(query):
    assert parse_time_window(query, NOW) is None


def test_weeks_ago_is_a_window_around_that_time_because_people_round():
    w = parse_time_window("two weeks ago", NOW)
    assert w.since < datetime(2026, 11, 15, tzinfo=UTC) < w.until


@pytest.mark.parametrize(
    "text, when",
    [
        ("1:56 pm on 8 May, 2023", datetime(2023, 5, 8, 13, 56)),
        ("May 8th, 2023", datetime(2023, 5, 8)),
        ("Monday, May 8, 2023 at 10:30", datetime(2023, 5, 8, 10, 30)),
        ("7:30 p.m. on 1 Jan 2024", datetime(2024, 1, 1, 19, 30)),
        ("March-15-2024", datetime(2024, 3, 15)),
        ("8 May 2023 13:56", datetime(2023, 5, 8, 13, 56)),
    ],
)
def test_a_date_written_with_its_month_named_is_read(text, when):
    assert written_date(text) == when


@pytest.mark.parametrize("text", ["03/04/2023", "2023-05-08T13:56:00Z", "yesterday", "May 2023", "x" * 500])
def test_anything_else_is_left_to_the_iso_reader_or_refused(text):
    assert written_date(text) is None


@pytest.mark.parametrize("now", [datetime(1, 1, 2, tzinfo=UTC), datetime(9999, 12, 31, tzinfo=UTC)])
@pytest.mark.parametrize(
    "query", ["last year", "上个月", "in april 2023", "9999年12月", "999年前", "recently"]
)
def test_a_window_that_would_leave_the_calendar_is_no_window(now, query):
    w = parse_time_window(query, now)
    assert w is None or w.since <= w.until
