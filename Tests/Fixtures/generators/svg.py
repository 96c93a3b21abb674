"""SVG fixtures: small documents written here, each rendered by librsvg's own rsvg-convert
(apt-get install librsvg2-bin) to PNG, and that PNG's pixels written as raw RGBA next to the
file (cairo writes PNGs with straight alpha, the same rounding the coder uses). The coder tests
compare their rendering with these.

shapes.svg           64x48 width/height: rectangles, a circle, a path, strokes, group opacity
shapes_128x96.rgba   shapes.svg rendered at 128x96 (rsvg-convert -w 128 -h 96)
gradients.svg        80x60 from the viewBox alone: linear and radial gradients, stop opacity
width_only.svg       width 90 and a 60x40 viewBox: the height follows the viewBox, 90x60
percent.svg          width 100%, height 50% and a 50x70 viewBox: the viewBox's size, 50x70
units.svg            0.5in x 1cm: 48x38 pixels at 96 per inch
prolog.svg           a byte order mark, an XML declaration, a comment and a document type with
                     the entities illustration programs declare before <svg>: 40x40
embedded.svg         a 4x4 PNG embedded as a data: image, scaled to 32x32
"""
import base64
import io
import pathlib
import subprocess

from PIL import Image

from _pillow_reference import write_rgba

NS = 'xmlns="http://www.w3.org/2000/svg"'

DOCUMENTS = {
    "shapes": f"""<svg {NS} width="64" height="48">
  <rect width="64" height="48" fill="#f0e8d8"/>
  <rect x="4" y="4" width="24" height="16" fill="#d03020" stroke="#202020" stroke-width="2"/>
  <circle cx="44" cy="14" r="10" fill="#2060c0" fill-opacity="0.6"/>
  <path d="M6 44 L22 26 L38 44 Z" fill="#30a050"/>
  <g opacity="0.5"><rect x="34" y="28" width="26" height="16" rx="4" fill="#000"/></g>
  <line x1="0" y1="47" x2="64" y2="30" stroke="#c0a000" stroke-width="1.5"/>
</svg>
""",
    "gradients": f"""<svg {NS} viewBox="0 0 80 60">
  <defs>
    <linearGradient id="l" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>
    </linearGradient>
    <radialGradient id="r" cx="0.5" cy="0.5" r="0.5">
      <stop offset="0" stop-color="#ffffff" stop-opacity="1"/>
      <stop offset="1" stop-color="#00a000" stop-opacity="0"/>
    </radialGradient>
  </defs>
  <rect width="80" height="30" fill="url(#l)"/>
  <ellipse cx="40" cy="42" rx="38" ry="17" fill="url(#r)"/>
</svg>
""",
    "width_only": f"""<svg {NS} width="90" viewBox="0 0 60 40">
  <rect x="5" y="5" width="50" height="30" fill="#8040c0"/><circle cx="30" cy="20" r="12" fill="#ffd000"/>
</svg>
""",
    "percent": f"""<svg {NS} width="100%" height="50%" viewBox="0 0 50 70">
  <rect x="0" y="0" width="50" height="35" fill="#008080"/><rect x="10" y="40" width="30" height="25" fill="#e06000"/>
</svg>
""",
    "units": f"""<svg {NS} width="0.5in" height="1cm">
  <rect width="100%" height="100%" fill="#406080"/><circle cx="24" cy="19" r="15" fill="#f0f0f0"/>
</svg>
""",
    "prolog": "\ufeff" + f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!-- Generator: an illustration program, as many exports begin -->
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
  <!ENTITY ns_svg "http://www.w3.org/2000/svg">
  <!ENTITY ns_xlink "http://www.w3.org/1999/xlink">
]>
<svg version="1.1" xmlns="&ns_svg;" xmlns:xlink="&ns_xlink;" width="40" height="40">
  <rect width="40" height="40" fill="#102030"/><rect x="10" y="10" width="20" height="20" fill="#f0c020"/>
</svg>
""",
}


def _embedded():
    tile = Image.new("RGBA", (4, 4))
    tile.putdata([(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 128)] * 4)
    buffer = io.BytesIO()
    tile.save(buffer, "PNG")
    payload = base64.b64encode(buffer.getvalue()).decode()
    return (f"""<svg {NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="32" height="32">
  <image width="32" height="32" preserveAspectRatio="none" style="image-rendering:pixelated"
    xlink:href="data:image/png;base64,{payload}"/>
</svg>
""")


def _render(svg: pathlib.Path, png: pathlib.Path, size=None):
    command = ["rsvg-convert", "--format", "png", "--output", str(png)]
    if size:
        command += ["--width", str(size[0]), "--height", str(size[1])]
    subprocess.run(command + [str(svg)], check=True)
    write_rgba(png)
    png.unlink()


def generate(out: pathlib.Path):
    documents = dict(DOCUMENTS, embedded=_embedded())
    for name, text in documents.items():
        path = out / f"{name}.svg"
        path.write_bytes(text.encode("utf-8"))
        _render(path, out / f"{name}.png")
    _render(out / "shapes.svg", out / "shapes_128x96.png", size=(128, 96))
