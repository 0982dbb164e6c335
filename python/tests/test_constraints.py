"""Constraints: direct creation through the scene format's constraint reader, and from scenes."""

import numpy as np
import pytest

import atoll


def pendulum(kind):
    w = atoll.World()
    bob = w.create_body(atoll.sphere(0.1), name="bob", position=[1, 5, 0])
    if kind == "point":
        c = w.add_point_constraint(None, bob, [0, 5, 0])
    elif kind == "hinge":
        c = w.add_hinge_constraint(None, bob, [0, 5, 0], [0, 0, 1])
    else:
        c = w.add_distance_constraint(None, bob, [0, 5, 0], [1, 5, 0])
    return w, bob, c


@pytest.mark.parametrize("kind", ["point", "hinge", "distance"])
def test_pendulum_keeps_its_length(kind):
    w, bob, c = pendulum(kind)
    assert c.type == kind and c.enabled
    for _ in range(120):
        w.step()
    p = np.array(w.get_state(bob)["position"])
    assert np.linalg.norm(p - [0, 5, 0]) == pytest.approx(1.0, abs=0.01)
    assert p[1] < 4.5  # it swung down
    assert c.total_lambda()  # impulses reported per part


def test_fixed_and_removal():
    w = atoll.World()
    a = w.create_body(atoll.box([0.5, 0.5, 0.5]), position=[0, 5, 0], motion="kinematic")
    b = w.create_body(atoll.box([0.5, 0.5, 0.5]), position=[1, 5, 0])
    c = w.add_fixed_constraint(a, b, name="weld")
    for _ in range(30):
        w.step()
    assert w.get_state(b)["position"][1] == pytest.approx(5.0, abs=0.01)
    w.remove_constraint(c)
    w.activate(b)  # it fell asleep held by the weld; removing a constraint wakes nothing
    for _ in range(30):
        w.step()
    assert w.get_state(b)["position"][1] < 4.5
    with pytest.raises(atoll.Error, match="removed"):
        w.remove_constraint(c)


def test_bad_constraints_raise_and_add_nothing():
    w, bob, _ = pendulum("point")
    with pytest.raises(atoll.Error, match="hinge_axis.*zero"):
        w.add_hinge_constraint(None, bob, [0, 5, 0], [0, 0, 0])
    with pytest.raises(atoll.Error, match="unknown"):
        w.add_constraint("glue", None, bob)
    with pytest.raises(atoll.Error):
        w.add_point_constraint(None, 987654, [0, 0, 0])
    with pytest.raises(atoll.Error, match="taken"):
        w.add_point_constraint(None, bob, [0, 5, 0], name="constraint0")
    # the world is unchanged: one constraint, the same motion as a fresh pendulum
    w2, bob2, _ = pendulum("point")
    for _ in range(30):
        w.step()
        w2.step()
    assert w.state_hash() == w2.state_hash()


def test_scene_constraints_from_a_dict():
    scene = {
        "bodies": [{"name": "door", "shape": {"type": "box", "half_extent": [0.5, 1, 0.05]},
                    "position": [0.5, 1, 0], "angular_velocity": [0, 2, 0]}],
        "constraints": [{"name": "hinge", "type": "hinge", "body1": "world", "body2": "door",
                         "point": [0, 1, 0], "hinge_axis": [0, 1, 0], "limits_min": -0.5,
                         "limits_max": 0.5}],
        "settings": {"gravity": [0, 0, 0]},
    }
    summary = atoll.run_scene(scene, steps=60)
    assert "hinge" in summary["constraints"]
    q = summary["bodies"]["door"]["rotation"]
    angle = 2 * np.arctan2(np.linalg.norm(q[:3]), q[3])
    assert angle <= 0.5 + 0.02
