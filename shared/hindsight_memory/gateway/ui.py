"""The memory inspector page at /ui: one HTML file, a few ES modules and one stylesheet of our own, read from
the package (no build step, nothing loaded from elsewhere). The page holds no data: it calls /v1 with the token the
person types, which it keeps in sessionStorage and sends only in the Authorization header."""

from importlib import resources

from fastapi import APIRouter
from fastapi.responses import Response

from ..errors import NotFound

TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}
# Only our own scripts and styles may load, and calls go only to this origin: a memory whose
# content is markup cannot bring a script in even if it were ever inserted as HTML.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}


def build_ui_router() -> APIRouter:
    folder = resources.files("hindsight_memory.gateway").joinpath("static")
    # Read once: the page, its modules and its stylesheet; nothing else under /ui is served.
    files = {f.name: f.read_bytes() for f in folder.iterdir() if "." + f.name.rsplit(".", 1)[-1] in TYPES}
    r = APIRouter(include_in_schema=False)

    def serve(name: str) -> Response:
        return Response(files[name], media_type=TYPES["." + name.rsplit(".", 1)[-1]], headers=HEADERS)

    @r.get("/ui")
    @r.get("/ui/")
    def page() -> Response:
        return serve("index.html")

    @r.get("/ui/{name}")
    def asset(name: str) -> Response:
        if name not in files or name == "index.html":
            raise NotFound("no such file")
        return serve(name)

    return r
