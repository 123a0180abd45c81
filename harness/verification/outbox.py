"""The placeholder a verification command names its outbox by.

Code under test cannot write the workspace (it is read-only, harness/sandbox/isolation.py). A
command that must leave a file for the harness — the mutation audit's result — names it under
OUTBOX; `verifier.run_command` replaces the placeholder with the command's own writable outbox
(outside the workspace) and moves the files the caller asked for (`collect`) out of it afterwards.
"""

OUTBOX = "{outbox}"
