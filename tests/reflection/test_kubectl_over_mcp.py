"""The issue's example over MCP, embedded mode, no LLM key: an agent stores a task's turns in one call (labels in
the text, no source, no occurred_at), reflects at task end, and later asks how to deploy billing to staging."""

from .conftest import NS
from .mcp_gateway import call

TURNS = [
    "user: Deploy the billing service to staging",
    "agent: Running deploy: kubectl apply -f billing.yaml",
    "tool: ERROR: namespace staging-billing not found",
    "agent: The namespace is missing. Creating it: kubectl create namespace staging-billing",
    "tool: namespace/staging-billing created",
    "agent: Retrying deploy: kubectl apply -f billing.yaml -n staging-billing",
    "tool: deployment.apps/billing created",
    "user: Great, it works now. Remember to create the namespace first next time.",
]


def test_the_kubectl_task_yields_the_episode_a_person_would_write_and_a_recallable_lesson(reflect_gateway):
    ns = f"{NS}/kubectl"
    items = [{"content": t, "kind": "working", "session_id": "deploy-1"} for t in TURNS]
    # GIVEN the task's turns stored in one call, and reflection at task end
    stored, reflected, recalled, turns = call(
        reflect_gateway,
        ("memory_store", {"namespace": ns, "items": items, "wait": True}),
        ("memory_reflect", {"namespace": ns, "session_id": "deploy-1", "trigger": "task_end"}),
        ("memory_recall", {"namespace": ns, "query": "how should I deploy billing to staging?"}),
        (
            "memory_recall",
            {"namespace": ns, "query": "which kubectl command created the namespace?", "top_k": 10},
        ),
    )
    ep = reflected["episode"]
    # THEN the episode reads as a person would write it
    assert reflected["mode"] == "heuristic" and reflected["usage"]["calls"] == 0
    assert ep["intent"] == "Deploy the billing service to staging"
    assert ep["outcome"] == "success"
    assert ep["tools"] == ["kubectl"]
    assert ep["obstacles"] == ["ERROR: namespace staging-billing not found"]
    assert "kubectl create namespace staging-billing" in ep["fixes"][0]
    assert {"staging-billing", "billing.yaml"} <= set(ep["entities"])
    assert not {"Great", "Remember", "Deploy", "Retrying", "The", "Creating", "Running", "ERROR"} & set(
        ep["entities"]
    )
    assert [a["kind"] for a in reflected["anomalies"]] == ["tool_failure"]
    # AND the user's instruction is a kept lesson, labelled heuristic
    kept = [d for d in reflected["lessons"] if d["decision"] == "insert"]
    assert any("create the namespace first" in d["text"].lower() for d in kept)
    # AND recall for deploying billing to staging returns that lesson
    texts = [m["content"] for m in recalled["memories"]]
    assert any("create the namespace first" in t.lower() for t in texts), texts
    lesson = next(m for m in recalled["memories"] if "create the namespace first" in m["content"].lower())
    assert lesson["kind"] == "semantic"
    # AND nothing was lost: the turn holding the fix is still recallable after working memory was cleared
    assert reflected["working_memory_cleared"] is True
    found = {m["content"] for m in turns["memories"]}
    assert TURNS[3] in found, found
