"""Long text as passages: where it is cut, what each passage costs, and how bulk work is dealt to workers."""

import numpy as np

from hindsight_memory.embed.hashing import HashingEmbedder
from hindsight_memory.embed.passages import PassagePlan, alike, best_passage, embed_memories, split, whole
from hindsight_memory.embed.pool import deal_by_length
from hindsight_memory.text import embedding_text, normalize

COUNT = HashingEmbedder().token_count


def essay(paragraphs: int = 40) -> str:
    return normalize(
        "\n\n".join(
            f"## Part {i}\n\nThe topic of part {i} is item {i * 7}. It has several sentences; this is one of them. "
            f"- a bullet about {i}\n- another bullet about {i + 1}"
            for i in range(paragraphs)
        )
    )


def test_text_that_fits_is_one_passage_covering_it_all():
    assert split("A short note.", COUNT, 256) == [(0, len("A short note."))]


def test_long_text_is_cut_into_passages_within_the_budget_covering_everything_in_order():
    text = essay()
    spans = split(text, COUNT, 128)
    assert len(spans) > 5
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    assert all(COUNT(text[a:b]) <= 128 for a, b in spans)
    for (a1, b1), (a2, b2) in zip(spans, spans[1:], strict=False):
        assert a1 < b1 <= a2 < b2  # no overlap asked for: consecutive, never overlapping
        assert not text[b1:a2].strip()  # nothing but the space between is left out


def test_passages_end_at_sentence_list_or_heading_boundaries():
    text = essay()
    for a, b in split(text, COUNT, 128)[:-1]:
        passage = text[a:b]
        assert passage.endswith((".", ";")) or text[b:].lstrip().startswith(("-", "##")), passage[-40:]


def test_overlap_repeats_the_last_sentence_of_a_passage_at_the_start_of_the_next():
    text = essay()
    spans = split(text, COUNT, 128, overlap=1)
    overlapping = [(p, n) for p, n in zip(spans, spans[1:], strict=False) if n[0] < p[1]]
    assert len(overlapping) >= len(spans) // 2
    assert all(COUNT(text[a:b]) <= 128 for a, b in spans)


def test_a_sentence_longer_than_the_budget_is_cut_between_words_and_unspaced_text_anywhere():
    words = " ".join(f"word{i}" for i in range(2000))
    spans = split(words, COUNT, 100)
    assert all(COUNT(words[a:b]) <= 100 for a, b in spans)
    assert all(words[a] != " " and words[b - 1] != " " for a, b in spans)
    chinese = "我对花生过敏吃了会呼吸困难" * 200
    spans = split(chinese, COUNT, 100)
    assert "".join(chinese[a:b] for a, b in spans) == chinese
    assert all(COUNT(chinese[a:b]) <= 100 for a, b in spans)


def test_a_memory_that_fits_is_embedded_exactly_as_before_passages_existed():
    emb = HashingEmbedder()
    [done] = embed_memories(emb, [("The staging DB runs on port 5433", "infra notes")], PassagePlan())
    assert done.passages is None and done.spans == []
    expected = emb.embed_passages([embedding_text("The staging DB runs on port 5433", "infra notes")])[0]
    assert np.array_equal(done.vector, expected)


def test_a_long_memory_gets_a_vector_per_passage_and_their_mean_as_a_whole():
    emb = HashingEmbedder()
    text = essay()
    [done] = embed_memories(emb, [(text, "a context line")], PassagePlan(max_tokens=128))
    assert done.passages is not None and len(done.passages) == len(done.spans) > 1
    assert np.allclose(done.vector, whole(done.passages))
    # every passage carries the context line (short enough), so each one is situated
    a, b = done.spans[-1]
    assert np.allclose(
        done.passages[-1], emb.embed_passages([embedding_text(text[a:b], "a context line")])[0]
    )


def test_max_sim_scores_a_split_memory_by_its_best_passage():
    passages = np.eye(4, dtype=np.float32)[:3]
    q = np.array([0.0, 0.6, 0.8, 0.0], dtype=np.float32)
    assert best_passage(q, passages) == (np.float32(0.8), 2)
    assert best_passage(q, passages[1]) == (np.float32(0.6), 0)


def test_two_split_memories_are_alike_only_passage_by_passage():
    rng = np.random.default_rng(1)
    a = rng.normal(size=(6, 32)).astype(np.float32)
    a /= np.linalg.norm(a, axis=1, keepdims=True)
    b = a.copy()
    b[5] = -a[5]  # one passage changed entirely: the mean barely moves
    assert alike(a, a.copy(), 0.95)
    assert not alike(a, b, 0.5) and float(np.dot(whole(a), whole(b))) > 0.5
    assert not alike(a, a[:5], 0.5)  # a passage more or less is another text


def test_bulk_work_is_dealt_in_chunks_of_similar_length_one_per_worker_at_least():
    lengths = [5000, 10, 4000, 20, 30, 3000, 15, 2500]
    chunks = deal_by_length(lengths, workers=2, chunk_chars=24_000)
    assert sorted(i for c in chunks for i in c) == list(range(len(lengths)))
    assert len(chunks) == 2
    sizes = [sum(lengths[i] for i in c) for c in chunks]
    assert max(sizes) < 0.7 * sum(lengths)
    assert deal_by_length([10, 20], workers=1, chunk_chars=24_000) == [[0, 1]]
    many = deal_by_length([1000] * 100, workers=2, chunk_chars=24_000)
    assert len(many) >= 4 and all(sum(1000 for _ in c) <= 26_000 for c in many)
