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


def test_gear_couples_two_hinges_made_before():
    w = atoll.World(settings={"gravity": [0, 0, 0]})
    wheel1 = w.create_body(atoll.sphere(0.5), name="wheel1", position=[0, 2, 0],
                           angular_velocity=[0, 0, 3])
    wheel2 = w.create_body(atoll.sphere(0.5), name="wheel2", position=[2, 2, 0])
    w.add_hinge_constraint(None, wheel1, [0, 2, 0], [0, 0, 1], name="axle1")
    w.add_hinge_constraint(None, wheel2, [2, 2, 0], [0, 0, 1], name="axle2")
    gear = w.add_constraint("gear", wheel1, wheel2, name="gear", hinge_axis=[0, 0, 1],
                            ratio=2.0, constraint1="axle1", constraint2="axle2")
    assert gear.type == "gear"
    for _ in range(60):
        w.step()
    w1 = w.get_state(wheel1)["angular_velocity"][2]
    w2 = w.get_state(wheel2)["angular_velocity"][2]
    assert abs(w1) > 0.5 and abs(w2) > 0.25  # both turn
    assert w1 + 2.0 * w2 == pytest.approx(0.0, abs=1e-3 * abs(w1))  # ω1 + ratio·ω2 = 0
    # A name that is not a constraint, or one of the wrong type, is refused and adds nothing.
    with pytest.raises(atoll.Error, match="unknown constraint"):
        w.add_constraint("gear", wheel1, wheel2, hinge_axis=[0, 0, 1], ratio=2.0,
                         constraint1="axle1", constraint2="nope")
    with pytest.raises(atoll.Error, match="expected a hinge"):
        w.add_constraint("gear", wheel1, wheel2, hinge_axis=[0, 0, 1], ratio=2.0,
                         constraint1="axle1", constraint2="gear")
