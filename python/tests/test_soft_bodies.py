"""Soft bodies from Python (issue 11): made from a scene or by create_soft_body with the scene
format's keys, their vertices as numpy arrays, measures as a dict, ties to rigid bodies by ID,
errors that name the key, and rollback snapshots that bring them back."""

import numpy as np
import pytest

import atoll


def test_a_scenes_soft_bodies_are_there_by_name():
    world = atoll.World.from_scene("rope_bridge")
    assert world.soft_body_names == ["rope_front", "rope_back"]
    rope = world.soft_body("rope_front")
    before = world.get_soft_body_positions(rope)
    assert before.shape == (41, 3)
    assert before.dtype == np.float64
    for _ in range(60):
        world.step()
    after = world.get_soft_body_positions(rope)
    assert after[0].tolist() == before[0].tolist()  # pinned
    assert after[20][1] < before[20][1] - 0.1  # the middle sags under the planks
    info = world.soft_body_info(rope)
    assert info["vertex_count"] == 41
    assert info["bounds"][1][1] == pytest.approx(3.0)
    assert 0.0 <= info["max_strain"] < 0.1
    assert info["volume"] == 0.0


def test_create_soft_body_takes_the_scene_formats_keys_and_ties_by_id():
    world = atoll.World()
    crate = world.create_body(atoll.box([0.1, 0.1, 0.1]), name="crate", position=[1, 2.9, 0],
                              mass=0.2)
    rope = world.create_soft_body("rope", name="rope", from_=[-1, 3, 0], to=[1, 3, 0],
                                  segments=10, mass=1.0, compliance=1e-6, linear_damping=2,
                                  pinned="first", attach=[{"vertex": "last", "body": crate}])
    ball = world.create_soft_body("pressure_ball", center=[3, 1, 0], radius=0.3,
                                  subdivisions=1)
    assert world.soft_body_names == ["rope", "soft_body1"]
    for _ in range(600):
        world.step()
    # The crate hangs 2 m below the pin (plus its half height), still.
    state = world.get_state(crate)
    assert state["position"][1] == pytest.approx(0.9, abs=0.12)
    assert np.linalg.norm(state["linear_velocity"]) < 0.5
    # The ball fell and lies on nothing: no floor, so it keeps falling, whole.
    info = world.soft_body_info(ball)
    assert info["vertex_count"] == 42
    assert info["volume"] > 0.0
    assert info["center_of_mass"][1] < 0.0


def test_bad_soft_bodies_are_refused_with_the_key_and_nothing_is_made():
    world = atoll.World()
    with pytest.raises(atoll.Error, match=r"soft_bodies\[0\]\.compliance: must be >= 0"):
        world.create_soft_body("rope", from_=[0, 1, 0], to=[1, 1, 0], compliance=-1)
    with pytest.raises(atoll.Error, match=r"unknown soft body type \"jelly\""):
        world.create_soft_body("jelly")
    with pytest.raises(atoll.Error, match=r"attach\[0\]\.body: expected a body ID"):
        world.create_soft_body("rope", from_=[0, 1, 0], to=[1, 1, 0],
                               attach=[{"vertex": 0, "body": "crate"}])
    with pytest.raises(atoll.Error, match="is not a soft body"):
        world.get_soft_body_positions(12345)
    assert world.soft_body_names == []
    world.create_soft_body("cloth", name="sheet", center=[0, 1, 0], resolution=[4, 4])
    with pytest.raises(atoll.Error, match="exists already"):
        world.create_soft_body("cloth", name="sheet", center=[0, 1, 0])
    assert world.soft_body_names == ["sheet"]


def test_snapshots_bring_soft_bodies_back():
    world = atoll.World.from_scene("cloth_on_sphere")
    for _ in range(20):
        world.step()
    snapshot = world.save_snapshot()
    for _ in range(20):
        world.step()
    expected = world.state_hash()
    world.restore_snapshot(snapshot)
    world.create_soft_body("rope", name="extra", from_=[3, 2, 0], to=[4, 2, 0])
    for _ in range(5):
        world.step()
    world.restore_snapshot(snapshot)
    assert world.soft_body_names == ["cloth"]
    for _ in range(20):
        world.step()
    assert world.state_hash() == expected


def test_removing_a_soft_body_forgets_its_name():
    world = atoll.World.from_scene("cloth_on_sphere")
    cloth = world.soft_body("cloth")
    world.remove_body(cloth)
    assert world.soft_body_names == []
    with pytest.raises(atoll.Error, match="no soft body named"):
        world.soft_body("cloth")


def test_recordings_hold_the_soft_bodies_vertices(tmp_path):
    world = atoll.World.from_scene("rope_bridge")
    world.create_soft_body("cloth", name="flag", center=[0, 5, 0], resolution=[3, 3])
    path = tmp_path / "bridge.rec"
    world.start_recording(path, steps=5)
    for _ in range(5):
        world.step()
    world.finish_recording()
    recording = atoll.read_recording(path)
    assert sorted(recording["soft_bodies"]) == ["flag", "rope_back", "rope_front"]
    rope = recording["soft_bodies"]["rope_front"]
    assert rope["positions"].shape == (6, 41, 3)
    assert list(rope["flags"]) == [3] * 6  # awake, in the simulation
    last = world.get_soft_body_positions(world.soft_body("rope_front"))
    assert np.array_equal(rope["positions"][-1], last.astype(np.float32))
    assert recording["soft_bodies"]["flag"]["positions"].shape == (6, 9, 3)


def test_queries_find_soft_bodies_by_name():
    world = atoll.World()
    world.create_soft_body("cloth", name="sheet", center=[0, 1, 0], size=[2, 2],
                           resolution=[5, 5])
    world.create_soft_body("pressure_ball", name="ball", center=[0, 5, 0], radius=1.0,
                           subdivisions=2)
    hit = world.ray_cast([0.25, 3, 0.1], [0, -4, 0])
    assert hit["name"] == "sheet"
    assert hit["fraction"] == pytest.approx(0.5, abs=1e-5)
    assert hit["normal"] == pytest.approx([0, 1, 0])  # the face, turned toward the ray
    from_below = world.ray_cast([0.25, -1, 0.1], [0, 4, 0])
    assert from_below["normal"] == pytest.approx([0, -1, 0])
    assert [world.body_name(b) for b in world.overlap_point([0, 5, 0])] == ["ball"]
    assert [world.body_name(b) for b in world.overlap_box([-1, 0.9, -1], [1, 1.1, 1])] == [
        "sheet"]
