"""Agreement between reviewers: how far can the labels be trusted?

Three figures, over the reviewers' own labels (true/false; an adjudication is
not a reviewer's label and takes no part):

- every pair of reviewers who labelled some run in common: the overlap (runs
  both labelled), percent agreement (a fraction, 0..1) and Cohen's kappa;
- over all reviewers: Krippendorff's alpha, nominal, with the labels as the
  categories and every run with at least two reviewer labels as a unit;
- each reviewer against the file's own labels (`correct` in the run file):
  overlap, agreement, kappa.

A figure that is undefined is None with a reason, never a guess:
- kappa when both raters used one and the same label on every run they share
  (chance agreement is 1, so kappa is 0/0);
- alpha when no run has two labels, or when only one label occurs among them
  (no disagreement is possible);
- agreement (and kappa) when the overlap is 0 (only for `with_file`: a pair
  with no overlap is not listed);
- a reviewer's kappa against the file when the file's labels on the runs they
  share are all alike: the formula gives 0 whatever the reviewer says, which
  reads as "no better than chance" when nothing was measured.

Every run's labels are reduced to a signature first: with a handful of
reviewers there are only a few hundred distinct ones, so the figures cost one
pass over the runs and then a loop over signatures.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..common.text import visible

if TYPE_CHECKING:
    from ..review.state import Review

ONE_LABEL = "both said {} on every run they share"
NO_OVERLAP_WITH_FILE = "no run this reviewer labelled has a label in the file"
FILE_ONE_LABEL = "undefined: the file says {} on every run this reviewer labelled"
NO_UNITS = "no run has labels from two reviewers"
NO_VARIATION = "every label on runs with two or more labels is {}: no disagreement is possible"


@dataclass(frozen=True, slots=True)
class Table:
    """A 2x2 table of two raters' labels over the runs both labelled."""

    tt: int = 0  # both true
    tf: int = 0  # first true, second false
    ft: int = 0
    ff: int = 0

    @property
    def overlap(self) -> int:
        return self.tt + self.tf + self.ft + self.ff

    def agreement(self) -> float | None:
        n = self.overlap
        return (self.tt + self.ff) / n if n else None

    def kappa(self) -> tuple[float | None, str | None]:
        """Cohen's kappa, or None and why."""
        n = self.overlap
        if not n:
            return None, "no overlap"
        first_true, second_true = self.tt + self.tf, self.tt + self.ft
        if first_true == second_true and first_true in (0, n):
            return None, ONE_LABEL.format("correct" if first_true else "incorrect")
        observed = (self.tt + self.ff) / n
        chance = (first_true * second_true + (n - first_true) * (n - second_true)) / (n * n)
        return (observed - chance) / (1 - chance), None


@dataclass(frozen=True, slots=True)
class PairAgreement:
    reviewers: tuple[str, str]
    overlap: int
    agreement: float | None
    kappa: float | None
    kappa_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _figures({"reviewers": list(self.reviewers)}, self)


@dataclass(frozen=True, slots=True)
class FileAgreement:
    reviewer: str
    overlap: int
    agreement: float | None
    kappa: float | None
    kappa_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _figures({"reviewer": self.reviewer}, self)


def _figures(out: dict[str, Any], row: PairAgreement | FileAgreement) -> dict[str, Any]:
    """A row's figures for JSON: a null kappa carries its reason."""
    out.update(overlap=row.overlap, agreement=row.agreement, kappa=row.kappa)
    if row.kappa is None:
        out["kappa_reason"] = row.kappa_reason
    return out


@dataclass(frozen=True, slots=True)
class Agreement:
    """The agreement figures of one review."""

    reviewers: tuple[str, ...]
    """Everyone who labelled at least one run, by name."""
    labelled: int
    """Runs with at least one reviewer label."""
    pairable: int
    """Runs with labels from at least two reviewers: alpha's units."""
    pairs: tuple[PairAgreement, ...]
    alpha: float | None
    alpha_reason: str | None
    with_file: tuple[FileAgreement, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "reviewers": list(self.reviewers),
            "labelled_runs": self.labelled,
            "pairable_runs": self.pairable,
            "pairs": [pair.to_json() for pair in self.pairs],
            "alpha": self.alpha,
        }
        if self.alpha is None:
            out["alpha_reason"] = self.alpha_reason
        out["with_file"] = [one.to_json() for one in self.with_file]
        return out


def _table(counts: Mapping[tuple[bool, bool], int]) -> Table:
    return Table(
        counts.get((True, True), 0),
        counts.get((True, False), 0),
        counts.get((False, True), 0),
        counts.get((False, False), 0),
    )


def _alpha(units: Counter[tuple[int, int]]) -> tuple[float | None, str | None]:
    """Krippendorff's alpha (nominal, two categories) from (true, false) counts per unit.

    alpha = 1 - (n - 1) * sum_u(2 t_u f_u / (m_u - 1)) / (2 n_t n_f), over units with m_u >= 2.
    """
    n_true = n_false = 0
    observed = 0.0  # the off-diagonal mass of the coincidence matrix, halved
    for (t, f), times in units.items():
        m = t + f
        if m < 2:
            continue
        n_true += t * times
        n_false += f * times
        observed += times * t * f / (m - 1)
    if not n_true + n_false:
        return None, NO_UNITS
    if not n_true or not n_false:
        return None, NO_VARIATION.format("correct" if n_true else "incorrect")
    n = n_true + n_false
    return 1 - (n - 1) * observed / (n_true * n_false), None


def agreement(runs: Iterable[tuple[Mapping[str, bool], bool | None]]) -> Agreement:
    """The agreement figures over `runs`: each is (reviewer -> label, the file's label or None).

    Only boolean labels count; a run nobody labelled may be passed and is ignored.
    """
    signatures: Counter[tuple[frozenset[tuple[str, bool]], bool | None]] = Counter()
    for labels, file_label in runs:
        if labels:
            signatures[frozenset(labels.items()), file_label] += 1

    names: set[str] = set()
    pair_counts: dict[tuple[str, str], Counter[tuple[bool, bool]]] = {}
    file_counts: dict[str, Counter[tuple[bool, bool]]] = {}
    units: Counter[tuple[int, int]] = Counter()
    labelled = pairable = 0
    for (signature, file_label), times in signatures.items():
        labelled += times
        ordered = sorted(signature)
        true = 0
        for name, label in ordered:
            names.add(name)
            true += label
            if file_label is not None:
                file_counts.setdefault(name, Counter())[label, file_label] += times
        units[true, len(ordered) - true] += times
        if len(ordered) > 1:
            pairable += times
        for (first, a), (second, b) in combinations(ordered, 2):
            pair_counts.setdefault((first, second), Counter())[a, b] += times

    pairs = []
    for key in sorted(pair_counts):
        table = _table(pair_counts[key])
        kappa, why = table.kappa()
        pairs.append(PairAgreement(key, table.overlap, table.agreement(), kappa, why))
    with_file = []
    for name in sorted(names):
        table = _table(file_counts.get(name, {}))
        if table.overlap:
            kappa, why = _file_kappa(table)
        else:
            kappa, why = None, NO_OVERLAP_WITH_FILE
        with_file.append(FileAgreement(name, table.overlap, table.agreement(), kappa, why))
    alpha, alpha_reason = _alpha(units)
    return Agreement(
        tuple(sorted(names)), labelled, pairable, tuple(pairs), alpha, alpha_reason, tuple(with_file)
    )


def _file_kappa(table: Table) -> tuple[float | None, str | None]:
    """A reviewer's kappa against the file (the second rater): undefined when the file's labels
    are all alike on the runs they share."""
    kappa, why = table.kappa()
    file_true = table.tt + table.ft
    if kappa is not None and file_true in (0, table.overlap):
        return None, FILE_ONE_LABEL.format("correct" if file_true else "incorrect")
    return kappa, why


def format_agreement(result: Agreement) -> list[str]:
    """The agreement figures as lines of a plain-text table; reviewer names made visible."""
    if not result.reviewers:
        return ["  no reviewer has labelled a run yet"]
    out = []
    if result.pairs:
        names = [" / ".join(map(visible, pair.reviewers)) for pair in result.pairs]
        width = max(max(map(len, names)), len("reviewers"))
        out.append(f"  {'reviewers':<{width}}  overlap  agreement   kappa")
        for name, pair in zip(names, result.pairs, strict=True):
            out.append(
                f"  {name:<{width}}  {pair.overlap:>7,}  "
                f"{percent(pair.agreement):>9}  {figure(pair.kappa):>6}"
                + (f"  ({pair.kappa_reason})" if pair.kappa is None else "")
            )
    else:
        out.append("  no two reviewers labelled a run in common")
    out.append("")
    alpha = figure(result.alpha)
    why = f" ({result.alpha_reason})" if result.alpha is None else ""
    out.append(f"  Krippendorff's alpha over {result.pairable:,} runs with two or more labels: {alpha}{why}")
    out.append("")
    names = [visible(one.reviewer) for one in result.with_file]
    width = max(max(map(len, names)), len("reviewer vs file"))
    out.append(f"  {'reviewer vs file':<{width}}  overlap  agreement   kappa")
    for name, one in zip(names, result.with_file, strict=True):
        out.append(
            f"  {name:<{width}}  {one.overlap:>7,}  {percent(one.agreement):>9}  {figure(one.kappa):>6}"
            + (f"  ({one.kappa_reason})" if one.kappa is None else "")
        )
    return out


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def review_agreement(review: Review) -> Agreement:
    """The figures of a review: every reviewed run's reviewer labels, and the file's label.

    Adjudications are not reviewer labels and take no part; stale records are not
    applied, so they take none either.
    """
    file_label = review.file_label
    return agreement(
        ({name: state.label for name, state in states.items() if state.label is not None}, file_label(row))
        for row, states in review.states.items()
    )
