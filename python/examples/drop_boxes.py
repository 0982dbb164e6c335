#!/usr/bin/env python3
"""Drops a few boxes on a floor and plots their heights over time.

    PYTHONPATH=build/release/python python3 python/examples/drop_boxes.py [--out heights.png]

Plots with matplotlib when it is installed (Debian: python3-matplotlib); otherwise prints the
final heights only.
"""

import argparse

import numpy as np

import atoll


def main():
    """Builds the world, steps it, prints the final heights and plots them over time."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boxes", type=int, default=5, help="number of boxes")
    parser.add_argument("--steps", type=int, default=180, help="steps of 1/60 s")
    parser.add_argument("--out", default="drop_boxes.png", help="plot file (PNG)")
    args = parser.parse_args()

    world = atoll.World(gravity=[0, -9.81, 0])
    world.create_body(atoll.box([10, 1, 10]), name="floor", motion="static", position=[0, -1, 0])
    crate = atoll.box([0.4, 0.4, 0.4], convex_radius=0.05)
    boxes = [world.create_body(crate, name=f"box{i}", position=[1.2 * i - 2, 2 + i, 0],
                               rotation=[0, np.sin(0.1 * i), 0, np.cos(0.1 * i)],
                               restitution=0.3)
             for i in range(args.boxes)]

    heights = np.empty((args.steps + 1, len(boxes)))
    heights[0] = world.get_positions(boxes)[:, 1]
    for step in range(args.steps):
        world.step()
        heights[step + 1] = world.get_positions(boxes)[:, 1]
    time = np.arange(args.steps + 1) * world.dt

    for i, b in enumerate(boxes):
        print(f"{world.body_name(b)}: {heights[-1, i]:.3f} m")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    fig, ax = plt.subplots(figsize=(7, 4))
    for i, b in enumerate(boxes):
        ax.plot(time, heights[:, i], label=world.body_name(b))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("height of the box centre (m)")
    ax.legend()
    fig.savefig(args.out, dpi=100)
    print(f"plot: {args.out}")


if __name__ == "__main__":
    main()
