"""The command line: ``ropemath <command>`` (``dispatch``) and ``ropemath bench`` (``bench``).

Layer 7, the top: may import every other subpackage.  Each command's logic lives in the layer it belongs to
(``derive`` in ``ropemath.symbolic.cli``, ``figures`` in ``ropemath.plots.cli``, ``claims`` in
``ropemath.claims.report``).

References: Python documentation, ``argparse``.
"""

from ropemath.cli.dispatch import COMMANDS, build_parser, main

__all__ = ["COMMANDS", "build_parser", "main"]
