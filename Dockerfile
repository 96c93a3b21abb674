# The image service in a container: `docker build -t webimage .` then
#     docker run -p 8080:8080 -e WEBIMAGE_KEY=<hex> -e WEBIMAGE_SALT=<hex> webimage
# or `--env-file imgproxy.env`: imgproxy's IMGPROXY_* variables are read too. Every flag of
# `webimage serve` is a WEBIMAGE_* variable (see README.md).

# Build stage: the official Swift image, the codec libraries' headers, a release build with
# the Swift runtime linked in.
FROM swift:6.3-bookworm AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libjpeg62-turbo-dev libpng-dev libwebp-dev libgif-dev libavif-dev libheif-dev libjxl-dev \
        libtiff-dev liblcms2-dev zlib1g-dev libfreetype-dev librsvg2-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
# The manifest first, so that the dependencies are fetched in a layer of their own.
COPY Package.swift ./
RUN swift package resolve
COPY . .
RUN swift build -c release --static-swift-stdlib --product webimage \
    && install -D -m 0755 .build/release/webimage /staging/usr/bin/webimage \
    && strip --strip-all /staging/usr/bin/webimage

# Runtime stage: slim Debian with the codec libraries only; the same packages as the .deb's
# Depends (deploy/debian/control; a test keeps the two lists equal).
FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        adduser ca-certificates libavif15 libc6 libgcc-s1 libgif7 libheif1 libjpeg62-turbo libjxl0.7 \
        liblcms2-2 libpng16-16 libstdc++6 libtiff6 libwebp7 libwebpdemux2 libwebpmux3 zlib1g libfreetype6 \
        fonts-dejavu-core librsvg2-2 libcairo2 libglib2.0-0 \
    && rm -rf /var/lib/apt/lists/* \
    && adduser --system --group --home /var/cache/webimage webimage
COPY --from=build /staging/ /
USER webimage
WORKDIR /var/cache/webimage
# Listen on every interface inside the container (on 8080, the default), and cache on the
# container's disk. Another port: set WEBIMAGE_PORT, which the health check reads too.
ENV WEBIMAGE_HOST=0.0.0.0 \
    WEBIMAGE_CACHE_DIR=/var/cache/webimage
EXPOSE 8080
# bash's /dev/tcp asks /health: no curl needed in the image.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${WEBIMAGE_PORT:-8080} && printf 'GET /health HTTP/1.0\\r\\n\\r\\n' >&3 && head -1 <&3 | grep -q ' 200 '"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["webimage"]
CMD ["serve"]
