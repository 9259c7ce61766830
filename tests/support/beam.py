"""A tiny BEAM-shaped folder (N/chat.json + N/probing_questions/probing_questions.json) written for tests: the
same shapes as the real data (batches of turn groups, time anchors on a session's first turn, source ids as a list,
a dict of lists or lists of lists, abstention questions without sources), none of its content."""

import json
from pathlib import Path


def _turn(i: int, role: str, text: str, anchor: str | None = None) -> dict:
    t = {"role": role, "id": i, "content": text}
    if anchor:
        t["time_anchor"] = anchor
    return t


CHATS = {
    "1": [
        (
            "March-15-2024",
            [
                ("user", "My dog is called Biscuit and he is a three year old beagle."),
                ("assistant", "Biscuit sounds lovely; beagles are curious, friendly dogs."),
                ("user", "Always answer in bullet points when I ask about travel."),
                ("assistant", "Understood: bullet points for every travel question."),
            ],
        ),
        (
            "May-02-2024",
            [
                ("user", "I moved to Lisbon last month for a new job at a bakery."),
                ("assistant", "Congratulations on Lisbon and the bakery job!"),
                ("user", "The bakery opens at six, so I wake up at five every morning."),
                ("assistant", "An early start; a steady bedtime will help."),
            ],
        ),
    ],
    "2": [
        (
            "June-01-2024",
            [
                ("user", "My sister Ottilie is studying marine biology in Bergen."),
                ("assistant", "Bergen is a great place for marine biology."),
            ],
        ),
    ],
}

QUESTIONS = {
    "1": {
        "information_extraction": [{"question": "What is my dog called?", "source_chat_ids": [0]}],
        "multi_session_reasoning": [
            {
                "question": "Which city did I move to and when does the bakery open?",
                "source_chat_ids": {"a": [4], "b": [6]},
            }
        ],
        "event_ordering": [
            {"question": "In what order did I mention my dog and my move?", "source_chat_ids": [[0], [4]]}
        ],
        "abstention": [{"question": "What is my cat called?"}],
    },
    "2": {"information_extraction": [{"question": "Where does Ottilie study?", "source_chat_ids": [0]}]},
}


def write_beam_folder(root: Path) -> Path:
    for chat, sessions in CHATS.items():
        batches, i = [], 0
        for b, (anchor, turns) in enumerate(sessions, start=1):
            group = []
            for j, (role, text) in enumerate(turns):
                group.append(_turn(i, role, text, anchor if j == 0 else None))
                i += 1
            batches.append({"batch_number": b, "time_anchor": None, "turns": [group[:2], group[2:]]})
        folder = root / chat
        (folder / "probing_questions").mkdir(parents=True)
        (folder / "chat.json").write_text(json.dumps(batches))
        (folder / "probing_questions" / "probing_questions.json").write_text(json.dumps(QUESTIONS[chat]))
    return root
