"""Scenes: files, built-ins and dicts through the scene reader; run_scene's summary is the
CLI's; seeds are the CLI's."""

import json
import subprocess

import pytest

import atoll

STEPS = 30


def cli_summary(cli, tmp_path, *args):
    out = tmp_path / "summary.json"
    subprocess.run([cli, "run", *args, "--summary", str(out), "--quiet"], check=True)
    return json.loads(out.read_text())


def test_pyramid_hash_is_the_clis(cli, tmp_path):
    mine = atoll.run_scene("pyramid", steps=STEPS)
    theirs = cli_summary(cli, tmp_path, "pyramid", "--steps", str(STEPS))
    assert mine["state_hash"] == theirs["state_hash"]
    # the same summary, key for key, but the wall-clock times
    for key in ("wall_ms_per_step", "stage_ms"):
        mine.pop(key)
        theirs.pop(key)
    assert mine == theirs


def test_overrides_and_seeds_are_the_clis(cli, tmp_path):
    mine = atoll.run_scene("tower10", steps=STEPS, overrides={"velocity_steps": 3}, seed=5)
    theirs = cli_summary(cli, tmp_path, "tower10", "--steps", str(STEPS),
                         "--set", "velocity_steps=3", "--seed", "5")
    assert mine["state_hash"] == theirs["state_hash"]
    plain = atoll.run_scene("tower10", steps=STEPS, overrides={"velocity_steps": 3})
    assert plain["state_hash"] != mine["state_hash"]
    assert atoll.run_scene("tower10", steps=STEPS, overrides=["velocity_steps=3"],
                           seed=0)["state_hash"] == plain["state_hash"]


def test_cli_refuses_a_bad_seed(cli, tmp_path):
    for seed in ("-1", "4294967296"):
        out = tmp_path / "s.json"
        bad = subprocess.run([cli, "run", "tower10", "--steps", "2", "--seed", seed,
                              "--summary", str(out)], capture_output=True, text=True)
        assert bad.returncode == 2 and "--seed: must be in [0, 4294967295]" in bad.stderr
        assert not out.exists()


def test_seed_perturbation_is_small_and_dynamic_only():
    plain = atoll.World.from_scene("tower10")
    seeded = atoll.World.from_scene("tower10", seed=9)
    dp = seeded.get_positions() - plain.get_positions()
    dv = seeded.get_linear_velocities() - plain.get_linear_velocities()
    pos_jitter, vel_jitter = atoll._atoll.seed_jitter()
    assert (abs(dp[0]) == 0).all() and (abs(dv[0]) == 0).all()  # the static floor
    assert 0 < abs(dp[1:]).max() <= pos_jitter and 0 < abs(dv[1:]).max() <= vel_jitter
    again = atoll.World.from_scene("tower10", seed=9)
    assert (again.get_positions() == seeded.get_positions()).all()


def test_dict_scene_and_file_scene(tmp_path):
    scene = {"bodies": [
        {"name": "floor", "shape": {"type": "box", "half_extent": [5, 1, 5]},
         "position": [0, -1, 0], "motion": "static"},
        {"name": "ball", "shape": {"type": "sphere", "radius": 0.5}, "position": [0, 3, 0]}],
        "settings": {"steps": 90}}
    from_dict = atoll.run_scene(scene)
    assert from_dict["steps"] == 90
    assert from_dict["bodies"]["ball"]["position"][1] == pytest.approx(0.5, abs=0.03)
    path = tmp_path / "scene.json"
    path.write_text(json.dumps(scene))
    assert atoll.run_scene(path)["state_hash"] == from_dict["state_hash"]
    world = atoll.World.from_scene(str(path))
    assert world.body_names == ["floor", "ball"]
    assert world.run(90)["state_hash"] == from_dict["state_hash"]
    assert world.contact_events() == []
    world.set_state(world.body("ball"), position=[0, 0.6, 0], linear_velocity=[0, -1, 0])
    world.step()  # lifted off the floor: the contact kept from the run ends in this step
    assert [e["type"] for e in world.contact_events()] == ["removed"]


def test_bad_scenes_raise_with_the_message():
    with pytest.raises(atoll.Error, match=r"<dict>: bodies\[0\]\.shape"):
        atoll.run_scene({"bodies": [{"name": "a", "shape": "nothing"}]})
    with pytest.raises(atoll.Error, match="no such scene file or built-in scene"):
        atoll.run_scene("no_such_scene")
    with pytest.raises(atoll.Error, match="--set: velocity_steps"):
        atoll.run_scene("tower10", steps=2, overrides={"velocity_steps": "many"})
    with pytest.raises(atoll.Error, match="velocity_steps"):
        atoll.run_scene("tower10", steps=2, overrides={"velocity_steps": 0})
    with pytest.raises(atoll.Error, match="seed"):
        atoll.run_scene("tower10", steps=2, seed=-1)
    with pytest.raises(atoll.Error, match="steps"):
        atoll.run_scene("tower10", steps=0)
    assert "pyramid" in atoll.builtin_scenes()
