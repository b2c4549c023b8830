"""Entry point for ``python -m ropemath``; see :mod:`ropemath.cli.dispatch`."""

from ropemath.cli.dispatch import main

raise SystemExit(main())
