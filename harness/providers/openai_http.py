"""OpenAIHTTPClient: OpenAI-compatible /chat/completions over stdlib urllib.

Contract: answers are streamed; `timeout_s` is the longest silence allowed (before the first byte
and between chunks) and `max_answer_s` the whole answer. A silence past `timeout_s` is NOT retried
(a one-request-at-a-time local server may still be working on it: a retry would queue a duplicate)
and the error names HARNESS_LLM_TIMEOUT_S. 429/5xx and connection failures are retried at most
`max_retries` times with exponential backoff, then ProviderUnavailableError; 401/403/404 fail fast
with ProviderConfigError; a 400/422/500 naming the response format steps down the format ladder
(providers/formats.py); a context overflow raises ContextOverflowError (the caller shrinks its
prompt); other 4xx raise RequestRejectedError (a ProviderError). Bodies are capped in bytes and
JSON nesting. The API key never appears in an exception message, repr or returned text.
"""

from __future__ import annotations

import http.client
import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, ValidationError

from harness.errors import ProviderConfigError, ProviderError, ProviderUnavailableError
from harness.providers import activity, formats
from harness.providers.base import M, Usage
from harness.providers.usage import parse_usage, sum_usage  # noqa: F401 (re-exported)
from harness.providers.context_window import ContextOverflowError, answer_tokens, overflow_window
from harness.providers.json_limits import JSONTooDeep
from harness.providers.chat_messages import (ERRORS_CHARS, INSTRUCTIONS_HEAD, chat_messages,  # noqa: F401 (re-exported)
                                             short_error, validate_answer, strip_fences, validation_errors)
from harness.providers.sse import StreamError, collect, deadline_after, events
from harness.providers.transport import MAX_RESPONSE_BYTES, ResponseTooLarge, scrub_secret

DEFAULT_TIMEOUT_S = 60.0         # the longest silence: before the first byte, between two chunks
DEFAULT_MAX_ANSWER_S = 1800.0    # one whole answer, however steadily it streams
DEFAULT_MAX_RETRIES = 3          # retries after the first attempt: at most 4 requests per call
DEFAULT_BACKOFF_S = 1.0          # delay before retry n is backoff_s * 2**n
MAX_RETRY_DELAY_S = 30.0         # cap for Retry-After and exponential backoff
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
EXCERPT_CHARS = 300
DEFAULT_MAX_OUTPUT_TOKENS = 8192  # max_tokens of every request; finish_reason "length" = truncated

_STREAM_WORDS = re.compile(r"\bstream(?:_options)?\b|include_usage", re.I)
_BEARER = re.compile(r"Bearer\s+\S+")


class RequestRejectedError(ProviderError):
    """The server answered a 4xx other than 401/403/404; `status` and scrubbed `body` kept."""

    def __init__(self, message: str, status: int, body: str):
        super().__init__(message)
        self.status = status
        self.body = body


class TruncatedAnswerError(ProviderError):
    """The answer stopped at max_tokens (finish_reason "length"): it is cut off, not usable."""


class _Retryable(Exception):
    """One failed attempt that may be retried: a short reason and an optional Retry-After."""

    def __init__(self, reason: str, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.retry_after = retry_after


class OpenAIHTTPClient:
    """chat / chat_structured / chat_stream against `base_url` (e.g. "https://api.openai.com/v1").

    `calls` counts HTTP requests sent (retries included); `last_usage` is the usage of the last call;
    `notes` collects what the run should state once (format steps, the context window learned).
    """

    def __init__(self, base_url: str, api_key: str, model: str, timeout_s: float = DEFAULT_TIMEOUT_S,
                 max_retries: int = DEFAULT_MAX_RETRIES, backoff_s: float = DEFAULT_BACKOFF_S,
                 sleep: Callable[[float], None] = time.sleep, max_tokens: int = DEFAULT_MAX_OUTPUT_TOKENS,
                 max_answer_s: float = DEFAULT_MAX_ANSWER_S, stream: bool = True,
                 max_response_bytes: int = MAX_RESPONSE_BYTES, first_rung: str | None = None):
        if not base_url.startswith(("http://", "https://")):
            raise ProviderConfigError(f"OPENAI_BASE_URL must start with http:// or https://, got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self._api_key = api_key
        self.timeout_s = timeout_s
        self.max_answer_s = max_answer_s
        self.max_retries = max(0, int(max_retries))
        self.backoff_s = backoff_s
        self._sleep = sleep
        self.max_tokens = max_tokens
        self.stream = stream
        self.max_response_bytes = max_response_bytes
        self.context_tokens: int | None = None   # the window, once known (setting, server, or an overflow)
        self.on_progress: Callable[[int], None] | None = None
        self.calls = 0
        self.last_usage: Usage | None = None
        self.notes: list[str] = []
        self._key = formats.endpoint_key(self.base_url, model)
        self._rung = formats.remembered(self._key) or first_rung or formats.LADDER[0]

    def __repr__(self) -> str:
        return f"OpenAIHTTPClient(base_url={self.base_url!r}, model={self.model!r})"

    @property
    def format_rung(self) -> str:
        """The structured-output rung this endpoint is asked in (formats.LADDER)."""
        return self._rung

    # ---- public calls -------------------------------------------------------------------------

    def chat(self, prompt: str, system: str = "") -> tuple[str, Usage | None]:
        """The assistant's text for `prompt` and the usage the server reported (or None)."""
        self.last_usage = None
        content, usage = self._complete(chat_messages(prompt, system))
        self.last_usage = usage
        return content or "", usage

    def chat_structured(self, prompt: str, schema: type[M], system: str = "") -> tuple[M, Usage | None]:
        """The answer validated as `schema`; one corrective retry, then ProviderError."""
        self.last_usage = None
        messages = chat_messages(prompt, system)
        usages: list[Usage | None] = []
        error = ""
        for _ in range(2):
            content, usage = self._complete_structured(messages, schema)
            usages.append(usage)
            self.last_usage = sum_usage(usages)
            try:
                return validate_answer(content, schema), self.last_usage
            except (ValueError, ValidationError) as exc:
                error = self._scrub(short_error(exc))
            messages = messages + [
                {"role": "assistant", "content": content or ""},
                {"role": "user", "content": f"Your answer was invalid: {error}. Reply with only a JSON "
                                            f"object matching the {schema.__name__} schema."},
            ]
        raise ProviderError(f"model output did not match {schema.__name__}: {error}")

    def chat_json(self, prompt: str, system: str = "", schema: type[BaseModel] | None = None) -> tuple[str, Usage | None]:
        """The raw answer asked in JSON mode (the endpoint's negotiated format of `schema`);
        parsing and validation are the caller's."""
        self.last_usage = None
        content, usage = self._complete_structured(chat_messages(prompt, system), schema)
        self.last_usage = usage
        return content or "", usage

    def chat_stream(self, prompt: str, system: str = "") -> Iterator[str]:
        """Yield delta contents until [DONE]; usage from a final chunk lands in `last_usage`."""
        self.last_usage = None
        body = self._body(chat_messages(prompt, system))
        body.update(stream=True, stream_options={"include_usage": True})
        response = self._with_retries(lambda: self._open(body))
        try:
            for chunk in events(response, self.timeout_s, deadline_after(self.max_answer_s), self.max_response_bytes):
                self.last_usage = parse_usage(chunk.get("usage")) or self.last_usage
                for choice in chunk.get("choices") or []:
                    text = (choice.get("delta") or {}).get("content") if isinstance(choice, dict) else None
                    if text:
                        yield text
        except EOFError:
            # A stream that just stops was cut off: its text is not a complete answer (#16).
            raise ProviderUnavailableError(f"LLM endpoint {self.base_url} stream ended without [DONE] (truncated)") from None
        except (StreamError, ResponseTooLarge, JSONTooDeep) as exc:
            raise ProviderError(f"LLM endpoint {self.base_url}: {self._scrub(str(exc))}") from None
        except TimeoutError as exc:
            raise self._silence_error(exc) from None
        except (OSError, http.client.HTTPException) as exc:
            raise ProviderUnavailableError(
                f"LLM endpoint {self.base_url} stream interrupted: {self._scrub(_describe(exc))}") from None
        finally:
            response.close()

    def set_rung(self, rung: str, note: str) -> None:
        """Ask in `rung` from now on (remembered for the endpoint) and state why once."""
        self._rung = rung
        formats.remember(self._key, rung)
        self.notes.append(note)

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes

    # ---- request plumbing ---------------------------------------------------------------------

    def _body(self, messages: list[dict]) -> dict:
        return {"model": self.model, "messages": messages, "temperature": 0, "max_tokens": self._answer_tokens()}

    def _answer_tokens(self) -> int:
        """max_tokens, fitted to a known context window (at most a third of it for the answer)."""
        return answer_tokens(self.context_tokens, self.max_tokens) if self.context_tokens else self.max_tokens

    def _complete(self, messages: list[dict], response_format: dict | None = None) -> tuple[str | None, Usage | None]:
        body = self._body(messages)
        if response_format is not None:
            body["response_format"] = response_format
        if self.stream:
            body.update(stream=True, stream_options={"include_usage": True})
        try:
            got = self._with_retries(lambda: self._exchange(body))
        except RequestRejectedError as exc:
            if not body.get("stream") or not _STREAM_WORDS.search(exc.body) or formats.rejects_format(exc.status, exc.body):
                raise
            self.stream = False   # a server that refuses streaming: whole answers from now on, stated once
            self.notes.append(f"{self.base_url} refused a streamed request (HTTP {exc.status}); asking for whole "
                              f"answers from now on (HARNESS_LLM_TIMEOUT_S then bounds each whole answer)")
            body.pop("stream"), body.pop("stream_options")
            got = self._with_retries(lambda: self._exchange(body))
        except ContextOverflowError as exc:
            if not exc.window or body["max_tokens"] <= self._answer_tokens():
                raise
            body["max_tokens"] = self._answer_tokens()   # the same prompt, a smaller answer budget: once
            got = self._with_retries(lambda: self._exchange(body))
        usage = parse_usage(got.usage)
        if got.finish_reason == "length":
            self.last_usage = usage  # a cut-off answer still costs its tokens
            raise TruncatedAnswerError(f"the answer was cut off at max_tokens={body['max_tokens']} "
                                       f"(finish_reason \"length\"): answer shorter")
        return got.content, usage

    def _exchange(self, body: dict):
        """One request and its whole answer (streamed or not)."""
        activity.begin()
        try:
            response = self._open(body)
        except BaseException:
            activity.end()
            raise
        try:
            return collect(response, self.timeout_s, deadline_after(self.max_answer_s),
                           time.monotonic() + self.timeout_s, self._progress, self.max_response_bytes)
        except EOFError:
            raise _Retryable("stream ended without [DONE] (truncated)") from None
        except (StreamError, ResponseTooLarge, JSONTooDeep) as exc:
            raise ProviderError(f"LLM endpoint {self.base_url} returned an unusable answer: "
                                f"{self._excerpt(str(exc))}") from None
        except TimeoutError as exc:
            raise self._silence_error(exc) from None
        except (OSError, http.client.HTTPException) as exc:
            raise _Retryable(self._scrub(_describe(exc))) from None
        finally:
            response.close()
            activity.end()

    def _progress(self, chars: int) -> None:
        activity.progress(chars)
        if self.on_progress is not None:
            self.on_progress(chars)

    def _silence_error(self, exc: BaseException) -> ProviderUnavailableError:
        if "whole answer" in str(exc):
            what = f"took longer than {self.max_answer_s:g} s in all (HARNESS_LLM_MAX_ANSWER_S)"
            setting = "HARNESS_LLM_MAX_ANSWER_S"
        else:
            what = f"sent nothing for {self.timeout_s:g} s (HARNESS_LLM_TIMEOUT_S)"
            setting = "HARNESS_LLM_TIMEOUT_S"
        return ProviderUnavailableError(
            f"LLM endpoint {self.base_url} timed out: it {what}; not retried, since the server may still be "
            f"working on it: raise {setting} for a slow local model")

    def _complete_structured(self, messages: list[dict], schema: type[BaseModel] | None) -> tuple[str | None, Usage | None]:
        """One completion in the endpoint's rung of the format ladder, stepping down (remembered,
        stated once) when the server says the format is the problem."""
        while True:
            try:
                return self._complete(messages, formats.response_format(self._rung, schema))
            except RequestRejectedError as exc:
                lower = formats.next_rung(self._rung)
                if lower is None or \
                        not formats.rejects_format(exc.status, exc.body):
                    raise
                self.set_rung(lower, f"{self.base_url} refused {formats.describe(self._rung)} (HTTP "
                                     f"{exc.status}); using {formats.describe(lower)} from now on")

    def _with_retries(self, attempt: Callable[[], Any]) -> Any:
        """Run `attempt` with bounded retries; `_Retryable` failures back off, others propagate."""
        last: _Retryable | None = None
        for n in range(self.max_retries + 1):
            if last is not None:
                self._sleep(self._delay(n - 1, last.retry_after))
            try:
                return attempt()
            except _Retryable as exc:
                last = exc
        raise ProviderUnavailableError(
            f"LLM endpoint {self.base_url} unavailable after {self.max_retries + 1} attempts: {last.reason}")

    def _delay(self, retry: int, retry_after: float | None) -> float:
        delay = retry_after if retry_after is not None else self.backoff_s * 2 ** retry
        return max(0.0, min(delay, MAX_RETRY_DELAY_S))

    def _open(self, body: dict) -> http.client.HTTPResponse:
        """Send one request; return the 200 response or raise a classified error."""
        request = urllib.request.Request(
            self.base_url + "/chat/completions", data=json.dumps(body).encode("utf-8"), method="POST",
            headers={"Authorization": f"Bearer {self._api_key}", "Content-Type": "application/json",
                     "Accept": "application/json, text/event-stream"})
        self.calls += 1
        try:
            return urllib.request.urlopen(request, timeout=self.timeout_s)
        except urllib.error.HTTPError as exc:
            raise self._http_error(exc, "response_format" in body) from None
        except urllib.error.URLError as exc:   # not connected: nothing is being worked on, retry
            raise _Retryable(self._scrub(_describe(exc))) from None
        except TimeoutError as exc:            # sent, and no answer yet: the server may be working on it
            raise self._silence_error(exc) from None
        except (OSError, http.client.HTTPException) as exc:
            raise _Retryable(self._scrub(_describe(exc))) from None

    def _http_error(self, exc: urllib.error.HTTPError, asked_format: bool) -> Exception:
        status = exc.code
        try:
            text = exc.read(64 * 1024).decode("utf-8", "replace")
        except (OSError, http.client.HTTPException):
            text = ""
        finally:
            exc.close()
        body = self._excerpt(text)
        window = overflow_window(status, text)
        if window is not None:
            return self._overflow(status, body, window)
        if asked_format and formats.rejects_format(status, text):   # a 500 too: llama.cpp's answer
            return RequestRejectedError(f"LLM endpoint {self.base_url} refused the response format "
                                        f"(HTTP {status}): {body}", status, body)
        if status in RETRY_STATUSES:
            reason = f"HTTP {status}: {body}" if body else f"HTTP {status}"
            return _Retryable(reason, _retry_after(exc.headers.get("Retry-After")))
        if status in (401, 403):
            return ProviderConfigError(f"LLM endpoint rejected the API key (HTTP {status}): check OPENAI_API_KEY")
        if status == 404:
            return ProviderConfigError(f"LLM endpoint {self.base_url}/chat/completions not found (HTTP 404): "
                                       f"check OPENAI_BASE_URL and OPENAI_MODEL={self.model}")
        return RequestRejectedError(f"LLM endpoint {self.base_url} rejected the request (HTTP {status}): {body}",
                                    status, body)

    def _overflow(self, status: int, body: str, window: int) -> ContextOverflowError:
        if window and window != self.context_tokens:
            self.context_tokens = window
            self.notes.append(f"{self.base_url} has a context window of {window} tokens (from its "
                              f"context-overflow answer); prompts and max_tokens fitted to it")
        return ContextOverflowError(f"the prompt does not fit the model's context window"
                                    f"{f' of {window} tokens' if window else ''} (HTTP {status}): {body}",
                                    status, body, window or None)

    def _scrub(self, text: str) -> str:
        return _BEARER.sub("Bearer ***", scrub_secret(text, self._api_key))

    def _excerpt(self, text: str) -> str:
        text = " ".join(self._scrub(text).split())
        return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "..."


def _describe(exc: BaseException) -> str:
    reason = exc.reason if isinstance(exc, urllib.error.URLError) else exc
    if isinstance(reason, TimeoutError):
        return "timed out"
    return f"{type(reason).__name__}: {reason}" if str(reason) else type(reason).__name__


def _retry_after(value: str | None) -> float | None:
    """Retry-After in seconds; HTTP-date values and junk fall back to exponential backoff."""
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
