r"""Negative controls: every check of the ledger can say no.

:data:`CONTROLS` maps each check to its :class:`Control`: the *same* function called with keyword arguments that
make the claim wrong; a ``holds``/``holds-if`` check must get ``fails`` from it, any other a different verdict.

>>> from ropemath.claims import checks_rotation as R
>>> CONTROLS[R.transpose_rule].call, CONTROLS[R.transpose_rule].run().verdict
('transpose_rule(sign=-1)', 'fails')

References: rule 7 of the verdict rubric (:mod:`ropemath.claims.ledger`).
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import sympy as sp

from ropemath.claims import checks_attention as A
from ropemath.claims import checks_derivation as D
from ropemath.claims import checks_encodings as E
from ropemath.claims import checks_frequency as F
from ropemath.claims import checks_literal as L
from ropemath.claims import checks_properties as P
from ropemath.claims import checks_rotation as R
from ropemath.claims.ledger import Outcome

__all__ = ["CONTROLS", "Control", "control"]


@dataclasses.dataclass(frozen=True)
class Control:
    """A wrong variant of a check's claim: the check called with ``kwargs``; ``wrong`` says what is wrong."""

    check: Callable[..., Outcome]
    wrong: str
    kwargs: dict[str, Any]

    def run(self) -> Outcome:
        """Run the check on the wrong variant."""
        return self.check(**self.kwargs)

    @property
    def call(self) -> str:
        """The call as text, e.g. ``transpose_rule(sign=-1)``."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.kwargs.items())
        return f"{self.check.__name__}({args})"


def control(check: Callable[..., Outcome], wrong: str, **kwargs: Any) -> Control:
    """The negative control ``check(**kwargs)``; ``kwargs`` must name keyword-only parameters of ``check``.

    >>> control(R.norm_rule, "factor 2", factor=2.0).run().verdict
    'fails'
    """
    if not kwargs:
        raise ValueError("control needs keyword arguments that make the claim wrong")
    if not isinstance(wrong, str) or not wrong.strip():
        raise ValueError("wrong must say what the control changes")
    params = inspect.signature(check).parameters
    for name in kwargs:
        if name not in params or params[name].kind is not inspect.Parameter.KEYWORD_ONLY:
            raise TypeError(f"control of {check.__name__}: {name!r} is not a keyword-only parameter of it")
    return Control(check, wrong, dict(kwargs))


CONTROLS: dict[Callable[..., Outcome], Control] = {
    c.check: c for c in (
    control(A.softmax_weights, "the 1/sqrt(d) factor missing from the written-out formula", power=0.0),
    control(A.permutation_blind, "positions 0, 1, 2 given to RoPE", with_positions=True),
    control(A.linear_attention, "the denominator dropped from the written-out loop", normalised=False),
    control(A.xl_breaks_linear, "an absolute embedding r_n instead of the relative r_(m-n)", relative=False),
    control(A.rope_linear_time, "the prefix sums accumulated at doubled positions", scale=2.0),
    control(A.norm_is_not_the_reason, "the counterexample at m - n = 0, where nothing is rotated", distance=0),
    control(A.rotate_inside_attention, "W_q = W_k = I, which commute with R_m", identity_weights=True),
    control(A.rotated_scores, "R_(m-n) instead of R_(n-m)", sign=-1),
    control(A.values_not_rotated, "v rotated as well in the measured outputs", rotate_v=True),
    control(D.euler, "e^(-i theta) instead of e^(i theta): the sign of the angle flipped", sign=-1),
    control(D.complex_product, "arguments subtracted instead of added: r_1 r_2 e^(i(theta_1 - theta_2))", sign=-1),
    control(D.complex_conjugate, "the conjugate keeps the angle: r e^(i theta)", sign=1),
    control(D.complex_times_is_rotation, "sin theta with the wrong sign in every line: R(-theta)", sign=-1),
    control(D.matrix_step_slip, "each row of the matrix summed first (the corrected line)", rows_summed=True),
    control(D.complex_inner_product, "the conjugate dropped: z_a z_b instead of z_a conj(z_b)", sign=1),
    control(D.polar_split, "the inside sample with the parity encoding, outside the condition", inside="parity"),
    control(D.radial_choice, "the modulus doubled: R_q = 2|q|", factor=2),
    control(D.angle_split, "the split doubled: Theta_f(q, m) = 2 (Theta(q) + varphi(m))", factor=2),
    control(D.recurrence, "the increment doubled: 2 (Theta_g(q,k,1) + Theta(k) - Theta(q))", factor=2),
    control(D.recurrence_next, "wrong index: the key at n = m - 1 instead of m + 1", step=-1),
    control(D.arithmetic_solution, "the progression doubled: varphi(m) = 2 (m theta + gamma)", factor=2),
    control(D.gamma_zero, "gamma = 1/2 instead of 0", gamma=sp.Rational(1, 2)),
    control(D.solution_2d, "e^(i(n-m)theta) instead of e^(i(m-n)theta)", sign=-1),
    control(D.norms_times_cos, "the angle restored: |q||k| cos(alpha_q - alpha_k + (m-n) theta)", with_angle=True),
    control(D.missing_cross_term, "the cross term restored: + (q0 k1 - q1 k0) sin((m-n) theta)", with_cross_term=True),
    control(D.cos_theta_case, "the 'inside' sample taken with k perpendicular to q", parallel=False),
    control(D.cos_theta_generic, "the correction, with the term (q_0 k_1 - q_1 k_0) sin(r theta)", corrected=True),
    control(D.not_a_function_of_similarity, "no rotation (theta = 0): the score is then q.k itself", theta=0.0),
    control(D.converse, "k perpendicular to q, k = (0, 1), where the scores at m - n = +-1 differ", k=(0.0, 1.0)),
    control(D.common_difference, "theta read as the common difference (the correction)", claimed="theta"),
    control(E.additive_leaks, "the same p at every position (no absolute position to leak)", constant_p=True),
    control(E.sinusoidal_leaks, "no content and W_q^T W_k = I (where p_i^T p_j is relative)", generic=False),
    control(E.four_terms, "only the first three terms (the position-position term dropped)", count=3),
    control(E.sinusoidal_formula, "sine and cosine swapped (sin at the odd coordinates 2t+1)", parity=1),
    control(E.sinusoidal_parity, "coordinates counted from 0", start=0),
    control(E.relative_schemes, "the relative encodings indexed by m + n instead of m - n", sign=1),
    control(E.tupe_position_term, "U_q^T U_k = I + J/2, of the form a I + b J", m_matrix=((1.0, 0.5), (-0.5, 1.0))),
    control(E.absolute_carries_relative, "the odd coordinates also sines (phase 0): p_i^T p_j not relative", phase=0.0),
    control(F.theta_one_based, "j not shifted: 10000^(-2j/d) for j = 1..d/2", shift=0),
    control(F.theta_zero_based, "the factor 2 missing: 10000^(-i/d)", factor=1),
    control(F.theta_decreasing, "a base below 1 (1e-4): theta_i = base^(-2i/d) then grows with i", base=1e-4),
    control(F.theta_range, "the inside sample at d = 8, outside the condition", inside=(8, 8)),
    control(F.fast_near_slow_far, "base 100: the slowest wavelength is then about 585 positions", base=100.0),
    control(F.pair_index, "wrong index: theta_floor((j+1)/2)", offset=1),
    control(F.shared_frequencies, "coordinate 0 compared with coordinate 2 (the next pair) instead of 1", other=2),
    control(F.clock_hands, "position 700, not near a whole number of turns of the fastest pair", b=700.0),
    control(F.complex_score_form, "e^(i(n-m)theta_i) instead of e^(i(m-n)theta_i)", sign=-1),
    control(F.abel_summation, "the minus sign dropped: + sum S_(i+1)(h_(i+1) - h_i)", sign=-1),
    control(F.abel_inequality, "the mean of |S_j| in place of the sum (d = 32: the bound / 16)", scale=1 / 16),
    control(F.score_decays, "q = k on the slowest pair only, whose score does fall on [0, 256]", slowest_only=True),
    control(F.bound_decreases, "the trend read on [2048, 2304), where the bound has levelled off", start=2048.0),
    control(F.larger_base_slower, "the bases listed largest first", bases=(500000.0, 100000.0, 10000.0, 1000.0, 100.0)),
    control(F.decay_with_dimension, "the claimed limit replaced by L(r), the correction", claimed="integral"),
    control(F.decay_iterated_limit, "distances 100 and 1000, where L(r) is not near 0", distances=(100.0, 1000.0)),
    control(F.same_frequencies_as_sinusoidal, "the cos components taken for the sin components", component=1),
    control(F.theta_is_not_the_base, "the stated value replaced by theta = 1 (eq. (15) at d = 2)", stated=1.0),
    control(L.sinusoidal_position_variable, "k replaced by the position i: the correction", variable="i"),
    control(L.complex_score_frequency_index, "frequency index moved to theta_(i+1): the correction", shift=1),
    control(L.elementwise_as_kronecker, "⊗ read as the elementwise product (RoFormer eq. 34)", product="elementwise"),
    control(L.absolute_breaks_linear, "Transformer-XL's relative term inside the key features", encoding="relative"),
    control(L.negative_angle, "sin taken as even, sin(-t) = +sin t", sin_parity=1),
    control(L.polar_split_literal, "g taken complex: f(q,m) f*(k,n) = g(q,k,m-n) (RoFormer §3.4.1)", complex_g=True),
    control(L.modulus_initial_condition, "the inside sample with f = 2 x e^(i m)", inside_scale=2.0),
    control(L.angle_initial_condition, "the inside sample with f = conj(x) e^(i m)", inside_conjugate=True),
    control(L.phase_initial_condition, "the inside sample with f = x e^(i(m + 0.5))", inside_offset=0.5),
    control(L.cos_theta_some_case, "the searched offsets exclude m - n = +-1", offsets=(2, 3)),
    control(L.sinusoidal_rotated, "the factor multiplies the query q, as RoPE does", multiplied="q"),
    control(L.attention_relative, "only the queries are rotated, the keys are not", rotate_keys=False),
    control(L.pair_index_one_based, "coordinates counted from 0", base=0),
    control(L.distinct_pair_frequencies, "base 1: every theta_i = 1", base=1.0),
    control(L.doubled_goal_formula, "one equation, not the scraped line read as a chain", doubled=False),
    control(L.kn_named_query, "the first argument named q_m, as the formula has it", symbol="q_m"),
    control(L.position_term_absolute, "positions with structure: sinusoidal p and W_Q W_K^T = I", structured=True),
    control(L.embedding_rotated_before_projection, "rotation applied to q, k after the projections", project=False),
    control(L.score_varies_with_distance, "no rotation at all (speed 0)", speed=0.0),
    control(L.direction_rotation_unique, "three dimensions instead of two", dim=3),
    control(L.matrix_sparse, "d = 2, where the 2x2 block fills the matrix", dims=(2,)),
    control(L.index_shift, "§4's blocks subscripted from 0, like §4.1", matrix_first=0),
    control(L.elementwise_display, "the fifth sine entry written sin m theta_2", fifth_sine=2),
    control(L.lengths_and_same_angle, "2 R_m instead of R_m (not orthogonal)", stretch=2.0),
    control(L.angle_under_different_rotations, "the same position for both vectors", n_offset=0.0),
    control(L.flash_shape_comment, "the shape with num_heads",
            stated=("batch_size", "seq_length", "num_heads", "head_dim")),
    control(L.parity_literal, "dimensions counted from 1: subscript 2t is the (2t+1)-th", count_from=1),
    control(L.t5_bias_literal, "the bias indexed by the distance i - j, as T5 does", indexed_by="distance"),
    control(L.initial_projection_literal, "the query projected from its own token x_m", token="m"),
    control(L.angle_represents_position, "no rotation: the angle does not grow with m", per_position=0.0),
    control(L.sdpa_is_inner_product, "the score inside SDPA instead of SDPA itself", part="score"),
    control(L.sparse_is_inefficient, "the dense product with R instead of R itself", storage="dense"),
    control(P.absolute_and_relative, "every token at the same position (spacing 0)", spacing=0.0),
    control(P.any_length, "q^T R_{m-n} k at the far positions (sign of the distance flipped)", sign=-1),
    control(P.invertible, "R_m R_m x = x (undone by rotating forward again)", sign=1),
    control(P.multiplicative, "f(x, m) = R_m x + p_m (a sinusoidal p_m added)", additive=1.0),
    control(P.orthogonal_is_stable, "R_m diag(1, ..., 1, 1e3), not orthogonal", stretch=1e3),
    control(P.stability, "the inside angles formed in bfloat16, outside the condition", inside="bfloat16"),
    control(P.score_shape, "the claim 'is the score' applied to f_q^T f_k, which is the score", what="f_q^T f_k"),
    control(P.dot_and_angle, "the inside sample with k's norm doubled, outside the condition", inside_scale=2.0),
    control(P.rotations_2d_vs_3d, "reflections (det = -1) taken as 2D rotations", proper=False),
    control(P.q_is_the_query, "q taken as the sinusoidal p_m, as the note describes it", position_only=True),
    control(R.transpose_rule, "R_m^T = R_m (the sign of the angle not flipped)", sign=-1),
    control(R.composition_rule, "R_a R_b = R_{a-b} (angles subtracted)", sign=-1),
    control(R.inverse_rule, "R_m^{-1} = R_m (the angle's sign not flipped)", sign=-1),
    control(R.orthogonal_rule, "R^T R = -I and det R = -1 (sign flipped)", unit=-1),
    control(R.norm_rule, "|R x| = 2 |x| (a factor 2 added)", factor=2.0),
    control(R.same_rotation_invariance, "k rotated at m + 1, q at m: not the same rotation", shift=1.0),
    control(R.relative_identity, "q^T R_{m-n} k instead of q^T R_{n-m} k (sign of the distance flipped)", sign=-1),
    control(R.transpose_product, "R_m^T R_n = R_{m-n} (sign of the distance flipped)", sign=-1),
    control(R.relative_sign_slip, "q^T R_{n-m} k, the correct sign: nothing to refute", sign=-1),
    control(R.weights_missing_transpose, "x_m^T W_q^T R_{n-m} W_k x_n, with the transpose", transpose=True),
    control(R.weights_identity, "x_m^T W_q R_{n-m} W_k x_n (the transpose on W_q lost)", transpose=False),
    control(R.elementwise_form, "the sine term with the wrong sign: x cos - rot(x) sin", sign=-1),
    control(R.even_dimension, "the inside sample at odd d = 3, outside the condition", inside=(3,)),
    control(R.lengths_and_angle, "alpha taken as alpha_q + alpha_k (angles added)", sign=1),
    control(R.pairwise_rotation, "pair i rotated by m theta_(i+1) (frequency index shifted by one)", shift=1),
    control(R.counterclockwise, "R(theta) turns clockwise (the signed angle taken as -theta)", sign=-1),
    )
}
