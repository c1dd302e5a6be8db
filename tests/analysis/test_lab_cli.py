"""``starlanes balance`` and ``starlanes compare`` through the real entry point, and the
lab's backends giving the same games whatever plays them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from starlanes.analysis.backends import run_jobs
from starlanes.analysis.lab import lab_game, lab_jobs, run_lab
from tests.test_cli import run

FACTS = {"rift-domination": {"faction", "home"}, "galactic-domination":
         {"turn_position", "start_zone"}, "interstellar-ambitions": {"turn_position"},
         "galactic-empires": {"empire", "turn_position"}}
PLAYERS = {"rift-domination": 3, "galactic-domination": 2, "interstellar-ambitions": 3,
           "galactic-empires": 2}


def balance_json(game: str, *extra: str) -> dict:
    proc = run("balance", game, "--players", str(PLAYERS[game]), "--games", "4",
               "--seed", "3", "--json", "--no-html", *extra, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.parametrize("game", sorted(FACTS))
def test_balance_report_contents_for_every_game(game: str) -> None:
    r = balance_json(game, "--workers", "2")
    n = PLAYERS[game]
    assert r["game"] == game and r["players"] == n and r["games"] == 4
    assert r["options"] == {} and len(r["content_fingerprint"]) == 16
    assert r["starlanes_version"]
    assert set(r["seats"]) == {str(s) for s in range(n)}
    # every seat-game is counted once per family; the wins add up to the decided games
    decided = sum(1 for g in r["results"] if g["winners"])
    assert sum(e["wins"] for e in r["seats"].values()) == pytest.approx(decided, abs=1e-4)
    assert set(r["facts"]) == FACTS[game]
    for family in r["facts"].values():
        assert sum(e["games"] for e in family.values()) == 4 * n
        for e in family.values():
            assert e["ci95_adj"][0] <= e["ci95"][0] <= e["rate"] <= e["ci95"][1]
            assert 0 <= e["p"] <= e["p_holm"] <= 1
    assert r["rounds"]["n"] == 4 and r["actions"]["min"] <= r["actions"]["max"]
    assert sum(r["end_reasons"].values()) == 4
    assert all(set(e) == {"entry", "winners", "losers", "diff"} for e in r["entries"])
    for g in r["results"]:
        assert set(g["facts"]) == FACTS[game] and len(g["entries"]) == n


def test_balance_html_report_embeds_its_plots(tmp_path: Path) -> None:
    page = tmp_path / "rd.html"
    proc = run("balance", "rift-domination", "--players", "3", "--games", "3",
               "--html", str(page), timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "win rate by seat" in proc.stdout and "win rate by faction" in proc.stdout
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "content_fingerprint" in text
    # seat, faction, home, opening bar plots; rounds, actions, margin histograms
    assert text.count('src="data:image/png;base64,') >= 6
    assert "src=\"http" not in text  # self-contained


def test_compare_identical_variants_find_nothing(tmp_path: Path) -> None:
    proc = run("compare", "galactic-domination", "--games", "6", "--agents", "random",
               "--a", "turn_limit=150", "--b", "turn_limit=150", "--json",
               "--html", str(tmp_path / "c.html"), timeout=300)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["same_games"] == 6
    assert r["a"] == r["b"]
    for family in [r["seats"], *r["facts"].values()]:
        assert not any(e["significant"] for e in family.values())
    assert r["seats"]["0"]["diff"] == 0 and r["rounds"]["p"] == 1.0
    assert (tmp_path / "c.html").read_text().count("data:image/png;base64,") >= 3


def test_compare_detects_a_rule_change_in_the_same_games() -> None:
    proc = run("compare", "rift-domination", "--players", "2", "--games", "8",
               "--b", "round_limit=2", "--json", "--no-html", timeout=300)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["b"]["options"] == {"round_limit": "2"} and r["a"]["options"] == {}
    assert r["rounds"]["mean_b"] == 2
    assert r["rounds"]["diff"] < 0 and r["rounds"]["ci95"][1] < 0 and r["rounds"]["p"] < 0.01
    assert r["end_reasons"]["round_limit"]["b"] == 8


def test_sweep_runs_one_variant_per_value(tmp_path: Path) -> None:
    page = tmp_path / "sweep.html"
    proc = run("balance", "rift-domination", "--players", "2", "--games", "2",
               "--sweep", "round_limit=2,3", "--json", "--html", str(page), timeout=300)
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["sweep"] == "round_limit" and r["values"] == ["2", "3"]
    assert [x["options"] for x in r["reports"]] == [{"round_limit": "2"},
                                                    {"round_limit": "3"}]
    assert [x["rounds"]["max"] for x in r["reports"]] == [2, 3]
    text = page.read_text()
    assert text.count("data:image/png;base64,") >= 4
    # issue 28: the page names every value's settings, not only the first one's
    assert "settings of each value" in text
    assert "{&quot;round_limit&quot;: &quot;2&quot;}" in text
    assert "{&quot;round_limit&quot;: &quot;3&quot;}" in text
    assert "swept: 2, 3" in text


def test_until_ci_plays_batches_until_the_budget() -> None:
    r = balance_json("galactic-domination", "--agents", "random", "--until-ci", "0.05",
                     "--max-games", "8")
    assert r["games"] == 8  # two batches of 4; the intervals are far wider than 0.05
    assert r["until_ci"]["reached"] is False and r["until_ci"]["widest"] > 0.05


@pytest.mark.parametrize(("args", "message"), [
    (("balance", "rift-domination", "--backend", "cloud"), "unknown backend 'cloud'"),
    (("balance", "rift-domination", "--ray-address", "auto"), "--ray-address needs"),
    (("balance", "rift-domination", "--sweep", "round_limit"), "not of the form key=v1"),
    (("balance", "rift-domination", "--option", "round_limit=x"), "round_limit"),
    (("compare", "rift-domination", "--b", "round_limit"), "not of the form key=value"),
    (("compare", "rift-domination", "--b", "warp_limit=nowhere"), "variant B:"),
    (("compare", "rift-domination", "--a", "content=/no/such/dir"),
     "variant A: content directory '/no/such/dir' does not exist"),
])
def test_bad_lab_input_is_one_line(args: tuple[str, ...], message: str,
                                   tmp_path: Path) -> None:
    proc = run(*args, "--games", "2", "--html", str(tmp_path / "x.html"))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert message in lines[0]
    assert not (tmp_path / "x.html").exists()


# ---------------------------------------------------------------------- backends
def test_in_process_pool_and_ray_give_the_same_games(tmp_path: Path) -> None:
    args = ("interstellar-ambitions", ["heuristic", "random"], 3, 6, 11, {})
    alone = run_lab(*args, progress=False)
    pooled = run_lab(*args, workers=2, progress=False)
    assert pooled == alone
    assert len({g["seed"] for g in alone}) == 6
    try:
        import ray
    except ImportError:
        pytest.skip("Ray is not installed (pip install 'starlanes[ray]'); "
                    "in-process and pool agree")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        assert run_lab(*args, backend="ray", workers=2, progress=False) == alone
        # a worker dies in the middle of a task: Ray retries the task, same games
        marker = tmp_path / "killed"

        def dies_once(job: tuple) -> tuple[int, dict]:
            if job[0] == 3 and not marker.exists():
                marker.write_text("worker killed here")
                os._exit(1)
            return lab_game(job)

        jobs = lab_jobs(*args[:5], args[5])
        assert run_jobs(jobs, dies_once, "ray", workers=2, progress=False) == alone
        assert marker.exists()
    finally:
        ray.shutdown()


def test_later_batches_continue_the_same_schedule() -> None:
    """--until-ci plays games first..first+k: the same games as one long run."""
    whole = run_lab("galactic-domination", ["random"], 2, 6, 2, {}, progress=False)
    parts = (run_lab("galactic-domination", ["random"], 2, 4, 2, {}, progress=False)
             + run_lab("galactic-domination", ["random"], 2, 2, 2, {}, progress=False,
                       first=4))
    assert parts == whole


@pytest.mark.slow
def test_compare_finds_a_planted_faction_imbalance(tmp_path: Path) -> None:
    """A content pack giving one faction a huge income is found out; nothing else is. The
    exact sign test needs more paired games than a t-test to clear Holm over 30 factions:
    at 120 games the faction sat about 25 times, short of it."""
    packaged = Path(__file__).resolve().parents[2] / "src/starlanes/games/rift_domination"
    text = (packaged / "content/factions.toml").read_text()
    old = 'abilities = [{ kind = "income_bonus", amount = 2 }]'
    assert text.count(old) == 1
    (tmp_path / "factions.toml").write_text(
        text.replace(old, 'abilities = [{ kind = "income_bonus", amount = 40 }]'))
    proc = run("compare", "rift-domination", "--players", "6", "--games", "240",
               "--workers", "2", "--b", f"content={tmp_path}", "--json", "--no-html",
               timeout=1200)
    assert proc.returncode == 0, proc.stderr
    factions = json.loads(proc.stdout)["facts"]["faction"]
    found = [k for k, e in factions.items() if e["significant"]]
    assert found == ["aurelian_concord"]
    assert factions["aurelian_concord"]["paired"] and factions["aurelian_concord"]["diff"] > 0


def test_simulate_with_workers_gives_the_same_games(tmp_path: Path) -> None:
    def results(*extra: str) -> list[dict]:
        proc = run("simulate", "galactic-domination", "--games", "4", "--seed", "9",
                   "--agents", "random", "--json", *extra)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout)["results"]

    assert results("--workers", "2") == results()
    proc = run("simulate", "galactic-domination", "--games", "2", "--workers", "2",
               "--save-records", str(tmp_path / "recs"))
    assert proc.returncode == 2 and "--save-records plays in this process" in proc.stderr


def test_tournament_reports_carry_options_and_fingerprint() -> None:
    proc = run("tournament", "galactic-domination", "--agents", "random,heuristic",
               "--games", "2", "--no-plot", "--json", "-o", "turn_limit=40")
    assert proc.returncode == 0, proc.stderr
    r = json.loads(proc.stdout)
    assert r["options"] == {"turn_limit": "40"} and len(r["content_fingerprint"]) == 16


@pytest.mark.parametrize(("game", "words"), [
    ("rift-domination", {"recruit", "unlock", "build", "play"}),
    ("galactic-domination", {"build", "place"}),
    ("interstellar-ambitions", {"research", "start-tech", "build", "hire", "colonise", "play"}),
    ("galactic-empires", {"play"}),
])
def test_entries_count_every_action_that_uses_content(game: str, words: set[str]) -> None:
    """The facts hooks see every action: entry counts over the seats add up to the
    history's actions of those kinds, and the set-up facts are the final state's."""
    from starlanes.analysis.lab import facts_module
    from starlanes.analysis.tournament import play_game

    n = PLAYERS[game]
    job = lab_jobs(game, ["heuristic"], n, 1, 4, {})[0]
    _, row = lab_game(job)
    state, again = play_game(*job[1:])
    assert again["digest"] == row["digest"]
    expected = sum(1 for a in state.history if str(a).split()[0] in words)
    assert sum(sum(c.values()) for c in row["entries"]) == expected > 0
    assert row["facts"] == facts_module(game).setup_facts(state)
    assert any(row["openings"])
