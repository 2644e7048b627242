# Build image for the rlock lab; used by compose.yaml's `app` service.
FROM debian:12

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      build-essential cmake pkg-config libhiredis-dev libpqxx-dev libcli11-dev libfmt-dev \
      libspdlog-dev nlohmann-json3-dev libgtest-dev postgresql-client redis-server redis-tools procps \
 && rm -rf /var/lib/apt/lists/*

COPY . /src
WORKDIR /src
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j

# The lab binary is build/rlock.
ENV PATH=/src/build:$PATH
