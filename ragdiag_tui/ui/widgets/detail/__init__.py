"""RunDetail (run_detail.py), the detail pane of one run, and its parts: the heading, the
required and supplied IDs side by side, the documents' text, the labels and reviewers, the
fields, the before/after of a baseline."""
