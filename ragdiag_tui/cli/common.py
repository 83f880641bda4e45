"""What the commands' handlers share: exit statuses, messages on stderr, JSON for stdout,
and the options that name files read before a command starts (tags, documents, journal)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from typing import Any

EXIT_OK, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


def err(message: str) -> None:
    """`message` on stderr after the program's name, its control characters made visible."""
    from ..core.common.text import visible

    print(f"ragdiag-tui: {visible(message)}", file=sys.stderr)


def dumps(obj: Any, **options: Any) -> str:
    """JSON for stdout: readable text, or ASCII escapes where a lone surrogate cannot be printed."""
    text = json.dumps(obj, ensure_ascii=False, **options)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a legal \ud800 escape in a run: print() would raise
        return json.dumps(obj, **options)
    if sys.stdout.isatty() and not text.isprintable():
        # JSON leaves C1 controls and bidi overrides as they are; a terminal obeys them.
        return json.dumps(obj, **options)
    return text


def docs_source(args: argparse.Namespace) -> Any:
    """`--docs` and `--docs-map` as a core.runs.corpus.DocsSource (None without --docs).
    Raises core.runs.corpus.DocsError when the file cannot be read."""
    from ..core.runs.corpus import DocsError, DocsSource, check_docs_file, parse_docs_map

    path = getattr(args, "docs", None)
    if path is None:
        if getattr(args, "docs_map", None):
            raise DocsError("--docs-map needs --docs FILE")
        return None
    check_docs_file(path)
    return DocsSource(path, tuple(parse_docs_map(args.docs_map).items()))


def load_tag_set(args: argparse.Namespace) -> tuple[Any, ...]:
    """The reason tags `--tags` names, or the default set. Raises core.tags.TagsError."""
    from ..core.review.tags import DEFAULT_TAGS, load_tags

    path = getattr(args, "tags", None)
    return DEFAULT_TAGS if path is None else load_tags(path)


def journal_refused(args: argparse.Namespace) -> bool:
    """Whether the shared store refuses us (a malformed URL, a wrong password), said before the app starts.

    A server that cannot be reached is no reason to stop: the app works on, spooling.
    """
    from ..core.review.records import JournalError
    from ..core.review.reviewlog import open_log

    log = open_log(args.file, args.journal, offline_ok=True)
    check = getattr(log, "check", None)  # only a database has a login to try
    if check is None:
        return False
    try:
        away = check()
    except JournalError as exc:
        err(str(exc))
        return True
    if away:
        err(f"{log.name}: the server cannot be reached ({away}); working offline, spooling labels")
    return False


def say_spooled(path: str) -> None:
    """On stderr, when review entries of this run file wait in this machine's spool (the
    server was unreachable): how many, where, and that teammates' figures lack them."""
    from ..core.review.postgres.spool import spool_notice

    notice = spool_notice(path)
    if notice is not None:
        err(notice)


def warn_unmapped(path: str, field_map: Any, command: str, files: list[str]) -> None:
    """Say at once, on stderr, when the file's first runs hold none of the rule's fields
    under the map in use, with the fields they hold and a command line that maps them.
    The command still runs (the rule calls such runs unresolved) and exits as it would."""
    if not os.path.isfile(path):  # a pipe is read once, by the command itself
        return
    from ..core.runs.loading import FileError
    from ..core.runs.unmapped import find_unmapped

    try:
        found = find_unmapped(path, field_map)
    except FileError:  # the command says why, as it always has
        return
    for line in found.lines(command, files) if found else ():
        err(line)
    if found is None and field_map is not None and field_map.texts_read:
        ids = ", ".join(field_map.source(field) for field in ("required", "context"))
        texts = ", ".join(field_map.text_sources.values())
        err(
            f"--preset {field_map.preset}: no {ids} in the runs, so their documents are the texts of "
            f"{texts}, each its content ID, matched exactly (--match similarity: as RAGAS's "
            "NonLLMContextRecall)"
        )


def reviewed(args: argparse.Namespace) -> Any:
    """The run file with its review applied, for the commands that only read it
    (stats, export, report); reports on stderr what the journal contributed. Raises
    JournalError when the journal cannot be read (going on would lose its labels)."""
    from ..core.review.state import journal_applied, open_review

    use = not args.no_journal
    review = open_review(
        args.file,
        args.field_map,
        args.journal,
        use_journal=use,
        writable=False,
        apply_stale=args.apply_stale,
    )
    if review.journal is None:
        err("review journal ignored (--no-journal): the file's own labels")
        return review
    for warning in review.warnings:
        err(warning)
    err(journal_applied(review))
    if review.orphans:
        err(f"{len(review.orphans)} journal entries name runs no longer in the file")
    if review.stale:
        err(
            f"{len(review.stale)} journal entries left out: their runs changed in the file since "
            "(--apply-stale includes them)"
        )
    if review.stale_applied:
        err(f"{review.stale_applied} journal entries applied although their runs changed since")
    if review.conflicts:
        err(f"{len(review.conflicts)} runs in conflict (reviewers disagree): the file's label is in force")
    return review


def sample_strata_json(strata: Any) -> dict[str, Any]:
    """What `sample --json` adds for a stratified draw (a records.Strata): the field, the
    allocation and `strata: [{stratum, population, size, ids}]`."""
    return {"strata_by": strata.by, "allocation": strata.allocation,
            "strata": [stratum.to_json() for stratum in strata.strata]}  # fmt: skip


def name_taken(
    args: argparse.Namespace,
    spot_checks: dict[str, Any],
    sample: Any,
    out: str | None = None,
    conflict: Callable[[Any], str] = lambda earlier: ")",
) -> str | None:
    """Why the drawn sample cannot be recorded under its name (another spot-check holds it
    and --replace was not given), or None; asked before anything is written."""
    from ..core.analysis.sampling import default_name

    name = args.name or default_name(sample.view, len(sample.ids))
    earlier = spot_checks.get(name)
    if earlier is None or sample.recorded_as(earlier) or args.replace:
        return None
    return (
        f"a spot-check named '{name}' already exists{'' if out is None else f' beside {out}'} "
        f"({earlier.view}, seed {earlier.seed}, {len(earlier.ids)} runs{conflict(earlier)}; "
        "choose another --name, or --replace"
    )


def record_spot_check(
    args: argparse.Namespace,
    review: Any,
    sample: Any,
    where: str,
    *,
    out: str | None = None,
    conflict: Callable[[Any], str] = lambda earlier: ")",
    list_ids: bool = True,
) -> int | None:
    """Journal a drawn sample (core.analysis.sampling.Sample) as the spot-check `args.name`
    (else its default name), print its ids (or `--json`) and say where it went; drawing the
    same sample again records nothing new. `out`: the sample file a dataset's draw wrote;
    `conflict`: the words closing the description of a same-named spot-check drawn otherwise;
    `list_ids` False: the ids are in the sample file, and the line on stderr says so.
    None when recorded, else the exit status (a name taken, a journal that refused the record)."""
    from ..core.analysis.sampling import default_name
    from ..core.common.text import visible
    from ..core.review.records import JournalError, SpotCheck, utc_now
    from ..core.runs.mapping import reading_of

    name = args.name or default_name(sample.view, len(sample.ids))
    earlier = review.spot_checks.get(name)
    same = earlier is not None and sample.recorded_as(earlier)
    refusal = name_taken(args, review.spot_checks, sample, out, conflict)
    if refusal is not None:
        err(refusal)
        return EXIT_UNREADABLE
    if not same:  # drawing the same sample again records nothing new
        record = SpotCheck(name, sample.view, sample.filter, sample.seed, sample.population, len(sample.ids),
                           sample.ids, review.reviewer, utc_now(),
                           reading=reading_of(review.store.field_map))  # fmt: skip
        record.strata, record.margin = sample.strata, sample.margin
        try:
            review.add_spot_check(record)
        except JournalError as exc:
            err(f"{exc}; the spot-check was not recorded")
            return EXIT_UNREADABLE
    if args.json:
        shown = {"name": name, "view": sample.view, "seed": sample.seed, "population": sample.population,
                 "ids": list(sample.ids)}  # fmt: skip
        if sample.strata is not None:
            shown |= sample_strata_json(sample.strata)
        print(dumps(shown if out is None else {**shown, "output": out}))
    elif list_ids:
        for run_id in sample.ids:
            print(visible(run_id) if sys.stdout.isatty() else run_id)
    journal = review.journal.name if review.journal is not None else "no journal"
    done = "already recorded" if same else f"recorded in {journal}"
    done = done if out is None else f"written to {out}; {done}"
    err(f"{name}: {len(sample.ids)} of {sample.population} runs in {where}, seed {sample.seed}; {done}")
    return None
