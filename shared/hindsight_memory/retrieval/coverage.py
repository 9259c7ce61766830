"""How many of a query's content words a memory holds (the lexical side of relevance and of the match)."""

import re

from ..text import has_cjk, terms


class QueryTerms:
    """A query's content words, and how many of them a text contains. Matching the few query words against a
    text is far cheaper than segmenting the text into its own words (which a long memory or a Chinese one costs
    milliseconds for), and agrees with it: a word counts when it stands whole in the text (Chinese words: as a
    substring, since the text is not segmented)."""

    def __init__(self, query: str) -> None:
        self.terms = frozenset(terms(query))  # terms() normalises the query
        self._cjk = [t for t in self.terms if has_cjk(t)]
        latin = sorted((t for t in self.terms if not has_cjk(t)), key=len, reverse=True)
        # two named groups per word (as written, then in its other forms), so a match says which word and how
        self._names = {f"w{i}": t for i, t in enumerate(latin)}
        self._latin = (
            re.compile(
                r"(?<![^\W_])(?:"
                + "|".join(f"(?P<e{n}>{re.escape(t)})" for n, t in self._names.items())
                + "|"
                + "|".join(f"(?P<f{n}>{_forms(t)})" for n, t in self._names.items())
                + r")(?![^\W_])"
            )
            if latin
            else None
        )

    def coverage(self, text: str, inflected: bool = False) -> float:
        """Share of the query's content words found in `text` (normalised; 0 for a query without any); with
        `inflected`, an English word also counts in another form ("move" in "moved")."""
        return self.both(text)[inflected]

    def both(self, text: str) -> tuple[float, float]:
        """The coverage as written and in any form, from one pass over the text (a long memory's pass is what
        costs)."""
        if not self.terms:
            return 0.0, 0.0
        folded = text.casefold()  # stored text is normalised already
        written = {t for t in self._cjk if t in folded}
        forms = set(written)
        if self._latin is not None:
            for m in self._latin.finditer(folded):
                group = m.lastgroup or ""
                forms.add(self._names[group[1:]])
                if group.startswith("e"):
                    written.add(self._names[group[1:]])
        return len(written) / len(self.terms), len(forms) / len(self.terms)


_SUFFIXES = ("ing", "ed", "es", "s")


def _forms(word: str) -> str:
    """A pattern for an English word in its inflected forms ("move": moves, moved, moving; "run": running), as
    the full-text index's stemmer would fold them; short words and other scripts stand as written."""
    root = word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and not word.endswith("ss") and len(word) - len(suffix) >= 3:
            root = word[: -len(suffix)]
            break
    if not (root.isascii() and root.isalpha()) or len(root) < 3:
        return re.escape(word)
    if root[-1] in "iy" and len(root) > 3:  # study, studies, studied
        return re.escape(root[:-1]) + "(?:y|ies|ied|ying)"
    silent_e = root[-1] == "e" and len(root) > 3  # move, moving
    doubled = root[-1] == root[-2] and root[-1] not in "aeiouls"  # running
    if silent_e or doubled:
        root = root[:-1]
    return re.escape(root) + f"(?:{re.escape(root[-1])})?(?:e|es|ed|ing|s|d)?"
