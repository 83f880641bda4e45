"""The command line. Arguments are parsed before anything from Textual is imported,
so the headless commands start fast and run where no terminal UI could.

Exit status: 0 all good; 1 the file loaded but some lines were invalid (or, for
`check`, some case disagreed with the rule); 2 the file could not be read at all
or the command line was wrong.

One module per family of commands (rule: diagnose and check; reports: stats and
export; compare; sample; merge; review: review and serve), each adding its own
options to the parser and holding its handler; options holds the option groups
several commands share, common what their handlers share, parser the whole parser.
"""

from .common import EXIT_INVALID, EXIT_OK, EXIT_UNREADABLE
from .dispatch import main
from .parser import COMMANDS, HANDLERS, build_parser, parse_args

__all__ = [
    "COMMANDS",
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "HANDLERS",
    "build_parser",
    "main",
    "parse_args",
]
