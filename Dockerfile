# One image for every hindsight function. On Lambda, the function's command (image_config.command) names the
# handler, e.g. functions.store.handler.handler. Anywhere else the same command selects a long-running role:
# the gateway under uvicorn, a queue worker, or one scheduled run (see shared/hindsight_memory/serverless/entrypoint.py).
#   docker build -t hindsight .
#   docker run -p 8080:8080 -e HINDSIGHT_TOKENS=... hindsight                       # gateway
#   docker run -e HINDSIGHT_STORE_QUEUE_URL=... hindsight functions.store.handler.handler   # store worker
# 3.12, not 3.11: the 3.11 base is Amazon Linux 2 (glibc 2.26), and lancedb/pyarrow wheels need manylinux_2_28.
FROM public.ecr.aws/lambda/python:3.12

# litellm fetches a price list at import unless told otherwise; Lambda has no use for .pyc writes.
ENV LITELLM_LOCAL_MODEL_COST_MAP=True \
    PYTHONDONTWRITEBYTECODE=1 \
    HINDSIGHT_HOST=0.0.0.0 \
    HINDSIGHT_PORT=8080

WORKDIR ${LAMBDA_TASK_ROOT}
COPY pyproject.toml README.md ./
COPY shared ./shared
COPY functions ./functions
RUN pip install --no-cache-dir . && rm -rf shared build *.egg-info

# Entrypoint switch: inside Lambda (AWS_LAMBDA_RUNTIME_API is set) hand the command to the base image's
# runtime interface client, without starting Python first; elsewhere run the role the command selects.
ENTRYPOINT ["/bin/sh", "-c", "if [ -n \"$AWS_LAMBDA_RUNTIME_API\" ]; then exec /lambda-entrypoint.sh \"$@\"; else exec python -m hindsight_memory.serverless.entrypoint \"$@\"; fi", "--"]
CMD ["functions.gateway.handler.handler"]
