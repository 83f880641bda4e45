"""Make the RAGAS text-context fixture: real output of RAGAS's non-LLM metrics.

Run with RAGAS installed in a throwaway environment (RAGAS is not a dependency):

    python -m venv /tmp/ragas-venv
    /tmp/ragas-venv/bin/pip install ragas==0.4.3 langchain-community==0.4.1 rapidfuzz pandas
    /tmp/ragas-venv/bin/python tests/data/ragas_text/make_fixture.py tests/data/ragas_text

It writes, beside this script: the dataset as `EvaluationDataset.to_csv` and `to_jsonl`
write it (`dataset.csv`, `dataset.jsonl`), and the results of `NonLLMContextRecall` and
`NonLLMStringSimilarity` as `to_pandas().to_csv` and `to_json(orient="records",
lines=True)` write them (`results.csv`, `results.jsonl`). tests/core/test_text_match.py
checks, row by row, that the rule's missing set and recall agree with RAGAS's.
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

from ragas import EvaluationDataset, SingleTurnSample, evaluate
from ragas.metrics import NonLLMContextRecall, NonLLMStringSimilarity

A = "The parental leave policy grants sixteen weeks of paid leave to every new parent."
B = "Laptops must use full-disk encryption; keys are escrowed with IT security."
C = "Deploys go out on Tuesdays and Thursdays after the release checklist is signed."
D = "Expense reports above 500 euros need a director's approval before payment."
E = "Café au lait costs 3 € in the Zürich office canteen; crème brûlée is 5 €."
CJK = "東京オフィスの営業時間は午前9時から午後6時までです。"
EMOJI = "Incidents are tracked in #ops-alerts 🚨 and resolved within 4 hours ⏱️."
LONG = ("The on-call engineer acknowledges every page within fifteen minutes. " * 45).strip()


def edited(text: str, every: int) -> str:
    """`text` with every `every`-th character changed: a near miss of known similarity."""
    return "".join("x" if i % every == every - 1 else ch for i, ch in enumerate(text))


ROWS = [
    # (user_input, reference_contexts, retrieved_contexts, response, reference)
    ("How long is parental leave?", [A], [A, C], "Sixteen weeks.", "Sixteen weeks of paid leave."),
    ("How are laptops protected?", [B], [C, D], "They are encrypted.", "Full-disk encryption."),
    (
        "When do deploys happen?",
        [C, A],
        [edited(C, 4), D],
        "Tuesdays and Thursdays.",
        "On Tuesdays and Thursdays.",
    ),
    ("Who approves big expenses?", [D], [edited(D, 2)], "A director.", "A director approves."),
    (
        "What does coffee cost?",
        [E],
        ["Cafe au lait costs 3 EUR in the Zurich office canteen."],
        "3 euros.",
        "3 €.",
    ),
    ("Office hours in Tokyo?", [CJK], [CJK, EMOJI], "9 to 6.", "From 9 am to 6 pm."),
    ("Where are incidents tracked?", [EMOJI, B], [EMOJI], "In #ops-alerts.", "In the #ops-alerts channel."),
    (
        "How fast are pages acknowledged?",
        [LONG],
        [edited(LONG, 3), A],
        "Fifteen minutes.",
        "Within 15 minutes.",
    ),
    ("Encryption and deploys?", [B, C, D], [B, edited(C, 3), edited(D, 5)], "Encrypted; Tuesdays.", "Both."),
    ("Unanswerable question?", [A], [], "I don't know.", "Sixteen weeks."),
    ("Nothing required?", [], [A], "Anything.", "Anything."),
    ("Exactly half?", ["abcd"], ["abxy"], "ab", "ab"),
    ("Just over half?", ["abcdef"], ["abcdxy"], "abcd", "abcd"),
    # The same text in NFD (decomposed accents) and NFC: one content ID.
    ("Coffee, decomposed?", [unicodedata.normalize("NFD", E)], [E], "3 €.", "3 €."),
    # A reference listed twice: RAGAS counts each copy, the rule's recall each distinct text.
    ("Twice required?", [A, A, B], [A], "Sixteen weeks.", "Sixteen weeks."),
]


def main(out: Path) -> None:
    samples = [
        SingleTurnSample(
            user_input=q, reference_contexts=ref, retrieved_contexts=ret, response=resp, reference=gold
        )
        for q, ref, ret, resp, gold in ROWS
    ]
    dataset = EvaluationDataset(samples=samples)
    dataset.to_csv(str(out / "dataset.csv"))
    dataset.to_jsonl(str(out / "dataset.jsonl"))
    result = evaluate(
        dataset,
        metrics=[NonLLMContextRecall(), NonLLMStringSimilarity()],
        raise_exceptions=False,
        show_progress=False,
    )
    frame = result.to_pandas()
    frame.to_csv(out / "results.csv", index=False)
    frame.to_json(out / "results.jsonl", orient="records", lines=True, force_ascii=False)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
