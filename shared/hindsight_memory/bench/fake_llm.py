"""A fake OpenAI-compatible chat-completions server on 127.0.0.1, for tests and the reflection bench; it also
answers Cohere-style rerank requests (`POST .../rerank`, the reranker stage's tests) from a scripted scorer.

Tests script its replies (the bench gives it a deterministic function of the request); the real litellm code path talks to it over HTTP (model "openai/<name>", api_base=
server.url). Token counts are estimated as characters / 4, so cost measurements are comparable across runs."""

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Reply = str | dict[str, Any] | Callable[[dict[str, Any]], "str | dict[str, Any]"]


def estimate_tokens(text: str) -> int:
    return max(1, len(text) // 4)


@dataclass
class FakeLLM:
    """Replies are consumed in order; `default` answers once they run out. A dict reply with "status" is an
    HTTP error (e.g. {"status": 429}); any other dict is sent as JSON message content."""

    replies: list[Reply] = field(default_factory=list)
    default: Reply | None = None
    # rerank: (query, documents) -> one relevance per document, or {"status": N} for an HTTP error
    rerank: Callable[[str, list[str]], "list[float] | dict[str, Any]"] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        self.replies.extend(replies)

    def start(self) -> "FakeLLM":
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output quiet
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                rerank = self.path.rstrip("/").endswith("/rerank")
                status, payload = fake._rerank(body) if rerank else fake._answer(body)
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server:
            self._server.shutdown()
            self._server.server_close()

    def _rerank(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
        got = self.rerank(body["query"], list(body["documents"])) if self.rerank else {"status": 500}
        if isinstance(got, dict):
            return int(got["status"]), {"message": "scripted rerank error"}
        ranked = sorted(enumerate(got), key=lambda r: -r[1])
        return 200, {
            "id": f"rerank-fake-{len(self.requests)}",
            "results": [{"index": i, "relevance_score": s} for i, s in ranked],
            "meta": {"billed_units": {"search_units": 1}},
        }

    def _answer(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        with self._lock:
            self.requests.append(body)
            reply = self.replies.pop(0) if self.replies else self.default
        if reply is None:
            return 500, {"error": {"message": "fake LLM: no scripted reply left", "type": "server_error"}}
        if callable(reply):
            reply = reply(body)
        if isinstance(reply, dict) and "status" in reply:
            return int(reply["status"]), {
                "error": {
                    "message": reply.get("message", "scripted error"),
                    "type": "rate_limit_error" if reply["status"] == 429 else "error",
                }
            }
        content = reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False)
        prompt = estimate_tokens(json.dumps(body.get("messages", []), ensure_ascii=False))
        completion = estimate_tokens(content)
        with self._lock:
            self.prompt_tokens += prompt
            self.completion_tokens += completion
        return 200, {
            "id": f"chatcmpl-fake-{len(self.requests)}",
            "object": "chat.completion",
            "created": 1_700_000_000,
            "model": body.get("model", "fake"),
            "choices": [
                {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}
            ],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
            },
        }
