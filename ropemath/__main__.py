"""Entry point for ``python -m ropemath``; see :mod:`ropemath.cli`."""

from .cli import main

raise SystemExit(main())
