"""Sweeps on Dask: a 12-run sweep on a LocalCluster of 2 workers, every row checked against a
direct run; a bad value comes back as error rows; the CLI writes the same table as CSV."""

import csv
import os
import subprocess

import pytest

distributed = pytest.importorskip("distributed")
pandas = pytest.importorskip("pandas")

import atoll  # noqa: E402

STEPS = 40


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                       dashboard_address=":0")
    c = distributed.Client(cluster)
    yield c
    c.close()
    cluster.close()


def test_twelve_runs_match_direct_runs(client):
    progress = []
    table = atoll.sweep("tower10", {"velocity_steps": [1, 2, 4, 0]}, seeds=3, client=client,
                        steps=STEPS, progress=lambda done, total: progress.append((done, total)))
    assert len(table) == 12
    assert list(table.columns[:2]) == ["velocity_steps", "seed"]
    for column in ("state_hash", "max_penetration_m", "wall_ms_per_step", "error"):
        assert column in table.columns
    assert progress[-1] == (12, 12)
    assert list(table["seed"]) == [0, 1, 2] * 4
    for row in table.itertuples():
        overrides = {"velocity_steps": row.velocity_steps}
        if row.velocity_steps == 0:  # refused by the settings' validation: an error row
            with pytest.raises(atoll.Error) as direct:
                atoll.run_scene("tower10", steps=STEPS, overrides=overrides, seed=row.seed)
            assert row.error == str(direct.value) and "velocity_steps" in row.error
            assert row.state_hash is None and row.steps is pandas.NA
            continue
        assert row.error == ""
        direct = atoll.run_scene("tower10", steps=STEPS, overrides=overrides, seed=row.seed)
        assert row.state_hash == direct["state_hash"]
        assert row.max_penetration_m == pytest.approx(direct["max_penetration_m"])
        assert row.steps == STEPS
    # seeds change the outcome, and each combination differs from the others
    good = table[table.error == ""]
    assert good["state_hash"].nunique() == len(good)


def test_bad_sweeps_raise_before_running(client):
    with pytest.raises(atoll.Error, match="no such scene"):
        atoll.sweep("no_such_scene", {"velocity_steps": [1]}, client=client)
    with pytest.raises(atoll.Error, match="no values"):
        atoll.sweep("tower10", {"velocity_steps": []}, client=client)
    with pytest.raises(atoll.Error, match="seeds"):
        atoll.sweep("tower10", {"velocity_steps": [1]}, seeds=0, client=client)


def test_cli_sweep_writes_csv(cli, tmp_path):
    out = tmp_path / "sweep.csv"
    subprocess.run([cli, "sweep", "tower10", "--grid", "velocity_steps=2,4",
                    "--grid", "gravity=[0,-9.81,0],[0,-5,0]", "--seeds", "2", "--steps", "20",
                    "--workers", "2", "--out", str(out), "--quiet"], check=True)
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 8
    assert list(rows[0])[:3] == ["velocity_steps", "gravity", "seed"]
    row = rows[-1]  # velocity_steps 4, gravity [0, -5, 0], seed 1
    assert row["error"] == ""
    summary = tmp_path / "one.json"
    subprocess.run([cli, "run", "tower10", "--steps", "20", "--set", "velocity_steps=4",
                    "--set", "gravity=[0,-5,0]", "--seed", "1", "--summary", str(summary),
                    "--quiet"], check=True)
    import json
    assert json.loads(summary.read_text())["state_hash"] == row["state_hash"]


def test_cli_sweep_errors(cli, tmp_path):
    out = tmp_path / "x.csv"
    bad = subprocess.run([cli, "sweep", "tower10", "--grid", "velocity_steps", "--out", str(out)],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--grid velocity_steps: expected KEY=V1,V2" in bad.stderr
    assert not out.exists()
    env = dict(os.environ, ATOLL_PYTHONPATH=str(tmp_path / "nowhere"), PYTHONPATH="")
    # run from tmp_path: python3 -c puts the working directory on sys.path, and CTest runs the
    # tests in <build>/python, which holds the module
    missing = subprocess.run([cli, "sweep", "tower10", "--out", str(out)], capture_output=True,
                             text=True, env=env, cwd=tmp_path)
    assert missing.returncode == 2 and "cannot import the Python module atoll" in missing.stderr
    env = dict(os.environ, ATOLL_PYTHON=str(tmp_path / "no_python"))
    no_python = subprocess.run([cli, "sweep", "tower10", "--out", str(out)],
                               capture_output=True, text=True, env=env)
    assert no_python.returncode == 2 and "cannot run" in no_python.stderr
    assert not out.exists()
