# syntax=docker/dockerfile:1
# storerelease in a container: the image the Kubernetes recipes run (Docs/Watch/kubernetes-cronjob.yaml,
# Docs/Sweep/kubernetes-job.yaml). Build and push it where your cluster pulls from:
#   docker build -t registry.example.com/storerelease:1 . && docker push registry.example.com/storerelease:1
# The builder is Swift's own Debian 12 image. The binary carries the Swift runtime in itself
# (--static-swift-stdlib; a release build links Foundation in too), so the runtime stage needs only
# what `ldd` shows outside it and libcurl, which the binary loads on its first HTTP request
# (URLSession's HTTP), and libstdc++, plus `openssl`, which signs App Store Connect tokens, and the CA
# certificates every https request is checked against. The package's tests run these lines on a
# Debian 12 machine and compare `ldd` of the binary with the packages installed here (DockerfileTests).
FROM swift:6.3-bookworm AS build
WORKDIR /package
COPY . .
RUN swift build -c release --product storerelease --static-swift-stdlib \
    && install -D -m 755 .build/release/storerelease /out/storerelease

FROM debian:bookworm-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates libcurl4 libstdc++6 openssl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/storerelease /usr/local/bin/storerelease
# Not root: the Kubernetes recipes give this user the state volume (fsGroup 65532).
USER 65532:65532
ENTRYPOINT ["storerelease"]
CMD ["--help"]
