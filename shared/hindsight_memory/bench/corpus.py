"""Synthetic memories for latency benchmarks: varied sentences (so BM25 has real postings) and, at scale,
unit vectors that stand in for embeddings (so 100k rows load in seconds, not an hour of embedding)."""

import random

import numpy as np

_SUBJECTS = (
    "the user|my manager|the build|our API|the staging cluster|the billing job|Alice|Bob|the mobile app|"
    "the data pipeline|the support team|the vendor|the release train|the nightly backup|the search index"
)
_VERBS = "prefers|reported|failed on|migrated to|asked about|scheduled|deprecated|fixed|rolled back|measured|approved"
_OBJECTS = (
    "dark mode|Postgres 16|the Friday deploy|invoice 4471|a memory leak|region eu-west-1|the new onboarding flow|"
    "flaky tests|TLS certificates|the Q3 roadmap|rate limits|a 20% budget cut|the Kafka upgrade|SSO via Okta|"
    "vegetarian lunch options|the Berlin office move|p99 latency|cold starts|the pricing page"
)
_TAILS = (
    "yesterday|last week|this morning|after the incident|before the audit|during the offsite|in March|"
    "for the third time|without telling anyone|as planned|ahead of schedule|again"
)


def sentences(n: int, seed: int = 1) -> list[str]:
    rnd = random.Random(seed)
    subj, verbs, objs, tails = (s.split("|") for s in (_SUBJECTS, _VERBS, _OBJECTS, _TAILS))
    return [
        f"{rnd.choice(subj)} {rnd.choice(verbs)} {rnd.choice(objs)} {rnd.choice(tails)} (note {i})"
        for i in range(n)
    ]


def unit_vectors(n: int, dim: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    v = rng.standard_normal((n, dim), dtype=np.float32)
    out: np.ndarray = v / np.linalg.norm(v, axis=1, keepdims=True)
    return out
