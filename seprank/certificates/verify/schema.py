"""Reading a stranger's certificate strictly, before any work (standard library only).

* **Sources**: a dict, JSON text (``str`` or ``bytes``), or a file path (a ``pathlib.Path``,
  or a ``str`` that is not JSON text: a ``str`` whose first non-blank character is ``{`` is
  JSON text, any other ``str`` is a path) -- exactly these types, so that no code of the
  caller's objects runs inside the checker.  A path must name a regular
  file no larger than the budget: it is measured with ``os.stat`` before it is opened
  (directories, FIFOs, devices and oversize files are refused unread) and opened with
  ``O_NONBLOCK``, so nothing can make the checker wait.
* **JSON**: duplicate keys are refused; numbers with a fraction or an exponent (``1e99999``)
  are never turned into floats or expanded -- they are kept as :class:`JsonFloat`, which only
  the free-form ``provenance`` may hold; ``NaN`` / ``Infinity`` are refused; integers are
  limited to :attr:`~.limits.VerifyBudget.max_digits` digits (read piece by piece, never through
  Python's 4300-digit limit); nesting depth and the number of values are bounded.
* A dict given directly is copied into the same form (tuples to lists, numpy integers to
  ``int``) with the same bounds, so both paths meet the same checks; only JSON-shaped
  builtin types are read, so no code of the caller's objects runs (:func:`from_python`).
* :func:`canonical_json` is the one text the digests of a claim's subject are taken of.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import stat
import sys
from collections.abc import Mapping
from typing import Any

from .exact import decimal, parse_decimal
from .limits import Refuse, VerifyBudget

__all__ = ["JsonFloat", "canonical_json", "digest", "parse_text", "read_certificate", "read_file"]


class JsonFloat:
    """A JSON number with a fraction or an exponent, kept as its text (never a float).

    Parameters
    ----------
    text : str
        The number as written.
    """

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"JsonFloat({self.text[:40]!r})"

    def __str__(self) -> str:
        return self.text[:40]


class _DuplicateKey(Exception):
    pass


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _DuplicateKey(key)
        out[key] = value
    return out


def _constant(name: str) -> Any:
    raise Refuse(f"the JSON constant {name} is not a number a certificate can hold")


def read_certificate(source: Any, budget: VerifyBudget) -> Any:
    """The certificate's JSON value, read strictly (module docstring); raises :class:`Refuse`.

    Parameters
    ----------
    source : dict, str, bytes or pathlib.Path
        A certificate, its JSON text, or a path to a file.
    budget : VerifyBudget
        Limits on size and nesting.

    Returns
    -------
    object
        The certificate's JSON value.

    Examples
    --------
    >>> from seprank.certificates.verify.limits import DEFAULT_BUDGET
    >>> read_certificate('{"a": [1, 2]}', DEFAULT_BUDGET)
    {'a': [1, 2]}
    >>> read_certificate({"a": (1, 2)}, DEFAULT_BUDGET)
    {'a': [1, 2]}
    >>> read_certificate("no/such/file.json", DEFAULT_BUDGET)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: no/such/file.json: no such file
    """
    if type(source) is dict:
        return from_python(source, budget)
    if isinstance(source, Mapping):
        raise Refuse(f"a certificate given as an object must be a dict, not "
                     f"{type(source).__name__[:40]} (or pass its JSON text)")
    if type(source) is bytes or type(source) is bytearray:
        return parse_text(_decode(bytes(source)), budget)
    if type(source) is str:
        if source.lstrip()[:1] == "{":
            return parse_text(source, budget)
        return parse_text(read_file(source, budget), budget)
    if isinstance(source, pathlib.PurePath) and type(source).__fspath__ is \
            pathlib.PurePath.__fspath__:            # no caller code runs to name the file
        return parse_text(read_file(source, budget), budget)
    raise Refuse(f"a certificate is a dict, JSON text (str or bytes) or a pathlib.Path, not "
                 f"{type(source).__name__[:40]}")


def read_file(path: str | os.PathLike[str], budget: VerifyBudget) -> str:
    """The text of a regular file of at most ``budget.max_bytes`` bytes, measured before it is
    read and opened without blocking.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    budget : VerifyBudget
        Its ``max_bytes`` limits the size.

    Returns
    -------
    str
        The file's text.

    Examples
    --------
    >>> from seprank.certificates.verify.limits import DEFAULT_BUDGET
    >>> read_file("/dev/zero", DEFAULT_BUDGET)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: /dev/zero is not a regular file (a FIFO, ...
    """
    name = os.fspath(path)
    if not name or "\x00" in name:
        raise Refuse(f"{name!r} is not a file name")
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise Refuse(f"{name}: no such file") from None
    except OSError as err:
        raise Refuse(f"{name}: cannot read it ({err.strerror or err})") from None
    _regular(info, name, budget)
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_NOCTTY", 0))
    except OSError as err:
        raise Refuse(f"{name}: cannot open it ({err.strerror or err})") from None
    try:
        _regular(os.fstat(fd), name, budget)     # the file opened is the one measured
        chunks, size = [], 0
        while size <= budget.max_bytes:
            chunk = os.read(fd, min(1 << 20, budget.max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > budget.max_bytes:
        raise Refuse(f"{name} grew beyond {budget.max_bytes} bytes while it was read")
    return _decode(b"".join(chunks))


def _regular(info: os.stat_result, name: str, budget: VerifyBudget) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise Refuse(f"{name} is a directory, not a certificate file")
    if not stat.S_ISREG(info.st_mode):
        raise Refuse(f"{name} is not a regular file (a FIFO, device or socket is never read)")
    if info.st_size > budget.max_bytes:
        raise Refuse(f"{name} has {info.st_size} bytes, above the budget of "
                     f"{budget.max_bytes} (raise VerifyBudget(max_bytes=...) if you trust it)")


def _decode(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise Refuse(f"the certificate is not UTF-8 text ({err.reason} at byte "
                     f"{err.start})") from None


def parse_text(text: str, budget: VerifyBudget) -> Any:
    """JSON text -> value, strictly (module docstring).

    Parameters
    ----------
    text : str
        JSON text.
    budget : VerifyBudget
        Limits on size and nesting.

    Returns
    -------
    object
        The value (big integers exact, non-integral numbers as :class:`JsonFloat`).

    Examples
    --------
    >>> from seprank.certificates.verify.limits import DEFAULT_BUDGET
    >>> parse_text('{"x": 1e99999}', DEFAULT_BUDGET)
    {'x': JsonFloat('1e99999')}
    >>> parse_text('{"x": 1, "x": 2}', DEFAULT_BUDGET)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: the key 'x' appears twice in one JSON object ...
    """
    if len(text) > budget.max_bytes:
        raise Refuse(f"the certificate has {len(text)} characters, above the budget of "
                     f"{budget.max_bytes} bytes (raise VerifyBudget(max_bytes=...))")
    if text.count(",") >= budget.max_values:   # before parsing: no list of millions is built
        raise Refuse(f"the certificate has more than {budget.max_values} JSON values "
                     "(raise VerifyBudget(max_values=...) if you trust it)")
    limit = budget.max_digits

    def parse_int(token: str) -> int:
        if len(token) - token.startswith("-") > limit:
            raise Refuse(f"an integer with {len(token)} digits, above the budget of {limit} "
                         "(raise VerifyBudget(max_digits=...) if you trust it)")
        return parse_decimal(token)

    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_float=JsonFloat,
                           parse_int=parse_int, parse_constant=_constant)
    except _DuplicateKey as err:
        raise Refuse(f"the key {str(err)[:60]!r} appears twice in one JSON object (JSON "
                     "leaves that ambiguous; a certificate must not)") from None
    except RecursionError:
        raise Refuse("the JSON is nested too deeply") from None
    except json.JSONDecodeError as err:
        raise Refuse(f"not JSON: {err.msg} (line {err.lineno}, column {err.colno})") from None
    _bound(value, budget)
    return value


def _bound(value: Any, budget: VerifyBudget) -> None:
    """Refuse values nested deeper than ``budget.max_depth`` or more than ``max_values``."""
    count = 1
    stack: list[tuple[Any, int]] = [(value, 1)] if type(value) in (list, dict) else []
    while stack:
        item, depth = stack.pop()
        if depth > budget.max_depth:
            raise Refuse(f"the JSON is nested deeper than {budget.max_depth} levels")
        children = item.values() if type(item) is dict else item
        count += len(item)
        if count > budget.max_values:
            raise Refuse(f"the certificate has more than {budget.max_values} JSON values "
                         "(raise VerifyBudget(max_values=...) if you trust it)")
        stack.extend([(v, depth + 1) for v in children if type(v) is list or type(v) is dict])


def from_python(value: Any, budget: VerifyBudget) -> Any:
    """A certificate given as Python objects, copied into the JSON form :func:`parse_text`
    returns, with the same bounds.

    Only JSON-shaped values are read -- exactly ``dict`` (string keys), ``list``, ``tuple``,
    ``str``, ``int``, ``bool``, ``float`` (kept as a :class:`JsonFloat`), ``None`` and numpy's
    own integer scalars -- and nothing of the caller's code runs: a subclass or any other
    object (whose methods could raise anything, even ``SystemExit``) is refused by its type
    name.

    Parameters
    ----------
    value : object
        The certificate (a dict).
    budget : VerifyBudget
        Limits on size and nesting.

    Returns
    -------
    object
        The copy.

    Examples
    --------
    >>> from seprank.certificates.verify.limits import DEFAULT_BUDGET
    >>> from_python({"a": (1, 2.5)}, DEFAULT_BUDGET)
    {'a': [1, JsonFloat('2.5')]}
    >>> from_python({"a": {1, 2}}, DEFAULT_BUDGET)
    Traceback (most recent call last):
    ...
    seprank.certificates.verify.limits.Refuse: a certificate holds JSON values only (dict, ...
    """
    count = 0
    max_bits = int(budget.max_digits * 3.3219) + 1     # digits -> bits

    def integer(n: int) -> int:
        if n.bit_length() > max_bits:
            raise Refuse(f"an integer with more than {budget.max_digits} digits")
        return n

    def copy(item: Any, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > budget.max_values:
            raise Refuse(f"the certificate has more than {budget.max_values} values")
        if depth > budget.max_depth:
            raise Refuse(f"the certificate is nested deeper than {budget.max_depth} levels")
        kind = type(item)
        if item is None or kind is bool or kind is str:
            return item
        if kind is int:
            return integer(item)
        if kind is list or kind is tuple:
            if all(type(v) is int for v in item):          # a row of plain ints: at once
                count += len(item)
                if count > budget.max_values:
                    raise Refuse(f"the certificate has more than {budget.max_values} values")
                if item and max(map(abs, item)).bit_length() > max_bits:
                    raise Refuse(f"an integer with more than {budget.max_digits} digits")
                return list(item)
            return [copy(v, depth + 1) for v in item]
        if kind is dict:
            out = {}
            for k, v in item.items():
                if type(k) is not str:
                    raise Refuse(f"a certificate's keys are strings, not "
                                 f"{type(k).__name__[:40]}")
                out[k] = copy(v, depth + 1)
            return out
        if kind is float:
            return JsonFloat(repr(item))
        if _numpy_integer(kind):
            return integer(int(item))
        raise Refuse(f"a certificate holds JSON values only (dict, list, str, int, bool, float, "
                     f"None), not {kind.__name__[:40]}: pass a dict or its JSON text")

    return copy(value, 1)


def _numpy_integer(kind: type) -> bool:
    """One of numpy's own integer scalar types (not a subclass; numpy is not imported)."""
    numpy = sys.modules.get("numpy")
    return (numpy is not None and kind.__module__ == "numpy"
            and getattr(numpy, kind.__name__, None) is kind
            and issubclass(kind, numpy.integer))


def canonical_json(value: Any) -> str:
    """One text per JSON value: keys sorted, no spaces, integers of any size in decimal.

    Parameters
    ----------
    value : object
        A JSON value.

    Returns
    -------
    str
        Its canonical text.

    Examples
    --------
    >>> canonical_json({"b": [1, "2/3"], "a": True})
    '{"a":true,"b":[1,"2/3"]}'
    """
    try:      # the C encoder, when every integer prints (<= 4300 digits) and no JsonFloat
        return json.dumps(value, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        pass
    parts: list[str] = []

    def put(item: Any) -> None:
        if type(item) is dict:
            parts.append("{")
            for k, key in enumerate(sorted(item)):
                if k:
                    parts.append(",")
                parts.append(json.dumps(key))
                parts.append(":")
                put(item[key])
            parts.append("}")
        elif type(item) is list:
            parts.append("[")
            for k, v in enumerate(item):
                if k:
                    parts.append(",")
                put(v)
            parts.append("]")
        elif type(item) is int:
            parts.append(decimal(item))
        elif isinstance(item, JsonFloat):
            parts.append(item.text)
        else:
            parts.append(json.dumps(item))

    put(value)
    return "".join(parts)


def digest(value: Any) -> str:
    """``sha256:<hex>`` of :func:`canonical_json` of a value (or of a text as it is).

    Parameters
    ----------
    value : object
        A JSON value, or a text.

    Returns
    -------
    str
        ``sha256:<hex>``.

    Examples
    --------
    >>> digest({"b": 1, "a": 2}) == digest({"a": 2, "b": 1})
    True
    >>> digest("")[:15]
    'sha256:e3b0c442'
    """
    text = value if isinstance(value, str) else canonical_json(value)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
