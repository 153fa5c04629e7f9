#!/usr/bin/env python3
"""Attribution maps for a Meta-Rank suite kit, written with numpy alone (docs/evaluation.md,
"Evaluating your own method", path 2). Upload the zip it writes on the submission page (or
through the API): the platform runs MoRF and LeRF with these maps on its own models.

    python3 save_maps.py KIT_DIR [maps.zip]

KIT_DIR is an unpacked suite kit: tasks/<task>/images.npy (float32, N x H x W x C, the suite's
evaluation images in the order the platform uses). For every task this writes <task>.npy,
float32 N x H x W: one map per image, in the same order, larger = more important.

The method here is model-free: the Sobel edge magnitude of each image (channels averaged), i.e.
"edges matter". Replace sobel_magnitude with your own method (any framework): keep the order,
the shape and float32 (or float16).
"""
import io
import os
import sys
import zipfile

import numpy as np


def sobel_magnitude(images):
    """|Sobel gradient| of each image of an N x H x W x C batch, as N x H x W float32."""
    grey = images.astype(np.float64).mean(axis=3)
    # Edge padding so border pixels get a gradient from their own values, not from zeros.
    p = np.pad(grey, ((0, 0), (1, 1), (1, 1)), mode="edge")
    h, w = grey.shape[1:]
    win = lambda dy, dx: p[:, dy:dy + h, dx:dx + w]
    gx = (win(0, 2) + 2 * win(1, 2) + win(2, 2)) - (win(0, 0) + 2 * win(1, 0) + win(2, 0))
    gy = (win(2, 0) + 2 * win(2, 1) + win(2, 2)) - (win(0, 0) + 2 * win(0, 1) + win(0, 2))
    return np.hypot(gx, gy).astype(np.float32)


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    kit = argv[1]
    out = argv[2] if len(argv) == 3 else "maps.zip"
    tasks_dir = os.path.join(kit, "tasks")
    tasks = sorted(t for t in os.listdir(tasks_dir) if os.path.isfile(os.path.join(tasks_dir, t, "images.npy")))
    if not tasks:
        sys.exit(f"no tasks/<task>/images.npy under {kit}")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for task in tasks:
            images = np.load(os.path.join(tasks_dir, task, "images.npy"))
            maps = sobel_magnitude(images)
            assert maps.shape == images.shape[:3] and np.isfinite(maps).all()
            buf = io.BytesIO()
            np.save(buf, maps)
            z.writestr(f"{task}.npy", buf.getvalue())
            print(f"{task}: {maps.shape[0]} maps of {maps.shape[1]}x{maps.shape[2]}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv)
