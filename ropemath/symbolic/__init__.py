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

_NAMES = {  # submodule -> the public names it defines
    "common": ("k", "m", "n", "q", "theta", "thetas", "Rot", "rotation", "block_rotation", "Proof", "check_identity",
               "is_zero"),
    "notation": ("explicit", "render"),
    "derivation": ("Step", "derivation_steps", "rope_2d_solution", "verify_step"),
    "proofs": ("PROOFS", "all_proofs", "get_proof", "proof_names"),
    "general": ("complex_rotation", "alternating_reflection", "is_real_normal_form", "one_parameter_group",
                "real_normal_form", "satisfies_complex_requirement", "satisfies_real_requirement", "two_map_family"),
    "refutations": ("REFUTATIONS", "Refutation", "all_refutations", "get_refutation", "refutation_names"),
}
_EXPORTS = {name: module for module, names in _NAMES.items() for name in names}
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
