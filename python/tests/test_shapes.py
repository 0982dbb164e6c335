"""Shapes through the scene format's shape reader."""

import numpy as np
import pytest

import atoll


def test_primitive_shapes():
    assert atoll.box([0.5, 1, 2]).type == "box"
    assert atoll.box([0.5, 0.5, 0.5]).mass == pytest.approx(1000.0)  # density 1000 kg/m³
    assert atoll.sphere(0.5).type == "sphere"
    assert atoll.capsule(1.0, 0.25).type == "capsule"
    assert atoll.cylinder(0.5, 0.3).type == "cylinder"
    lo, hi = atoll.sphere(2).bounds
    assert lo == pytest.approx([-2, -2, -2]) and hi == pytest.approx([2, 2, 2])


def test_convex_hull_from_numpy():
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], float)
    hull = atoll.convex_hull(corners)
    assert hull.type == "convex_hull"
    lo, hi = hull.bounds
    assert lo == pytest.approx([-1, -1, -1], abs=1e-5) and hi == pytest.approx([1, 1, 1], abs=1e-5)


def test_any_scene_shape_type():
    compound = atoll.shape(type="compound", children=[
        {"shape": {"type": "sphere", "radius": 0.5}, "position": [1, 0, 0]},
        {"shape": {"type": "box", "half_extent": [0.2, 0.2, 0.2]}, "position": [-1, 0, 0]}])
    assert compound.type == "compound"
    mesh = atoll.shape({"type": "mesh", "vertices": [[0, 0, 0], [1, 0, 0], [0, 0, 1]],
                        "triangles": [[0, 2, 1]]})
    assert mesh.type == "mesh"


def test_bad_shapes_raise_with_the_message():
    with pytest.raises(atoll.Error, match="radius.*must be > 0"):
        atoll.sphere(-1)
    with pytest.raises(atoll.Error, match="half_extent"):
        atoll.box([1, 0, 1])
    with pytest.raises(atoll.Error, match="unknown"):
        atoll.shape(type="blob")
    with pytest.raises(TypeError):
        atoll.shape("box")
