"""Builds atoll._atoll with CMake from the Atoll repository this directory belongs to (the
target atoll_python only: no tests, benchmarks or command line)."""

import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = pathlib.Path(__file__).resolve().parent.parent


class CMakeExtension(Extension):
    """An extension whose sources CMake knows."""

    def __init__(self, name):
        """The extension ``name`` (a dotted module name), built by CMake."""
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures the repository with ATOLL_BUILD_PYTHON=ON and builds the module."""

    def build_extension(self, ext):
        """Configures, builds the target atoll_python and copies the module into place."""
        target = pathlib.Path(self.get_ext_fullpath(ext.name)).resolve()
        build = pathlib.Path(self.build_temp).resolve() / "cmake"
        subprocess.check_call([
            "cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
            "-DCMAKE_BUILD_TYPE=Release", "-DATOLL_BUILD_PYTHON=ON", "-DATOLL_BUILD_TESTS=OFF",
            "-DATOLL_BUILD_BENCH=OFF", "-DATOLL_BUILD_APPS=OFF",
            f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", str(build), "--target", "atoll_python",
                               "-j", str(os.cpu_count() or 1)])
        built = next((build / "python" / "atoll").glob("_atoll*.so"))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[CMakeExtension("atoll._atoll")], cmdclass={"build_ext": CMakeBuild})
