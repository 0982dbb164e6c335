"""Ray casts and overlaps, stepping, contact events, state hashes."""

import pytest

import atoll


def test_ray_cast(floor_world):
    w = floor_world
    b = w.create_body(atoll.box([0.5, 0.5, 0.5]), name="crate", position=[0, 2, 0])
    hit = w.ray_cast([0, 10, 0], [0, -20, 0])
    assert hit["body"] == b and hit["name"] == "crate"
    assert hit["fraction"] == pytest.approx(7.5 / 20, abs=1e-4)
    assert hit["point"] == pytest.approx([0, 2.5, 0], abs=1e-3)
    assert hit["normal"] == pytest.approx([0, 1, 0], abs=1e-4)
    # A sphere hit from the side, off-centre: the normal points from its centre to the hit.
    ball = w.create_body(atoll.sphere(1.0), name="ball", position=[10, 3, 0], motion="static")
    side = w.ray_cast([5, 3.6, 0], [10, 0, 0])
    assert side["body"] == ball
    assert side["normal"] == pytest.approx([-0.8, 0.6, 0], abs=1e-4)
    names = [h["name"] for h in w.ray_cast_all([0, 10, 0], [0, -20, 0])]
    assert names == ["crate", "floor"]
    assert w.ray_cast([5, 10, 0], [0, 5, 0]) is None
    with pytest.raises(atoll.Error):
        w.ray_cast([0, float("inf"), 0], [0, -1, 0])
    assert w.overlap_point([0, 2, 0]) == [b]
    assert set(w.overlap_box([-1, 1, -1], [1, 3, 1])) == {b}
    with pytest.raises(atoll.Error, match="min"):
        w.overlap_box([1, 1, 1], [0, 0, 0])


def test_step_and_contact_events(floor_world):
    w = floor_world
    ball = w.create_body(atoll.sphere(0.5), name="ball", position=[0, 1.0, 0])
    added = []
    for _ in range(60):
        info = w.step()
        added += [e for e in w.contact_events() if e["type"] == "added"]
    assert info["active_bodies"] >= 0 and info["warning"] == ""
    assert len(added) == 1
    e = added[0]
    assert {e["name1"], e["name2"]} == {"ball", "floor"} and e["body1"] == ball
    assert e["normal"] == pytest.approx([0, -1, 0], abs=1e-3)
    assert w.get_state(ball)["position"][1] == pytest.approx(0.5, abs=0.03)


def test_same_calls_same_hash():
    def build():
        w = atoll.World()
        w.create_body(atoll.box([10, 1, 10]), motion="static", position=[0, -1, 0])
        for i in range(5):
            w.create_body(atoll.box([0.5, 0.5, 0.5]), position=[0.1 * i, 1 + 1.1 * i, 0])
        return w
    a, b = build(), build()
    b.threads = 2
    for _ in range(50):
        a.step()
        b.step()
    assert a.state_hash() == b.state_hash()
    assert len(a.state_hash()) == 16
