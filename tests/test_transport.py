"""#16 LLM transport holes: drip-fed bodies, streams without [DONE], one-character keys."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from harness.errors import ProviderUnavailableError
from harness.providers.openai_http import OpenAIHTTPClient
from harness.providers.transport import scrub_secret

BODY = json.dumps({"choices": [{"message": {"content": "hello"}}]}).encode()


class _Server:
    """A local endpoint that either drips its JSON body or ends an SSE stream without [DONE]."""

    def __init__(self, mode: str):
        self.mode = mode
        self.sent = 0
        self.stop = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("content-length", 0)))
                if outer.mode == "drip":
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(BODY)))
                    self.end_headers()
                    for byte in BODY:
                        if outer.stop.wait(0.25):
                            return
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        outer.sent += 1
                else:
                    self.send_response(200)
                    self.send_header("Content-Type", "text/event-stream")
                    self.end_headers()
                    chunk = {"choices": [{"delta": {"content": "half an ans"}}]}
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()  # and the connection closes: no [DONE]

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.mark.slow
def test_drip_feeding_server_is_cut_off_by_the_overall_request_deadline():
    """#16: one byte every 0.25 s never tripped the per-recv timeout; the request now has a deadline."""
    server = _Server("drip")
    with server as url:
        client = OpenAIHTTPClient(url, "sk-test-key-1234", "m", timeout_s=1.0, max_retries=0)
        with pytest.raises(ProviderUnavailableError, match="timed out"):
            client.chat("hi")
        assert server.sent < len(BODY)  # it gave up long before the body was complete


def test_sse_stream_that_ends_without_done_is_not_a_complete_answer():
    """#16: a stream cut off before `data: [DONE]` was accepted as the whole answer."""
    with _Server("sse") as url:
        client = OpenAIHTTPClient(url, "sk-test-key-1234", "m", timeout_s=5.0, max_retries=0)
        got = []
        with pytest.raises(ProviderUnavailableError, match=r"without \[DONE\]"):
            for text in client.chat_stream("hi"):
                got.append(text)
    assert got == ["half an ans"]


@pytest.mark.parametrize("text,secret,expected", [
    ("Expecting value: line 1 column 1", "x", "Expecting value: line 1 column 1"),
    ("key x rejected", "x", "key *** rejected"),
    ("Bearer-less key=x.", "x", "Bearer-less key=***."),
    ("url ?k=sk-abc123def&x=1", "sk-abc123def", "url ?k=***&x=1"),
    ("prefixsk-abc123def", "sk-abc123def", "prefix***"),
    ("nothing here", "", "nothing here"),
])
def test_key_scrubber_replaces_the_key_not_every_letter_of_a_one_character_key(text, secret, expected):
    """#16: with OPENAI_API_KEY=x (the README's example) errors read "E***pecting value"."""
    assert scrub_secret(text, secret) == expected


def test_client_error_messages_keep_their_words_with_a_one_character_key():
    client = OpenAIHTTPClient("http://127.0.0.1:9/v1", "x", "m")
    assert client._scrub("Expecting value; Bearer x") == "Expecting value; Bearer ***"
