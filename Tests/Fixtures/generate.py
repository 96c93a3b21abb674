#!/usr/bin/env python3
"""Regenerates every committed test fixture, deterministically.

Each module in generators/ exposes generate(out_dir) and writes its images under
Tests/Fixtures/<name>/. Needs Pillow 11.3 or later (AVIF) and numpy (pip install pillow numpy),
pillow-heif for the HEIC ones (pip install pillow-heif; 1.8.1 works with Pillow 13),
pillow-jxl-plugin for the JPEG XL ones (pip install pillow-jxl-plugin; it keeps the installed
Pillow), avifenc for the 10- and 12-bit AVIF fixtures (apt-get install libavif-bin), tiffcp for
the tiled TIFF one (apt-get install libtiff-tools) and cjxl (apt-get install libjxl-tools).
"""
import importlib.util
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent


def main(names):
    sys.path.insert(0, str(HERE / "generators"))  # their shared helpers
    for path in sorted((HERE / "generators").glob("*.py")):
        if path.stem.startswith("_") or (names and path.stem not in names):
            continue
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out = HERE / path.stem
        out.mkdir(exist_ok=True)
        module.generate(out)
        print(f"{path.stem}: {len(list(out.iterdir()))} files")


if __name__ == "__main__":
    main(sys.argv[1:])
