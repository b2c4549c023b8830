r"""The coverage pass of the claims ledger: one module per note, each a :data:`COVERAGE` list.

Scope: data only (no imports of the rest of the package); each ``noteNNN`` module maps the note's
sentences with mathematical content to ledger entry ids.  Issue #15, item 6.

References: the five notes of ``shared/REFERENCES.md``.
"""
