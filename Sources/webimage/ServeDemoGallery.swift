#if Server
    import Foundation
    import WebImage
    import WebImageServer

    /// The page `webimage serve --demo` serves at `/`: each example is a signed imgproxy-style URL
    /// of one of ``ServeDemoImages``' sources, shown as an image with its URL beside it. A script
    /// counts the images that loaded once the page has (`n of m images loaded`).
    enum ServeDemoGallery {
        struct Example {
            var caption: String
            var options: String
            var source: String
            /// `@ext` (plain source) or `.ext` (base64url source); empty lets `Accept` choose.
            var format = ""
            var base64Source = false
        }

        /// The examples, over sources on `origin` (`http://127.0.0.1:port`).
        static func examples(origin: String) -> [Example] {
            let scene = origin + ServeDemoImages.scenePath
            let badge = origin + ServeDemoImages.badgePath
            let animation = origin + ServeDemoImages.animationPath
            return [
                Example(caption: "fit in 400×300 (format from Accept)", options: "rs:fit:400:300", source: scene),
                Example(caption: "fill 300×300, centred", options: "rs:fill:300:300/g:ce", source: scene),
                Example(caption: "fill 300×300, smart crop", options: "rs:fill:300:300/g:sm", source: scene),
                Example(caption: "fill 300×300, focus point", options: "rs:fill:300:300/g:fp:0.2:0.8", source: scene),
                Example(caption: "crop 400×400 east, fit 300", options: "c:400:400:ea/rs:fit:300:300", source: scene),
                Example(caption: "blur", options: "rs:fit:400:300/bl:6", source: scene),
                Example(caption: "sharpen", options: "rs:fit:400:300/sh:2", source: scene),
                Example(caption: "rotate 90°", options: "rs:fit:300:300/rot:90", source: scene),
                Example(
                    caption: "extend onto a background", options: "rs:fit:300:300/ex:1/bg:30:60:90", source: scene,
                    format: "png"),
                Example(caption: "JPEG at quality 20", options: "rs:fit:400:300/q:20", source: scene, format: "jpg"),
                Example(
                    caption: "base64url source, WebP", options: "rs:fit:400:300", source: scene, format: "webp",
                    base64Source: true),
                Example(caption: "AVIF at quality 50", options: "rs:fit:400:300/q:50", source: scene, format: "avif"),
                Example(caption: "PNG with alpha, kept", options: "rs:fit:240:240", source: badge, format: "png"),
                Example(
                    caption: "alpha flattened into JPEG", options: "rs:fit:240:240/bg:255:236:200", source: badge,
                    format: "jpg"),
                Example(
                    caption: "animated GIF to animated WebP", options: "rs:fit:240:180", source: animation,
                    format: "webp"),
                Example(
                    caption: "round corners and tint (ours)", options: "rs:fill:240:240/wirc:48/witn:3366cc66",
                    source: scene,
                    format: "png"),
                // imgproxy Pro's options, free here.
                Example(
                    caption: "duotone (Pro in imgproxy)", options: "rs:fit:400:300/dt:1:1d3557:f4a261", source: scene),
                Example(
                    caption: "brightness, contrast, saturation (Pro in imgproxy)",
                    options: "rs:fit:400:300/a:10:1.2:1.8",
                    source: scene),
                Example(
                    caption: "crop to 1:1, gravity east (Pro in imgproxy)", options: "car:1/g:ea/rs:fit:300:300",
                    source: scene),
                Example(
                    caption: "text watermark, south-east, with a shadow (Pro in imgproxy)",
                    options: "rs:fit:400:300/wm:0.9:soea:12:12/wmt:"
                        + Data("webimage serve".utf8).base64URLEncodedWithoutPadding() + "/wmsh:2",
                    source: scene),
                Example(
                    caption: "watermark by URL: the badge, 60 px, turned 20° (Pro in imgproxy)",
                    options: "rs:fit:400:300/wm:0.8:nowe:12:12/wmu:"
                        + Data(badge.utf8).base64URLEncodedWithoutPadding() + "/wms:60:0/wmr:20",
                    source: scene),
                Example(
                    caption: "best format: the smallest candidate the browser takes (Pro in imgproxy)",
                    options: "rs:fit:400:300", source: scene, format: "best"),
                Example(
                    caption: "autoquality: the lowest JPEG quality within DSSIM 0.02 (Pro in imgproxy)",
                    options: "rs:fit:400:300/aq:dssim:0.02:10:95", source: scene, format: "jpg"),
                Example(
                    caption: "chained pipelines: fill, then blur toward the bottom (Pro in imgproxy)",
                    options: "rs:fill:300:300/-/pbl:10:down:0.4:1", source: scene),
            ]
        }

        /// The path of `example`, signed by `signer`.
        static func path(_ example: Example, signer: URLSigner) -> String {
            let source: String
            if example.base64Source {
                source =
                    Data(example.source.utf8).base64URLEncodedWithoutPadding()
                    + (example.format.isEmpty ? "" : "." + example.format)
            } else {
                source = "plain/" + example.source + (example.format.isEmpty ? "" : "@" + example.format)
            }
            return signer.signedPath("/" + example.options + "/" + source)
        }

        /// The figures that pair a BlurHash placeholder with its image: the sources on `origin`.
        static func placeholderFigures(origin: String, signer: URLSigner) -> [String] {
            [origin + ServeDemoImages.scenePath, origin + ServeDemoImages.badgePath].map { source in
                let image = escaped(
                    path(Example(caption: "", options: "rs:fit:300:300", source: source), signer: signer))
                let info = escaped(ServeDemoPlaceholders.infoPath(of: source, signer: signer))
                return """
                      <figure><div class="pair"><canvas width="32" height="24" data-info="\(info)"></canvas>
                        <img src="\(image)" alt="the image behind the placeholder"></div>
                        <figcaption><b>BlurHash placeholder, drawn by this page from /info (Pro in imgproxy)</b>\
                    <code>\(info)</code></figcaption></figure>
                    """
            }
        }

        /// The whole page.
        static func page(origin: String, signer: URLSigner) -> String {
            let figures =
                examples(origin: origin).map { example in
                    let path = escaped(path(example, signer: signer))
                    return """
                          <figure><img src="\(path)" alt="\(escaped(example.caption))">
                            <figcaption><b>\(escaped(example.caption))</b><code>\(path)</code></figcaption></figure>
                        """
                } + placeholderFigures(origin: origin, signer: signer)
            return """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>webimage serve: demo</title>
                <style>
                  body { font: 15px/1.4 system-ui, sans-serif; margin: 24px; background: #f4f4f2; color: #222; }
                  main { display: grid; grid-template-columns: repeat(auto-fill, minmax(300px, 1fr)); gap: 16px; }
                  figure { margin: 0; padding: 12px; background: #fff; border-radius: 8px; }
                  img { display: block; max-width: 100%; margin: 0 auto 8px;
                    background: repeating-conic-gradient(#ddd 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
                  .pair { display: flex; gap: 8px; align-items: center; }
                  .pair > * { width: calc(50% - 4px); }
                  canvas { border-radius: 4px; }
                  code { display: block; font-size: 11px; word-break: break-all; color: #555; margin-top: 4px; }
                </style></head>
                <body>
                <h1>webimage serve</h1>
                <p>Each picture is a signed URL in imgproxy's format, made from the images of a loopback origin
                (\(escaped(origin))). Open one in a new tab, or change its options: a bad signature answers 403.</p>
                <p id="status">loading…</p>
                <main>
                \(figures.joined(separator: "\n"))
                </main>
                <script>
                \(ServeDemoPlaceholders.decoderScript)
                  // Each placeholder: fetch the source's /info, then draw its blurhash.
                  const canvases = [...document.querySelectorAll("canvas[data-info]")];
                  const drawn = canvases.map((canvas) =>
                    fetch(canvas.dataset.info).then((response) => response.json())
                      .then((info) => {
                        canvas.style.aspectRatio = `${info.width} / ${info.height}`;
                        drawBlurHash(info.blurhash, canvas);
                        return true;
                      })
                      .catch(() => false));
                  const loadedPage = new Promise((resolve) => addEventListener("load", resolve));
                  Promise.all([loadedPage, ...drawn]).then(([, ...placeholders]) => {
                    const images = [...document.querySelectorAll("main img")];
                    const loaded = images.filter((image) => image.complete && image.naturalWidth > 0).length;
                    const painted = placeholders.filter(Boolean).length;
                    document.getElementById("status").textContent =
                      `${loaded} of ${images.length} images loaded, ${painted} of ${canvases.length} placeholders drawn`;
                  });
                </script>
                </body></html>

                """
        }

        private static func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
    }
#endif
