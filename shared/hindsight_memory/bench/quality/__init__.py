"""Retrieval-quality benchmark: synthetic multi-session conversations with labelled questions, and a harness."""

from .evaluate import QualityReport, RecallOutcome, run_quality_benchmark
from .generator import QUESTION_TYPES, Conversation, Dataset, Question, Session, Turn, generate

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
