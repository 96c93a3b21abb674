#if Server
    import WebImage
    import WebImageServer

    /// The gallery's BlurHash placeholders: a canvas beside an image, drawn by the page's own script
    /// from the `blurhash` that the service's `/info` endpoint reports for the same source.
    enum ServeDemoPlaceholders {
        /// The `/info` options asked for: 4 components across, 3 down.
        static let infoOptions = "bh:4:3"

        /// The signed `/info` path of `source` (a plain URL).
        static func infoPath(of source: String, signer: URLSigner) -> String {
            "/info" + signer.signedPath("/" + infoOptions + "/plain/" + source)
        }

        /// A BlurHash decoder in the page's JavaScript: `drawBlurHash(hash, canvas)` paints the
        /// placeholder the hash describes onto `canvas`, at the canvas's own size.
        static let decoderScript = """
            const base83 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~";
            const decode83 = (text) => [...text].reduce((value, c) => value * 83 + base83.indexOf(c), 0);
            const toLinear = (v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
            const toSRGB = (v) => {
              const c = Math.min(1, Math.max(0, v));
              return Math.round(255 * (c <= 0.0031308 ? c * 12.92 : 1.055 * Math.pow(c, 1 / 2.4) - 0.055));
            };
            function drawBlurHash(hash, canvas) {
              const flags = decode83(hash[0]);
              const across = (flags % 9) + 1, down = Math.floor(flags / 9) + 1;
              if (hash.length !== 4 + 2 * across * down) throw new Error("bad blurhash length");
              const maximum = (decode83(hash[1]) + 1) / 166;
              const dc = decode83(hash.substring(2, 6));
              const colours = [[toLinear(dc >> 16), toLinear((dc >> 8) & 255), toLinear(dc & 255)]];
              for (let i = 1; i < across * down; i++) {
                const value = decode83(hash.substring(4 + 2 * i, 6 + 2 * i));
                const unquantise = (q) => { const s = (q - 9) / 9; return Math.sign(s) * s * s * maximum; };
                colours.push([unquantise(Math.floor(value / 361)), unquantise(Math.floor(value / 19) % 19), unquantise(value % 19)]);
              }
              const width = canvas.width, height = canvas.height;
              const context = canvas.getContext("2d");
              const pixels = context.createImageData(width, height);
              for (let y = 0; y < height; y++) {
                for (let x = 0; x < width; x++) {
                  const sum = [0, 0, 0];
                  for (let j = 0; j < down; j++) {
                    for (let i = 0; i < across; i++) {
                      const basis = Math.cos(Math.PI * x * i / width) * Math.cos(Math.PI * y * j / height);
                      const colour = colours[i + j * across];
                      for (let k = 0; k < 3; k++) sum[k] += colour[k] * basis;
                    }
                  }
                  const offset = 4 * (x + y * width);
                  for (let k = 0; k < 3; k++) pixels.data[offset + k] = toSRGB(sum[k]);
                  pixels.data[offset + 3] = 255;
                }
              }
              context.putImageData(pixels, 0, 0);
            }
            """
    }
#endif
