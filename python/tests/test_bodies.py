"""Bodies: creation with fields, state get/set, numpy arrays of many bodies, all or nothing."""

import numpy as np
import pytest

import atoll


def test_create_body_with_fields(floor_world):
    w = floor_world
    b = w.create_body(atoll.sphere(0.5), name="ball", position=[1, 2, 3],
                      rotation=[0, 0, 0.6, 0.8], linear_velocity=[1, 0, 0],
                      angular_velocity=[0, 2, 0], friction=0.7, restitution=0.4, mass=3.0)
    s = w.get_state(b)
    assert s["name"] == "ball" and w.body("ball") == b and w.body_name(b) == "ball"
    assert s["position"] == pytest.approx([1, 2, 3])
    assert s["rotation"] == pytest.approx([0, 0, 0.6, 0.8])
    assert s["linear_velocity"] == pytest.approx([1, 0, 0])
    assert s["angular_velocity"] == pytest.approx([0, 2, 0])
    assert s["friction"] == pytest.approx(0.7) and s["restitution"] == pytest.approx(0.4)
    assert s["motion"] == "dynamic" and s["active"]
    assert w.get_state(w.body("floor"))["motion"] == "static"
    assert w.body_names == ["floor", "ball"]
    # mass 3 kg: an impulse of 3 N·s changes the velocity by 1 m/s
    w.add_impulse(b, [0, 0, 3])
    assert w.get_state(b)["linear_velocity"] == pytest.approx([1, 0, 1])


def test_bad_body_raises_and_creates_nothing(floor_world):
    w = floor_world
    with pytest.raises(atoll.Error, match="friction.*>= 0"):
        w.create_body(atoll.sphere(0.5), friction=-1)
    with pytest.raises(atoll.Error, match="motion"):
        w.create_body(atoll.sphere(0.5), motion="flying")
    with pytest.raises(atoll.Error, match="static body has no mass"):
        w.create_body(atoll.sphere(0.5), motion="static", mass=2)
    with pytest.raises(atoll.Error, match="exists already"):
        w.create_body(atoll.sphere(0.5), name="floor")
    with pytest.raises(atoll.Error, match="position"):
        w.create_body(atoll.sphere(0.5), position=[0, 1e9, 0])
    assert w.body_names == ["floor"]
    with pytest.raises(atoll.Error, match="no body named"):
        w.body("nobody")


def test_set_state_is_all_or_nothing(floor_world):
    w = floor_world
    b = w.create_body(atoll.box([0.5, 0.5, 0.5]), position=[0, 3, 0])
    before = w.get_state(b)
    with pytest.raises(atoll.Error, match="rotation"):
        w.set_state(b, position=[5, 5, 5], rotation=[0, 0, 0, 3])  # not normalized
    with pytest.raises(atoll.Error):
        w.set_state(b, position=[1, 1, 1], linear_velocity=[float("nan"), 0, 0])
    assert w.get_state(b) == before
    w.set_state(b, position=[1, 4, 1], linear_velocity=[0, 1, 0])
    assert w.get_state(b)["position"] == pytest.approx([1, 4, 1])
    w.remove_body(b)
    with pytest.raises(atoll.Error):
        w.get_state(b)
    assert w.body_names == ["floor"]


def test_numpy_round_trips(floor_world):
    w = floor_world
    ids = [w.create_body(atoll.sphere(0.25), position=[i, 1, 0]) for i in range(5)]
    rng = np.random.default_rng(7)
    positions = rng.uniform(-5, 5, (5, 3)).astype(np.float32).astype(np.float64)
    q = rng.normal(size=(5, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    q = q.astype(np.float32).astype(np.float64)
    v = rng.uniform(-2, 2, (5, 3)).astype(np.float32).astype(np.float64)
    wv = rng.uniform(-2, 2, (5, 3)).astype(np.float32).astype(np.float64)
    w.set_positions(positions, ids)
    w.set_rotations(q, ids)
    w.set_linear_velocities(v, ids)
    w.set_angular_velocities(wv, ids)
    assert np.array_equal(w.get_positions(ids), positions)
    assert np.allclose(w.get_rotations(ids), q, atol=1e-6)
    assert np.array_equal(w.get_linear_velocities(ids), v)
    assert np.array_equal(w.get_angular_velocities(ids), wv)
    # every body, creation order: the floor first
    everything = w.get_positions()
    assert everything.shape == (6, 3) and everything.dtype == np.float64
    assert np.array_equal(everything[1:], positions)
    assert list(w.body_ids[1:]) == ids


def test_bad_numpy_input_changes_nothing(floor_world):
    w = floor_world
    ids = [w.create_body(atoll.sphere(0.25), position=[i, 1, 0]) for i in range(3)]
    before = w.get_positions()
    bad = np.zeros((3, 3))
    bad[2, 1] = np.nan  # the last row is refused after the first two were set
    with pytest.raises(atoll.Error, match=r"set_positions: row 2 .*"):
        w.set_positions(bad, ids)
    with pytest.raises(atoll.Error, match=r"shape \(3, 3\)"):
        w.set_positions(np.zeros((2, 3)), ids)
    with pytest.raises(atoll.Error, match=r"ids\[1\]"):
        w.set_positions(np.zeros((2, 3)), [ids[0], 123456])
    with pytest.raises(atoll.Error, match="row 0"):
        # the floor is static: it has no velocity to set
        w.set_linear_velocities(np.ones((1, 3)), [w.body("floor")])
    assert np.array_equal(w.get_positions(), before)
