"""Retrieval-quality benchmark: synthetic multi-session conversations with labelled questions, and a harness."""

from .dataset import QUESTION_TYPES, Conversation, Dataset, Question, Session, Turn
from .evaluate import QualityReport, RecallOutcome, run_quality_benchmark
from .generator import generate

__all__ = [
    "QUESTION_TYPES",
    "Conversation",
    "Dataset",
    "QualityReport",
    "Question",
    "RecallOutcome",
    "Session",
    "Turn",
    "generate",
    "run_quality_benchmark",
]
