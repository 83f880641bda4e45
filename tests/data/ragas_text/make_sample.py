"""Make sample_runs/ragas_text_results.csv: the demo sweep as RAGAS results with text contexts.

The 80 runs of sample_runs/demo.jsonl, their documents replaced by their texts from
sample_runs/docs.jsonl (RAGAS's `reference_contexts` and `retrieved_contexts`, no ID
columns). One run in four got the retriever's own chunk of a required document rather than
the document word for word (its first sentence cut off: a near copy), which exact matching
calls missing and RAGAS's similarity calls retrieved. Each run is evaluated by RAGAS's
non-LLM metrics (NonLLMContextRecall, and NonLLMStringSimilarity of the response against a
reference answer: the answer itself, lightly reworded, where the demo labels it correct, a
different answer where it does not) and written by `to_pandas().to_csv`, as a RAGAS user
saves results. Run with RAGAS in a throwaway environment (see make_fixture.py):

    /tmp/ragas-venv/bin/python tests/data/ragas_text/make_sample.py sample_runs/ragas_text_results.csv
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ragas import EvaluationDataset, SingleTurnSample, evaluate
from ragas.metrics import NonLLMContextRecall, NonLLMStringSimilarity

SAMPLES = Path(__file__).resolve().parents[3] / "sample_runs"


def chunk(text: str) -> str:
    """The retriever's chunk of a document: its first sentence left out."""
    head, _, rest = text.partition(". ")
    return rest or head


def main(out: Path) -> None:
    docs = {}
    for line in (SAMPLES / "docs.jsonl").read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        docs[doc["id"]] = doc["text"]
    samples = []
    for number, line in enumerate((SAMPLES / "demo.jsonl").read_text(encoding="utf-8").splitlines()):
        run = json.loads(line)
        required = [docs[d] for d in run.get("required") or []]
        retrieved = [docs[d] for d in run.get("context") or []]
        if number % 4 == 3:
            retrieved = [chunk(text) if text in required else text for text in retrieved]
        answer = run.get("answer") or ""
        correct = run.get("correct")
        reference = f"{answer.rstrip('.')}, as the policy says." if correct else "Not what the documents say."
        samples.append(
            SingleTurnSample(
                user_input=run["question"],
                reference_contexts=required,
                retrieved_contexts=retrieved,
                response=answer,
                reference=reference,
            )
        )
    result = evaluate(
        EvaluationDataset(samples=samples),
        metrics=[NonLLMContextRecall(), NonLLMStringSimilarity()],
        raise_exceptions=False,
        show_progress=False,
    )
    result.to_pandas().to_csv(out, index=False)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
