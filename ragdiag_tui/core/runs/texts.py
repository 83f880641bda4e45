"""Documents given as texts: content IDs, and required texts matched with supplied ones.

RAGAS and DeepEval write the documents of a run as their texts, not as IDs. With
`--match text` (or a preset that finds only text columns), `required` and `context`
are lists of texts, and each distinct text is a document whose ID is derived from
its content:

    content ID = "t:" + the first 16 hex digits of SHA-256(the text in Unicode NFC, as UTF-8)

so the same passage has the same ID in every run, file and engine (64 bits: a clash
is unlikely below billions of distinct texts). A lone surrogate (legal in JSON text)
is hashed as its UTF-8-style bytes ("surrogatepass"), so no text is refused.

A required text is supplied when a supplied text matches it:

- `text` (exact): the two are equal after NFC, that is, they have the same content ID;
- `similarity[:THRESHOLD]`: RAGAS's `NonLLMContextRecall` comparison, reproduced:
  similarity = 1 - rapidfuzz's `Levenshtein.normalized_distance(supplied, required)`
  (edits over the longer text's length in code points, no normalisation, no case
  folding), and a required text is supplied when its best similarity is strictly
  greater (`>`) than THRESHOLD (default 0.5, as RAGAS's). Texts equal after NFC share
  a content ID, so they match in every mode.

The rule then runs on the content IDs as on any IDs. Under similarity matching, a
required text matched by a supplied text it does not equal is listed in `context`
after the supplied texts (its own content ID): that is what makes the rule's
`missing`, the ID metrics and every later re-diagnosis agree with the match. Where
nothing was supplied, every required text is missing (the rule's answer; RAGAS
reports NaN there).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

CONTENT_ID_PREFIX = "t:"
CONTENT_ID_HEX = 16
DEFAULT_THRESHOLD = 0.5  # RAGAS's NonLLMContextRecall default
EXACT, SIMILARITY = "text", "similarity"
MATCH_MODES = ("ids", EXACT, SIMILARITY)
NEAR_COPY = 0.05  # a normalised distance this small is looked for first: a cheap, narrow comparison
CDIST_ALL_CORES = 4096  # pairs in one run from which rapidfuzz's cdist uses every core


def nfc(text: str) -> str:
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def content_id(text: str) -> str:
    """The document ID of a text: `t:` + 16 hex digits of SHA-256 of its NFC UTF-8 bytes."""
    digest = hashlib.sha256(nfc(text).encode("utf-8", "surrogatepass")).hexdigest()
    return CONTENT_ID_PREFIX + digest[:CONTENT_ID_HEX]


def is_content_id(doc_id: str) -> bool:
    return doc_id.startswith(CONTENT_ID_PREFIX) and len(doc_id) == len(CONTENT_ID_PREFIX) + CONTENT_ID_HEX


def similarity_matrix(required: Sequence[str], supplied: Sequence[str]) -> list[list[float]]:
    """RAGAS's similarity of each required text (rows) with each supplied text (columns):
    1 - normalised Levenshtein distance, by rapidfuzz (every core for a big run)."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    workers = -1 if len(required) * len(supplied) >= CDIST_ALL_CORES else 1
    # RAGAS scores each pair as NonLLMStringSimilarity(reference=supplied, response=required).
    distances = process.cdist(
        required, supplied, scorer=Levenshtein.normalized_distance, workers=workers, dtype="float64"
    )
    return [[1 - float(distance) for distance in row] for row in distances]


@dataclass(frozen=True, slots=True)
class Nearest:
    """A required text's best match among a run's supplied texts."""

    similarity: float  # 1.0 for an exact match (same content ID)
    closest: str | None  # the supplied text, None when nothing was supplied


class MatchSpecError(ValueError):
    """A `--match` spec that cannot be used. The message says why."""


class TextMatch:
    """How required texts meet supplied ones (`--match`), and the matches made so far.

    `memo` holds, per required text and run's supplied texts, the verdict under this
    threshold: (similarity, the supplied text's content ID) of the first supplied text
    that passes, or (0.0, "") when none does; `text_cache` keeps it between sessions.
    """

    def __init__(self, mode: str = EXACT, threshold: float = DEFAULT_THRESHOLD) -> None:
        if mode not in (EXACT, SIMILARITY):
            raise MatchSpecError(f"unknown match '{mode}'; use text or similarity[:THRESHOLD]")
        self.mode = mode
        self.threshold = threshold
        self.memo: dict[str, tuple[float, str]] = {}
        self.added = 0  # memo entries made since the cache was read

    @classmethod
    def parse(cls, spec: str) -> TextMatch | None:
        """`text`, `similarity` or `similarity:0.7` (None for `ids`). Raises MatchSpecError."""
        mode, sep, value = spec.partition(":")
        if mode == "ids" and not sep:
            return None
        if mode == EXACT and not sep:
            return cls(EXACT)
        if mode != SIMILARITY:
            raise MatchSpecError(f"unknown --match '{spec}'; use ids, text or similarity[:THRESHOLD]")
        if not sep:
            return cls(SIMILARITY)
        try:
            threshold = float(value)
        except ValueError:
            threshold = -1.0
        if not 0 <= threshold <= 1:
            raise MatchSpecError(f"--match {spec}: the threshold is a number from 0 to 1, as 0.5")
        return cls(SIMILARITY, threshold)

    def spec(self) -> str:
        if self.mode == EXACT:
            return EXACT
        return SIMILARITY if self.threshold == DEFAULT_THRESHOLD else f"{SIMILARITY}:{self.threshold:g}"

    def describe(self) -> str:
        """What the match means, in a sentence's words (for the summary and reports)."""
        if self.mode == EXACT:
            return "texts (content IDs t:...), matched exactly (after Unicode NFC)"
        return (
            "texts (content IDs t:...), a required text supplied when its best similarity "
            f"(RAGAS's NonLLMContextRecall: 1 - normalised Levenshtein distance) is > {self.threshold:g}"
        )

    def brief(self) -> str:
        """'texts, exact' or 'texts, similarity > 0.5': the match in a few words (the app's)."""
        return "texts, exact" if self.mode == EXACT else f"texts, similarity > {self.threshold:g}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TextMatch) and (other.mode, other.threshold) == (self.mode, self.threshold)

    __hash__ = None  # type: ignore[assignment]

    def ids(self, required: Any, context: Any) -> tuple[Any, Any]:
        """The two lists of texts as content IDs (see the module's note); anything but a
        list of strings is returned as is, for validation to name."""
        req_ids = _ids_of(required)
        ctx_ids = _ids_of(context)
        if self.mode == EXACT or req_ids is None or ctx_ids is None or not req_ids or not ctx_ids:
            return (required if req_ids is None else req_ids), (context if ctx_ids is None else ctx_ids)
        supplied = set(ctx_ids)
        pending = [(rid, text) for rid, text in zip(req_ids, required, strict=True) if rid not in supplied]
        if not pending:
            return req_ids, ctx_ids
        matched = self._similar(pending, ctx_ids, context)
        extra = [rid for rid in dict.fromkeys(matched) if rid not in supplied]
        return req_ids, ctx_ids + extra

    def _similar(self, pending: list[tuple[str, str]], ctx_ids: list[str], context: list[str]) -> list[str]:
        """The required IDs (of `pending`) whose similarity with some supplied text passes the
        threshold: the load needs only the verdicts; `nearest` finds the best for a missing text."""
        key = context_key(ctx_ids)
        memo = self.memo
        matched: list[str] = []
        for rid, text in pending:
            entry = f"{rid} {key}"
            known = memo.get(entry)
            if known is None:
                known = memo[entry] = self._first_match(text, ctx_ids, context)
                self.added += 1
            if known[1]:
                matched.append(rid)
        return matched

    def _first_match(self, text: str, ctx_ids: list[str], context: list[str]) -> tuple[float, str]:
        """(similarity, content ID) of a supplied text whose similarity to `text` is > the
        threshold, else (0.0, ""). rapidfuzz compares in C++, the required text prepared once,
        each comparison given up past its cut-off. A near copy (a retriever's own chunking of
        the passage) is looked for first with a tight cut-off, which costs a fraction of a
        whole comparison; only when there is none are the texts compared up to the threshold.
        Either way the answer is the closest supplied text within the threshold: a closest
        one found within the tight cut-off is the closest within any wider one."""
        extract_one, normalized_distance = _rapidfuzz()
        # RAGAS: 1 - normalized_distance(reference=supplied, response=required), symmetric. The
        # cut-off leaves a hair of room: RAGAS's own expression below decides, rounding and all.
        cutoff = min(1.0, 1 - self.threshold + 1e-9)
        best = None
        if cutoff > NEAR_COPY:
            best = extract_one(
                text, context, scorer=normalized_distance, processor=None, score_cutoff=NEAR_COPY
            )
        if best is None:
            best = extract_one(text, context, scorer=normalized_distance, processor=None, score_cutoff=cutoff)
        if best is not None and 1 - best[1] > self.threshold:
            return 1 - best[1], ctx_ids[best[2]]
        return 0.0, ""

    def nearest(self, required: str, context: Sequence[str]) -> Nearest:
        """The best similarity of one required text with a run's supplied texts, and the
        closest one: worked out when a run is shown (the load needs only the verdicts)."""
        if not context:
            return Nearest(0.0, None)
        rid = content_id(required)
        ctx_ids = [content_id(text) for text in context]
        if rid in ctx_ids:
            return Nearest(1.0, context[ctx_ids.index(rid)])
        row = similarity_matrix([required], list(context))[0]
        best = max(range(len(row)), key=row.__getitem__)
        return Nearest(row[best], context[best])


@cache
def _rapidfuzz() -> tuple[Any, Any]:
    """rapidfuzz's extractOne and normalised Levenshtein distance, imported on first use."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    return process.extractOne, Levenshtein.normalized_distance


def _ids_of(value: Any) -> list[str] | None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None
    return [content_id(text) for text in value]


def context_key(ctx_ids: Sequence[str]) -> str:
    """A short key for a run's supplied texts, in order (the memo's and the cache's)."""
    return hashlib.sha256(" ".join(ctx_ids).encode("ascii")).hexdigest()[:CONTENT_ID_HEX]
