"""The surface counts the learned reader reads beside the embeddings (writer/learned.py `lexical`)."""

import numpy as np
import pytest

from hindsight_memory.writer.learned import features, lexical

# the order of the counts in `lexical`
WORDS, TRIGRAMS, COVER_NEW, COVER_OLD, COVER_MIN, LENGTH, NUMBERS, CHINESE = range(8)
BIGRAMS, ONLY_OLD, ONLY_NEW, SMALL, FIRST_PERSON = range(8, 13)


def test_the_same_text_shares_everything() -> None:
    x = lexical("The staging server runs on port 8081.", "the staging server runs on port 8081.")
    assert (
        x[[WORDS, TRIGRAMS, COVER_NEW, COVER_OLD, COVER_MIN, LENGTH, NUMBERS, BIGRAMS]].tolist() == [1.0] * 8
    )
    assert x[ONLY_OLD] == x[ONLY_NEW] == 0.0 and x[CHINESE] == 0.0 and x[FIRST_PERSON] == 1.0


def test_what_differs_is_counted_and_read_for_small_words() -> None:
    x = lexical("My flight lands at 6.", "The flight lands at 7 pm.")
    assert x[NUMBERS] == 0.0  # 6 against 7
    assert x[ONLY_OLD] == pytest.approx(np.log1p(2)) and x[ONLY_NEW] == pytest.approx(
        np.log1p(3)
    )  # my 6 / the 7 pm
    assert x[SMALL] == pytest.approx(2 / 5)  # "my" and "the" of five words only one side holds
    assert x[FIRST_PERSON] == 0.0  # one speaks of "my" flight, the other does not


def test_chinese_is_read_by_character() -> None:
    x = lexical("我的社保卡尾号是6632。", "社保卡后四位：6632")
    assert x[CHINESE] == 1.0 and x[NUMBERS] == 1.0 and 0 < x[COVER_MIN] < 1


def test_the_features_are_the_embeddings_then_the_counts() -> None:
    rng = np.random.default_rng(0)
    pa, pb, qa, qb = (v / np.linalg.norm(v) for v in rng.normal(size=(4, 8)))
    x = features(("a b", "a c"), pa, pb, qa, qb)
    assert x.shape == (4 * 8 + 2 + 13,)
    assert x[4 * 8] == pytest.approx(float(pa @ pb)) and x[4 * 8 + 1] == pytest.approx(float(qa @ qb))
    assert np.allclose(x[-13:], lexical("a b", "a c"))
