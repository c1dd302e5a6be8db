"""The server's worker processes, bots' and battle odds' alike: how one lives and how the
server keeps it.

A worker process is started with ``spawn`` when first needed, never forked from the
running server (a fork copies the server's threads' locks in whatever state they are). It
ignores Ctrl-C, runs at a lower CPU priority and answers one job at a time over a pipe
with what the job gave and the CPU seconds it used (:func:`serve_jobs`). It ends with the
server: it gets ``SIGKILL`` when the thread that started it ends (Linux
``PR_SET_PDEATHSIG``), and a watchdog thread in it exits the process as soon as its parent
process is gone (anywhere).

A bot pool (:class:`.bots.BotPool`) serves each of its workers from a thread of its own
(:class:`Slot`), which takes jobs from the pool, thinks in the thread itself (thread mode)
or hands each job to its worker process, starting that process again after it died or
was killed past a job's time limit.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, Protocol

START_WITHIN = 120.0
"""Seconds a new worker process may take to start (a loaded machine imports slowly)."""

_PR_SET_PDEATHSIG = 1
"""``prctl`` option (linux/prctl.h): the signal a process gets when its parent thread ends."""


# ---------------------------------------------------------------------------- in the worker
def _parent_death_signal() -> None:
    """On Linux, have the kernel send this process ``SIGKILL`` when the thread that
    started it ends (so at the latest when the server's process ends); elsewhere nothing."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _die_with_parent(parent_pid: int) -> None:
    """End this process when process ``parent_pid`` ends: :func:`_parent_death_signal`,
    and everywhere a daemon thread polling the parent pid once a second."""
    _parent_death_signal()

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(1)

    if os.getppid() != parent_pid:  # the parent ended before the signal was asked for
        os._exit(1)
    threading.Thread(target=watch, name="starlanes-bot-watchdog", daemon=True).start()


IDLE_NICE = 19
"""At this ``nice`` (the lowest) a worker on Linux also takes the ``SCHED_IDLE`` policy: it
runs only on a core that nothing else of normal priority wants, so a busy server's answers
to players never wait behind a thinking bot. Nice 19 alone still leaves a runnable worker
a small share of a contended core's time slices, which showed as the tail of players'
latencies in the abuse benchmark."""


def serve_jobs(conn: Connection, parent_pid: int, nice: int,
               handle: Callable[[Any], tuple[bool, Any]]) -> None:
    """The life of a worker process (bots, battle odds): ignore Ctrl-C (the server stops
    it), end with ``parent_pid``, lower its CPU priority by ``nice``, say ``"ready"``, then
    answer each job from ``conn`` with ``(ok, value, cpu seconds)``, where ``handle(job)``
    gives ``(ok, value)``, until the pipe closes. A value that does not pickle is sent as
    a RuntimeError naming it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent(parent_pid)
    with contextlib.suppress(OSError, AttributeError):  # AttributeError: no os.nice here
        if nice:
            os.nice(nice)
    if nice >= IDLE_NICE:
        with contextlib.suppress(OSError, AttributeError):  # not Linux: nice alone
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    try:
        conn.send("ready")
    except OSError:  # the pool gave up on this worker
        return
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        began = time.process_time()
        ok, value = handle(job)
        reply = (ok, value, time.process_time() - began)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception:  # noqa: BLE001 - an exception that does not pickle
            conn.send((False, RuntimeError(f"{type(value).__name__}: {value}"), reply[2]))

# ---------------------------------------------------------------------------- in the server
def spawn_worker(target: Callable[[Connection, int, int], None], nice: int,
                 name: str) -> tuple[BaseProcess, Connection]:
    """Start a worker process running ``target(conn, parent_pid, nice)`` (a spawned
    interpreter, daemonic, named ``name``) and give it and this end of its pipe."""
    ctx = multiprocessing.get_context("spawn")
    conn, child = ctx.Pipe()
    proc = ctx.Process(target=target, args=(child, os.getpid(), nice), daemon=True,
                       name=name)
    proc.start()
    child.close()
    return proc, conn


def worker_ready(proc: BaseProcess, conn: Connection, within: float) -> bool:
    """Whether a worker from :func:`spawn_worker` said ``"ready"`` within ``within``
    seconds (False when it died or closed its pipe first)."""
    try:
        return bool(wait([conn, proc.sentinel], timeout=within)) and conn.recv() == "ready"
    except (EOFError, OSError):
        return False


def end_worker(proc: BaseProcess | None, conn: Connection | None) -> None:
    """Kill a worker process at once and close its pipe (either may be None)."""
    if proc is not None:
        with contextlib.suppress(ValueError):  # already closed
            proc.kill()
            proc.join(2)
    if conn is not None:
        conn.close()


class Pool(Protocol):
    """What a slot asks of its pool: whether it runs worker processes (``workers`` 0:
    threads) and at what ``nice``, whether it is closed, the next job to think about
    (``_take``: blocks; None once closed; a job has ``job`` with its ``spec``, and
    ``limit``, the seconds it may think) and where its outcome goes (``_finish``)."""

    workers: int
    nice: int
    _closed: bool

    def _take(self) -> Any: ...

    def _finish(self, ticket: Any, result: str | None, error: BaseException | None,
                cpu: float) -> None: ...


class Failed(Exception):
    """A job that failed, with what it raised and the CPU seconds it is charged."""

    def __init__(self, error: BaseException, cpu: float) -> None:
        super().__init__(str(error))
        self.error, self.cpu = error, cpu


class Slot:
    """One worker: a daemon thread of the server taking jobs from the pool, thinking itself
    (thread mode) or through its own worker process, started by this thread when first
    needed and again after it died or was killed."""

    def __init__(self, pool: Pool, index: int,
                 process_main: Callable[[Connection, int, int], None],
                 think_here: Callable[[Any], tuple[str, float]]) -> None:
        self.pool = pool
        self._process_main = process_main
        """The worker process's function, called with (pipe, server pid, nice): a
        module's function, so that a spawned process finds it."""
        self._think_here = think_here
        """In thread mode: a job's notation and the CPU seconds this thread spent."""
        self.thread = threading.Thread(target=self._serve, name=f"starlanes-bot-{index}",
                                       daemon=True)
        self._lock = threading.Lock()
        self._proc: BaseProcess | None = None
        self._conn: Connection | None = None

    def _serve(self) -> None:
        if self.pool.workers:
            with contextlib.suppress(RuntimeError):  # it is started again with a job
                self._process()
        while (ticket := self.pool._take()) is not None:
            result: str | None = None
            error: BaseException | None = None
            began, cpu = time.thread_time(), 0.0
            try:
                result, cpu = (self._think(ticket) if self.pool.workers
                               else self._think_here(ticket.job))
            except Failed as e:
                error, cpu = e.error, e.cpu
            except Exception as e:  # noqa: BLE001 - handed to the waiting task
                error, cpu = e, time.thread_time() - began
            self.pool._finish(ticket, result, error, cpu)

    def _think(self, ticket: Any) -> tuple[str, float]:
        """The job's notation and the CPU seconds its worker process used. Raises
        :class:`Failed` with what the agent raised, TimeoutError or RuntimeError (a
        killed or dead worker: charged the seconds it had)."""
        proc, conn = self._process()
        began = time.monotonic()
        try:
            conn.send(ticket.job)
            ready = wait([conn, proc.sentinel], timeout=ticket.limit)
            reply = conn.recv() if conn in ready else None
        except (EOFError, OSError):  # the process ended while thinking
            ready, reply = [proc.sentinel], None
        if reply is not None:
            ok, value, cpu = reply
            if ok:
                return str(value), float(cpu)
            raise Failed(value, float(cpu))
        self.stop()
        spent = time.monotonic() - began
        if not ready:
            raise Failed(TimeoutError(f"bot {ticket.job.spec!r} thought longer than "
                                       f"{ticket.limit:g} s; its worker was stopped"), spent)
        raise Failed(RuntimeError(f"the worker process of bot {ticket.job.spec!r} ended "
                                   f"(exit code {proc.exitcode})"), spent)

    def _process(self) -> tuple[BaseProcess, Connection]:
        with self._lock:
            if self.pool._closed:
                raise RuntimeError("the bot pool is closed")
            if self._proc is not None and self._conn is not None and self._proc.is_alive():
                return self._proc, self._conn
            proc, conn = spawn_worker(self._process_main, self.pool.nice, self.thread.name)
            self._proc, self._conn = proc, conn
        # a job's time limit counts from here: starting Python and importing take seconds
        if worker_ready(proc, conn, START_WITHIN):
            return proc, conn
        self.stop()
        raise RuntimeError(f"a bot worker process did not start within {START_WITHIN:g} s "
                           f"(exit code {proc.exitcode})")

    def stop(self) -> None:
        """End the worker process, if any, at once."""
        with self._lock:
            proc, conn, self._proc, self._conn = self._proc, self._conn, None, None
        end_worker(proc, conn)
