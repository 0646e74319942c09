# syntax=docker/dockerfile:1
# One image for every Axonal service: `python -m axonal_<name>` (compose and k8s set the command).
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${PYTHON_IMAGE} AS builder
ARG UV_VERSION=0.13.9
RUN pip install --no-cache-dir "uv==${UV_VERSION}"
ENV UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PYTHON_DOWNLOADS=never \
    UV_PYTHON=/usr/local/bin/python3.11 \
    UV_PROJECT_ENVIRONMENT=/app/.venv
WORKDIR /app
COPY pyproject.toml uv.lock ./
COPY libs/ libs/
COPY services/ services/
# Workspace members stay editable installs of /app/{libs,services}: the runtime stage keeps that
# tree, so per-service files next to the package (migrations/) are where the code expects them.
RUN --mount=type=cache,target=/root/.cache/uv \
    uv sync --frozen --no-dev --all-packages

# The web UI: built from its lockfile and the committed OpenAPI document (the API's types).
FROM ${NODE_IMAGE} AS web
WORKDIR /src/services/web
COPY services/web/package.json services/web/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --no-audit --no-fund
COPY docs/openapi.json /src/docs/openapi.json
COPY services/web/ ./
RUN npm run build

FROM ${PYTHON_IMAGE} AS runtime
RUN groupadd --system --gid 10001 axonal \
    && useradd --system --uid 10001 --gid axonal --home-dir /app --no-create-home \
       --shell /usr/sbin/nologin axonal
WORKDIR /app
COPY --from=builder /app /app
# Where the api looks for the UI by default (AXONAL_API_WEB_DIR overrides it).
COPY --from=web /src/services/web/dist /app/services/web/dist
ENV PATH=/app/.venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1
# Numeric so Kubernetes can check runAsNonRoot; matches runAsUser in deploy/k8s.
USER 10001:10001
CMD ["python", "-m", "axonal_identity"]
