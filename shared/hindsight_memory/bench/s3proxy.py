"""An HTTP proxy in front of an S3/SQS emulator that delays every request (an object store's round trip) and
counts requests by kind, so that recall can be measured as it would behave against a remote object store."""

import http.client
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"}


def request_kind(method: str, path: str, headers: dict[str, str]) -> str:
    """'s3:GET', 's3:LIST', 's3:HEAD', 's3:PUT', ... or 'sqs:<Action>' for an SQS call."""
    target = headers.get("x-amz-target", "")
    if target.startswith("AmazonSQS."):
        return f"sqs:{target.split('.', 1)[1]}"
    query = urlparse(path).query
    if method == "GET" and ("list-type=" in query or (query and "prefix=" in query)):
        return "s3:LIST"
    return f"s3:{method}"


class LatencyProxy:
    """`with LatencyProxy(target, delay_s) as url:` forwards to `target` after `delay_s` per request."""

    def __init__(self, target: str, delay_s: float = 0.02) -> None:
        self.target = urlparse(target)
        self.delay_s = delay_s
        self.counts: Counter[str] = Counter()
        self.trace: list[str] | None = None  # every request's method and path, while a list
        self._lock = threading.Lock()
        self._local = threading.local()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep connections alive, as an SDK does with S3

            def log_message(self, *args: object) -> None:
                pass

            def _forward(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP}
                kind = request_kind(self.command, self.path, {k.lower(): v for k, v in headers.items()})
                with proxy._lock:
                    proxy.counts[kind] += 1
                    if proxy.trace is not None:
                        proxy.trace.append(f"{self.command} {self.path}")
                time.sleep(proxy.delay_s)
                status, reason, out_headers, data = proxy._send(self.command, self.path, body, headers)
                self.send_response(status, reason)
                for k, v in out_headers:
                    if k.lower() not in _HOP and k.lower() != "content-length":
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _forward

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, name="s3-latency-proxy", daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def _send(
        self, method: str, path: str, body: bytes | None, headers: dict[str, str]
    ) -> tuple[int, str, list[tuple[str, str]], bytes]:
        conn = getattr(self._local, "conn", None)
        for attempt in (0, 1):
            if conn is None:
                conn = http.client.HTTPConnection(
                    self.target.hostname or "127.0.0.1", self.target.port, timeout=120
                )
                self._local.conn = conn
            try:
                conn.request(method, path, body=body, headers=headers)
                resp = conn.getresponse()
                data = resp.read()
                return resp.status, resp.reason, resp.getheaders(), data
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = self._local.conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def reset(self) -> Counter[str]:
        with self._lock:
            counts, self.counts = self.counts, Counter()
        return counts

    def __enter__(self) -> str:
        self._thread.start()
        return self.url

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
