r"""Fast evaluation of Z_in(a, b) over GF(p) for large certified grids.

Same arithmetic as :meth:`seprank.LinearAttention.__call__` in a
:class:`~seprank.core.domains.ModularDomain` (and tested equal to it), reorganised for speed:

* structure of arrays -- every quantity is an int64 array whose *last* axis runs over the batch
  of (a, b) pairs, so each elementary step is one long vectorised operation instead of a stack
  of tiny d_x x d_x matrix products;
* one layer is :math:`Y = X \cdot \mathrm{mix}`, :math:`\mathrm{mix}_{ij} = \sum_h (K_h G V_h)_{ij}
  = \sum_{k \le l} T_{ij,kl}\, G_{kl}` with :math:`G = X^T X` symmetric, so the map
  :math:`G \mapsto \mathrm{mix}` is precomputed once as a :math:`d_x^2 \times d_x(d_x+1)/2` matrix;
* the last layer computes only the requested output :math:`y^i_p` (output ``position`` i,
  ``coordinate`` p).

The three entry points are registered evaluators of :meth:`seprank.LinearAttention.__call__`
(:mod:`seprank.evaluators`): ``'incontext-pairs'`` (:func:`modular_pair_values`),
``'incontext-grid-numpy'`` and ``'incontext-grid-compiled'`` (:func:`modular_grid` with
``kernel='numpy'`` / ``'compiled'``, the latter running the numba kernel of
:mod:`seprank.incontext.kernel` for depth >= 2).

Overflow: residues are below :math:`p < 2^{31}` but the engine's primes are below
:math:`2^{25}`, so a product is below :math:`2^{50}` and a sum of up to :math:`2^{13}` products
fits in int64; every sum here has fewer terms than that (checked).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

import numpy as np

from seprank.attention import LinearAttention
from seprank.core.domains import ModularDomain
from seprank.core.progress import track
from seprank.core.types import Array
from seprank.evaluators import register_evaluator
from seprank.extras import optional

__all__ = ["PairRepresentation", "modular_grid", "modular_pair_values"]



class PairRepresentation(Protocol):
    """What the fast evaluator reads of an
    :class:`~seprank.incontext.representation.InContextRepresentation` (so that this module
    does not import the class it accelerates)."""

    @property
    def net(self) -> LinearAttention: ...

    @property
    def embedding(self) -> Any: ...

    @property
    def first(self) -> Sequence[int]: ...

    @property
    def second(self) -> Sequence[int]: ...

    @property
    def position(self) -> int: ...

    @property
    def coordinate(self) -> int: ...

    @property
    def width(self) -> int: ...

    @property
    def n_tokens(self) -> int: ...

#: Terms a single int64 sum may hold when each term is below 2**50.
_MAX_TERMS = 2**13
#: Pairs evaluated per vectorised block (keeps the working set in cache).
_BLOCK = 8192


def _mix_maps(rep: PairRepresentation, domain: ModularDomain) -> list[Array]:
    """Per layer: T (d*d, d(d+1)/2) with mix.ravel() = T @ gram_upper (mod p)."""
    p = domain.p
    net = rep.net
    q, k, v, o = (domain.asarray(w) for w in (net.query, net.key, net.value, net.output))
    d = net.width
    iu, ju = np.triu_indices(d)
    maps = []
    for layer in range(net.depth):
        # kq_h = W^{Q T} W^K (d x d), vo_h = W^{V T} W^{O T} (d x d)
        kq = domain.matmul(np.swapaxes(q[layer], -1, -2), k[layer])
        vo = domain.matmul(np.swapaxes(v[layer], -1, -2), np.swapaxes(o[layer], -1, -2))
        # T[i, j, k, l] = sum_h kq_h[i, k] vo_h[l, j]
        T = np.zeros((d, d, d, d), dtype=np.int64)
        for h in range(net.heads):
            T = np.mod(T + np.mod(kq[h][:, None, :, None] * vo[h].T[None, :, None, :], p), p)
        sym = T[:, :, iu, ju]
        off = iu != ju
        sym[:, :, off] = np.mod(sym[:, :, off] + T[:, :, ju[off], iu[off]], p)
        maps.append(sym.reshape(d * d, -1))
    return maps


def _remaining_layers(X: Array, maps: list[Array], rep: PairRepresentation,
                      p: int) -> Array:
    """Apply ``maps`` (layers) to X (2N, d, blk) in GF(p); return :math:`y^i_p` (blk,)."""
    d = rep.width
    iu, ju = np.triu_indices(d)
    for layer, T in enumerate(maps):
        # 2N products below 2**50 each: one reduction at the end
        gram = np.mod(np.einsum("tsb,tsb->sb", X[:, iu, :], X[:, ju, :]), p)
        if layer == len(maps) - 1:  # only mix[:, coordinate]: rows k*d + coordinate of T
            mix_col = np.mod(T[np.arange(d) * d + rep.coordinate] @ gram, p)  # (d, blk)
            return np.mod(np.einsum("kb,kb->b", X[rep.position], mix_col), p)
        mix = np.mod(T @ gram, p).reshape(d, d, -1)  # (d, d, blk)
        # d products below 2**50 each per entry: one reduction at the end
        X = np.mod(np.einsum("tkb,kjb->tjb", X, mix), p)
    raise ValueError("no layers")


def _check_args(rep: Any, domain: Any, **templates: Any) -> dict[str, Array]:
    """Validate the public arguments: a representation, a ModularDomain, integer templates."""
    if not all(hasattr(rep, a) for a in ("net", "embedding", "first", "second", "width")):
        raise TypeError(f"rep must be an InContextRepresentation, got {type(rep).__name__}")
    if not isinstance(domain, ModularDomain):
        raise TypeError(f"domain must be a ModularDomain(p), got {type(domain).__name__}")
    out = {}
    for name, value in templates.items():
        arr = np.asarray(value)
        if arr.dtype.kind not in "iu" and not (arr.dtype == object and all(
                isinstance(x, int | np.integer) for x in arr.ravel())):
            raise TypeError(f"{name} must be integer residues (GF(p) templates), got dtype "
                            f"{arr.dtype}: floats are not exact")
        if arr.ndim != 2 or arr.shape[1] != rep.width:
            raise ValueError(f"{name} must have shape (Z, d_x = {rep.width}), got {arr.shape}")
        out[name] = np.mod(arr.astype(object) if arr.dtype == object else arr,
                           domain.p).astype(np.int64)
    return out


def _check_sizes(rep: PairRepresentation, p: int) -> None:
    d, n = rep.width, rep.n_tokens
    if d * (d + 1) // 2 > _MAX_TERMS or 2 * n > _MAX_TERMS or d > _MAX_TERMS:
        raise ValueError("sizes too large for the overflow-free int64 fast path")
    if p >= 2**25:
        raise ValueError("the fast path needs p < 2**25 (products below 2**50)")


@register_evaluator(
    "incontext-pairs", form="incontext_pairs", domains=("modular",), max_prime=2**25,
    accepts="an integer network without residual connections and an integer embedding; "
            "integer residues a, b of shape (B, d_x)")
def modular_pair_values(rep: PairRepresentation, a: Array, b: Array,
                        domain: ModularDomain) -> Array:
    r""":math:`Z_{in}(a_r, b_r) \bmod p` for paired rows ``a``, ``b`` of shape ``(B, d_x)``.

    Parameters
    ----------
    rep : PairRepresentation
        The in-context representation's integer data.
    a, b : numpy.ndarray
        Paired rows, shape ``(B, d_x)``.
    domain : ModularDomain
        GF(p).

    Returns
    -------
    numpy.ndarray
        ``(B,)`` residues.

    References
    ----------
    .. [1] 000, eqs. 1, 4, 8; 003, eq. 12 (Gram form).

    Examples
    --------
    >>> from seprank.incontext.representation import InContextRepresentation
    >>> rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=0)
    >>> F = ModularDomain(16777259)
    >>> rng = np.random.default_rng(0); a, b = rng.integers(0, F.p, (2, 5, 3))
    >>> bool(np.all(modular_pair_values(rep, a, b, F) == rep(a, b, domain=F)))
    True
    """
    checked = _check_args(rep, domain, a=a, b=b)
    if checked["a"].shape != checked["b"].shape:
        raise ValueError(f"a and b must be paired rows of one shape, got {checked['a'].shape} "
                         f"and {checked['b'].shape}")
    p = domain.p
    _check_sizes(rep, p)
    maps = _mix_maps(rep, domain)
    E = domain.asarray(rep.embedding)
    E1 = E[:, list(rep.first)].T  # (N, d)
    E2 = E[:, list(rep.second)].T
    A = checked["a"].T  # (d, B)
    B = checked["b"].T
    out = np.empty(A.shape[1], dtype=np.int64)
    for start in range(0, A.shape[1], _BLOCK):
        sa, sb = A[:, start:start + _BLOCK], B[:, start:start + _BLOCK]
        X = np.concatenate([np.mod(E1[:, :, None] * sa[None], p),
                            np.mod(E2[:, :, None] * sb[None], p)])  # (2N, d, blk)
        out[start:start + sa.shape[1]] = _remaining_layers(X, maps, rep, p)
    return out


def modular_grid_bytes(rep: PairRepresentation, n_a: int, n_b: int) -> int:
    """Peak bytes of :func:`modular_grid`'s temporaries (beyond its ``(n_a, n_b)`` output)
    for ``n_a`` x ``n_b`` templates: per-template arrays (int64 and their balanced float64
    copies) plus, on the numpy path, one block of pairs (counted generously: every int64 array
    a block holds at once, and the fancy-indexed copies ``_remaining_layers`` makes), and on
    the compiled path the float64 output converted to int64 residues (checked against
    ``tracemalloc`` in the tests).

    Examples
    --------
    >>> import tracemalloc
    >>> from seprank.incontext.representation import InContextRepresentation
    >>> rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=0)
    >>> F = ModularDomain(16777259)
    >>> A, B = np.random.default_rng(1).integers(0, F.p, (2, 40, 3))
    >>> tracemalloc.start()
    >>> _ = modular_grid(rep, A, B, F)
    >>> peak = tracemalloc.get_traced_memory()[1]
    >>> tracemalloc.stop()
    >>> bool(peak <= modular_grid_bytes(rep, 40, 40) + 8 * 40 * 40)   # estimate + the output
    True
    """
    d, n = rep.width, rep.n_tokens
    tri = d * (d + 1) // 2
    per_template = 8 * (d + 4 * n * d + 3 * d * d + tri) + 8 * (2 * n * d + d * d)
    rows = max(1, _BLOCK * 4 // max(n_b, 1))
    pairs = min(n_a, rows) * n_b
    if rep.net.depth == 1:  # only x_i . (Ma + Mb)[:, p] per pair
        per_pair = 8 * 4 * d
    else:
        per_pair = 8 * (14 * n * d + 4 * n * tri + 2 * tri + 3 * d * d)
    compiled = 8 * n_a * n_b
    return per_template * (n_a + n_b) + 8 * d * d * n_b + max(per_pair * pairs, compiled)


def _side_arrays(rep: PairRepresentation, templates: Array, E_side: Array,
                 T1: Array, p: int) -> tuple[Array, Array, Array]:
    """One side's layer-1 arrays: :math:`u_j = E(w^j)\\odot a` (Z, N, d), the side mix
    :math:`M = T_1(\\sum_j u_j u_j^T)` (Z, d, d) and :math:`u_j M` (Z, N, d), mod p."""
    d = rep.width
    iu, ju = np.triu_indices(d)
    U = np.mod(E_side[None] * templates[:, None, :], p)
    gram = np.mod(np.einsum("zjs,zjs->zs", U[:, :, iu], U[:, :, ju]), p)
    M = np.mod(gram @ T1.T, p).reshape(-1, d, d)
    uM = np.mod(np.einsum("rjk,rkl->rjl", U, M), p)
    return U, M, uM


def modular_grid_balanced(rep: PairRepresentation, a_templates: Array, b_templates: Array,
                          domain: ModularDomain, *, unrolled: bool | None = None) -> Array:
    r"""The grid :math:`[Z_{in}(a^{(r)}, b^{(s)})]` as balanced float64 residues
    (:math:`|r| \le p/2 + 2`), computed by the compiled kernel
    :func:`seprank.incontext.kernel.zin_grid_kernel`, or for large grids by the kernel
    written out for this network's shape
    (:func:`seprank.incontext.kernel_unrolled.unrolled_kernel`).

    The layer-1 arrays are formed per template (as in :func:`modular_grid`); layers 1..L run
    per pair in the kernel, both cores.  Exact: see :mod:`seprank.core.modfloat`.  Without
    the kernels group (numba, :mod:`seprank.extras`): :func:`modular_grid`'s numpy path, the
    same residues.

    Parameters
    ----------
    rep : PairRepresentation
        The in-context representation (integer network and embedding).
    a_templates, b_templates : numpy.ndarray
        Integer residue templates, shapes (Z_a, d_x) and (Z_b, d_x).
    domain : ModularDomain
        The GF(p) domain (p below 2**25).
    unrolled : bool, optional, keyword-only
        Use the unrolled kernel (True), the generic one (False), or decide by size (None:
        unrolled from :data:`~seprank.incontext.kernel_unrolled.UNROLLED_MIN_PAIRS` pairs on;
        compiling a network shape takes seconds).

    Returns
    -------
    numpy.ndarray
        float64 array of shape (Z_a, Z_b): balanced residues of the grid.

    References
    ----------
    .. [1] 000, eqs. 1, 4, 8; 003, eq. 12 (Gram form).

    Examples
    --------
    >>> from seprank.incontext.representation import InContextRepresentation
    >>> from seprank.core.modfloat import from_balanced
    >>> rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=0)
    >>> F = ModularDomain(16777259)
    >>> A, B = np.random.default_rng(1).integers(0, F.p, (2, 4, 3))
    >>> G = modular_grid_balanced(rep, A, B, F)
    >>> bool(np.all(from_balanced(G, F.p) == rep.grid(A, B, domain=F)))
    True
    """
    from seprank.core.modfloat import max_terms, to_balanced

    checked = _check_args(rep, domain, a_templates=a_templates, b_templates=b_templates)
    p = domain.p
    _check_sizes(rep, p)
    if rep.net.depth == 1 or optional("numba") is None:  # without the kernels group: the same
        return to_balanced(modular_grid(rep, a_templates, b_templates, domain,  # residues
                                        kernel="numpy"), p)
    from seprank.incontext.kernel import zin_grid_kernel
    from seprank.incontext.kernel_unrolled import UNROLLED_MIN_PAIRS, unrolled_kernel
    maps = _mix_maps(rep, domain)
    d, n2, H = rep.width, 2 * rep.n_tokens, rep.net.heads
    iu, ju = np.triu_indices(d)
    gidx = np.zeros((d, d), dtype=np.int64)
    gidx[iu, ju] = gidx[ju, iu] = np.arange(len(iu))
    E = domain.asarray(rep.embedding)
    E1, E2 = E[:, list(rep.first)].T, E[:, list(rep.second)].T
    U, Ma, uMa = _side_arrays(rep, checked["a_templates"], E1, maps[0], p)
    V, Mb, vMb = _side_arrays(rep, checked["b_templates"], E2, maps[0], p)
    out = np.empty((U.shape[0], V.shape[0]), dtype=np.float64)
    if out.size == 0:
        return out
    # multiply-adds per pair of layers 2..L: the map T (d^2 x tri) or head by head
    tri = len(iu)
    L = rep.net.depth
    by_map = (L - 2) * (d * d * tri + n2 * d * d) + d * tri
    by_heads = (L - 2) * 3 * n2 * H * d * d + H * (2 * d * d + d)
    q, k, v, o = (domain.asarray(w)[1:] for w in (rep.net.query, rep.net.key, rep.net.value,
                                                   rep.net.output))
    kq = domain.matmul(np.swapaxes(q, -1, -2), k)  # (L - 1, H, d, d)
    vo = domain.matmul(np.swapaxes(v, -1, -2), np.swapaxes(o, -1, -2))
    arrays = (to_balanced(U, p), to_balanced(uMa, p), to_balanced(Ma, p),
              np.ascontiguousarray(to_balanced(V, p).transpose(1, 2, 0)),
              np.ascontiguousarray(to_balanced(vMb, p).transpose(1, 2, 0)),
              np.ascontiguousarray(to_balanced(Mb, p).transpose(1, 2, 0)),
              np.ascontiguousarray(to_balanced(np.stack(maps[1:]), p)),
              np.ascontiguousarray(to_balanced(kq, p)),
              np.ascontiguousarray(to_balanced(vo, p)))
    use_heads, K = bool(by_heads < by_map), int(max_terms(p))
    if unrolled if unrolled is not None else out.size >= UNROLLED_MIN_PAIRS:
        shape = (rep.n_tokens, d, H, L, use_heads, int(rep.position), int(rep.coordinate), K)
        unrolled_kernel(shape)(*arrays, float(p), out)
        return out
    zin_grid_kernel(*arrays, iu.astype(np.int64), ju.astype(np.int64), gidx, use_heads,
                    int(rep.position), int(rep.coordinate), float(p), K, out)
    return out


@register_evaluator(
    "incontext-grid-compiled", form="incontext_grid", domains=("modular",), max_prime=2**25,
    options={"kernel": "compiled"},
    accepts="an integer network without residual connections and an integer embedding; "
            "integer residue templates (Z_a, d_x), (Z_b, d_x); depth >= 2 runs the numba "
            "kernel (depth 1: the numpy path)")
@register_evaluator(
    "incontext-grid-numpy", form="incontext_grid", domains=("modular",), max_prime=2**25,
    options={"kernel": "numpy"},
    accepts="an integer network without residual connections and an integer embedding; "
            "integer residue templates (Z_a, d_x), (Z_b, d_x)")
def modular_grid(rep: PairRepresentation, a_templates: Array, b_templates: Array,
                 domain: ModularDomain, *, progress: bool = False,
                 kernel: Literal["compiled", "numpy"] = "compiled") -> Array:
    r"""The grid matrix :math:`[Z_{in}(a^{(r)}, b^{(s)})] \bmod p`, shape ``(Z_a, Z_b)``.

    Layer 1 is factorised over the grid: its Gram matrix is
    :math:`G = G_a + G_b` (one part per side), so :math:`\mathrm{mix}_1 = M_a + M_b` is
    precomputed per template and only the cross terms :math:`u_j M_b`, :math:`v_j M_a` are
    formed per pair; layers 2..L run per pair.

    Parameters
    ----------
    rep, a_templates, b_templates, domain
        The representation, the ``(Z_a, d_x)`` and ``(Z_b, d_x)`` integer templates and the
        field GF(p) (p < 2**25).
    progress : bool, keyword-only
        A progress bar (numpy path).
    kernel : {'compiled', 'numpy'}, keyword-only
        ``'compiled'`` (default): the numba float64 kernel
        (:func:`modular_grid_balanced`), several times faster; ``'numpy'``: vectorised int64
        numpy (the reference it is tested against).  Both are exact; without the kernels
        group (numba, :mod:`seprank.extras`) ``'compiled'`` runs the numpy path.

    Returns
    -------
    numpy.ndarray
        int64 residues, shape ``(Z_a, Z_b)``.

    References
    ----------
    .. [1] 000, eqs. 1, 4, 8; 003, eq. 12 (Gram form).

    Examples
    --------
    >>> from seprank.incontext.representation import InContextRepresentation
    >>> rep = InContextRepresentation.random(depth=2, width=3, n_tokens=2, seed=0)
    >>> F = ModularDomain(16777259)
    >>> A, B = np.random.default_rng(1).integers(0, F.p, (2, 4, 3))
    >>> bool(np.all(modular_grid(rep, A, B, F) == rep.grid(A, B, domain=F)))
    True
    """
    if kernel not in ("compiled", "numpy"):
        raise ValueError(f"kernel must be 'compiled' or 'numpy', got {kernel!r}")
    checked = _check_args(rep, domain, a_templates=a_templates, b_templates=b_templates)
    p = domain.p
    _check_sizes(rep, p)
    if kernel == "compiled" and rep.net.depth > 1 and optional("numba") is not None:
        from seprank.core.modfloat import from_balanced

        return from_balanced(modular_grid_balanced(rep, checked["a_templates"],
                                                   checked["b_templates"], domain), p)
    maps = _mix_maps(rep, domain)
    d, n = rep.width, rep.n_tokens
    E = domain.asarray(rep.embedding)
    E1, E2 = E[:, list(rep.first)].T, E[:, list(rep.second)].T  # (N, d)
    A, B = checked["a_templates"], checked["b_templates"]
    U, Ma, uMa = _side_arrays(rep, A, E1, maps[0], p)  # (Za, N, d), (Za, d, d), (Za, N, d)
    V, Mb, vMb = _side_arrays(rep, B, E2, maps[0], p)
    Za, Zb = A.shape[0], B.shape[0]
    Mb_flat = np.ascontiguousarray(np.transpose(Mb, (1, 0, 2)).reshape(d, Zb * d))
    out = np.empty((Za, Zb), dtype=np.int64)
    rows = max(1, _BLOCK * 4 // max(Zb, 1))
    for r0 in track(range(0, Za, rows), desc="Z_in grid mod p", progress=progress):
        r1 = min(Za, r0 + rows)
        ra = r1 - r0
        if len(maps) == 1:  # depth 1: y^i_p = x_i . (Ma_r + Mb_s)[:, p]
            i, c = rep.position, rep.coordinate
            xi = (U[r0:r1, i][:, None, :] if i < n
                  else V[None, :, i - n, :])  # broadcasts to (ra, Zb, d)
            mix_p = np.mod(Ma[r0:r1, :, c][:, None, :] + Mb[None, :, :, c], p)
            out[r0:r1] = np.mod(np.sum(xi * mix_p, axis=-1), p)
            continue
        # S1 rows: u_j (Ma_r + Mb_s); S2 rows: v_j (Ma_r + Mb_s)
        cross_u = np.mod(U[r0:r1].reshape(ra * n, d) @ Mb_flat, p).reshape(ra, n, Zb, d)
        X1 = np.mod(cross_u + uMa[r0:r1, :, None, :], p)  # (ra, N, Zb, d)
        Ma_blk = np.transpose(Ma[r0:r1], (1, 0, 2)).reshape(d, ra * d)
        cross_v = np.mod(V.reshape(Zb * n, d) @ Ma_blk, p).reshape(Zb, n, ra, d)
        X2 = np.mod(cross_v + vMb[:, :, None, :], p)  # (Zb, N, ra, d)
        X = np.concatenate([np.transpose(X1, (1, 3, 0, 2)).reshape(n, d, ra * Zb),
                            np.transpose(X2, (1, 3, 2, 0)).reshape(n, d, ra * Zb)])
        out[r0:r1] = _remaining_layers(X, maps[1:], rep, p).reshape(ra, Zb)
    return out
