"""Files with an embedded thumbnail item, written by libheif's `heif-enc` (Debian
libheif-examples), which neither Pillow nor pillow-heif can write: a 256x192 gradient as the
primary image and, with `-t 64`, a 64x48 thumbnail of it."""
import pathlib
import shutil
import subprocess
import tempfile

from PIL import Image

from _pictures import gradient


def write_with_thumbnail(path: pathlib.Path, avif: bool):
    heif_enc = shutil.which("heif-enc")
    if heif_enc is None:
        print(f"skipping {path.name}: heif-enc not found (apt-get install libheif-examples)")
        return
    with tempfile.TemporaryDirectory() as directory:
        source = pathlib.Path(directory) / "source.png"
        Image.fromarray(gradient(256, 192), "RGB").save(source)
        subprocess.run(
            [heif_enc, "-q", "90", "-t", "64", *(["-A"] if avif else []), "-o", str(path), str(source)],
            check=True, stdout=subprocess.DEVNULL)
