#!/usr/bin/env python3
"""Soak test (issue 10 item 7; not a CI test): runs built-in scenes for a long stretch of
simulated time (default an hour) with random pokes, and checks that

- every body's position and velocities stay finite (the engine's quarantine would also report
  a body that went non-finite),
- energy is bounded: the bodies' total specific energy (½|v|² + g·h per unit mass, summed; the
  scenes' masses are not needed for a bound on what the engine itself adds) never exceeds what
  the scene started with plus what the pokes put in (each poke's change is measured exactly), by
  more than --energy-slack,
- memory does not grow: the process's resident memory after the run is within --rss-slack of
  what it was after the first tenth.

Usage (from the repository, after building the Python module):
  PYTHONPATH=build/release/python /usr/bin/python3 scripts/soak.py [--minutes 60]
      [--scenes demo,ragdolls] [--seed 1] [--poke-every 30] [--poke-speed 4]
Prints one line per simulated minute per scene and a verdict; exits 1 on a failure.
"""

import argparse
import math
import random
import sys

import numpy as np

import atoll


def rss_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return float("nan")


def specific_energy(world, ids, gravity):
    """Σ over the dynamic bodies of ½|v|² + |g|·h (J/kg; h measured along -g)."""
    v = world.get_linear_velocities(ids)
    x = world.get_positions(ids)
    g = np.asarray(gravity, dtype=np.float64)
    g_norm = np.linalg.norm(g)
    up = -g / g_norm if g_norm > 0 else np.zeros(3)
    return float(0.5 * np.sum(v.astype(np.float64) ** 2) + g_norm * np.sum(x.astype(np.float64) @ up))


def soak(scene, minutes, seed, poke_every, poke_speed, energy_slack):
    world = atoll.World.from_scene(scene)
    dt = world.dt
    gravity = world.settings["gravity"]
    ids = [i for i in world.body_ids if world.get_state(i)["motion"] == "dynamic"]
    if not ids:
        print(f"{scene}: no dynamic bodies")
        return True, None
    rng = random.Random(seed)
    steps = int(round(minutes * 60.0 / dt))
    steps_per_minute = int(round(60.0 / dt))
    start_energy = specific_energy(world, ids, gravity)
    injected = 0.0
    peak_excess = -math.inf
    rss_early = None
    ok = True
    for step in range(1, steps + 1):
        if step % poke_every == 0:
            body = rng.choice(ids)
            before = specific_energy(world, [body], gravity)
            state = world.get_state(body)
            dv = [rng.uniform(-poke_speed, poke_speed) for _ in range(3)]
            v = [a + b for a, b in zip(state["linear_velocity"], dv)]
            world.set_state(body, linear_velocity=v)
            world.activate(body)
            injected += specific_energy(world, [body], gravity) - before
        world.step()
        if step % 60 == 0 or step == steps:
            x = world.get_positions(ids)
            v = world.get_linear_velocities(ids)
            w = world.get_angular_velocities(ids)
            if not (np.isfinite(x).all() and np.isfinite(v).all() and np.isfinite(w).all()):
                print(f"{scene}: step {step}: a body's state is not finite")
                return False, rss_early
            energy = specific_energy(world, ids, gravity)
            allowed = start_energy + max(injected, 0.0)
            scale = max(abs(start_energy), abs(allowed), 1.0)
            excess = (energy - allowed) / scale
            peak_excess = max(peak_excess, excess)
            if excess > energy_slack:
                print(f"{scene}: step {step}: energy {energy:.6g} J/kg exceeds the start plus the "
                      f"pokes, {allowed:.6g} J/kg, by {100 * excess:.2f} %")
                ok = False
        if rss_early is None and step >= steps // 10:
            rss_early = rss_mb()
        if step % steps_per_minute == 0:
            print(f"{scene}: minute {step // steps_per_minute}: energy "
                  f"{specific_energy(world, ids, gravity):.6g} J/kg (start {start_energy:.6g}, "
                  f"pokes {injected:+.6g}), rss {rss_mb():.1f} MB", flush=True)
    print(f"{scene}: {steps} steps; largest energy above the start plus the pokes: "
          f"{100 * peak_excess:.3f} % of it; rss after a tenth {rss_early:.1f} MB, at the end "
          f"{rss_mb():.1f} MB")
    return ok, rss_early


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=60.0, help="simulated minutes per scene")
    parser.add_argument("--scenes", default="demo,ragdolls", help="built-in scenes, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--poke-every", type=int, default=30, help="steps between pokes")
    parser.add_argument("--poke-speed", type=float, default=4.0,
                        help="largest velocity change per axis of a poke (m/s)")
    parser.add_argument("--energy-slack", type=float, default=0.05,
                        help="allowed energy above the start plus the pokes, as a fraction")
    parser.add_argument("--rss-slack", type=float, default=0.10,
                        help="allowed growth of resident memory after the first tenth")
    args = parser.parse_args()
    all_ok = True
    for scene in args.scenes.split(","):
        ok, rss_early = soak(scene, args.minutes, args.seed, args.poke_every, args.poke_speed,
                             args.energy_slack)
        rss_end = rss_mb()
        if rss_early is not None and rss_end > rss_early * (1.0 + args.rss_slack) + 2.0:
            print(f"{scene}: resident memory grew from {rss_early:.1f} to {rss_end:.1f} MB")
            ok = False
        all_ok = all_ok and ok
    print("soak: " + ("passed" if all_ok else "FAILED"))
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
