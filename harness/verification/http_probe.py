"""A tiny urllib HTTP client for probing a local app: every outcome is data, nothing raises.

It sends a desktop browser's headers (browser_headers.py), as the acceptance checks'
client does, so an app cannot single the probes out by their headers (hostile trial A2); a gzip or
deflate answer is decoded.

Redirects are followed only when asked (`follow_redirects`): a plan's probe may declare a 3xx and
the `Location` it expects (#50: a URL shortener's declared 307 could never pass, because the
client followed it to the target and reported the target's status).
"""

from __future__ import annotations

import json
import zlib
import re
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from harness.utils.browser_headers import EVERY_REQUEST, headers_for

_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.I | re.S)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A 3xx comes back as the answer (an HTTPError carrying its status and Location)."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


# An empty ProxyHandler: an http_proxy in the environment must never see local probe traffic.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))
_NO_REDIRECT_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


@dataclass(frozen=True)
class HttpResponse:
    """Status 0 means no HTTP response at all; `error` then says why."""

    status: int
    text: str = ""
    error: str = ""
    location: str = ""      # the Location header of an answer that was not followed

    def json(self) -> Any:
        """The body parsed as JSON, or None when it is not JSON."""
        try:
            return json.loads(self.text)
        except ValueError:
            return None

    def excerpt(self, limit: int = 120) -> str:
        """A one-line body excerpt (or the error) for check details and evidence."""
        raw = self.text if self.status else self.error
        if self.status and raw.lstrip().startswith("<"):
            title = _TITLE.search(raw)
            raw = f"HTML {title.group(1).strip()!r} ({len(raw)} chars)" if title else f"HTML ({len(raw)} chars)"
        flat = " ".join(raw.split())
        return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def request(method: str, url: str, body: Any = None, headers: dict[str, str] | None = None,
            timeout: float = 5.0, follow_redirects: bool = True) -> HttpResponse:
    """Send one request; 4xx/5xx (and, unless followed, 3xx) come back as responses, connection
    failures as status 0."""
    data = None
    origin = "/".join(url.split("/")[:3])
    accept = (headers or {}).get("Accept", "application/json, text/html;q=0.9")
    all_headers = {**EVERY_REQUEST, **headers_for(accept, origin), **(headers or {})}
    if body is not None:
        data = json.dumps(body).encode()
        all_headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, method=method.upper(), headers=all_headers)
    opener = _OPENER if follow_redirects else _NO_REDIRECT_OPENER
    try:
        with opener.open(req, timeout=timeout) as resp:
            return HttpResponse(resp.status, _decode(resp.read(), resp.headers))
    except urllib.error.HTTPError as err:
        location = (err.headers.get("Location") or "") if err.headers is not None else ""
        return HttpResponse(err.code, _decode(err.read(), err.headers), location=location)
    except (urllib.error.URLError, socket.timeout, ConnectionError, OSError) as err:
        return HttpResponse(0, error=f"{type(err).__name__}: {getattr(err, 'reason', err)}")


def _decode(raw: bytes, headers=None) -> str:
    coding = ((headers.get("Content-Encoding") if headers is not None else "") or "").strip().lower()
    if coding in ("gzip", "deflate") and raw:
        try:
            raw = zlib.decompress(raw, zlib.MAX_WBITS | 32)   # a gzip or zlib stream
        except zlib.error:
            pass
    return raw.decode("utf-8", errors="replace")
