"""The review screen's key bindings, and the views of them: the help screen's table by
task (which the guide's keys page, docs/guide/keys.md, is generated from by
scripts/keys_reference.py) and the command palette's commands. One list, so all agree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from textual.binding import Binding, BindingType

from ....core.analysis.views import BASELINE_VIEWS, VIEWS
from ....core.common.text import visible
from ...widgets.table.run_table import RunTable

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

LABEL_BINDINGS: list[BindingType] = [
    Binding("y", "label_correct", "Correct", tooltip="Label the run correct"),
    Binding("n", "label_incorrect", "Incorrect", tooltip="Label the run incorrect"),
    Binding(
        "space",
        "toggle_label",
        "Flip label",
        show=False,
        tooltip="Flip the label in force: correct becomes incorrect, incorrect or none becomes correct",
    ),
    Binding(
        "backspace", "clear_label", "File label", show=False, tooltip="Remove your label: the file's is back"
    ),
    Binding("c", "edit_note", "Note", tooltip="Add or edit a note on the run"),
    Binding("ctrl+z", "undo", "Undo", tooltip="Undo the last label or note change"),
    Binding(
        "J",
        "adjudicate",
        "Adjudicate",
        show=False,
        tooltip="Set the final label of the run over its reviewers' labels (asks first)",
    ),
]
REVIEW_LOOP_BINDINGS: list[BindingType] = [
    Binding(
        "right_square_bracket",
        "next_unreviewed",
        "Next unreviewed",
        show=False,
        key_display="]",
        tooltip="Jump to the next unreviewed run of the view",
    ),
    Binding(
        "left_square_bracket",
        "previous_unreviewed",
        "Previous unreviewed",
        show=False,
        key_display="[",
        tooltip="Jump to the previous unreviewed run of the view",
    ),
    Binding(
        "A",
        "toggle_auto_advance",
        "Auto-advance",
        show=False,
        tooltip="Toggle moving on to the next unreviewed run after a label (always on in a spot-check)",
    ),
]
DETAIL_BINDINGS: list[BindingType] = [
    Binding("j", "next_run", "Next run", show=False, tooltip="In the full-size detail: the next run"),
    Binding(
        "k", "previous_run", "Previous run", show=False, tooltip="In the full-size detail: the previous run"
    ),
]
DOCUMENT_BINDINGS: list[BindingType] = [
    Binding(
        "full_stop",
        "move_document(1)",
        "Docs",
        key_display=".",
        tooltip="Highlight the run's next required or supplied document and read its text beside the IDs",
    ),
    Binding(
        "comma",
        "move_document(-1)",
        "Previous document",
        show=False,
        key_display=",",
        tooltip="Highlight the run's previous required or supplied document",
    ),
    Binding(
        "t",
        "whole_text",
        "Whole text",
        show=False,
        tooltip="Read the highlighted document's whole text, then the run's notes, in a scrolling view",
    ),
]
"""The documents' text (issue 11): from the run itself (RAGAS's contexts) or `--docs FILE`."""
SORT_BINDINGS: list[BindingType] = [
    Binding(
        "o", "sort_cycle", "Sort", show=False, tooltip="Sort by the column: ascending, descending, file order"
    ),
    Binding(
        "less_than_sign",
        "sort_previous_column",
        "Sort previous column",
        show=False,
        key_display="<",
        tooltip="Sort by the previous column to the left",
    ),
    Binding(
        "greater_than_sign",
        "sort_next_column",
        "Sort next column",
        show=False,
        key_display=">",
        tooltip="Sort by the next column to the right (a click on a title sorts by it too)",
    ),
    Binding(
        "M",
        "toggle_metric_columns",
        "Tags and metric columns",
        show=False,
        tooltip="Show or hide the table's tags, recall and precision columns (shown when there is room)",
    ),
]
OTHER_BINDINGS: list[BindingType] = [
    Binding(
        "slash",
        "focus_filter",
        "Filter",
        key_display="/",
        tooltip="Filter as you type: id, question or any document ID; FIELD:VALUE, is:VIEW, tag:KEY terms",
    ),
    Binding("question_mark", "help", "Keys", key_display="?", tooltip="These keys, by task"),
    Binding(
        "s",
        "statistics",
        "Stats",
        tooltip="Statistics: runs per stage, lucky answers, most-missed documents, spot-checks, agreement; "
        "r there writes the report (HTML) beside the run file",
    ),
    Binding("e", "export", "Export", tooltip="Export: path, format (JSONL, CSV, JSON, Parquet), scope"),
    Binding(
        "S",
        "stale",
        "Stale entries",
        show=False,
        tooltip="Stale journal entries (made before their run changed): re-apply or drop them",
    ),
    Binding(
        "enter", "toggle_detail", "Detail", show=False, tooltip="Show the detail pane full size, or back"
    ),
    Binding(
        "escape", "clear_filters", "Clear filter", show=False, tooltip="Clear the filter, back to the table"
    ),
    Binding("q", "app.quit", "Quit", tooltip="Quit (asks first if a change could not be saved)"),
]
VIEW_BINDINGS: list[BindingType] = [
    Binding(view.key, f"show_view('{view.name}')", view.title, show=False) for view in VIEWS
]
SPOT_CHECK_BINDINGS: list[BindingType] = [
    Binding(
        "D",
        "draw_sample",
        "Draw a spot-check",
        show=False,
        tooltip="Draw a seeded sample of the view and filter: size or margin, seed, name",
    ),
    Binding(
        "K",
        "choose_spot_check",
        "Open a spot-check",
        show=False,
        tooltip="Choose a spot-check: its runs in sample order, its progress in the summary",
    ),
]
TAG_BINDINGS: list[BindingType] = [
    Binding(str(number), f"toggle_tag({number})", f"Reason tag {number}", show=False)
    for number in range(1, 10)
]
_KEY_NAMES = {"~": "tilde", "+": "plus", "-": "minus"}  # Textual's names of the views' keys
BASELINE_BINDINGS: list[BindingType] = [
    *(
        Binding(
            _KEY_NAMES[view.key], f"show_view('{view.name}')", view.title, show=False, key_display=view.key
        )
        for view in BASELINE_VIEWS
    ),
    Binding(
        "O",
        "apply_offered",
        "Apply offered labels",
        show=False,
        tooltip="Apply the baseline review's labels to runs unchanged since (asks first)",
    ),
]
"""With `review NEW --baseline OLD`."""
SCREEN_BINDINGS: list[BindingType] = (
    LABEL_BINDINGS
    + REVIEW_LOOP_BINDINGS
    + SPOT_CHECK_BINDINGS
    + TAG_BINDINGS
    + DETAIL_BINDINGS
    + DOCUMENT_BINDINGS
    + SORT_BINDINGS
    + OTHER_BINDINGS
    + VIEW_BINDINGS
    + BASELINE_BINDINGS
)


def _bindings(bindings: list[BindingType]) -> Iterator[Binding]:
    for binding in bindings:
        assert isinstance(binding, Binding)
        yield binding


def _pick(bindings: list[BindingType], *keys: str) -> list[BindingType]:
    """The bindings of `bindings` on these keys, in the order of `bindings`."""
    return [binding for binding in _bindings(bindings) if binding.key in keys]


def _without(bindings: list[BindingType], *keys: str) -> list[BindingType]:
    return [binding for binding in _bindings(bindings) if binding.key not in keys]


TAGS_SECTION = "Spot-checks (1-9: a reason tag, several at once; tag first, then label)"
BASELINE_SECTION = "Baseline (review NEW --baseline OLD)"
HELP_SECTION = "Help and quit"
KEY_SECTIONS: tuple[tuple[str, list[BindingType]], ...] = (
    ("Move", RunTable.BINDINGS + DETAIL_BINDINGS),
    ("Label", _without(LABEL_BINDINGS, "J") + REVIEW_LOOP_BINDINGS),
    (
        "Views, filter and sort",
        _without(VIEW_BINDINGS, "C")
        + _pick(OTHER_BINDINGS, "slash", "escape", "enter")
        + SORT_BINDINGS
        + DOCUMENT_BINDINGS,
    ),
    (TAGS_SECTION, SPOT_CHECK_BINDINGS),
    ("Team", _pick(LABEL_BINDINGS, "J") + _pick(VIEW_BINDINGS, "C") + _pick(OTHER_BINDINGS, "S")),
    (BASELINE_SECTION, BASELINE_BINDINGS),
    ("Statistics and export", _pick(OTHER_BINDINGS, "s", "e")),
    (HELP_SECTION, _pick(OTHER_BINDINGS, "question_mark", "q")),
)
"""The keys by task, as the help screen (`?`) and the guide's keys page list them: every binding
of SCREEN_BINDINGS in exactly one section ("Move" also holds the table's own keys)."""


def key_help(app: App[object]) -> Iterator[tuple[str, str, str]]:
    """(section, keys, what they do) for every binding the reviewer can use, by task."""
    for section, bindings in KEY_SECTIONS:
        for binding in _bindings(bindings):
            keys = ", ".join(
                binding.key_display or app.get_key_display(binding.with_key(key))
                for key in binding.key.split(",")
            )
            yield section, keys, binding.tooltip or binding.description
        if section == TAGS_SECTION:
            for tag in getattr(app, "reason_tags", ()):
                yield section, str(tag.number), visible(tag.name)  # from the --tags file
    yield HELP_SECTION, "tab", "Move focus between the table, detail and filter"
    yield HELP_SECTION, app.get_key_display(Binding("ctrl+p", "")), "Command palette: every action by name"


def commands(screen: Screen[object]) -> Iterator[tuple[str, str, Callable[[], object]]]:
    """Every action of the screen for the command palette: (title, help, callback)."""
    for bindings, prefix in (
        (LABEL_BINDINGS, ""),
        (REVIEW_LOOP_BINDINGS, ""),
        (SPOT_CHECK_BINDINGS, ""),
        (DOCUMENT_BINDINGS, ""),
        (SORT_BINDINGS, ""),
        (VIEW_BINDINGS, "View: "),
        (BASELINE_BINDINGS, "Baseline: "),
        (OTHER_BINDINGS, ""),
    ):
        for binding in _bindings(bindings):
            if binding.action.startswith("app."):
                continue  # the app offers those itself
            help_text = binding.tooltip or binding.description
            key = binding.key_display or binding.key
            yield (
                f"{prefix}{binding.description}",
                f"{help_text} ({key})",
                partial(screen.run_action, binding.action),
            )
