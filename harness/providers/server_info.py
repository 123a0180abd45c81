"""What an OpenAI-compatible server says about itself: its family and its context window.

Asked once per endpoint, with a short timeout, and never required: llama.cpp's server publishes
`/props` (`default_generation_settings.n_ctx`, or `n_ctx`) and marks `/v1/models` entries
`owned_by: "llamacpp"` (with `meta.n_ctx_train`); vLLM lists `max_model_len` in `/v1/models`.
Other servers (OpenAI, Ollama, LM Studio) publish no context figure: set HARNESS_CONTEXT_TOKENS.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from dataclasses import dataclass

from harness.providers.json_limits import loads
from harness.providers.transport import read_body

DISCOVERY_TIMEOUT_S = 3.0
DISCOVERY_MAX_BYTES = 256 * 1024
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass(frozen=True)
class ServerInfo:
    family: str = ""                  # "llama.cpp", "vllm", "" (unknown)
    context_tokens: int | None = None
    source: str = ""                  # where the context figure came from


_lock = threading.Lock()
_cache: dict[str, ServerInfo] = {}


def server_info(base_url: str, model: str, api_key: str) -> ServerInfo:
    """The server's family and context window (cached per endpoint); ServerInfo() when it says nothing."""
    key = f"{base_url} {model}"
    with _lock:
        if key in _cache:
            return _cache[key]
    info = _discover(base_url.rstrip("/"), model, api_key)
    with _lock:
        _cache[key] = info
    return info


def forget_all() -> None:
    with _lock:
        _cache.clear()


def _discover(base_url: str, model: str, api_key: str) -> ServerInfo:
    family, ctx, source = "", None, ""
    models = _get_json(base_url + "/models", api_key)
    entries = models.get("data") if isinstance(models, dict) else None
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        owner = str(entry.get("owned_by", "")).lower()
        if owner == "llamacpp":
            family = "llama.cpp"
        elif owner == "vllm":
            family = "vllm"
        if entry.get("id") == model or len(entries) == 1:
            meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
            for figure, where in ((entry.get("max_model_len"), "/v1/models max_model_len"),
                                  (meta.get("n_ctx"), "/v1/models meta.n_ctx"),
                                  (meta.get("n_ctx_train"), "/v1/models meta.n_ctx_train")):
                if _positive(figure) and ctx is None:
                    ctx, source = int(figure), where
    root = base_url[:-3] if base_url.endswith("/v1") else base_url
    props = _get_json(root + "/props", api_key)
    if isinstance(props, dict) and props:
        settings = props.get("default_generation_settings")
        n_ctx = settings.get("n_ctx") if isinstance(settings, dict) else None
        n_ctx = n_ctx if _positive(n_ctx) else props.get("n_ctx")
        if _positive(n_ctx):
            family, ctx, source = "llama.cpp", int(n_ctx), "/props n_ctx"   # the slot's real size wins
    return ServerInfo(family, ctx, source)


def _positive(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _get_json(url: str, api_key: str):
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {api_key}", "Accept": "application/json"})
    try:
        import time

        with _OPENER.open(request, timeout=DISCOVERY_TIMEOUT_S) as response:
            raw = read_body(response, time.monotonic() + DISCOVERY_TIMEOUT_S, DISCOVERY_MAX_BYTES)
        return loads(raw)
    except (OSError, ValueError, json.JSONDecodeError):
        return None
    except Exception:  # discovery is a courtesy: nothing it meets may stop a run
        return None
