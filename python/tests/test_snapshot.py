"""Rollback snapshots from Python (issue 10 item 2): a reinforcement-learning reset or a
rollback restores the whole world — bodies made or removed since are undone, IDs and names
come back — and the next steps give the same bits as the run that was saved."""

import pytest

import atoll


def _world():
    world = atoll.World.from_scene("ragdolls")
    for _ in range(30):
        world.step()
    return world


def test_restoring_a_snapshot_undoes_bodies_made_and_removed_since():
    world = _world()
    snapshot = world.save_snapshot()
    assert snapshot.bytes > 0
    names = world.body_names
    ids = world.body_ids
    for _ in range(20):
        world.step()
    expected = world.state_hash()

    world.restore_snapshot(snapshot)
    ball = world.create_body(atoll.sphere(0.2), name="ball", position=[0, 3, 0])
    world.remove_body(ids[3])
    for _ in range(5):
        world.step()
    assert "ball" in world.body_names

    world.restore_snapshot(snapshot)
    assert world.body_names == names
    assert list(world.body_ids) == list(ids)
    with pytest.raises(atoll.Error, match="no body named"):
        world.body("ball")
    for _ in range(20):
        world.step()
    assert world.state_hash() == expected
    # The ball's ID is free again: the next body created gets it.
    assert world.create_body(atoll.sphere(0.2), name="ball", position=[0, 3, 0]) == ball


def test_a_snapshot_of_another_world_is_refused():
    world, other = _world(), _world()
    snapshot = other.save_snapshot()
    before = world.state_hash()
    with pytest.raises(atoll.Error, match="was taken of another World"):
        world.restore_snapshot(snapshot)
    assert world.state_hash() == before


def test_saving_into_a_snapshot_reuses_it():
    world = _world()
    snapshot = world.save_snapshot()
    world.step()
    assert world.save_snapshot(snapshot) is snapshot
