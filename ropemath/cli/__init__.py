"""The command line: ``ropemath <command>`` (argparse dispatch in ``main``), the ``check`` command, and
``ropemath bench`` (``bench``, ``bench_cli``).

Layer 7, the top: may import every other subpackage.  Each command's logic lives in the layer it belongs
to (``derive`` in ``ropemath.symbolic.cli``, ``figures`` in ``ropemath.plots.cli``, ``claims`` in
``ropemath.claims.report``); this package only parses and dispatches.

References: none (project convention).
"""

from ropemath.cli.dispatch import COMMANDS, build_parser, main

__all__ = ["COMMANDS", "build_parser", "main"]
