"""The optional reranker stage through the real litellm path, against the fake server's Cohere-style rerank API:
it reorders the fused head, shows in explain, and a failing provider leaves the fused order instead of failing."""

import pytest

from hindsight_memory.config import Settings
from hindsight_memory.models import RecallQuery, StoreRequest
from hindsight_memory.service import build_service

NOTES = [
    "Island trip plan: pack the sunscreen for the island trip",
    "Island trip: book the hotel early",
    "Take the 9am ferry from the harbour",
]


@pytest.fixture
def make(tmp_path, fake_llm, monkeypatch):
    monkeypatch.setenv(
        "COHERE_API_KEY", "test-key"
    )  # litellm asks for the provider's key; the fake ignores it
    made = []

    def build(reranker: bool):
        extra = {"reranker": "cohere/rerank-english-v3.0", "reranker_api_base": fake_llm.url[: -len("/v1")]}
        svc = build_service(
            Settings(
                store_uri=str(tmp_path / f"data-{len(made)}"),
                embedder="hashing",
                **(extra if reranker else {}),
            )
        )
        made.append(svc)
        svc.store_memories(StoreRequest(namespace="alice", items=[{"content": n} for n in NOTES], wait=True))
        return svc

    yield build
    for svc in made:
        svc.close()


def ask(svc):
    res = svc.recall(RecallQuery(namespace="alice", query="island trip plan", min_score=0.0, explain=True))
    return [m.content for m in res.memories], res.explain


def test_the_reranker_reorders_the_fused_head_and_says_so(make, fake_llm):
    fused, explain = ask(make(reranker=False))
    assert fused[0] == NOTES[0] and explain["rerank"] is None
    fake_llm.rerank = lambda query, docs: [1.0 if "ferry" in d else 0.0 for d in docs]
    reranked, explain = ask(make(reranker=True))
    assert reranked[0] == NOTES[2], reranked  # the fused order put it last
    assert explain["rerank"] == "ok"
    assert explain["results"][0]["factors"]["rerank"] == 1.0
    sent = fake_llm.requests[-1]
    assert sent["query"] == "island trip plan" and sorted(sent["documents"]) == sorted(NOTES)


@pytest.mark.parametrize(
    "answer", [{"status": 500}, {"status": 429}, lambda q, docs: [1.0] * (len(docs) + 2)]
)
def test_a_failing_reranker_leaves_the_fused_order(make, fake_llm, answer):
    fused, _ = ask(make(reranker=False))
    fake_llm.rerank = answer if callable(answer) else (lambda q, docs: answer)
    got, explain = ask(make(reranker=True))
    assert got == fused
    assert explain["rerank"].startswith("failed")
    assert all("rerank" not in r["factors"] for r in explain["results"])
