"""Reflection: learn in hindsight from task trajectories (per-task reflect, cross-episode induction, budgets)."""

from .induce import induce
from .prompts import Prompts
from .reflect import Reflector
from .runs import RunLog
from .trigger import run_trigger

__all__ = ["Prompts", "Reflector", "RunLog", "induce", "run_trigger"]
