"""What the spec language's constructs mean, stated once and pure (no generator, no parser): the
spec reader, the generator and the black-box acceptance checks all resolve a construct here, so
they agree on it while the acceptance package still shares no code with the generator."""
