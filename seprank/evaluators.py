r"""Fast paths of :meth:`seprank.LinearAttention.__call__`, registered as evaluators of one call.

:class:`~seprank.LinearAttention` is evaluated by one code path in every domain
(:mod:`seprank.attention`).  A few places need the same numbers faster or with more kept on
the side -- the backward pass of 000/001's loss needs each layer's intermediates, and the
certified in-context ranks evaluate :math:`Z_{in}` over large GF(p) grids.  Each such variant
is **declared here as an evaluator of the same call** (in the style of quimb's
``register_split_driver``): the module that defines it decorates it with
:func:`register_evaluator`, naming the *form* of its arguments, the domains it computes in and
any limit, and one parametrised test (``tests/test_attention_evaluators.py``) holds every
registered evaluator against :meth:`~seprank.LinearAttention.__call__` on random integer
networks in the domains it supports (exactly over GF(p) and Q, to 1e-12 relative in floats).

The forms (:data:`FORMS`):

``'sequence'``
    ``f(net, X, *, domain)`` with ``X`` of shape ``(..., N, d_x)``: the network output
    ``(..., N, d_x)``, i.e. ``net(X, domain=domain)``.
``'incontext_pairs'``
    ``f(rep, a, b, domain)`` with paired rows ``a``, ``b`` of shape ``(B, d_x)``:
    :math:`Z_{in}(a_r, b_r) = y^{i}_p` of ``rep.net`` on the 2N inputs
    :math:`E(w_1^j)\odot a_r`, :math:`E(w_2^j)\odot b_r` (000/001, eqs. 4 and 8), shape
    ``(B,)``, where ``rep`` has ``net``, ``embedding``, ``first``, ``second``, ``position`` i
    and ``coordinate`` p (an :class:`~seprank.incontext.InContextRepresentation`).
``'incontext_grid'``
    ``f(rep, a_templates, b_templates, domain)``: the grid :math:`[Z_{in}(a_r, b_s)]_{r,s}`,
    shape ``(Z_a, Z_b)``.

An evaluator registers when its module is imported (:mod:`seprank.incontext` imports all of
them); :func:`evaluators` lists the registered ones.

Examples
--------
>>> import seprank.incontext  # registers the in-context and gradient evaluators
>>> [e.name for e in evaluators(form="incontext_grid")]
['incontext-grid-compiled', 'incontext-grid-numpy']
>>> from seprank import ModularDomain
>>> [e.name for e in evaluators(domain=ModularDomain(2**31 - 1))]   # above every limit
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from seprank.core.domains import Domain, ExactDomain, FloatDomain, ModularDomain
from seprank.core.validation import check_choice, check_instance, check_int

__all__ = ["FORMS", "Evaluator", "evaluators", "get_evaluator", "register_evaluator"]

Form = Literal["sequence", "incontext_pairs", "incontext_grid"]
DomainKind = Literal["float", "modular", "exact"]

#: The argument forms an evaluator may take, and what it returns.
FORMS: Mapping[str, str] = {
    "sequence": "f(net, X, *, domain) -> net(X, domain=domain), X of shape (..., N, d_x)",
    "incontext_pairs": "f(rep, a, b, domain) -> (B,): Z_in(a_r, b_r) for paired rows",
    "incontext_grid": "f(rep, a_templates, b_templates, domain) -> (Z_a, Z_b): the Z_in grid",
}
_DOMAIN_KINDS = ("float", "modular", "exact")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Evaluator:
    """One registered variant of :meth:`seprank.LinearAttention.__call__`.

    Attributes
    ----------
    name : str
        Unique name, e.g. ``'incontext-grid-compiled'``.
    function : callable
        The implementation; calling the evaluator calls it with ``options`` added.
    form : {'sequence', 'incontext_pairs', 'incontext_grid'}
        Its arguments and result (:data:`FORMS`).
    domains : tuple of {'float', 'modular', 'exact'}
        The domains it computes in (``domain=`` of the call).
    accepts : str
        What else it requires of its inputs, in words (shapes, weights, sizes).
    max_prime : int or None
        In ``'modular'``: only primes below this bound (overflow-free int64 arithmetic).
    options : Mapping
        Keyword arguments fixed for this variant (e.g. ``{'kernel': 'numpy'}``).
    """

    name: str
    function: Callable[..., Any]
    form: Form
    domains: tuple[DomainKind, ...]
    accepts: str
    max_prime: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def supports(self, domain: Domain) -> bool:
        """Whether this evaluator computes in ``domain``.

        Parameters
        ----------
        domain : Domain
            A number domain.

        Returns
        -------
        bool
            Whether the evaluator computes in it.
        """
        if isinstance(domain, ModularDomain):
            return "modular" in self.domains and (self.max_prime is None
                                                  or domain.p < self.max_prime)
        if isinstance(domain, ExactDomain):
            return "exact" in self.domains
        return isinstance(domain, FloatDomain) and "float" in self.domains

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.function(*args, **self.options, **kwargs)


_REGISTRY: dict[str, Evaluator] = {}


def register_evaluator(name: str, *, form: Form, domains: tuple[DomainKind, ...], accepts: str,
                       max_prime: int | None = None,
                       options: Mapping[str, Any] | None = None) -> Callable[[F], F]:
    """Decorator: declare ``function`` an evaluator of :meth:`seprank.LinearAttention.__call__`.

    Parameters
    ----------
    name : str
        Unique name (registering another function under a taken name is refused; the same
        function again, e.g. on a module reload, replaces the entry).
    form : {'sequence', 'incontext_pairs', 'incontext_grid'}
        The form of its arguments (:data:`FORMS`).
    domains : tuple of {'float', 'modular', 'exact'}
        The domains it computes in.
    accepts : str
        What else it requires, in words.
    max_prime : int, optional
        In ``'modular'``: primes below this bound only.
    options : Mapping, optional
        Keyword arguments this variant fixes (one function may register several variants).

    Returns
    -------
    callable
        The decorator; it returns the function unchanged.

    Examples
    --------
    >>> def doubled(net, X, *, domain=None):   # a (wrong) variant, never registered here
    ...     return 2 * net(X, domain=domain)
    >>> decorate = register_evaluator("doubled", form="sequence", domains=("float",),
    ...                               accepts="any X")
    >>> callable(decorate)
    True
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"name must be a non-empty string, got {name!r}")
    check_choice("form", form, tuple(FORMS))
    if isinstance(domains, str) or not isinstance(domains, tuple) or not domains:
        raise TypeError(f"domains must be a non-empty tuple of {_DOMAIN_KINDS}, got "
                        f"{domains!r}")
    for kind in domains:
        check_choice("domains", kind, _DOMAIN_KINDS)
    if not isinstance(accepts, str) or not accepts:
        raise TypeError(f"accepts must say in words what the evaluator requires, got "
                        f"{accepts!r}")
    if max_prime is not None:
        max_prime = check_int("max_prime", max_prime, 3)
    fixed = dict(check_instance("options", options, Mapping, expected="a mapping",
                                hint="pass keyword arguments as a dict")
                 if options is not None else {})

    def decorate(function: F) -> F:
        old = _REGISTRY.get(name)
        if old is not None and (old.function.__module__, old.function.__qualname__) != (
                function.__module__, function.__qualname__):
            raise ValueError(f"an evaluator named {name!r} is already registered "
                             f"({old.function.__module__}.{old.function.__qualname__}); "
                             "choose another name")
        _REGISTRY[name] = Evaluator(name, function, form, domains, accepts, max_prime, fixed)
        return function

    return decorate


def evaluators(*, form: Form | None = None, domain: Domain | None = None
               ) -> tuple[Evaluator, ...]:
    """The registered evaluators (by name), optionally of one ``form`` and supporting
    ``domain``.

    Parameters
    ----------
    form : {'sequence', 'incontext_pairs', 'incontext_grid'}, optional, keyword-only
        Only evaluators of this form.
    domain : Domain, optional, keyword-only
        Only evaluators supporting this domain.

    Returns
    -------
    tuple of Evaluator
        Sorted by name.

    Examples
    --------
    >>> import seprank.incontext
    >>> [e.name for e in evaluators(form="sequence")]
    ['float-forward-with-caches']
    """
    if form is not None:
        check_choice("form", form, tuple(FORMS))
    if domain is not None:
        check_instance("domain", domain, (FloatDomain, ModularDomain, ExactDomain),
                       expected="a FloatDomain, ModularDomain or ExactDomain",
                       hint="e.g. ModularDomain(16777259)")
    return tuple(e for _, e in sorted(_REGISTRY.items())
                 if (form is None or e.form == form)
                 and (domain is None or e.supports(domain)))


def get_evaluator(name: str) -> Evaluator:
    """The evaluator registered as ``name``.

    Parameters
    ----------
    name : str
        The registered name.

    Returns
    -------
    Evaluator
        The evaluator.

    Examples
    --------
    >>> import seprank.incontext
    >>> get_evaluator("incontext-pairs").max_prime == 2**25
    True
    """
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ValueError(f"name = {name!r}: no evaluator is registered under it; registered: "
                         f"{sorted(_REGISTRY)} (an evaluator registers when its module is "
                         "imported)")
    return _REGISTRY[name]
