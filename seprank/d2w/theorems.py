r"""Every bound of paper 003 on the separation rank of linear self-attention, exactly.

Theorems 1-2 (eqs. 7-8), Theorems 3-4 (eqs. 17-20), the residual Theorems 5-6 (App. A.4) and
Lemma 6's certified count (App. B.2), each returned as a :class:`~seprank.d2w.bounds.Bound`: its
base-3 logarithm to 60 digits, the exact rational value when it is rational and not
astronomically large, the statement and its hypotheses.  **Calls outside the hypotheses**:
inputs that make no sense (a width not divisible by the number of heads, L < 1, non-integers)
raise ``ValueError``; valid networks outside a statement's hypotheses (e.g. Theorem 1 at
:math:`L \ge \log_3 d_x`) get the formula evaluated and returned with
``in_hypotheses == False`` and the failed hypotheses in ``violated`` -- or, with
``strict=True``, an :class:`~seprank.core.errors.OutsideHypothesesError`.  Constructions that do
not exist outside their hypotheses -- the Lemma 6 witness
(:func:`seprank.d2w.witness.lemma6_witness`: L >= 2, odd :math:`d_a \ge 3`, even N) -- refuse
with ``ValueError`` naming the failed hypothesis.  Comparisons
(:meth:`~seprank.d2w.bounds.Bound.admits`) are exact or in 60-digit logarithms and never report
a violation that is only rounding (:mod:`seprank.core.log3`).

Lemmas 2-4 and 7-8 and Proposition 1 are in :mod:`seprank.d2w.lemmas`, Corollaries 1-2 in
:mod:`seprank.d2w.corollaries`.

References
----------
.. [1] 003 (Levine et al., "The Depth-to-Width Interplay in Self-Attention", NeurIPS 2020):
   Theorems 1-6, App. A.4, App. B.2, Lemma 6.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Literal

from seprank.core.log3 import (
    EXACT_BITS_LIMIT,
    NEG_INF,
    log3,
    log3_e,
    log3_multiset_coefficient,
    to_mpf,
)
from seprank.core.validation import check_int
from seprank.d2w.bounds import (
    ALMOST_EVERY,
    EVERY,
    Bound,
    OutsideHypothesesError,
    fits_exactly,
    keyword_only,
    make_bound,
    mixing_units,
    multiset_coefficient,
    network_shape,
    regime_violations,
)

__all__ = [
    "lemma6_lower_bound",
    "theorem1_lower",
    "theorem1_upper",
    "theorem2_lower",
    "theorem2_upper",
    "theorem3_upper",
    "theorem4_upper",
    "theorem5_residual_upper",
    "theorem6_residual_upper",
]


@keyword_only
def theorem1_lower(*, width: int, depth: int, heads: int = 1, strict: bool = False) -> Bound:
    r"""Theorem 1, lower bound (eq. 7): for :math:`L < \log_3 d_x`, almost everywhere,

    .. math::  \log_3 \operatorname{sep} \ge 3^{L-2}\left(\log_3(d_x - H) + a\right),
       \qquad a = -L + 2 - \log_3 2,

    i.e. :math:`\operatorname{sep} \ge \left(\frac{(d_x-H)/2}{3^{L-2}}\right)^{3^{L-2}}`.

    Hypotheses: :math:`L < \log_3 d_x`; holds for almost every Θ.  The proof (App. B.2,
    Lemma 6) needs L >= 2 and odd :math:`d_a \ge 3` (noted, not enforced); for
    :math:`d_a = 1` the bound is :math:`\log_3 0 = -\infty`.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] Paper 003, Theorem 1 (eq. 7), App. B.2.

    Examples
    --------
    >>> b = theorem1_lower(width=29, depth=3)
    >>> round(float(b.log3), 3), b.in_hypotheses
    (4.207, True)
    >>> theorem1_lower(width=9, depth=2).violated
    ('L < log3(d_x) fails: 3^L = 9 = d_x = 9',)
    """
    d_x, L, H = network_shape(width, depth, heads)
    violated = regime_violations(d_x, L, "depth_efficient")
    notes = []
    if L < 2 or (d_x // H) % 2 == 0 or d_x // H < 3:
        notes.append("the lower-bound proof (Lemma 6) covers only L >= 2 and odd d_a >= 3")
    lam = Fraction(3) ** (L - 2)   # 3^(L-2); 1/3 at L = 1
    base = Fraction(d_x - H, 2) / lam   # 3^(log3(d_x - H) + a) = ((d_x - H)/2) / 3^(L-2)
    exact: tuple[Fraction, int] | None = None
    if d_x == H:
        value: Any = NEG_INF
        exact = (Fraction(0), 1)
        violated.append("d_x > H (d_a >= 2) needed for log3(d_x - H) to be finite")
    else:
        value = lam.numerator * log3(base) / lam.denominator
        # bound^q = base^(lam * q) with q = 1 for L >= 2 and q = 3 for L = 1
        size = max(base.numerator.bit_length(), base.denominator.bit_length())
        if lam.numerator <= EXACT_BITS_LIMIT and fits_exactly(size * lam.numerator):
            exact = (base**lam.numerator, lam.denominator)
    return make_bound("Theorem 1 lower bound (eq. 7)", "lower", value, exact, ALMOST_EVERY,
                 ("L < log3(d_x)",), violated, notes, strict)


@keyword_only
def theorem1_upper(*, width: int, depth: int, heads: int = 1, strict: bool = False) -> Bound:
    r"""Theorem 1, upper bound (eq. 7 / eq. 18): for :math:`L < \log_3 d_x`,

    .. math::  \log_3 \operatorname{sep} \le \frac{3^L - 1}{2}\log_3(d_x + H),

    i.e. :math:`(d_x + H)^{C(L)} = (H(d_a+1))^{C(L)}`, Theorem 3's bound, which in fact holds
    for every Θ, every L and every partition (use :func:`theorem3_upper` outside the regime).

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 1 (eq. 7), Theorem 3 (eq. 18).

    Examples
    --------
    >>> theorem1_upper(width=29, depth=3).value == 30**13
    True
    """
    d_x, L, H = network_shape(width, depth, heads)
    C = mixing_units(L)
    exact = (Fraction(d_x + H) ** C, 1) if fits_exactly(C * math.log2(d_x + H)) else None
    return make_bound("Theorem 1 upper bound (eq. 7)", "upper", C * log3(d_x + H), exact, EVERY,
                 ("L < log3(d_x)",), regime_violations(d_x, L, "depth_efficient"),
                 ["equal to Theorem 3's bound, which holds for every L"], strict)


@keyword_only
def theorem2_lower(*, width: int, depth: int, heads: int = 1, strict: bool = False) -> Bound:
    r"""Theorem 2, lower bound (eq. 8): for :math:`L > \log_3 d_x`, almost everywhere,

    .. math::  \log_3 \operatorname{sep} \ge \tfrac12 d_x L + b_1 + b_2,\quad
       b_1 = -L\left(\tfrac H2 + 1\right),\quad
       b_2 = -d_x\left(1 + \tfrac12\log_3\tfrac{d_x - H}{2}\right).

    Exactly: :math:`\operatorname{sep}^2 \ge 3^{d_x L - LH - 2L - 2d_x}\,((d_x-H)/2)^{-d_x}`.
    The proof (App. B.2) needs L >= 2 and odd :math:`d_a \ge 3`.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 2 (eq. 8), App. B.2.

    Examples
    --------
    >>> round(float(theorem2_lower(width=5, depth=2).log3), 3)
    -4.577
    """
    d_x, L, H = network_shape(width, depth, heads)
    violated = regime_violations(d_x, L, "depth_inefficient")
    notes = []
    if L < 2 or (d_x // H) % 2 == 0 or d_x // H < 3:
        notes.append("the lower-bound proof (Lemma 6) covers only L >= 2 and odd d_a >= 3")
    if d_x == H:
        violated.append("d_x > H (d_a >= 2) needed for log3((d_x - H)/2) to be finite")
        value: Any = NEG_INF
        return make_bound("Theorem 2 lower bound (eq. 8)", "lower", value, (Fraction(0), 1),
                     ALMOST_EVERY, ("L > log3(d_x)",), violated, notes, strict)
    D = Fraction(d_x - H, 2)
    value = to_mpf(Fraction(d_x * L, 2) - L * Fraction(H + 2, 2) - d_x) - d_x * log3(D) / 2
    e = d_x * L - L * H - 2 * L - 2 * d_x
    bits = abs(e) * 1.6 + d_x * max(D.numerator.bit_length(), D.denominator.bit_length())
    exact = (Fraction(3) ** e / D**d_x, 2) if fits_exactly(bits) else None
    return make_bound("Theorem 2 lower bound (eq. 8)", "lower", value, exact, ALMOST_EVERY,
                 ("L > log3(d_x)",), violated, notes, strict)


@keyword_only
def theorem2_upper(*, width: int, depth: int, heads: int = 1, strict: bool = False) -> Bound:
    r"""Theorem 2, upper bound (eq. 8, derived from Theorem 4 through eq. 20):

    .. math::  \log_3 \operatorname{sep} \le 2 d_x L + c_1 + c_2,\quad c_1 = L,\quad
       c_2 = -2 d_x \log_3\frac{d_x}{2\sqrt{2e}} + \log_3 d_x.

    Hypothesis :math:`L > \log_3 d_x`; the eq. 20 step "only for :math:`3^L > d_x`" is what
    makes it valid -- below it the expression can even be negative (-282.9 at L = 3,
    :math:`d_x = 243`).  Holds for every Θ where it follows from Theorem 4.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 2 (eq. 8), Theorem 4 and eq. 20 (App. A.3).

    Examples
    --------
    >>> round(float(theorem2_upper(width=7, depth=3).log3), 3)
    41.595
    """
    d_x, L, _H = network_shape(width, depth, heads)
    log3_2_sqrt_2e = log3(2) + (log3(2) + log3_e()) / 2
    c2 = -2 * d_x * (log3(d_x) - log3_2_sqrt_2e) + log3(d_x)
    value = 2 * d_x * L + L + c2
    return make_bound("Theorem 2 upper bound (eq. 8)", "upper", value, None, EVERY,
                 ("L > log3(d_x)",), regime_violations(d_x, L, "depth_inefficient"),
                 ["derived from Theorem 4 by eq. 20, whose step 'only for 3^L > d_x' needs the "
                  "hypothesis"], strict)


@keyword_only
def theorem3_upper(*, width: int, depth: int, heads: int = 1, strict: bool = False) -> Bound:
    r"""Theorem 3 (App. A.2): for any L >= 1, N > 1, **any** partition (P, Q), any i, p and
    **every** Θ,

    .. math::  \operatorname{sep}(y_p^{i,L,d_x,H,\Theta}; P, Q) \le (H(d_a+1))^{C(L)}
       = (d_x + H)^{(3^L-1)/2}.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 3 (App. A.2, eq. 17-18).

    Examples
    --------
    >>> theorem3_upper(width=2, depth=2).value, theorem3_upper(width=4, depth=1, heads=2).value
    (81, 6)
    """
    d_x, L, H = network_shape(width, depth, heads)
    C = mixing_units(L)
    base = H * (d_x // H + 1)
    exact = (Fraction(base) ** C, 1) if fits_exactly(C * math.log2(base)) else None
    return make_bound("Theorem 3 (App. A.2)", "upper", C * log3(base), exact, EVERY,
                 ("L >= 1", "N > 1", "any partition"), [], [], strict)


def _theorem4_parts(d_x: int, C: int) -> tuple[Any, tuple[Fraction, int] | None]:
    two_c = 2 * C
    log_value = (log3(d_x * (C + 1)) + log3_multiset_coefficient(d_x, two_c)
                 + d_x * log3(Fraction(two_c + d_x, d_x)))
    bits = min(d_x - 1, two_c) * math.log2(d_x + two_c) + d_x * math.log2(two_c + d_x) + 64
    if not fits_exactly(bits):
        return log_value, None
    X = (d_x * (C + 1) * multiset_coefficient(d_x, two_c)
         * Fraction(two_c + d_x, d_x) ** d_x)
    return log_value, (X, 1)


@keyword_only
def theorem4_upper(*, width: int, depth: int, heads: int = 1, strict: bool = False) -> Bound:
    r"""Theorem 4 (eq. 19): for any L >= 1, N > 1, any partition, any i, p and every Θ,

    .. math::  \operatorname{sep} \le d_x\,(C(L)+1)\,(\!(d_x\ \ 2C(L))\!)
       \left(\frac{2C(L)}{d_x} + 1\right)^{d_x}.

    Independent of H (the argument is accepted for validation).  Note (notes §7.9): the proof
    groups monomials by their coordinate-power vector, which is not literally an identity;
    the statement is checked numerically only.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 4 (App. A.3, eq. 19).

    Examples
    --------
    >>> theorem4_upper(width=5, depth=2).value == Fraction(25 * 495 * 13**5, 5**5)
    True
    """
    d_x, L, _H = network_shape(width, depth, heads)
    value, exact = _theorem4_parts(d_x, mixing_units(L))
    return make_bound("Theorem 4 (eq. 19)", "upper", value, exact, EVERY,
                 ("L >= 1", "N > 1", "any partition"), [],
                 ["proof's monomial grouping is not literally an identity (notes §7.9)"], strict)


@keyword_only
def theorem6_residual_upper(*, width: int, depth: int, heads: int = 1,
                            strict: bool = False) -> Bound:
    r"""Theorem 6 (App. A.4), residual network: for any partition and every Θ,

    .. math::  \operatorname{sep}(y_{p,\mathrm{residual}}) \le d_x\,(C(L)+1)^2\,
       (\!(d_x\ \ 2C(L))\!)\left(\frac{2C(L)}{d_x} + 1\right)^{d_x},

    i.e. :math:`C(L)+1` times Theorem 4's bound.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 6 (App. A.4).

    Examples
    --------
    >>> t4 = theorem4_upper(width=2, depth=1)
    >>> theorem6_residual_upper(width=2, depth=1).value == 2 * t4.value   # C(1) + 1 = 2
    True
    """
    d_x, L, _H = network_shape(width, depth, heads)
    C = mixing_units(L)
    value, exact = _theorem4_parts(d_x, C)
    exact6 = None if exact is None else (exact[0] * (C + 1), 1)
    return make_bound("Theorem 6 (App. A.4)", "upper", value + log3(C + 1), exact6, EVERY,
                 ("L >= 1", "residual network of Fig. 5", "any partition"), [], [], strict)


Theorem5Form = Literal["stated", "proof_product", "recursion"]


@keyword_only
def theorem5_residual_upper(*, width: int, depth: int, heads: int = 1, n_inputs: int = 2,
                            form: Theorem5Form = "stated", strict: bool = False) -> Bound:
    r"""Theorem 5 (App. A.4), residual network, with :math:`c = N d_x^4 / H` (Lemma 2):

    * ``form='stated'`` -- the theorem as printed:
      :math:`\log_3 \operatorname{Sep} \le L\log_3 L + (4\log_3 d_x + \log_3 N - \log_3 H)
      \frac{3^L-1}{2}`, i.e. :math:`L^L c^{C(L)}`;
    * ``form='proof_product'`` -- the proof's last line
      :math:`\prod_{l=1}^{L} (l+1)\, c^{3^{l-1}} = (L+1)!\, c^{C(L)}`;
    * ``form='recursion'`` -- what the proof's recursion
      :math:`S_l \le c\,(l\,S_{l-1})^3`, :math:`S_1 = c`, :math:`\operatorname{Sep} \le
      (L+1) S_L` actually gives: :math:`(L+1)\, c^{C(L)} \prod_{l=2}^{L} l^{3^{L-l+1}}`.

    The product drops the cubing of the l-factors, and the stated form is below the product
    for L <= 2 (notes §7.8); all three are bounds the paper's argument is meant to give.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    n_inputs : int, default 2
        N, the number of input positions (the constant :math:`c = N d_x^4 / H`).
    form : {'stated', 'proof_product', 'recursion'}, keyword-only
        Which form of the bound (see above); default ``'stated'``.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, Theorem 5 and its proof (App. A.4), Lemma 2.

    Examples
    --------
    >>> [round(float(theorem5_residual_upper(width=4, depth=4, heads=1, n_inputs=4,
    ...                                      form=f).log3), 1)
    ...  for f in ("stated", "proof_product", "recursion")]
    [257.4, 256.7, 283.7]
    """
    d_x, L, H = network_shape(width, depth, heads)
    N = check_int("n_inputs N", n_inputs, 2)
    if form not in ("stated", "proof_product", "recursion"):
        raise ValueError(f"form must be 'stated', 'proof_product' or 'recursion', got {form!r}")
    C = mixing_units(L)
    c = Fraction(N * d_x**4, H)
    log_c = log3(c)
    if form == "stated":
        value = L * log3(L) + C * log_c
        factor_log2 = L * math.log2(L)
        factor: Any = Fraction(L) ** L if fits_exactly(factor_log2) else None
    elif form == "proof_product":
        value = log3(math.factorial(L + 1)) + C * log_c
        factor_log2 = math.lgamma(L + 2) / math.log(2)
        factor = Fraction(math.factorial(L + 1)) if fits_exactly(factor_log2) else None
    else:
        exps = {l: 3 ** (L - l + 1) for l in range(2, L + 1)}
        value = log3(L + 1) + C * log_c + sum((e * log3(l) for l, e in exps.items()), log3(1))
        factor_log2 = sum(e * math.log2(l) for l, e in exps.items())
        factor = (Fraction(L + 1) * math.prod(Fraction(l) ** e for l, e in exps.items())
                  if fits_exactly(factor_log2) else None)
    c_bits = C * math.log2(max(c.numerator, 2))
    exact = ((factor * c**C, 1)
             if factor is not None and fits_exactly(c_bits + factor_log2) else None)
    notes = [] if form == "stated" else ["form of the proof, not the printed statement"]
    return make_bound(f"Theorem 5 (App. A.4), {form}", "upper", value, exact, EVERY,
                 ("residual network of Fig. 5", "N inputs"), [], notes, strict)


@keyword_only
def lemma6_lower_bound(*, width: int, depth: int, heads: int = 1,
                       strict: bool = False) -> Bound:
    r"""The certified lower bound behind Theorems 1-2: :math:`(\!(d\ \lambda)\!)` with
    :math:`d = (d_x - H)/2`, :math:`\lambda = 3^{L-2}` (App. B.2 with Lemma 6).

    For almost every Θ, :math:`\operatorname{sep} \ge (\!(d\ \lambda)\!)`: Lemma 6's witness
    has a grid sub-matrix :math:`c\,(VV^T)^{\odot\lambda}` of full rank
    :math:`(\!(d\ \lambda)\!)` (computed and certified by
    :func:`seprank.d2w.witness.lemma6_witness`).  Hypotheses of the construction: L >= 2, odd
    :math:`d_a \ge 3`.  For even :math:`d_a \ge 4` the value uses the largest odd
    :math:`d_a' < d_a` (zero-padding the witness, notes §7.2) and is flagged in ``notes``.

    Parameters
    ----------
    width : int
        :math:`d_x`, the embedding dimension (a multiple of ``heads``; :math:`d_a = d_x / H`).
    depth : int
        L, the number of self-attention layers (>= 1).
    heads : int, default 1
        H, the number of attention heads per layer.
    strict : bool, default False, keyword-only
        Raise :class:`~seprank.core.errors.OutsideHypothesesError` when a hypothesis fails,
        instead of listing it in the result's ``violated``.

    Returns
    -------
    Bound
        The bound: its :math:`\log_3` value (and exact value when small), what it holds for,
        its hypotheses and the ones this call violates.

    References
    ----------
    .. [1] 003, App. B.2, Lemma 6 (App. B.3), Claims 1-2.

    Examples
    --------
    >>> (lemma6_lower_bound(width=29, depth=3).value,
    ...  lemma6_lower_bound(width=9, depth=3, heads=3).value)
    (560, 10)
    """
    d_x, L, H = network_shape(width, depth, heads)
    d_a = d_x // H
    violated, notes = [], []
    if L < 2:
        violated.append("L >= 2 (lambda = 3^(L-2) must be an integer)")
    if d_a < 3:
        violated.append("d_a = d_x / H >= 3")
    d_odd = d_a if d_a % 2 else d_a - 1
    if d_a % 2 == 0 and d_a >= 4:
        notes.append(f"d_a = {d_a} is even: witness padded to d_a' = {d_odd} (not in the paper)")
    if not isinstance(strict, bool):
        raise ValueError(f"strict must be True or False, got {strict!r}")
    if violated:
        if strict:
            raise OutsideHypothesesError(f"Lemma 6 witness: {'; '.join(violated)}")
        return Bound("Lemma 6 witness (App. B.2)", "lower", log3(1), (Fraction(1), 1),
                     ALMOST_EVERY, ("L >= 2", "odd d_a >= 3"), tuple(violated),
                     ("outside the construction: only the trivial bound sep >= 1",))
    d = H * (d_odd - 1) // 2
    lam = 3 ** (L - 2)
    value = log3_multiset_coefficient(d, lam)
    bits = min(d - 1, lam) * math.log2(d + lam) + 1
    exact = (Fraction(multiset_coefficient(d, lam)), 1) if fits_exactly(bits) else None
    return make_bound("Lemma 6 witness (App. B.2)", "lower", value, exact, ALMOST_EVERY,
                 ("L >= 2", "odd d_a >= 3"), [], notes, strict)
