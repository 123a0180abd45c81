"""A local OpenAI-compatible server for tests: POST /v1/chat/completions on 127.0.0.1:<free port>.

It plays a scripted queue of replies (`answer`, `stream`, `error`, `hang`, `reset`, `flood`) in
order and records every POST (lower-cased headers + JSON body). With `about` set it also answers
GET /v1/models and GET /props the way the server it imitates does (llama.cpp: `/props` n_ctx);
GETs are counted in `gets`, not recorded as requests. `LlamaCppLike` wraps a responder into a
llama.cpp-style server: 500 on `json_schema`, `json_object`+`schema` honoured, a context window
that rejects over-long prompts, answers streamed slowly when asked. Use it as a context manager or through
the `fake_openai_server` fixture (register it in tests/conftest.py with
`from fake_openai_server import fake_openai_server  # noqa: F401`).
"""

from __future__ import annotations

import json
import socket
import struct
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

CHAT_PATH = "/v1/chat/completions"


@dataclass
class Reply:
    """One scripted reply; build it with answer/stream/error/hang/reset."""

    kind: str                           # "answer" | "stream" | "error" | "hang" | "reset" | "flood"
    content: str | None = None
    usage: dict | None = None
    chunks: list[str] = field(default_factory=list)
    after_done: list[str] = field(default_factory=list)
    status: int = 200
    body: str = ""
    retry_after: str | None = None
    seconds: float = 0.0                # hang: how long; stream: the pause before each chunk
    size: int = 0                       # flood: bytes to send


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]             # lower-cased names
    body: Any                           # parsed JSON, or the raw text when it is not JSON


def answer(content: str | None, usage: dict | None = None) -> Reply:
    """A normal chat.completion whose choices[0].message.content is `content`."""
    return Reply("answer", content=content, usage=usage)


def stream(chunks: list[str], usage: dict | None = None, after_done: list[str] | None = None) -> Reply:
    """SSE deltas, an optional usage-only chunk, `data: [DONE]`, then `after_done` (must be ignored)."""
    return Reply("stream", chunks=list(chunks), usage=usage, after_done=list(after_done or []))


def error(status: int, message: str = "error", retry_after: str | int | None = None,
          body: str | None = None) -> Reply:
    """An HTTP error; `body` (raw) defaults to {"error": {"message": message}}."""
    raw = body if body is not None else json.dumps({"error": {"message": message, "code": status}})
    return Reply("error", status=status, body=raw, retry_after=None if retry_after is None else str(retry_after))


def slow_stream(chunks: list[str], every_s: float, usage: dict | None = None) -> Reply:
    """SSE deltas with a pause of `every_s` before each: a slow local model producing tokens."""
    return Reply("stream", chunks=list(chunks), usage=usage, seconds=every_s)


def flood(size: int) -> Reply:
    """A 200 JSON body of `size` bytes without Content-Length (the client must stop reading)."""
    return Reply("flood", size=size)


def hang(seconds: float = 2.0) -> Reply:
    """Send nothing for `seconds` (cut short when the server stops), then close."""
    return Reply("hang", seconds=seconds)


def reset() -> Reply:
    """Read the request, then abort the connection with a TCP RST."""
    return Reply("reset")


class FakeOpenAIServer:
    """Threaded scripted server; `url` is the base URL to give the client (ends with /v1).

    With `api_key` set, requests whose bearer token differs get a 401 whose body echoes the
    presented key (as some real servers do) without consuming the script. Requests to any
    path but /v1/chat/completions get a 404; an exhausted script answers 500.
    """

    def __init__(self, replies: list[Reply] | None = None, api_key: str | None = None,
                 responder=None, port: int = 0, about: dict[str, Any] | None = None):
        self.api_key = api_key
        self.responder = responder  # called for a request when the script is empty
        self.about = about          # GET path -> JSON answer ({"/props": {...}, "/v1/models": {...}})
        self.gets: list[str] = []
        self.flooded = 0            # bytes a flood reply got onto the wire before the client left
        self.requests: list[RecordedRequest] = []
        self._replies = list(replies or [])
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", port), _make_handler(self))
        self._httpd.daemon_threads = False  # handler threads are joined by server_close()
        # A short poll interval keeps stop() (shutdown waits for the next poll) from costing 0.5 s per test.
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02},
                                        name="fake-openai", daemon=True)

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def push(self, *replies: Reply) -> None:
        """Append replies to the script."""
        with self._lock:
            self._replies.extend(replies)

    @property
    def pending(self) -> int:
        """Replies not yet played."""
        with self._lock:
            return len(self._replies)

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        """Wake hanging handlers, stop serving and join every thread."""
        self._stopping.set()
        if self._thread.is_alive():
            self._httpd.shutdown()
            self._thread.join()
        self._httpd.server_close()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next_reply(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self.api_key is not None and request.headers.get("authorization") != f"Bearer {self.api_key}":
                presented = request.headers.get("authorization", "").removeprefix("Bearer ")
                return error(401, f"Incorrect API key provided: {presented}")
            if request.path != CHAT_PATH:
                return error(404, f"no route {request.path}")
            if not self._replies and self.responder is not None:
                return self.responder(request)
            if not self._replies:
                return error(500, "fake server: script exhausted")
            return self._replies.pop(0)


def _make_handler(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep pytest output quiet
            pass

        def do_GET(self) -> None:
            server.gets.append(self.path)
            if server.about is None or self.path not in server.about:
                self._send(404, json.dumps({"error": {"message": "not found"}}), {"Content-Type": "application/json"})
                return
            self._send(200, json.dumps(server.about[self.path]), {"Content-Type": "application/json"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", "replace")
            try:
                body = json.loads(raw)
            except ValueError:
                body = raw
            headers = {k.lower(): v for k, v in self.headers.items()}
            reply = server._next_reply(RecordedRequest("POST", self.path, headers, body))
            try:
                getattr(self, f"_play_{reply.kind}")(reply, body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout) before we answered

        def _play_answer(self, reply: Reply, body: Any) -> None:
            payload: dict[str, Any] = {
                "id": "chatcmpl-fake", "object": "chat.completion", "model": _model(body),
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": reply.content}}],
            }
            if reply.usage is not None:
                payload["usage"] = reply.usage
            self._send(200, json.dumps(payload), {"Content-Type": "application/json"})

        def _play_error(self, reply: Reply, body: Any) -> None:
            headers = {"Content-Type": "application/json"}
            if reply.retry_after is not None:
                headers["Retry-After"] = reply.retry_after
            self._send(reply.status, reply.body, headers)

        def _play_stream(self, reply: Reply, body: Any) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()  # HTTP/1.0: the body ends when the connection closes
            model = _model(body)
            for text in reply.chunks:
                if reply.seconds and server._stopping.wait(reply.seconds):
                    return
                self._event(_chunk(model, {"content": text}))
            if reply.seconds:
                self._event({**_chunk(model, {}), "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            if reply.usage is not None:
                self._event({"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model,
                             "choices": [], "usage": reply.usage})
            self.wfile.write(b"data: [DONE]\n\n")
            for text in reply.after_done:
                self._event(_chunk(model, {"content": text}))

        def _play_flood(self, reply: Reply, body: Any) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()  # no Content-Length: the body ends when the connection closes
            block = b'{"pad": "' + b"x" * 65000 + b'"},'
            self.wfile.write(b'{"choices": [')
            while server.flooded < reply.size and not server._stopping.is_set():
                self.wfile.write(block)
                server.flooded += len(block)

        def _play_hang(self, reply: Reply, body: Any) -> None:
            server._stopping.wait(reply.seconds)

        def _play_reset(self, reply: Reply, body: Any) -> None:
            # SO_LINGER 0 makes close() send RST instead of FIN: a real "connection reset by peer".
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()

        def _event(self, data: dict) -> None:
            self.wfile.write(b"data: " + json.dumps(data).encode("utf-8") + b"\n\n")
            self.wfile.flush()

        def _send(self, status: int, text: str, headers: dict[str, str]) -> None:
            data = text.encode("utf-8")
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


def _model(body: Any) -> str:
    return body.get("model", "fake-model") if isinstance(body, dict) else "fake-model"


def _chunk(model: str, delta: dict) -> dict:
    return {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}


@pytest.fixture
def fake_openai_server():
    """A started FakeOpenAIServer with an empty script; push() replies, read .requests."""
    with FakeOpenAIServer() as server:
        yield server


if __name__ == "__main__":
    import argparse
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent))

    parser = argparse.ArgumentParser(description="A local OpenAI-compatible server with a stand-in 'model' for "
                                     "trying the LLM path offline: 'rules' answers with the harness's rule-based "
                                     "outputs, 'notes' is a scripted model that writes a markdown notes app "
                                     "(tags, full-text search) from what each prompt shows.")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--model", choices=("rules", "notes"), default="rules")
    args = parser.parse_args()
    if args.model == "notes":
        from notes_model import REQUEST, NotesModel

        responder, example = NotesModel(), REQUEST
    else:
        from rules_model import RulesModel

        responder, example = RulesModel(), "a todo app"
    server = FakeOpenAIServer(responder=responder, port=args.port).start()
    print(f"serving {server.url} (Ctrl+C stops); try: OPENAI_BASE_URL={server.url} OPENAI_API_KEY=x builder new \"{example}\"",
          flush=True)
    try:
        server._thread.join()
    except KeyboardInterrupt:
        server.stop()
