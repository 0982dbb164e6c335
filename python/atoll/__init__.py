"""Atoll rigid-body physics from Python.

Worlds, shapes, bodies, constraints, ray casts, contact events, recordings, numpy arrays of many
bodies' state, scenes (a file, a built-in scene or a dict in the scene format of
docs/scene-format.md) and ``run_scene``, which returns the summary of ``atoll run --summary``.
Parameter sweeps over a Dask cluster are in :mod:`atoll.sweep`.

Every key a function takes is the scene format's key with its unit, default and range: shapes,
bodies, settings and constraints are read by the same readers as scene files, and their errors
(``atoll.Error``, a ``ValueError``) carry the same messages. A call that fails changes nothing.

Bodies are named by integer IDs (``World.create_body`` returns one; ``World.body(name)`` finds
one by name).
"""

import json as _json
import os as _os

import numpy as _np

from . import _atoll
from ._atoll import Constraint, Shape  # noqa: F401  (re-exported types)

__all__ = [
    "Error", "World", "Shape", "Constraint", "Scene", "shape", "box", "sphere", "capsule",
    "cylinder", "convex_hull", "load_scene", "run_scene", "read_recording", "settings_fields",
    "builtin_scenes", "sweep",
]

#: Raised for every error a user can cause; a subclass of ValueError carrying Atoll's message.
Error = _atoll.Error
#: A scene description (from :func:`load_scene`).
Scene = _atoll.Scene


def _plain(value):
    """``value`` with numpy arrays and scalars turned into lists and Python numbers."""
    if isinstance(value, _np.ndarray):
        return value.tolist()
    if isinstance(value, _np.generic):
        return value.item()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _dumps(value, what):
    """JSON text of a dict for the compiled core; TypeError names ``what`` otherwise."""
    if not isinstance(value, dict):
        raise TypeError(f"{what}: expected a dict, got {type(value).__name__}")
    return _json.dumps(_plain(value))


def settings_fields():
    """Names and units of every world setting (PhysicsSettings' field table), in order.

    Returns a list of ``(name, unit)`` pairs; ``dt`` and ``collision_steps`` are accepted too.
    """
    return _atoll.settings_fields()


def builtin_scenes():
    """Names of the built-in scenes (``"pyramid"``, ``"demo"``, ...)."""
    return _atoll.builtin_scenes()


def override_text(key, value):
    """The ``atoll run --set`` text ``KEY=VALUE`` of one override.

    ``value`` is written as JSON (a string as a JSON string), so ``override_text("motion",
    "static")`` gives ``'motion="static"'`` and ``override_text("gravity", [0, -1, 0])`` gives
    ``'gravity=[0, -1, 0]'``.
    """
    return f"{key}={_json.dumps(_plain(value))}"


def load_scene(scene, overrides=None, seed=0):
    """Reads a scene and applies overrides and a seed.

    ``scene``: a scene file path, a built-in scene name, a dict in the scene format, or a
    :class:`Scene` (returned as is when there is nothing to apply). ``overrides``: a dict of
    ``--set`` keys to values (``{"velocity_steps": 4, "bodies.b0.friction": 0.8}``) or a list of
    ``"KEY=VALUE"`` texts. ``seed``: 0 (none) or a seed that perturbs the dynamic bodies'
    initial positions and velocities reproducibly (docs/sweeps.md), applied after the overrides.
    Raises :class:`Error` for a bad scene, override or seed.
    """
    if isinstance(scene, Scene):
        if overrides or seed:
            scene = _atoll.load_scene(scene.source, scene.to_json())
    elif isinstance(scene, dict):
        scene = _atoll.load_scene("<dict>", _json.dumps(_plain(scene)))
    elif isinstance(scene, (str, _os.PathLike)):
        scene = _atoll.load_scene(_os.fspath(scene))
    else:
        raise TypeError(f"scene: expected a path, a built-in name, a dict or a Scene, got "
                        f"{type(scene).__name__}")
    if isinstance(overrides, dict):
        overrides = [override_text(k, v) for k, v in overrides.items()]
    for assignment in overrides or []:
        scene.set(assignment)
    if seed:
        scene.perturb(int(seed))
    return scene


def run_scene(scene, steps=None, overrides=None, seed=0, threads=1):
    """Runs a scene and returns the summary dict of ``atoll run --summary``.

    ``scene``, ``overrides`` and ``seed`` as for :func:`load_scene`; ``steps``: steps to run
    (default: the scene's); ``threads``: worker threads, the caller included (the result does
    not depend on it). The summary has ``state_hash``, ``max_penetration_m``,
    ``wall_ms_per_step``, ``bodies`` (final state per name), ``active_bodies`` per step, ...
    (docs/scene-format.md, "Run summary"). The GIL is released while the scene runs.
    """
    loaded = load_scene(scene, overrides, seed)
    return _json.loads(_atoll.run_scene(loaded, -1 if steps is None else int(steps), threads))


def shape(definition=None, **keys):
    """A shape from a scene-format shape definition, e.g. ``shape(type="box",
    half_extent=[1, 1, 1])`` or ``shape({"type": "mesh", ...})``.

    Every shape type of the scene format works: box, sphere, capsule, cylinder, convex_hull,
    mesh, heightfield, compound, rotated_translated, scaled, offset_center_of_mass (keys:
    docs/scene-format.md, "Shapes"). Raises :class:`Error` naming the bad key.
    """
    if definition is not None and not isinstance(definition, dict):
        raise TypeError(f"shape: expected a dict, got {type(definition).__name__}")
    definition = dict(definition or {})
    definition.update(keys)
    return _atoll.make_shape(_dumps(definition, "shape"))


def box(half_extent, convex_radius=None, density=None):
    """A box of ``half_extent`` [x, y, z] (m); ``convex_radius`` (m) rounds its edges."""
    keys = {"type": "box", "half_extent": half_extent}
    if convex_radius is not None:
        keys["convex_radius"] = convex_radius
    if density is not None:
        keys["density"] = density
    return shape(keys)


def sphere(radius, density=None):
    """A sphere of ``radius`` (m)."""
    keys = {"type": "sphere", "radius": radius}
    if density is not None:
        keys["density"] = density
    return shape(keys)


def capsule(half_height, radius, density=None):
    """A capsule along y: ``half_height`` (m) of its cylindrical part, ``radius`` (m)."""
    keys = {"type": "capsule", "half_height": half_height, "radius": radius}
    if density is not None:
        keys["density"] = density
    return shape(keys)


def cylinder(half_height, radius, convex_radius=None, density=None):
    """A cylinder along y of ``half_height`` and ``radius`` (m)."""
    keys = {"type": "cylinder", "half_height": half_height, "radius": radius}
    if convex_radius is not None:
        keys["convex_radius"] = convex_radius
    if density is not None:
        keys["density"] = density
    return shape(keys)


def convex_hull(points, convex_radius=None, density=None):
    """The convex hull of ``points`` (an (N, 3) array or list of [x, y, z], m);
    ``convex_radius`` (m) is the largest rounding of its edges."""
    keys = {"type": "convex_hull", "points": _plain(points)}
    if convex_radius is not None:
        keys["convex_radius"] = convex_radius
    if density is not None:
        keys["density"] = density
    return shape(keys)


def read_recording(path):
    """Reads a recording (``atoll run --record`` or :meth:`World.start_recording`).

    Returns a dict: ``source``, ``dt`` (s), ``steps``, ``bodies`` (names), and numpy arrays
    ``positions`` (frames, bodies, 3), ``rotations`` (frames, bodies, 4: x, y, z, w) and
    ``flags`` (frames, bodies; bit 0 active, bit 1 added, bit 2 quarantined, bits 3-4 motion
    type). Frame k is the state after k steps. ``soft_bodies`` maps each recorded soft body's
    name to ``positions`` (frames, vertices, 3) and ``flags`` (frames; bit 0 awake, bit 1 in the
    simulation).
    """
    return _atoll.read_recording(_os.fspath(path))


class World:
    """A physics world: bodies, constraints and the step.

    ``World(settings=None, **keys)``: an empty world; settings are the scene format's
    ``settings`` keys (``settings_fields()``; plus ``dt``, the default step in s, and
    ``collision_steps``), given as a dict and/or keywords: ``World(gravity=[0, -9.81, 0],
    velocity_steps=8)``. ``World.from_scene(scene)`` builds the world of a scene.

    A World is not thread-safe: :meth:`step` and :meth:`run` release the GIL so that other
    Python threads (other worlds, a Dask worker's other runs) proceed meanwhile, so call one
    world's methods from one thread at a time.
    """

    def __init__(self, settings=None, threads=1, **keys):
        """An empty world with ``settings`` (dict) and ``keys`` applied; ``threads`` workers."""
        merged = dict(settings or {})
        merged.update(keys)
        self._w = _atoll.World(_dumps(merged, "settings"))
        self._w.threads = threads

    @classmethod
    def from_scene(cls, scene, overrides=None, seed=0, threads=1):
        """The world of a scene (path, built-in name, dict or :class:`Scene`), with
        ``overrides`` and ``seed`` as for :func:`load_scene`; its bodies keep their scene
        names."""
        world = cls.__new__(cls)
        world._w = _atoll.World(load_scene(scene, overrides, seed), threads)
        return world

    # settings --------------------------------------------------------------------------
    @property
    def settings(self):
        """Every setting as a dict (a copy; change them with :meth:`set_settings`)."""
        return _json.loads(self._w.settings)

    def set_settings(self, changes=None, **keys):
        """Changes settings by key (a dict and/or keywords); on error nothing changes."""
        merged = dict(changes or {})
        merged.update(keys)
        self._w.set_settings(_dumps(merged, "settings"))

    @property
    def dt(self):
        """Default step length (s) of :meth:`step`."""
        return self._w.dt

    @property
    def threads(self):
        """Worker threads of :meth:`step` (the caller included; results do not depend on it)."""
        return self._w.threads

    @threads.setter
    def threads(self, count):
        """Sets the worker count (1 starts no thread)."""
        self._w.threads = count

    # bodies ----------------------------------------------------------------------------
    def create_body(self, shape, name=None, **fields):
        """Creates a body of ``shape`` and adds it, awake; returns its ID.

        ``fields`` are the scene format's body keys: ``motion`` ("static", "kinematic",
        "dynamic"; default dynamic), ``position`` [m], ``rotation`` [x, y, z, w],
        ``linear_velocity`` [m/s], ``angular_velocity`` [rad/s], ``friction``, ``restitution``,
        ``mass`` (kg; default: the shape's), ``motion_quality``, ``gravity_factor``,
        ``linear_damping``, ``allow_sleeping``, ``sensor``, ... (docs/scene-format.md,
        "Bodies"). ``name`` defaults to "body" + a counter.
        """
        return self._w.create_body(shape, _dumps(fields, "create_body"), name)

    def remove_body(self, body):
        """Removes and destroys a body (by ID)."""
        self._w.remove_body(body)

    # soft bodies ---------------------------------------------------------------------------

    def create_soft_body(self, type, name=None, **keys):
        """Creates a soft body and adds it, awake; returns its ID.

        ``type`` and ``keys`` are the scene format's (docs/scene-format.md, "Soft bodies"):
        ``"rope"`` takes ``from_`` for the ``from`` key (a Python keyword), ``to``,
        ``segments``, ``mass``, ``compliance``, ...;
        ``"cloth"``: ``center``, ``size``, ``resolution``, ...; ``"pressure_ball"``,
        ``"mesh"``; any type: ``pinned`` (vertex indices or selectors such as "first",
        "corners"), ``friction``, ``linear_damping`` and ``attach``, a list of
        ``{"vertex": V, "body": ID}`` tying vertices to rigid bodies by ID. ``name`` defaults to
        "soft_body" + a counter.
        """
        keys = dict(keys)
        if "from_" in keys:
            keys["from"] = keys.pop("from_")
        keys["type"] = type
        return self._w.create_soft_body(_dumps(keys, "create_soft_body"), name)

    def soft_body(self, name):
        """The ID of the soft body named ``name``."""
        return self._w.soft_body(name)

    @property
    def soft_body_names(self):
        """Soft body names, in creation order (the scene's first)."""
        return self._w.soft_body_names()

    def get_soft_body_positions(self, soft_body):
        """The vertex positions (m) of a soft body (an ID) as an (n, 3) float64 array."""
        return self._w.soft_body_positions(soft_body)

    def soft_body_info(self, soft_body):
        """A soft body's ``vertex_count``, ``center_of_mass``, ``bounds`` (min, max),
        ``max_strain``, ``volume`` (m³; 0 for an open surface) and ``sleeping``."""
        return self._w.soft_body_info(soft_body)

    def body(self, name):
        """The ID of the body named ``name``."""
        return self._w.body(name)

    def body_name(self, body):
        """The name of body ``body`` (an ID)."""
        return self._w.body_name(body)

    @property
    def body_names(self):
        """Body names, in creation order (scene bodies first)."""
        return self._w.body_names

    @property
    def body_ids(self):
        """Body IDs in creation order, as a numpy uint32 array."""
        return _np.asarray(self._w.body_ids, dtype=_np.uint32)

    def get_state(self, body):
        """The body's state: name, position, rotation, linear_velocity, angular_velocity,
        active, motion, friction, restitution."""
        return self._w.get_state(body)

    def set_state(self, body, position=None, rotation=None, linear_velocity=None,
                  angular_velocity=None):
        """Sets the given parts of a body's state (m, unit quaternion [x, y, z, w], m/s,
        rad/s); all or nothing."""
        self._w.set_state(body, _plain(position), _plain(rotation), _plain(linear_velocity),
                          _plain(angular_velocity))

    def add_force(self, body, force):
        """Adds a force (N) at the centre of mass, applied during the next step."""
        self._w.add_force(body, _plain(force))

    def add_impulse(self, body, impulse):
        """Applies an impulse (N·s) at the centre of mass now."""
        self._w.add_impulse(body, _plain(impulse))

    def add_torque(self, body, torque):
        """Adds a torque (N·m), applied during the next step."""
        self._w.add_torque(body, _plain(torque))

    def activate(self, body):
        """Wakes a body."""
        self._w.activate(body)

    def set_friction(self, body, friction):
        """Sets a body's friction coefficient (>= 0)."""
        self._w.set_friction(body, friction)

    def set_restitution(self, body, restitution):
        """Sets a body's restitution, in [0, 1]."""
        self._w.set_restitution(body, restitution)

    # many bodies as numpy arrays ---------------------------------------------------------
    @staticmethod
    def _ids(ids):
        """``ids`` (any sequence or array of body IDs) as a list of ints; None stays None."""
        return None if ids is None else [int(i) for i in _np.asarray(ids).reshape(-1)]

    def get_positions(self, ids=None):
        """Positions (m) of the bodies ``ids`` (default: every body, creation order):
        an (N, 3) float64 array."""
        return self._w.get_many("positions", self._ids(ids))

    def get_rotations(self, ids=None):
        """Rotations as an (N, 4) array of quaternions [x, y, z, w]."""
        return self._w.get_many("rotations", self._ids(ids))

    def get_linear_velocities(self, ids=None):
        """Linear velocities (m/s) as an (N, 3) array."""
        return self._w.get_many("linear_velocities", self._ids(ids))

    def get_angular_velocities(self, ids=None):
        """Angular velocities (rad/s) as an (N, 3) array."""
        return self._w.get_many("angular_velocities", self._ids(ids))

    def set_positions(self, values, ids=None):
        """Sets positions from an (N, 3) array (m); all or nothing (values are stored as
        float32)."""
        self._w.set_many("positions", self._ids(ids), values)

    def set_rotations(self, values, ids=None):
        """Sets rotations from an (N, 4) array of unit quaternions [x, y, z, w]; all or
        nothing."""
        self._w.set_many("rotations", self._ids(ids), values)

    def set_linear_velocities(self, values, ids=None):
        """Sets linear velocities (m/s) from an (N, 3) array; all or nothing."""
        self._w.set_many("linear_velocities", self._ids(ids), values)

    def set_angular_velocities(self, values, ids=None):
        """Sets angular velocities (rad/s) from an (N, 3) array; all or nothing."""
        self._w.set_many("angular_velocities", self._ids(ids), values)

    # constraints -----------------------------------------------------------------------
    def add_constraint(self, type, body1, body2, name=None, **keys):
        """Creates and adds a constraint; returns a :class:`Constraint`.

        ``type`` and ``keys`` are the scene format's (docs/scene-format.md, "Constraints"):
        ``add_constraint("hinge", a, b, point=[0, 1, 0], hinge_axis=[0, 0, 1], limits_min=-1,
        limits_max=1)``.
        ``body1``/``body2`` are body IDs, or None for the fixed world. Points are in world space
        unless the type's ``space`` says otherwise. ``gear`` and ``rack_and_pinion`` name the
        constraints they couple (``constraint1``, ``constraint2``: the names of constraints made
        before, by this method or by the scene).
        """
        keys = dict(keys)
        keys["type"] = type
        return self._w.add_constraint(_dumps(keys, "add_constraint"), body1, body2, name)

    def add_point_constraint(self, body1, body2, point, name=None):
        """A point (ball) joint at ``point`` (world, m)."""
        return self.add_constraint("point", body1, body2, name, point=point)

    def add_hinge_constraint(self, body1, body2, point, axis, limits=None, name=None):
        """A hinge about ``axis`` through ``point`` (world); ``limits`` [min, max] in rad."""
        keys = {"point": point, "hinge_axis": axis}
        if limits is not None:
            keys["limits_min"], keys["limits_max"] = limits
        return self.add_constraint("hinge", body1, body2, name, **keys)

    def add_fixed_constraint(self, body1, body2, name=None):
        """Welds two bodies in their current relative pose."""
        return self.add_constraint("fixed", body1, body2, name)

    def add_distance_constraint(self, body1, body2, point1, point2, name=None):
        """Keeps ``point1`` (on body 1) and ``point2`` (on body 2; world, m) at their current
        distance."""
        return self.add_constraint("distance", body1, body2, name, point1=point1, point2=point2)

    def remove_constraint(self, constraint):
        """Removes a constraint made by :meth:`add_constraint`."""
        self._w.remove_constraint(constraint)

    # queries ---------------------------------------------------------------------------
    def ray_cast(self, origin, direction):
        """The closest body hit by the ray origin + t·direction, t in [0, 1] (the direction's
        length is the ray's, m): a dict ``body``, ``name``, ``fraction``, ``point`` (m) and
        ``normal`` (the shape's outward unit normal there, world space; for a soft body, its
        face's turned toward the ray, or its vertex sphere's or edge capsule's) — or None. Soft
        bodies are hit by their faces, vertex spheres and edge capsules."""
        return self._w.cast_ray(_plain(origin), _plain(direction))

    def ray_cast_all(self, origin, direction):
        """Every body the ray hits, by fraction: a list of dicts as :meth:`ray_cast`."""
        return self._w.cast_ray_all(_plain(origin), _plain(direction))

    def overlap_point(self, point):
        """IDs of the bodies whose shape contains ``point`` (m)."""
        return self._w.collide_point(_plain(point))

    def overlap_box(self, min, max):
        """IDs of the bodies whose world bounds overlap the box [min, max] (m)."""
        return self._w.collide_box(_plain(min), _plain(max))

    # stepping --------------------------------------------------------------------------
    def step(self, dt=None, collision_steps=None):
        """Advances the world one step of ``dt`` s (default: the ``dt`` setting) with
        ``collision_steps`` sub-steps; returns a dict: active_bodies, islands,
        contact_points, max_penetration_m, quarantined (IDs), warning (empty when none).
        The GIL is released while it runs."""
        return self._w.step(dt, collision_steps)

    def contact_events(self):
        """The contact events of the last step: dicts with type ("added", "persisted",
        "removed"), body1, body2 (IDs), name1, name2, normal (body 1 → 2), point (world, m),
        penetration_depth (m, negative: speculative), collision_step."""
        return self._w.contact_events()

    def state_hash(self):
        """The state hash of ``atoll run`` (FNV-1a 64 over every body's position, rotation and
        velocities, in body-ID order), as 16 hex digits."""
        return self._w.state_hash()

    # rollback ---------------------------------------------------------------------------
    def save_snapshot(self, into=None):
        """A rollback snapshot of the whole world: every body with its ID (the ID allocator
        too), the constraints, the contact cache and the names this world keeps. In memory
        only; ``.bytes`` is its size. Saved into ``into`` (a snapshot of this world) when
        given, reusing its buffers. For a reinforcement-learning reset or a rollback."""
        return self._w.save_snapshot(into)

    def restore_snapshot(self, snapshot):
        """Back to the world ``snapshot`` was taken of: bodies and constraints made or removed
        since are undone (same IDs and names), and the next steps give the same bits as they
        did then. Raises (nothing changed) for a snapshot of another world or while
        recording."""
        self._w.restore_snapshot(snapshot)

    def run(self, steps):
        """Runs ``steps`` steps of the world's scene loop (its events and probes, step numbers
        counted from this call) and returns the summary dict of ``atoll run --summary`` (scene
        bodies only). :meth:`contact_events` is empty afterwards (the run's events are not
        kept)."""
        return _json.loads(self._w.run(int(steps)))

    # recording -------------------------------------------------------------------------
    def start_recording(self, path, steps):
        """Starts a recording (docs/recording-format.md) of the world's bodies: frame 0 now,
        then one frame per :meth:`step`; :meth:`finish_recording` after exactly ``steps``
        steps writes the file."""
        self._w.start_recording(_os.fspath(path), int(steps))

    def finish_recording(self):
        """Writes the recording started by :meth:`start_recording` (error, and no file, when the
        number of steps differs)."""
        self._w.finish_recording()


def sweep(scene, grid, seeds=1, client=None, steps=None, progress=None):
    """Runs every combination of ``grid`` and ``seeds`` on a Dask cluster; a pandas DataFrame.

    See :func:`atoll.sweeps.sweep` (imported lazily, so that ``import atoll`` does not need
    Dask).
    """
    from . import sweeps as _sweeps
    return _sweeps.sweep(scene, grid, seeds=seeds, client=client, steps=steps, progress=progress)
