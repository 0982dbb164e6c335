"""Shared fixtures: the atoll command-line program (ATOLL_CLI, set by CTest) and small worlds."""

import os
import shutil

import pytest

import atoll


@pytest.fixture
def cli():
    """Path of the atoll executable; the test is skipped when it is not known."""
    path = os.environ.get("ATOLL_CLI") or shutil.which("atoll")
    if not path or not os.path.exists(path):
        pytest.skip("ATOLL_CLI not set (run through ctest)")
    return path


@pytest.fixture
def floor_world():
    """A world with a static floor (top face at y = 0) named "floor"."""
    world = atoll.World()
    world.create_body(atoll.box([20, 1, 20]), name="floor", motion="static", position=[0, -1, 0])
    return world
