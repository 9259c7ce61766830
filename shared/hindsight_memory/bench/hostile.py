"""How long the writer takes to read texts built to be slow: each value reader is a regular expression, and one
that backtracks on a long run of what it looks for turns a store call into seconds of CPU; jieba's model of unknown
words read a run of "博一" at half a millisecond a character, three times per pair compared."""

import time

from ..writer.facts import relate
from ..writer.names import names_differ
from ..writer.reading import readings
from ..writer.statements import statement
from ..writer.thresholds import Thresholds
from .stats import table

# 16,000 characters of what a careless or hostile client may store: runs of numerals, separators, words the value
# readers look for. Each regex must stay linear on them (a run of 二三 had taken 3.7 s, one of 一二三 before 层 3.9 s).
HOSTILE = {
    "Chinese numerals": "一二三四五六七八九零" * 1600,
    "digits": "1" * 16000,
    "digits and commas": "1,2,3," * 2667,
    "times in words": "a quarter past " * 1067,
    "number words": "twelve hundred thousand " * 667,
    "lead-ins": "just a reminder, " * 941,
    "dates": "2028.03 5/20 " * 1231,
    "Chinese times": "八点一刻" * 4000,
    "unknown Chinese words": "博一" * 8000,
    # names against short forms: every stretch of a run of names spells some acronym (a cubic loop took 10 s)
    "capitalised words": "Alpha Bravo Charlie Delta " * 615,
    "capitals": "AB CD EF " * 1777,
}
# what each text is compared with: names, and short forms in capitals that could shorten them
AGAINST = "Alpha Bravo Charlie Delta AB CD AC BCD " * 400
# cosines high enough that the pair goes through every reading the writer has (rewording, swapped sides, reader)
_CLOSE = Thresholds(candidate=0.84, synonym=0.99, addition=0.915, verb_synonym=0.97)


def hostile_reading() -> tuple[str, dict[str, float]]:
    """How long the writer takes to read one long hostile text as a statement and as its sharper reading, to
    compare its names with another long text's, and to relate it to a near copy and to itself reversed."""
    ms = {}
    against = statement(AGAINST)
    for name, text in HOSTILE.items():
        t0 = time.perf_counter()
        old = statement(text)
        names_differ(old, against)
        readings(text, AGAINST)
        half = len(text) // 2
        for other in (text[:half] + "X" + text[half + 1 :], text[::-1]):
            relate(old, statement(other), 0.97, _CLOSE, lambda: 0.97, lambda: 0.9)
        ms[name] = round((time.perf_counter() - t0) * 1000, 1)
    rows = [[name, len(HOSTILE[name]), v] for name, v in ms.items()]
    return table(
        "the writer reading one hostile text (statement, names against another, sharper reading, "
        "related to a near copy and to its reverse)",
        ["text", "chars", "ms"],
        rows,
    ), ms
