"""The `hindsight` command line: serve, store, recall, show, edit, restore, forget, import, export, stats,
reindex, compact, bench."""

import sys

from ..errors import HindsightError
from .parser import build_parser

__all__ = ["build_parser", "main"]


def main(argv: list[str] | None = None) -> int:
    from pydantic import ValidationError

    args = build_parser().parse_args(argv)
    try:
        code: int = args.fn(args)
        return code
    except HindsightError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except ValidationError as exc:
        print(
            "error: " + "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()),
            file=sys.stderr,
        )
        return 2
    except (OSError, UnicodeDecodeError) as exc:
        # a path that is missing, a folder, unwritable, or a file that is not UTF-8: said, not a traceback
        where = f": {exc.filename}" if isinstance(exc, OSError) and exc.filename else ""
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "the file is not UTF-8 text"
        print(f"error: {reason}{where}", file=sys.stderr)
        return 2
