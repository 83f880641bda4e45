"""What every part of the core uses: untrusted text made visible, the JSON rules,
atomic and safe writes, where a path really leads, and the collector held off while
the app starts. Imports nothing else of the core.

The names below are this package's public face; each is imported from its module on
first use, so importing one module of the package does not load the rest.
"""

from .lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "atomic": ["STDOUT", "WriteRefused", "check_output", "open_output", "same_file"],
        "collector": ["hold", "release"],
        "jsonutil": [
            "DECODER",
            "RawNumber",
            "decode",
            "decode_exact",
            "decode_standard",
            "dumps",
            "escape_line_breaks",
            "escape_line_breaks_utf8",
            "escape_terminal_controls_utf8",
            "field_text",
            "line_bytes",
        ],
        "paths": ["is_within"],
        "publish": ["Publication"],
        "reads": ["forget_reads", "read_as", "register_read"],
        "text": ["snippet", "visible"],
    },
)
