"""The first half of the edge's one validation layer, for MCP and REST alike: every request body is strict JSON
before any handler parses it. The second half is the typed request models (`requests.py`, `models.py`), whose
namespace and id types are shared by the MCP tools and the REST routes.

Refused here, with a message that never repeats the value:
- bodies that are not UTF-8 JSON, or hold duplicate keys (two parsers could read them differently);
- NaN, Infinity and numbers that overflow to them (1e309), integers beyond 64 bits;
- lone surrogates and control characters other than tab, newline and carriage return, in any string or key
  (they cannot be encoded in a response, break pyarrow, or hide text from a human reader of the logs);
- documents nested deeper than MAX_DEPTH;
- the same characters in the path or the query string.
"""

import json
import math
import re
from typing import Any
from urllib.parse import parse_qsl

from ..errors import InvalidInput

MAX_DEPTH = 32
INT64 = 2**63
# C0 controls except \t \n \r, DEL, C1 controls, and the surrogate range (only ever lone in a Python str).
_BAD_CHAR = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
BAD_CHARS = "control characters (other than tab, newline, carriage return) or lone surrogates"


class BadJson(InvalidInput):
    """The body is not strict JSON at all (a JSON-RPC parse error, where the others are invalid requests)."""


def _no_constant(name: str) -> Any:
    raise InvalidInput(f"numbers must be finite: {name} is not allowed")


def _finite(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise InvalidInput("numbers must be finite (this one overflows a 64-bit float)")
    return value


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise InvalidInput("an object holds the same key twice")
    return out


def parse_body(body: bytes) -> Any:
    """The body as a JSON value, after every check above.

    Raises:
        BadJson: not UTF-8 JSON.  InvalidInput: a value or a string the service refuses.
    """
    try:
        text = body.decode("utf-8")
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique)
    except RecursionError:
        raise InvalidInput(f"the document is nested deeper than {MAX_DEPTH} levels") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadJson("the body is not valid UTF-8 JSON") from None
    except ValueError:  # an integer literal longer than Python converts
        raise InvalidInput("numbers must fit in 64 bits") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Walk a parsed document (iteratively: depth is bounded here, not by the interpreter's stack).

    Raises:
        InvalidInput: too deep, an integer beyond 64 bits, or a bad character in a string or key.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InvalidInput(f"the document is nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, bool) or item is None or isinstance(item, float):
            continue
        elif isinstance(item, int):
            if not -INT64 <= item < INT64:
                raise InvalidInput("numbers must fit in 64 bits")
        elif isinstance(item, dict):
            for k, v in item.items():
                check_text(k)
                stack.append((v, depth + 1))
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)


def check_text(text: str) -> None:
    if _BAD_CHAR.search(text):
        raise InvalidInput(f"strings must not contain {BAD_CHARS}")


def check_target(path: str, query_string: bytes) -> None:
    """The request path and query parameters, as decoded for the routes.

    Raises:
        InvalidInput: a bad character, or a query string that is not UTF-8 once percent-decoded.
    """
    check_text(path)
    try:
        pairs = parse_qsl(query_string.decode("latin-1"), keep_blank_values=True, errors="strict")
    except UnicodeDecodeError:
        raise InvalidInput("the query string is not UTF-8") from None
    for k, v in pairs:
        check_text(k)
        check_text(v)
