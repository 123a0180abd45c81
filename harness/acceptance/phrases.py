"""The text the acceptance checks send, made of ordinary words drawn at random per run from the
system's random source (the word list is data: words/sample_words_en.txt).

Hostile trial i, A3: every text value the checks sent started with `acc` and 6 hex digits, so an app
could tell the judge's records from its users' and be correct for the judge's only. Now no value has
a fixed prefix, suffix or shape: each is two to four lower-case words (the first capitalised at
random), an address or a web address built from them, a user name, a password.

Unique where the checks need it: each run splits the words at random into three pools — pair words,
filler words and needle words. Every value holds a pair of pair words (adjacent, in that order) that
no other value of the run holds, and its other words are fillers; since no word of the list is part
of another, a value is found in a page or a list only where it was put. A needle (`word()`: the word
a search looks for, a marker) comes from the needle pool and is handed out once.
No word of the app's spec is drawn (`keep_clear_of`): its names and choices show on its pages.
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path

WORDS_FILE = Path(__file__).with_name("words") / "sample_words_en.txt"
NEEDLE_WORDS = 40            # words per run kept for needles (search words, markers)
DOMAINS = ("example.com", "example.org", "example.net")   # reserved for examples: no real mail goes out


@lru_cache(maxsize=1)
def sample_words() -> tuple[str, ...]:
    """The word list: one lower-case word a line, `#` lines are comments."""
    lines = WORDS_FILE.read_text(encoding="utf-8").splitlines()
    return tuple(w.strip() for w in lines if w.strip() and not w.startswith("#"))


def password(rng: secrets.SystemRandom | None = None) -> str:
    """A password of three words, one of them capitalised, joined by a separator drawn at random, and
    two digits: mixed case, letters and digits, 13+ characters — long enough for any policy."""
    rng = rng or secrets.SystemRandom()
    words = rng.sample(sample_words(), 3)
    big = rng.randrange(3)
    words[big] = words[big].capitalize()
    sep = rng.choice("-_.+")
    return sep.join(words) + f"{rng.randrange(10, 100)}"


class Phrases:
    """One run's values: `text()`, `email()`, `url()`, `username()` each unique in the run;
    `word()` a word no other value holds."""

    def __init__(self) -> None:
        self.rng = secrets.SystemRandom()
        words = list(sample_words())
        self.rng.shuffle(words)
        self._needles = words[:NEEDLE_WORDS]
        rest = words[NEEDLE_WORDS:]
        cut = len(rest) * 3 // 5
        self._pair_words, self._fillers = rest[:cut], rest[cut:]
        self._pairs: set[tuple[str, str]] = set()
        self._given: set[str] = set()

    def keep_clear_of(self, text: str) -> None:
        """Draw no word that occurs in `text` (the app's spec: its names, choices and words show on
        its pages and may be searched), so a value is found only where a check put it."""
        seen = text.casefold()
        self._needles, self._pair_words, self._fillers = (
            [w for w in pool if w not in seen] for pool in (self._needles, self._pair_words, self._fillers))

    def _pair(self) -> tuple[str, str]:
        while True:
            pair = tuple(self.rng.sample(self._pair_words, 2))
            if pair not in self._pairs:
                self._pairs.add(pair)
                return pair   # type: ignore[return-value]

    def _sentence(self, core: list[str]) -> str:
        """`core` with 0-2 filler words around it, the first letter capitalised half the time."""
        before = self.rng.sample(self._fillers, self.rng.randrange(2))
        after = self.rng.sample(self._fillers, self.rng.randrange(3 - len(before)))
        text = " ".join([*before, *core, *after])
        return text[0].upper() + text[1:] if self.rng.randrange(2) else text

    def text(self) -> str:
        """Two to four words, unique in the run (no other value holds it)."""
        return self._sentence(list(self._pair()))

    def word(self) -> str:
        """A word that no other value of the run holds (a needle pool word, handed out once; two of
        them joined when the pool is spent)."""
        while True:
            left = [w for w in self._needles if w not in self._given]
            found = self.rng.choice(left) if left else "".join(self.rng.sample(self._needles, 2))
            if found not in self._given:
                self._given.add(found)
                return found

    def text_with(self, needle: str) -> str:
        """A text holding `needle` among filler words."""
        return self._sentence([needle])

    def email(self) -> str:
        one, two = self._pair()
        return f"{one}{self.rng.choice(('', '.', '_'))}{two}@{self.rng.choice(DOMAINS)}"

    def url(self) -> str:
        one, two = self._pair()
        return f"https://{self.rng.choice(('', 'www.'))}{self.rng.choice(DOMAINS)}/{one}{self.rng.choice('/-_')}{two}"

    def username(self) -> str:
        one, two = self._pair()
        return f"{one}{self.rng.choice(('', '_'))}{two}"

    def password(self) -> str:
        return password(self.rng)
