"""Parameter sweeps on a Dask cluster: ``atoll.sweep`` and ``atoll sweep`` (``python3 -m
atoll.sweeps``).

Every combination of the grid's settings overrides and every seed is one independent run of the
scene, as ``atoll run SCENE --set KEY=VALUE... --seed SEED --summary`` would do it; the runs are
spread over a Dask cluster (a ``LocalCluster`` in this process by default, or any scheduler) and
come back as one row each of a pandas DataFrame. A run that fails is a row with its error.

Seeds (docs/sweeps.md): seed 0 runs the scene as written; seed s > 0 moves every dynamic body by
up to 1 mm per axis and changes its linear velocity by up to 1 cm/s per axis, drawn from
std::mt19937 seeded with s (the same bits as ``atoll run --seed s``).
"""

import argparse
import itertools
import json
import os
import sys
import time

import atoll

#: Summary figures copied into each row (besides the grid keys, ``seed`` and ``error``).
FIGURES = ["state_hash", "max_penetration_m", "wall_ms_per_step", "steps",
           "first_all_asleep_step", "active_bodies_end"]


def scene_spec(scene):
    """A picklable description of ``scene`` that any worker can read without the client's
    files: ``(source, text)`` with the JSON text, or ``(name, None)`` for a built-in scene.

    ``scene``: a scene file path, a built-in scene name, a dict or an :class:`atoll.Scene`.
    Raises :class:`atoll.Error` when it cannot be read (checked here, once, before any run).
    """
    if isinstance(scene, atoll.Scene):
        return scene.source, scene.to_json()
    if isinstance(scene, dict):
        text = json.dumps(atoll._plain(scene))
        atoll._atoll.load_scene("<dict>", text)
        return "<dict>", text
    path = os.fspath(scene)
    if os.path.isfile(path):
        atoll._atoll.load_scene(path)
        with open(path, encoding="utf-8") as f:
            return path, f.read()
    atoll._atoll.load_scene(path)  # a built-in name, or the error naming it
    return path, None


def run_one(spec, overrides, seed, steps):
    """One run of a sweep (executed on a worker): the row's figures, or its error.

    ``spec`` from :func:`scene_spec`; ``overrides``: ``"KEY=VALUE"`` texts; ``seed`` as for
    :func:`atoll.load_scene`; ``steps``: None for the scene's. Returns a dict with the keys of
    :data:`FIGURES` and ``error`` ("" on success; the figures are None on error).
    """
    row = {key: None for key in FIGURES}
    try:
        source, text = spec
        scene = atoll._atoll.load_scene(source, text) if text is not None else \
            atoll._atoll.load_scene(source)
        summary = atoll.run_scene(scene, steps=steps, overrides=overrides, seed=seed)
    except atoll.Error as e:
        row["error"] = str(e)
        return row
    except Exception as e:  # noqa: BLE001 - any failure becomes the row's error
        row["error"] = f"{type(e).__name__}: {e}"
        return row
    for key in FIGURES:
        if key in summary:
            row[key] = summary[key]
    row["active_bodies_end"] = summary["active_bodies"][-1] if summary["active_bodies"] else 0
    row["error"] = ""
    return row


def _grid_runs(grid, seeds):
    """The runs of a sweep, in row order: (grid values dict, seed)."""
    if not isinstance(grid, dict):
        raise TypeError(f"grid: expected a dict of key -> list of values, got "
                        f"{type(grid).__name__}")
    keys = list(grid)
    values = []
    for key in keys:
        v = grid[key]
        v = list(v) if isinstance(v, (list, tuple)) else [v]
        if not v:
            raise atoll.Error(f"grid: {key}: no values")
        values.append(v)
    if isinstance(seeds, int):
        if seeds < 1:
            raise atoll.Error(f"seeds: must be >= 1, got {seeds}")
        seeds = range(seeds)
    seeds = [int(s) for s in seeds]
    for s in seeds:
        if s < 0 or s > 0xFFFFFFFF:
            raise atoll.Error(f"seeds: must be in [0, 4294967295], got {s}")
    return [(dict(zip(keys, combo)), seed)
            for combo in itertools.product(*values) for seed in seeds]


def _connect(client):
    """(client, things to close): the given Client, a Client of a scheduler address, or a new
    LocalCluster in this process."""
    from distributed import Client, LocalCluster
    if isinstance(client, Client):
        return client, []
    if isinstance(client, str):
        c = Client(client, timeout="10s")
        return c, [c]
    if client is not None:
        raise TypeError(f"client: expected None, a distributed.Client or a scheduler address, "
                        f"got {type(client).__name__}")
    # Threads in this process: the runs release the GIL, so they run in parallel, and the
    # cluster starts in well under a second. The dashboard (when bokeh is installed) takes a free
    # port rather than 8787, which another cluster may hold.
    cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1, processes=False,
                           dashboard_address=":0")
    c = Client(cluster)
    return c, [c, cluster]


def sweep(scene, grid, seeds=1, client=None, steps=None, progress=None):
    """Runs every combination of ``grid`` and ``seeds`` as independent runs on a Dask cluster
    and returns a pandas DataFrame, one row per run.

    ``scene``: a scene file, built-in name, dict or :class:`atoll.Scene` (read once here; its
    text is sent to the workers, so they need Atoll but not the file). ``grid``: dict of
    ``--set`` keys to lists of values (``{"velocity_steps": [1, 2, 4, 8]}``; a single value is a
    one-value list); ``seeds``: a count N (seeds 0 … N − 1; 0 is the unperturbed scene) or a
    list of seeds; ``client``: None (a LocalCluster of one worker thread per core in this
    process, closed at the end), a ``distributed.Client``, or a scheduler address
    ("tcp://host:8786"); ``steps``: steps per run (default: the scene's); ``progress``: called
    as ``progress(done, total)`` as runs finish.

    Columns: every grid key, ``seed``, then ``state_hash``, ``max_penetration_m``,
    ``wall_ms_per_step``, ``steps``, ``first_all_asleep_step``, ``active_bodies_end`` (active
    bodies after the last step) and ``error`` ("" for a run that succeeded; its message, with
    the figures empty, for one that failed). Rows are in grid order (the first key varies
    slowest), seeds innermost. A failed run never stops the others.
    """
    import pandas
    from distributed import as_completed

    runs = _grid_runs(grid, seeds)
    spec = scene_spec(scene)
    if steps is not None and int(steps) < 1:
        raise atoll.Error(f"steps: must be >= 1, got {steps}")
    c, owned = _connect(client)
    try:
        futures = [c.submit(run_one, spec, [atoll.override_text(k, v) for k, v in values.items()],
                            seed, steps, pure=False)
                   for values, seed in runs]
        index = {f.key: i for i, f in enumerate(futures)}
        results = [None] * len(runs)
        done = 0
        if progress:
            progress(0, len(runs))
        for future in as_completed(futures):
            i = index[future.key]
            if future.status == "finished":
                results[i] = future.result()
            else:  # the task itself failed (a worker lost, a deserialisation error)
                row = {key: None for key in FIGURES}
                try:
                    row["error"] = f"{type(future.exception()).__name__}: {future.exception()}"
                except Exception as e:  # noqa: BLE001
                    row["error"] = f"{type(e).__name__}: {e}"
                results[i] = row
            done += 1
            if progress:
                progress(done, len(runs))
    finally:
        for thing in owned:
            thing.close()
    rows = []
    for (values, seed), result in zip(runs, results):
        row = dict(values)
        row["seed"] = seed
        row.update(result)
        rows.append(row)
    columns = list(grid) + ["seed"] + FIGURES + ["error"]
    table = pandas.DataFrame(rows, columns=columns)
    # Counts stay integers beside the empty figures of failed runs.
    for key in ("steps", "first_all_asleep_step", "active_bodies_end"):
        table[key] = table[key].astype("Int64")
    return table


# -------------------------------------------------------------------------------------------
# The command line: atoll sweep SCENE --grid KEY=V1,V2 ... --seeds N --out FILE.csv


def split_values(text):
    """Splits ``"1,2,[0,-1,0]"`` at the commas outside brackets and quotes."""
    parts, depth, quote, current = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "[{":
            depth += 1
        elif not quote and ch in "]}":
            depth -= 1
        if ch == "," and depth == 0 and not quote:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def parse_grid(items):
    """``["velocity_steps=1,2,4", "gravity=[0,-1,0],[0,-2,0]"]`` → a grid dict; values are JSON
    when they parse as JSON, else text (``motion=static,dynamic``). Raises atoll.Error."""
    grid = {}
    for item in items:
        key, sep, values = item.partition("=")
        if not sep or not key:
            raise atoll.Error(f"--grid {item}: expected KEY=V1,V2,...")
        if key in grid:
            raise atoll.Error(f"--grid {key}: given twice")
        parsed = []
        for text in split_values(values):
            if text == "":
                raise atoll.Error(f"--grid {item}: empty value")
            try:
                parsed.append(json.loads(text))
            except ValueError:
                parsed.append(text)
        grid[key] = parsed
    return grid


class ProgressBar:
    """A progress bar on stderr, only when stderr is a terminal; erased when done."""

    def __init__(self, enabled):
        """A bar when ``enabled`` and stderr is a terminal."""
        self.enabled = enabled and sys.stderr.isatty()
        self.shown = False

    def __call__(self, done, total):
        """Draws ``done`` of ``total`` runs."""
        if not self.enabled:
            return
        width = 40
        filled = done * width // total if total else width
        sys.stderr.write(f"\r[{'#' * filled}{' ' * (width - filled)}] {done}/{total} runs")
        sys.stderr.flush()
        self.shown = True

    def clear(self):
        """Erases the bar."""
        if self.shown:
            sys.stderr.write("\r" + " " * 72 + "\r")
            sys.stderr.flush()
            self.shown = False


def main(argv=None):
    """``atoll sweep``: runs the sweep and writes the table as CSV. Exit status 0 (the CSV was
    written, error rows included), 2 bad input (one line on stderr, nothing written)."""
    parser = argparse.ArgumentParser(
        prog="atoll sweep",
        description="Run every combination of settings overrides and seeds of a scene on a "
                    "Dask cluster; one CSV row per run.")
    parser.add_argument("scene", help="Scene JSON file or built-in scene name")
    parser.add_argument("--grid", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="Values of one --set key (repeat for more keys)")
    parser.add_argument("--seeds", type=int, default=1,
                        help="Seeds 0..N-1 per combination (0: the scene as written)")
    parser.add_argument("--steps", type=int, default=None, help="Steps per run")
    parser.add_argument("--scheduler", default=None,
                        help="Dask scheduler address (default: a local cluster)")
    parser.add_argument("--workers", type=int, default=None,
                        help="Workers of the local cluster (default: one per core)")
    parser.add_argument("--out", required=True, help="CSV file to write")
    parser.add_argument("--quiet", action="store_true", help="No progress bar, no report")
    args = parser.parse_args(argv)

    def bad(message):
        """One error line on stderr; the exit status of bad input."""
        sys.stderr.write(f"atoll: {message}\n")
        return 2

    try:
        grid = parse_grid(args.grid)
        _grid_runs(grid, args.seeds)
        scene_spec(args.scene)
    except atoll.Error as e:
        return bad(str(e))
    if args.steps is not None and args.steps < 1:
        return bad(f"--steps: must be >= 1, got {args.steps}")
    if args.workers is not None and args.workers < 1:
        return bad(f"--workers: must be >= 1, got {args.workers}")
    if args.workers is not None and args.scheduler:
        return bad("--workers: only for the local cluster (not with --scheduler)")
    out = os.path.abspath(args.out)
    if os.path.isdir(out):
        return bad(f"{args.out}: cannot write: is a directory")
    if not os.access(os.path.dirname(out), os.W_OK) or \
            (os.path.exists(out) and not os.access(out, os.W_OK)):
        return bad(f"{args.out}: cannot write: permission denied or no such directory")
    if os.path.isfile(args.scene) and os.path.exists(out) and os.path.samefile(args.scene, out):
        return bad(f"--out {args.out}: is the scene file; choose another output path")

    client = args.scheduler
    owned = []
    if client is None and args.workers is not None:
        from distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=False,
                               dashboard_address=":0")
        client = Client(cluster)
        owned = [client, cluster]
    bar = ProgressBar(not args.quiet)
    start = time.monotonic()
    try:
        table = sweep(args.scene, grid, seeds=args.seeds, client=client, steps=args.steps,
                      progress=bar)
    except OSError as e:
        bar.clear()
        return bad(f"--scheduler {args.scheduler}: {e}")
    finally:
        bar.clear()
        for thing in owned:
            thing.close()
    partial = out + ".partial"
    try:
        table.to_csv(partial, index=False)
        os.replace(partial, out)
    except OSError as e:
        if os.path.exists(partial):
            os.remove(partial)
        return bad(f"{args.out}: cannot write: {e.strerror}")
    if not args.quiet:
        failed = int((table["error"] != "").sum())
        print(f"{args.scene}: {len(table)} runs ({failed} failed) in "
              f"{time.monotonic() - start:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
