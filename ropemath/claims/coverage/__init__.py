r"""The coverage pass of the claims ledger: one module per note, each a :data:`COVERAGE` list.

Scope: data only (no imports of the rest of the package); each ``noteNNN`` module's :data:`COVERAGE`
holds rows of (the note's words, verbatim up to whitespace; the id of the entry in
``ropemath.claims.noteNNN`` that judges them or into which they are merged), kept apart from the entries so
that each module stays readable; ``tests/test_claims_rubric.py`` checks that every row is verbatim and every
entry is listed.

References: the five study notes of :data:`ropemath.claims.ledger.NOTES`.
"""
