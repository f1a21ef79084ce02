"""The walk: a chunk body's words aligned with a window of source words, in order and in
bounded time."""

from __future__ import annotations

from bisect import bisect_left

RESUME_WORDS = 3
"""Body words that must stand together for the walk to pick up far ahead in the source."""
NEAR = 16
"""Source words within which fewer agreeing words will do (`[Overview](#overview)` list
items: a word or two, then a link target's words)."""
SURE_RUN = 8
"""Words compared to tell places apart (`does to the key` ends every row of a table; the
row's first words say which)."""
IN_STEP = 64
"""Words compared at once while body and source agree (halved down to one where they
part): most chunks walk in step to their end."""
MAX_SKIP = 24
MAX_PLACES = 24
"""Body words, and places of each in the source, tried where the walk picks up."""


class Walk:
    """Body words aligned with source words in order, in bounded time. Words that follow
    one another in both are walked in step; where they part, the walk picks up at the
    longest agreeing run among the next few body words and their next few places (the
    nearest of equally long ones), and the gap it jumped is aligned the same way, so a
    repeated table header before its rows is found as well as the rows. Unlike a general
    diff, a repetitive or hostile page costs time linear in the chunk."""

    def __init__(self, words: list[str], source: list[str]) -> None:
        self.words, self.source = words, source
        self._places: dict[str, tuple[list[int], int]] = {}
        self.matched = 0
        """Body words found in the source (not counting words spelt otherwise)."""
        self.found: list[tuple[int, int]] = []
        """The ranges of `source` the body's words come from, in order."""
        self._align(0, len(words), 0, len(source), False, self.found)

    def _align(
        self, i: int, i_end: int, j: int, j_end: int, closed: bool, found: list[tuple[int, int]]
    ) -> None:
        """Align `words[i:i_end]` with `source[j:j_end]` into `found`; `closed` when both
        ends are known to agree (a gap between two runs), so any agreeing word counts."""
        words, source = self.words, self.source
        while i < i_end and j < j_end:
            run_from = j
            step = IN_STEP
            while step:  # in step: compared a slice at a time, in C
                step = min(step, i_end - i, j_end - j)
                if words[i : i + step] == source[j : j + step]:
                    i, j = i + step, j + step
                else:
                    step //= 2
            if j > run_from:
                found.append((run_from, j))
                self.matched += j - run_from
            if i >= i_end or j >= j_end:
                return
            place = self._resume(i, i_end, j, j_end, closed)
            if place is None and closed:  # the gap's end agrees: what is left is between
                place = (i_end, j_end)
            elif place is None:
                i += MAX_SKIP  # words only the body has (a label the parser wrote)
                continue
            next_i, next_j = place
            if next_i > i and next_j > j:
                before = len(found)
                if place != (i_end, j_end):
                    self._align(i, next_i, j, next_j, True, found)
                if len(found) == before and found and next_j - j <= 4 * (next_i - i) + 4:
                    found.append((j, next_j))  # the same words spelt otherwise (`g`reater)
            i, j = next_i, next_j

    def places(self, word: str, j: int, j_end: int) -> list[int]:
        """Where `word` stands in the source from `j`, up to `MAX_PLACES` places before
        `j_end` (and possibly more after). Found with `list.index`, in C, and kept with
        how far the source was searched for it, so each word's search goes over the
        source once per walk however often it is asked (most chunks walk in step to
        their end and never ask)."""
        found, searched = self._places.get(word, ([], 0))
        first = bisect_left(found, j)
        while len(found) - first < MAX_PLACES and searched < j_end:
            try:
                at = self.source.index(word, searched, j_end)
            except ValueError:
                searched = j_end
                break
            found.append(at)
            searched = at + 1
            if at < j:
                first += 1
        self._places[word] = (found, searched)
        return found[first : first + MAX_PLACES]

    def _resume(
        self, i: int, i_end: int, j: int, j_end: int, closed: bool
    ) -> tuple[int, int] | None:
        """The `(body, source)` place the walk picks up at, or None."""
        best: tuple[int, int] | None = None
        best_key = (0, 0, 0)  # (-run, body words skipped, source words skipped)
        for at_body in range(i, min(i + MAX_SKIP, i_end)):
            longest = min(SURE_RUN, i_end - at_body)
            if best is not None and -best_key[0] >= longest:
                break  # no later body word can agree longer: the best stands
            need = 1 if closed else min(RESUME_WORDS, i_end - at_body)
            for at in self.places(self.words[at_body], j, j_end):
                if at >= j_end:
                    break
                run = self._run(at_body, i_end, at, j_end)
                key = (-run, at_body - i, at - j)
                if (run >= need or at - j <= NEAR) and (best is None or key < best_key):
                    best, best_key = (at_body, at), key
                    if run == longest:
                        break  # later places are further: none beats this one here
        return best

    def _run(self, i: int, i_end: int, j: int, j_end: int) -> int:
        """How many words agree from `words[i]` and `source[j]` on (up to `SURE_RUN`)."""
        run = 0
        while run < SURE_RUN and i + run < i_end and j + run < j_end:
            if self.words[i + run] != self.source[j + run]:
                break
            run += 1
        return run
