"""The acceptance checks' HTTP client speaks plain HTTP to the runtime check's own server on
127.0.0.1, so it builds no TLS context: httpx's default one loads the CA bundle, ~15 ms of CPU per
client, and a runtime check makes two (one more after the restart) on its critical path
(docs/performance-log.md, #46 eighth pass). The client still answers from a real server."""

from __future__ import annotations

import json
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from harness.acceptance.client import Api
from harness.offline.spec.rules import rule_based_spec


class _Health(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - the stdlib's name
        body = json.dumps({"status": "ok", "path": self.path}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_acceptance_client_loads_no_ca_bundle_and_still_talks_to_the_server(server, monkeypatch):
    loaded = []
    real = ssl.SSLContext.load_verify_locations

    def counting(self, *args, **kwargs):
        loaded.append(args or kwargs)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ssl.SSLContext, "load_verify_locations", counting)
    api = Api(server, rule_based_spec("Build a Simple Todo App with add/list/complete"))
    try:
        first = api.call("GET", "/health")
        api.moved_to(server)   # the restart's new connection: a second client
        again = api.call("GET", "/api/todos")
    finally:
        api.close()
    assert loaded == [], f"the acceptance client loaded a CA bundle: {loaded}"
    assert (first.status, first.body) == (200, {"status": "ok", "path": "/health"})
    assert (again.status, again.body["path"]) == (200, "/api/todos")
