"""litellm, imported on first use (it costs seconds) and never reaching for its price list over the network: a
machine or a function without egress would wait on the fetch's retries at the first call."""

import os
from functools import lru_cache
from typing import Any


@lru_cache(maxsize=1)
def litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm as module

    module.suppress_debug_info = True
    return module
