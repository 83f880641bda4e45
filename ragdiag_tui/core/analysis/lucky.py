"""Lucky answers, one definition per purpose, each named where it is shown.

A *lucky answer* is a run labelled correct although a required document is missing from
its context (a retrieval gap, never a pass). Which label counts depends on the purpose:

- **lucky answers in the file** (`LUCKY_IN_FILE`, JSON `lucky_in_file`): by the file's own
  labels, before any review. The population a spot-check of the lucky answers is drawn
  from (`sample --view lucky`); it never shrinks as reviewers overturn labels.
- **still lucky after review** (`STILL_LUCKY`, JSON `still_lucky`): by the labels in force.
  A lucky answer a reviewer relabels incorrect is no longer one (its label was overturned);
  a run the file labelled incorrect that the team labels correct becomes one.

The app's `L` view lists both: the runs still lucky, and those lucky in the file whose
label was overturned, marked so (`is_overturned_lucky`) rather than vanished.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..runs.store import L_TRUE

if TYPE_CHECKING:
    from ..review.state import Review
    from ..runs.store import RunStore

LUCKY_IN_FILE = "lucky answers in the file"
"""By the file's labels: the population a spot-check of the lucky answers is drawn from."""
STILL_LUCKY = "still lucky after review"
"""By the labels in force: what the review leaves lucky."""
OVERTURNED = "overturned"
"""How a run lucky in the file but not after review is marked."""


def is_lucky_in_file(store: RunStore, row: int) -> bool:
    """Lucky by the file's own label: labelled correct in the file, a required document missing."""
    return store.file_label[row] == L_TRUE and row in store.missing


def lucky_in_file(review: Review) -> int:
    """How many runs are lucky answers by the file's labels (counted once, when loaded)."""
    return review.team.lucky_in_file


def is_overturned_lucky(review: Review, row: int) -> bool:
    """A lucky answer in the file that is no longer one after review (the label overturned)."""
    return is_lucky_in_file(review.store, row) and not review.is_lucky(row)


def lucky_view_rows(review: Review) -> list[int]:
    """The `L` view, in file order: every run lucky in the file or still lucky after review
    (an overturned one stays listed, marked `OVERTURNED`)."""
    label, still = review.store.file_label, review.is_lucky
    return sorted(row for row in review.store.missing if label[row] == L_TRUE or still(row))
