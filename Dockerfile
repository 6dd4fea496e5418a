# epub2audio-server (and the epub2audio CLI) on Debian 12, in two stages: a build stage with Swift and
# the -dev packages `make deps` installs, and a slim runtime stage with only their shared libraries,
# espeak-ng's data and ffmpeg. The binaries link the Swift runtime statically (as `make build` does),
# so the runtime stage needs no Swift. See docs/service.md, "Deploying".
#
#   docker build -t epub2audio-server .
#   docker run -p 8080:8080 -v e2a-data:/var/lib/epub2audio epub2audio-server
#
# The same image runs every role: `serve` (the API, with or without workers), `worker` (workers only)
# and `token create|list|...` (arguments after the image name replace CMD).

# The toolchain the project is built and tested with (Swift 6.3); any Swift 6 image on Debian 12 should do.
ARG SWIFT_IMAGE=swift:6.3-bookworm

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libxml2-dev libzip-dev libespeak-ng-dev libsndfile1-dev libsoxr-dev libmimalloc-dev espeak-ng-data \
        pkg-config zip libsqlite3-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --static-swift-stdlib --product epub2audio \
    && swift build -c release --static-swift-stdlib --package-path Server --product epub2audio-server \
    && install -D -m 755 .build/release/epub2audio /out/epub2audio \
    && install -D -m 755 Server/.build/release/epub2audio-server /out/epub2audio-server

FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libxml2 libzip4 libespeak-ng1 espeak-ng-data libsndfile1 libsoxr0 libmimalloc2.0 libsqlite3-0 \
        ffmpeg ca-certificates tini \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --home-dir /var/lib/epub2audio --create-home epub2audio
COPY --from=build /out/ /usr/local/bin/
USER epub2audio
VOLUME /var/lib/epub2audio
EXPOSE 8080
# tini reaps the section worker processes the server starts and passes SIGTERM on (the server then
# stops claiming, ends event streams and gives back unfinished sections within --lease).
ENTRYPOINT ["/usr/bin/tini", "--", "/usr/local/bin/epub2audio-server"]
CMD ["serve", "--data", "/var/lib/epub2audio", "--listen", "0.0.0.0:8080"]
