r"""Symbolic mathematics of RoPE with sympy: the 2D derivation, every solution, proofs and refutations.

Scope: :mod:`.common` (symbols, :class:`Proof`, zero test), :mod:`.notation` (displayed formulas),
:mod:`.derivation`, :mod:`.general`, :mod:`.proofs`, :mod:`.refutations`, :mod:`.cli` (``ropemath derive``).
Names load on first use (PEP 562), so ``import ropemath`` never imports sympy.

>>> from ropemath import symbolic
>>> symbolic.rope_2d_solution()
q*exp(I*m*theta)

References: Su et al., *RoFormer*, arXiv:2104.09864 v5, §3.2, §3.4; Su Jianlin, kexue.fm/archives/8265.
"""

from __future__ import annotations

import importlib

_EXPORTS = {
    "k": "common",
    "m": "common",
    "n": "common",
    "q": "common",
    "theta": "common",
    "thetas": "common",
    "Rot": "common",
    "rotation": "common",
    "complex_rotation": "general",
    "block_rotation": "common",
    "Proof": "common",
    "check_identity": "common",
    "explicit": "notation",
    "is_zero": "common",
    "render": "notation",
    "Step": "derivation",
    "derivation_steps": "derivation",
    "rope_2d_solution": "derivation",
    "verify_step": "derivation",
    "PROOFS": "proofs",
    "all_proofs": "proofs",
    "get_proof": "proofs",
    "proof_names": "proofs",
    "alternating_reflection": "general",
    "is_real_normal_form": "general",
    "one_parameter_group": "general",
    "real_normal_form": "general",
    "satisfies_complex_requirement": "general",
    "satisfies_real_requirement": "general",
    "two_map_family": "general",
    "REFUTATIONS": "refutations",
    "Refutation": "refutations",
    "all_refutations": "refutations",
    "get_refutation": "refutations",
    "refutation_names": "refutations",
}
_SUBMODULES = ("cli", "common", "derivation", "general", "notation", "proofs", "refutations")

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    """Import the submodule that defines ``name`` on first access."""
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _EXPORTS:
        return getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS) | set(_SUBMODULES))
