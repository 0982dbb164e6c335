"""Recordings written from Python, read back as numpy arrays."""

import numpy as np
import pytest

import atoll


def test_record_and_read_back(floor_world, tmp_path):
    w = floor_world
    w.create_body(atoll.box([0.5, 0.5, 0.5]), name="crate", position=[0, 3, 0])
    path = tmp_path / "drop.atollrec"
    w.start_recording(path, 20)
    for _ in range(20):
        w.step()
    w.finish_recording()
    rec = atoll.read_recording(path)
    assert rec["bodies"] == ["floor", "crate"] and rec["steps"] == 20
    assert rec["positions"].shape == (21, 2, 3) and rec["rotations"].shape == (21, 2, 4)
    assert np.array_equal(rec["positions"][-1].astype(np.float64), w.get_positions())
    assert rec["positions"][0, 1, 1] == pytest.approx(3.0)
    assert (rec["flags"][:, 1] & 1).all()  # the crate stayed awake


def test_wrong_number_of_steps_writes_nothing(floor_world, tmp_path):
    w = floor_world
    path = tmp_path / "short.atollrec"
    w.start_recording(path, 5)
    with pytest.raises(atoll.Error, match="open already"):
        w.start_recording(tmp_path / "other.atollrec", 5)
    w.step()
    with pytest.raises(atoll.Error):
        w.finish_recording()
    assert not path.exists()
    with pytest.raises(atoll.Error, match="no recording"):
        w.finish_recording()
    with pytest.raises(atoll.Error):
        w.start_recording(tmp_path / "no_dir" / "x.atollrec", 1)
