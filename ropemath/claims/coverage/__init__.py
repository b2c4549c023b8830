r"""The coverage pass of the claims ledger: one module per note, each a :data:`COVERAGE` list.

Scope: data only (no imports of the rest of the package); each ``noteNNN`` module maps the note's
sentences with mathematical content to ledger entry ids.

References: the five study notes of :data:`ropemath.claims.ledger.NOTES`.
"""
