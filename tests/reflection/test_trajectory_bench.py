"""`hindsight bench --reflection`: the labelled set parses and covers what it claims, the scorer judges fields as
labelled, and both modes run through the real service (the LLM one through litellm against the fake server)."""

from collections import Counter

from hindsight_memory.bench.reflection import accuracy, run_set
from hindsight_memory.bench.trajectory_set import load_set, score


def test_the_labelled_sets_are_large_enough_bilingual_and_cover_every_kind_of_task():
    dev, held = load_set("dev"), load_set("heldout")
    assert len(dev) >= 40 and len(held) >= 10
    assert not {t.id for t in dev} & {t.id for t in held}
    for tasks in (dev, held):
        assert Counter(t.language for t in tasks).keys() == {"en", "zh"}
        assert all(t.intent and t.turns for t in tasks)
    outcomes = Counter(t.outcome for t in dev)
    assert min(outcomes[o] for o in ("success", "failure", "partial", "unknown")) >= 2
    assert sum(bool(t.lessons) for t in dev) >= 10 and sum(bool(t.obstacles) for t in dev) >= 15
    assert any(turn.get("raw") for t in dev for turn in t.turns)  # role labels in the text


def test_the_scorer_gives_a_field_only_when_it_matches_the_labels():
    (task,) = [t for t in load_set("dev") if t.id == "en-01"]
    right = {
        "intent": "Deploy the billing service to staging",
        "outcome": "success",
        "tools": ["kubectl"],
        "obstacles": ["ERROR: namespace staging-billing not found"],
        "fixes": ["Creating it: kubectl create namespace staging-billing"],
    }
    lesson = "Create the namespace first next time."
    assert all(score(task, right, [lesson]).values())
    wrong = {**right, "intent": "Great, it works now. Remember to create the namespace first next time."}
    wrong |= {"outcome": "failure", "tools": [], "fixes": [""]}
    assert not any(score(task, wrong, []).values())
    assert not any(score(task, None, []).values())  # a skipped task has no episode


def test_both_modes_run_the_set_through_the_service():
    tasks = [t for t in load_set("dev") if t.id in ("en-01", "zh-06", "en-02")]
    heuristic = run_set(tasks, "heuristic", "hashing")
    llm = run_set(tasks, "llm", "hashing")
    assert [r["id"] for r in heuristic] == [t.id for t in tasks] == [r["id"] for r in llm]
    assert all(r["status"] == "done" for r in heuristic + llm)
    assert accuracy(heuristic)["intent"] == 1.0 and accuracy(heuristic)["outcome"] == 1.0
    # The fake LLM reads the rendered prompt: the first user line is its intent, so the order reached it.
    first_user = [t.turns[0]["content"] for t in tasks]
    assert [r["episode"]["intent"] for r in llm] == [
        c.split(":", 1)[-1].split("：", 1)[-1].strip() for c in first_user
    ]
