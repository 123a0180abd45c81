"""App-Builder Harness: request -> spec -> plan -> build -> verify -> repair -> trace -> review."""

__version__ = "0.1.0"
