"""The bot pool shares its workers by the CPU each client's bots use, not by how many games
or turns they have: a client with cheap bots is not queued behind clients whose bots think
hard, a client with many games gets no more CPU than a client with one, the charge is the
CPU really used (measured in the worker, a process or a thread), and what the pool
remembers of idle clients stays bounded.

The jobs are real :class:`BotJob` s through the real :class:`BotPool`; in thread mode the
agent is replaced by one that burns the CPU seconds its spec names (``burn:0.1``), so the
shares do not depend on how fast a search is on this machine."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter

import pytest

from starlanes.server import bots
from starlanes.server.bots import QUANTUM, BotJob, BotPool

_BLOCK = bytes(256 * 1024)


def burn(job: BotJob) -> str:
    """A fake agent: burns the CPU seconds after ``burn:`` in the job's spec.

    It hashes a block at a time, which CPython does without holding the interpreter lock,
    as a worker process thinks beside the server: a pure-Python loop would hold the lock
    and starve the event loop that hands the pool its jobs (each of its lock hand-overs
    waits a switch interval), so the shares measured would be the interpreter's, not the
    pool's."""
    seconds = float(job.spec.partition(":")[2])
    began = time.thread_time()
    while time.thread_time() - began < seconds:
        hashlib.sha256(_BLOCK).digest()
    return "pass"


@pytest.fixture
def burning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots, "bot_move", burn)


def job(owner: str, key: str, seconds: float) -> BotJob:
    return BotJob(key, "galactic-domination", 2, 1, {}, (), 0, f"burn:{seconds:g}",
                  owner=owner)


async def play(pool: BotPool, owner: str, key: str, seconds: float, total: int,
               done: Counter[str], pause: float = 0.0) -> None:
    """A game of ``owner`` whose bot moves (``seconds`` of CPU each), waiting ``pause``
    seconds (a human's turn) between them, until the pool has made ``total`` moves in
    all; counts its moves among those (every game's last move, asked for before then, is
    answered after). Counting moves, not seconds, keeps the shares the same on a loaded
    machine."""
    while sum(done.values()) < total:
        await pool.move(job(owner, key, seconds))
        if sum(done.values()) < total:
            done[owner] += 1
        if pause:
            await asyncio.sleep(pause)


def run_games(games: list[tuple[str, str, float, float]], total: int,
              threads: int = 1) -> tuple[Counter[str], dict[str, float]]:
    """Play ``games`` ((owner, key, CPU a move, pause)) on a pool of ``threads`` threads
    until it made ``total`` moves; the moves per owner and what each owner was charged."""
    async def main() -> tuple[Counter[str], dict[str, float]]:
        pool = BotPool(0, threads=threads)
        done: Counter[str] = Counter()
        try:
            await asyncio.gather(*(play(pool, owner, key, cpu, total, done, pause)
                                   for owner, key, cpu, pause in games))
            charged = {g.removeprefix("owner "): c for g, c in pool.charged().items()}
            return done, charged
        finally:
            pool.close()

    return asyncio.run(main())


def test_a_cheap_bot_goes_ahead_of_ten_clients_whose_bots_think_hard(burning):
    """The review's attack: ten clients with two heavy bot games each. Served in turn, the
    lone client's cheap bot waited for ten heavy moves each time (about one move a second
    here); charged by CPU it goes next each time it waits."""
    heavy = [(f"attacker{i}", f"a{i}-{j}", 0.1, 0.0) for i in range(10) for j in range(2)]
    done, charged = run_games(heavy + [("lone", "lone-game", 0.005, 0.0)], 40)
    attackers = sum(n for owner, n in done.items() if owner != "lone")
    # new, it starts level with them (ten heavy moves first); from then on it waits for
    # one heavy move at most (the one that took the thread while its next move was being
    # asked for): about 15 of 40 moves. Served in turn it had 3.
    assert done["lone"] >= 12 and attackers <= 28, done
    # and it was charged less than any attacker: it used far less CPU
    assert charged.get("lone", 0.0) < min(charged[f"attacker{i}"] for i in range(10))


def test_a_client_with_cheap_moves_gets_its_share_of_cpu_beside_a_heavy_one(burning):
    """Two clients with two games each: one's moves cost 0.25 s, the other's 0.05 s.
    Served in turn, the heavy one had five sixths of the CPU; charged by CPU each has
    about half."""
    games = [("heavy", "h1", 0.25, 0.0), ("heavy", "h2", 0.25, 0.0),
             ("light", "l1", 0.05, 0.0), ("light", "l2", 0.05, 0.0)]
    done, _ = run_games(games, 40)
    heavy_cpu, light_cpu = done["heavy"] * 0.25, done["light"] * 0.05
    share = light_cpu / (heavy_cpu + light_cpu)
    assert 0.35 <= share <= 0.65, (done, share)


def test_twenty_heavy_games_get_no_more_than_a_lone_game_of_the_same_bot(burning):
    """A client with 20 heavy bot games and a client with one: the lone game's bot gets
    about half the worker's time."""
    games = [("many", f"m{i}", 0.1, 0.0) for i in range(20)] + [("one", "o", 0.1, 0.0)]
    done, _ = run_games(games, 40)
    share = done["one"] / (done["one"] + done["many"])
    assert 0.35 <= share <= 0.65, done


def test_a_client_back_after_a_pause_takes_at_most_its_credit(burning):
    """A client seen before comes back with two games after another client thought alone
    for 1.5 s of CPU: it goes first until it is CREDIT behind no more, then they take
    turns; it does not take the thread for the whole time it was away."""
    async def main() -> list[str]:
        pool = BotPool(0, threads=1)
        order: list[str] = []
        stop = asyncio.Event()

        async def loop(owner: str, key: str) -> None:
            while not stop.is_set():
                await pool.move(job(owner, key, 0.05))
                order.append(owner)

        try:
            await pool.move(job("back", "k0", 0.05))
            busy = asyncio.create_task(loop("busy", "b"))
            while len(order) < 30:
                await asyncio.sleep(0.01)
            back = [asyncio.create_task(loop("back", k)) for k in ("k1", "k2")]
            while len(order) < 62:
                await asyncio.sleep(0.01)
            stop.set()
            await asyncio.gather(busy, *back)
            return order
        finally:
            pool.close()

    order = asyncio.run(main())
    after = order[31:61]  # the 30 moves after it came back (one more already asked for)
    # CREDIT / 0.05 = 10 moves ahead, then half of the 20 left: about 20 of 30; without a
    # bound on its credit it would have had all 30, with no credit 15
    assert 13 <= after.count("back") <= 24, after


def test_the_charge_is_the_cpu_a_job_used_in_whole_quanta(burning):
    async def main() -> dict[str, float]:
        pool = BotPool(0, threads=1)
        try:
            await pool.move(job("a", "a1", 0.001))
            await pool.move(job("b", "b1", 0.2))
            await pool.move(job("b", "b1", 0.2))
            return pool.charged()
        finally:
            pool.close()

    charged = asyncio.run(main())
    assert charged.get("owner a", 0.0) == pytest.approx(QUANTUM)  # 1 ms: one quantum
    assert charged["owner b"] == pytest.approx(0.4, abs=0.03)


def test_a_worker_process_reports_the_cpu_its_search_used():
    """A real worker process and a real search: the charge is the search's CPU (about its
    one-second budget), not a flat count of one move."""
    async def main() -> dict[str, float]:
        pool = BotPool(1, nice=0)
        try:
            await pool.move(BotJob("g", "galactic-domination", 2, 1, {}, (), 0,
                                   "mcts:seconds=0.5", 0.5, owner="searcher"))
            return pool.charged()
        finally:
            pool.close()

    charged = asyncio.run(main())
    assert 0.05 <= charged["owner searcher"] <= 1.5, charged


def test_idle_clients_are_forgotten(burning, monkeypatch: pytest.MonkeyPatch):
    """Charges of idle clients stay bounded: those at the floor are dropped at once, and
    past GROUPS_KEPT the least charged of the rest."""
    monkeypatch.setattr(bots, "GROUPS_KEPT", 5)

    async def main() -> tuple[int, int]:
        pool = BotPool(0, threads=2)
        try:
            # one client thinking long keeps the floor low while 30 others come and go,
            # each charged more than it
            busy = asyncio.create_task(pool.move(job("busy", "busy", 1.0)))
            for i in range(30):
                await pool.move(job(f"c{i}", f"c{i}", 0.02))
            during = len(pool.charged())
            await busy
            return during, len(pool.charged())
        finally:
            pool.close()

    during, after = asyncio.run(main())
    assert during <= 5 + 1  # the five most charged idle clients and the busy one
    assert after <= 5
