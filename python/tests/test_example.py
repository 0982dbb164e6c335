"""The example runs."""

import os
import subprocess
import sys

EXAMPLE = os.path.join(os.path.dirname(__file__), "..", "examples", "drop_boxes.py")


def test_drop_boxes_example(tmp_path):
    out = tmp_path / "heights.png"
    result = subprocess.run([sys.executable, EXAMPLE, "--steps", "90", "--boxes", "4",
                             "--out", str(out)], capture_output=True, text=True, check=True)
    assert "box3" in result.stdout
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert out.stat().st_size > 0
