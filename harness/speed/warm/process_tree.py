"""The warm worker's view of its own process tree (stdlib only; loaded by worker.py by path).

The worker is a child subreaper: everything a served child leaves behind is re-parented to it, and
after each command it kills and reaps every descendant. A clone (a second worker forked from this
one to serve another directory its sandbox binds, see worker.serve_clone) is a descendant
too, but not a command's leftover: `descendants` and `sweep` leave each clone's subtree alone
(the clone sweeps its own), and the clone ends when the harness closes its socket.
`wait_child` waits for a served child with the command's timeout (on its pidfd where there is one),
and no longer once the harness hung up the worker's socket (it stopped the worker: `hung_up`).
"""

import os
import select
import signal
import time

POLL_S = 0.01


def _children_table():
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            raw = open(f"/proc/{name}/stat").read()
        except OSError:
            continue
        fields = raw.rsplit(")", 1)[1].split()
        table[int(name)] = (int(fields[1]), fields[0])
    return table


def descendants(spare=frozenset()):
    """Live (non-zombie) pids below this process, without the subtrees rooted at `spare`."""
    me, table = os.getpid(), _children_table()
    found, stack = set(), [me]
    while stack:
        parent = stack.pop()
        for pid, (ppid, _state) in table.items():
            if ppid == parent and pid not in found and pid not in spare:
                found.add(pid)
                stack.append(pid)
    return {pid for pid in found if table[pid][1] != "Z"}


def signal_all(pids, sig):
    for pid in pids:
        try:
            os.kill(pid, sig)
        except (ProcessLookupError, PermissionError):
            pass


def reap_all():
    """Reap every exited child (a clone that ended too: its socket already told the harness)."""
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def sweep(spare=frozenset()):
    """SIGKILL every descendant but the `spare` subtrees until none is left; reap them."""
    for _ in range(20):
        pids = descendants(spare)
        if not pids:
            break
        signal_all(pids, signal.SIGKILL)
        time.sleep(POLL_S)
        reap_all()
    reap_all()


def wait_child(pid, timeout_s, idle=None, hangup=None):
    """The child's wait status, or None if it still runs after `timeout_s` or once `hangup` (the
    worker's control socket) is hung up: the harness stopped this worker, nobody waits for the
    outcome. `idle()` (short work, False when there is none left) runs instead of sleeping between
    polls. With nothing left to do it waits on the child's pidfd (and the socket), so its exit is
    seen at once, not up to POLL_S later."""
    deadline = time.monotonic() + timeout_s
    pidfd = _pidfd(pid)
    watch = select.poll()
    if pidfd is not None:
        watch.register(pidfd, select.POLLIN)
    if hangup is not None:
        watch.register(hangup, select.POLLRDHUP)  # POLLHUP and POLLERR are always reported
    try:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                return status
            left = deadline - time.monotonic()
            if left <= 0 or (hangup is not None and hung_up(hangup)):
                return None
            if idle is None or not idle():
                if pidfd is None and hangup is None:
                    time.sleep(min(POLL_S, left))
                else:
                    watch.poll(1000 * min(1.0 if pidfd is not None else POLL_S, left))
    finally:
        if pidfd is not None:
            os.close(pidfd)


def hung_up(fd):
    """True when the peer of socket `fd` has closed or shut it down (the harness stopped this worker)."""
    watch = select.poll()
    watch.register(fd, select.POLLRDHUP)
    return any(events & (select.POLLHUP | select.POLLRDHUP | select.POLLERR) for _fd, events in watch.poll(0))


def _pidfd(pid):
    """A pidfd of `pid` (readable once it exits), or None where the kernel has none (< 5.3)."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def exit_code(status):
    """The code a cold command reports: bwrap turns a death by signal N into 128+N, Popen into -N."""
    if os.WIFSIGNALED(status) and os.environ.get("HARNESS_ISOLATION") == "bubblewrap":
        return 128 + os.WTERMSIG(status)
    return os.waitstatus_to_exitcode(status)
