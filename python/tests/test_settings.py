"""World settings: the PhysicsSettings field table by name, validation, nothing changed on
error."""

import pytest

import atoll


def test_every_field_of_the_table_is_a_setting():
    world = atoll.World()
    names = [name for name, _unit in atoll.settings_fields()]
    assert "velocity_steps" in names and "gravity" in names
    assert set(names) <= set(world.settings)
    assert world.settings["velocity_steps"] == 10
    assert world.settings["gravity"] == pytest.approx([0, -9.81, 0])
    assert world.dt == pytest.approx(1 / 60)


def test_settings_by_keyword_and_dict():
    world = atoll.World({"velocity_steps": 4}, gravity=[0, -1, 0], dt=0.01)
    assert world.settings["velocity_steps"] == 4
    assert world.settings["gravity"] == pytest.approx([0, -1, 0])
    assert world.dt == pytest.approx(0.01)
    world.set_settings(position_steps=3)
    assert world.settings["position_steps"] == 3
    assert world.settings["velocity_steps"] == 4


def test_bad_settings_raise_with_the_message_and_change_nothing():
    world = atoll.World(velocity_steps=6)
    before = world.settings
    with pytest.raises(atoll.Error, match="velocity_steps.*>= 1"):
        world.set_settings(velocity_steps=0)
    with pytest.raises(atoll.Error, match="no_such_key.*unknown key"):
        world.set_settings(no_such_key=1)
    with pytest.raises(ValueError, match="gravity"):
        world.set_settings(gravity=[0, "down", 0])
    assert world.settings == before
    with pytest.raises(atoll.Error, match="velocity_steps"):
        atoll.World(velocity_steps=-2)


def test_error_is_a_value_error():
    assert issubclass(atoll.Error, ValueError)
